"""The comparison's per-cluster facts (analyzer/report/comparison.py)."""

from __future__ import annotations

import analyzer
from analyzer.report.comparison import comparison_facts

# Pods as a Kubernetes 1.13 API server wrote them (realdata minikube/multi-k8s-cluster-info-dump,
# kube-system/pods.json, trimmed): `priorityClassName: ""` on a pod without a class.
_OLD_PODS = """\
apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: Pod, metadata: {name: coredns-86c58d9df4-mnjkg, namespace: kube-system},
   spec: {priorityClassName: "", priority: 0, containers: [{name: coredns, image: k8s.gcr.io/coredns:1.2.6}]}}
- {apiVersion: v1, kind: Pod, metadata: {name: kube-proxy-7rlpp, namespace: kube-system},
   spec: {priorityClassName: system-node-critical, containers: [{name: kube-proxy, image: k8s.gcr.io/kube-proxy:v1.13.3}]}}
"""


def test_a_pod_with_an_empty_priority_class_name_uses_none() -> None:
    old = analyzer.load({"pods.yaml": _OLD_PODS}, name="old")
    new = analyzer.load({"pods.yaml": _OLD_PODS.replace('priorityClassName: "", ', "")}, name="new")
    facts = comparison_facts([old, new])
    for name in ("old", "new"):
        assert facts["priority_classes"][name]["used_by_pods"] == [
            ["system-node-critical", 1]], name


# The DNS Service of the same dump (kube-system/services.json, trimmed), and its coredns pod's
# creation: the dump's capture time is bounded by the newest time it holds.
_DNS_SERVICE = """\
apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: Service, metadata: {name: kube-dns, namespace: kube-system},
   spec: {clusterIP: 10.96.0.10, ports: [{name: dns, port: 53, protocol: UDP}]}}
- {apiVersion: v1, kind: Pod, metadata: {name: coredns-86c58d9df4-mnjkg, namespace: kube-system,
   creationTimestamp: "2019-03-08T08:21:42Z"}, spec: {containers: [{name: coredns, image: k8s.gcr.io/coredns:1.2.6}]}}
"""


def test_the_markdown_overview_has_the_html_rows_and_says_what_the_dump_does_not_show(tmp_path) -> None:
    from analyzer.report.comparison import NOT_IN_DUMP, OVERVIEW_ROWS, render_comparison

    shown = analyzer.load({"services.yaml": _DNS_SERVICE}, name="shown")
    bare = analyzer.load({"pods.yaml": _OLD_PODS}, name="bare")
    render_comparison([shown, bare], tmp_path)
    md = (tmp_path / "comparison.md").read_text(encoding="utf-8")
    html = (tmp_path / "index.html").read_text(encoding="utf-8")
    rows = {line.split(" | ")[0].lstrip("| "): line.split(" | ")[1:3]
            for line in md.split("## Overview", 1)[1].split("##", 1)[0].splitlines() if line.startswith("| ")}
    for _, label in OVERVIEW_ROWS:
        assert label in rows, label
        assert f"<th>{label}</th>" in html, label
    # columns: bare (unknown), shown (unknown): sorted by distribution, then name
    assert rows["DNS Service IP"] == [NOT_IN_DUMP, "10.96.0.10"]
    assert rows["DNS provider"] == ["coredns", "coredns"]  # both hold the coredns pod
    assert rows["capture time"][0] == NOT_IN_DUMP and rows["capture time"][1].startswith("2019-03-08")
    assert rows["CNI"] == [NOT_IN_DUMP, NOT_IN_DUMP]
    assert "–" not in html.split('id="overview"', 1)[1].split("</section>", 1)[0]


# An EKS node's aws-node pod without its DaemonSet (realdata eks/holmesgpt-fixtures,
# 08_memory_pressure/kubectl_describe.txt lists kube-system/aws-node-87tjm on one of 3 nodes);
# here as the API returns the pod, its owner named.
_AWS_NODE_POD = """\
apiVersion: v1
kind: Pod
metadata:
  name: aws-node-87tjm
  namespace: kube-system
  ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: aws-node, uid: u1, controller: true}]
spec:
  containers: [{name: aws-node, image: 602401143452.dkr.ecr.us-east-1.amazonaws.com/amazon-k8s-cni:v1.18.3-eksbuild.2}]
"""


def test_a_component_known_by_its_pods_alone_says_pods_seen_not_desired(tmp_path) -> None:
    from analyzer.report.comparison import render_comparison

    pods_only = analyzer.load({"pod.yaml": _AWS_NODE_POD}, name="pods-only")
    with_ds = analyzer.load({"pod.yaml": _AWS_NODE_POD, "ds.yaml": """\
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: aws-node, namespace: kube-system}
spec: {template: {spec: {containers: [{name: aws-node, image: 602401143452.dkr.ecr.us-east-1.amazonaws.com/amazon-k8s-cni:v1.18.3-eksbuild.2}]}}}
status: {desiredNumberScheduled: 3, numberReady: 3}
"""}, name="with-ds")
    render_comparison([pods_only, with_ds], tmp_path)
    row = next(line for line in (tmp_path / "comparison.md").read_text(encoding="utf-8").splitlines()
               if line.startswith("| cni: aws-node |"))
    cells = row.split(" | ")[1:3]
    assert "pods seen, the DaemonSet not in the dump" in cells[0]  # 1 pod of a DaemonSet on 3 nodes
    assert "3/3" in cells[1] and "pods seen" not in cells[1]
    html = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert html.count("pods seen, the DaemonSet not in the dump") == 1
    assert "where the cluster does not run it" not in html  # a dash is what the dump lacks


def test_priority_classes_and_node_software_the_dump_does_not_show_are_said_so(tmp_path) -> None:
    from analyzer.report.comparison import NOT_IN_DUMP, render_comparison

    # pods as rows of a table (realdata eks/holmesgpt-fixtures: a node's pods listed by describe):
    # no spec, so no priority stated; no nodes at all
    rows = analyzer.load({"get-pods.txt": """\
$ kubectl get pods -A
NAMESPACE     NAME             READY   STATUS    RESTARTS   AGE
kube-system   aws-node-87tjm   2/2     Running   0          35d
"""}, name="rows")
    specs = analyzer.load({"pods.yaml": _OLD_PODS.replace("priorityClassName: system-node-critical, ", "")},
                          name="specs")
    facts = comparison_facts([rows, specs])
    assert (facts["priority_classes"]["rows"]["pods_stating"], facts["priority_classes"]["specs"]["pods_stating"]) == (0, 1)
    render_comparison([rows, specs], tmp_path)
    md = (tmp_path / "comparison.md").read_text(encoding="utf-8")
    used = next(line for line in md.splitlines() if line.startswith("| used by pods |")).split(" | ")[1:3]
    assert used == [NOT_IN_DUMP, "none"]  # columns by name: rows, specs
    os_image = next(line for line in md.splitlines() if line.startswith("| OS image |")).split(" | ")[1:3]
    assert os_image == [NOT_IN_DUMP, NOT_IN_DUMP]
    html = (tmp_path / "index.html").read_text(encoding="utf-8")
    nodes = html.split('id="nodes"', 1)[1].split("</section>", 1)[0]
    assert nodes.count(NOT_IN_DUMP) == 10  # five rows, two dumps without nodes
