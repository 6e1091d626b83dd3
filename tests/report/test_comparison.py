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
