"""All rules over real dumps whose findings were checked by hand against the data.

Each expectation below was reviewed by reading the dump (see the comments); zero findings for
a rule can come from kinds the dump does not contain, which is asserted as not applicable.
"""

from __future__ import annotations

from collections import defaultdict

import pytest
from conftest import REALDATA

import analyzer
from analyzer.findings import collect_findings

POD_NGINX = "Pod/default/nginx-deployment-7986654d4-ztx2g"
MK = "Pod/message-container-creating-failed-mount"
MI = "Pod/message-pod-init-crashloop-backoff"
COPY = "troubleshoot-copyfromhost-4m79m-psdjm"

EXPECTED: dict[str, dict[str, list[str]]] = {
    # Two kubeadm clusters in one dump: cluster-info-dump.json (cka-*, v1.20.5) has three nodes
    # NotReady ("cni config uninitialized") and coredns-74ff55c5b-* Pending on the not-ready
    # taint (PodScheduled=False plus ~700 FailedScheduling events); cluster-info-dump-2.json
    # (k8s-*, v1.21.0), captured three days later, is healthy: two captures, not compared.
    # The calico-node Unhealthy events are single probe failures 6-10 minutes before capture.
    "kubeadm/cka-3c97-cluster-info-dump": {
        "node-not-ready": ["Node/cka-controller1", "Node/cka-controller2", "Node/cka-worker1"],
        "pod-pending": ["Pod/kube-system/coredns-74ff55c5b-9rptk", "Pod/kube-system/coredns-74ff55c5b-p4jxh"],
        "events-warning-summary": [
            "Pod/kube-system/calico-node-26mhc", "Pod/kube-system/calico-node-6g2nr",
            # calico-node-z5xmz: a liveness and a readiness failure, two stories
            "Pod/kube-system/calico-node-z5xmz", "Pod/kube-system/calico-node-z5xmz",
            "Pod/kube-system/coredns-74ff55c5b-9rptk",
            "Pod/kube-system/coredns-74ff55c5b-p4jxh",
        ],
        # Log lines, all history (info), read in the dump: the cka-* control plane logged
        # "etcdserver: no leader" / "request timed out" around 22:58 on 04-07, days before the
        # capture; the k8s-* scheduler and controller-manager got "connection refused" from
        # 10.10.1.31:6443 during their first minute (11:58) only.
        "pod-log-errors": [
            "Pod/kube-system/etcd-cka-controller1", "Pod/kube-system/etcd-cka-controller2",
            "Pod/kube-system/kube-apiserver-cka-controller1", "Pod/kube-system/kube-apiserver-cka-controller2",
            "Pod/kube-system/kube-controller-manager-cka-controller1",
            "Pod/kube-system/kube-controller-manager-cka-controller2",
            "Pod/kube-system/kube-controller-manager-k8s-controller1", "Pod/kube-system/kube-proxy-7vz6c",
            "Pod/kube-system/kube-scheduler-cka-controller1", "Pod/kube-system/kube-scheduler-k8s-controller1",
        ],
    },
    # k3d cluster restarted many times (coredns/traefik/svclb 96 restarts, the provisioner and
    # metrics-server ~185); the only application pod runs nginx:latest and busybox:latest
    # without requests, limits or probes; static-hi had one BackOff event.
    "k3s/troubleshoot-testdata-supportbundle": {
        "pod-high-restarts": [
            POD_NGINX, "Pod/kube-system/coredns-b96499967-tncf4",
            "Pod/kube-system/local-path-provisioner-7b7dc8d6f5-45btl",
            "Pod/kube-system/metrics-server-668d979685-wttxd",
            "Pod/kube-system/svclb-traefik-8ea5448e-d2m74", "Pod/kube-system/traefik-7cd4fcff68-9blj6",
        ],
        "container-image-latest": [POD_NGINX, POD_NGINX],
        "container-no-requests": [POD_NGINX, POD_NGINX],
        "container-no-memory-limit": [POD_NGINX, POD_NGINX],
        "container-no-liveness-probe": [POD_NGINX, POD_NGINX],
        "container-no-readiness-probe": [POD_NGINX, POD_NGINX],
        "events-warning-summary": ["Pod/default/static-hi"],
        # History (info): the previous containers' last words after the k3d restart at 09:42
        # are "dial tcp 10.43.0.1:443: i/o timeout" (local-path-provisioner level=fatal,
        # metrics-server panic, traefik); their current logs are clean.
        "pod-log-errors": [
            "Pod/kube-system/local-path-provisioner-7b7dc8d6f5-45btl",
            "Pod/kube-system/metrics-server-668d979685-wttxd", "Pod/kube-system/traefik-7cd4fcff68-9blj6",
        ],
        # every container but two last ended at 2022-12-21T09:42:35Z (exit 255): k3d restarted
        "node-restart": ["Node/k3d-mycluster-server-0"],
    },
    # troubleshoot's analyzer fixtures, one namespace per failure: a CrashLoopBackOff pod, an
    # ErrImagePull pod (noimage.com/no-such-image), an init container that cannot run ("wge"
    # not found), an OOMKilled Job pod (limit 100Mi), a hostPath pod whose mount fails.
    "minikube/troubleshoot-analyze-files": {
        "pod-crashloop": ["Pod/message-pod-crashloop-backoff/init-demo"],
        "pod-image-pull": ["Pod/message-image-pull-fail/no-image-deployment-849c4c4958-rxqmt"],
        "pod-init-failed": [f"{MI}/init-demo2"],
        "pod-oomkilled": ["Pod/message-oomkill-pod/oom-kill-job3-gbb89"],
        # no Jobs collected: its failed pod, none after it, says the Job failed
        "job-failed": ["Job/message-oomkill-pod/oom-kill-job3"],
        "pod-host-path": [f"{MK}/{COPY}"],
        "events-failed-mount": [f"{MK}/{COPY}", f"{MI}/{COPY}"],
        # (pod-stuck-starting: the mount that holds it is events-failed-mount's, said once)
        **{rule: [f"{MK}/{COPY}", "Pod/message-image-pull-fail/no-image-deployment-849c4c4958-rxqmt",
                  "Pod/message-pod-crashloop-backoff/init-demo", f"{MI}/init-demo2"]
           for rule in ("container-image-latest", "container-no-requests", "container-no-memory-limit",
                        "container-no-liveness-probe", "container-no-readiness-probe")},
        "events-warning-summary": [
            "Job/message-image-pull-fail/oom-kill-job3", f"{MK}/crashpod-f9b59484-fpzht",
            f"{MK}/failing-liveness-pod", f"{MK}/init-demo2",
            f"{MK}/no-image-deployment-849c4c4958-7fp5q", f"{MK}/no-image-deployment-849c4c4958-l595s",
            f"{MK}/no-image-deployment-849c4c4958-lm8qp", f"{MK}/pending-pod-resources-5fddcf7688-59zjj",
            f"{MK}/pending-pod-resources-5fddcf7688-wzvfz", f"{MK}/{COPY}",
            "Pod/message-image-pull-fail/no-image-deployment-849c4c4958-rxqmt",
            "Pod/message-image-pull-fail/pending-pod-resources-5fddcf7688-djjfc",
            f"{MI}/init-demo", f"{MI}/init-demo", f"{MI}/init-demo2", f"{MI}/init-demo2", f"{MI}/{COPY}",
        ],
    },
}

# Rules that must say "not applicable" there, because the dump lacks what they read.
NOT_APPLICABLE: dict[str, list[str]] = {
    # a cluster-info dump has no ConfigMaps, Secrets, ServiceAccounts or Endpoints
    "kubeadm/cka-3c97-cluster-info-dump": [
        "ref-missing-configmap", "ref-missing-secret", "ref-missing-serviceaccount",
        "service-no-ready-endpoints",
        # two captures three days apart (two clusters): their nodes are not compared
        "node-kubelet-versions-mixed",
    ],
    # the bundle kept no Secrets, ConfigMaps, ServiceAccounts, DaemonSets or Endpoints
    "k3s/troubleshoot-testdata-supportbundle": [
        "ref-missing-configmap", "ref-missing-secret", "ref-missing-serviceaccount",
        "daemonset-unavailable", "service-no-ready-endpoints",
    ],
    # pods, events and jobs only: no nodes, no services, no version
    "minikube/troubleshoot-analyze-files": [
        "node-not-ready", "node-memory-pressure", "service-no-pods", "cluster-version-eol",
        "ref-missing-configmap", "deployment-unavailable",
    ],
}


def object_id(f) -> str:
    return "/".join(x for x in (f.kind, f.namespace, f.name) if x)


@pytest.fixture(scope="module", params=sorted(EXPECTED))
def dump_findings(request):
    cluster = analyzer.load(str(REALDATA / request.param))
    return request.param, collect_findings(cluster)


def test_failures_are_the_hand_checked_ones(dump_findings) -> None:
    name, findings = dump_findings
    got: dict[str, list[str]] = defaultdict(list)
    for f in findings:
        if f.status == "fail":
            got[f.rule].append(object_id(f))
    assert {k: sorted(v) for k, v in got.items()} == {k: sorted(v) for k, v in EXPECTED[name].items()}


def test_missing_inputs_are_not_applicable(dump_findings) -> None:
    name, findings = dump_findings
    na = {f.rule for f in findings if f.status == "not_applicable"}
    assert set(NOT_APPLICABLE[name]) <= na
    fails = {f.rule for f in findings if f.status == "fail"}
    assert not na & fails


def test_evidence_points_into_the_dump(dump_findings) -> None:
    name, findings = dump_findings
    for f in findings:
        if f.status == "fail":
            assert f.evidence and f.evidence[0].source and name.split("/")[1] in f.evidence[0].source


def test_a_flannel_left_beside_the_real_kurl_weave_is_two_primary_cnis(tmp_path) -> None:
    # ../shared/realdata/kubeadm/sbctl-kurl-supportbundle (kURL, weave-net on three nodes, no
    # DaemonSets collected: the plugin is known by its pods), with a kube-flannel-ds pod per node
    # added to kube-system, created before weave: the leftover of an earlier CNI.
    import json
    import shutil

    bundle = tmp_path / "bundle"
    shutil.copytree(REALDATA / "kubeadm" / "sbctl-kurl-supportbundle", bundle)
    pods_file = bundle / "cluster-resources" / "pods" / "kube-system.json"
    pods = json.loads(pods_file.read_text())
    for weave in [p for p in pods["items"] if p["metadata"]["name"].startswith("weave-net-")]:
        flannel = json.loads(json.dumps(weave))
        meta = flannel["metadata"]
        meta.update(name="kube-flannel-ds-" + weave["metadata"]["name"][-5:], generateName="kube-flannel-ds-",
                    uid=meta["uid"][:-4] + "f1a7", creationTimestamp="2022-04-11T22:40:00Z",
                    labels={"app": "flannel"}, managedFields=[])
        meta["ownerReferences"][0].update(name="kube-flannel-ds", uid="0f1a0000-0000-4000-8000-000000000001")
        flannel["spec"]["containers"] = [{"name": "kube-flannel", "image": "quay.io/coreos/flannel:v0.15.1"}]
        flannel["spec"]["initContainers"] = []
        flannel["status"].pop("initContainerStatuses", None)
        flannel["status"]["containerStatuses"] = [{"name": "kube-flannel", "ready": True, "restartCount": 0,
                                                   "image": "quay.io/coreos/flannel:v0.15.1", "imageID": "",
                                                   "state": {"running": {"startedAt": "2022-04-11T22:40:10Z"}}}]
        pods["items"].append(flannel)
    pods_file.write_text(json.dumps(pods))
    found = [f for f in collect_findings(analyzer.load(str(bundle))) if f.rule == "cni-multiple" and f.status == "fail"]
    assert [(f.name, f.severity) for f in found] == [("cni:flannel+weave", "warning")]
    assert found[0].facts["which"] == "weave is the newer (likely the one intended), flannel likely a leftover"
    # the real bundle as it is runs one CNI
    real = collect_findings(analyzer.load(str(REALDATA / "kubeadm" / "sbctl-kurl-supportbundle")))
    assert not [f for f in real if f.rule == "cni-multiple" and f.status == "fail"]
