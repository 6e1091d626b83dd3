"""troubleshoot `logs` collectors: <collector name>/<pod>/<container>.log, any collector name.

Shapes from a real k3s support bundle (replicatedhq/troubleshoot @ e155e4e,
real-support-bundles/support-bundle-2025-09-11T15_54_39/): `memory-test-logs/memory-hungry-app-
59c695fbfb-4vnq4/memory-hog.log` and `backend-api-logs/backend-api-75fb46b7bd-xtkrh/api-server-
previous.log` beside cluster-resources/pods/default.json; trimmed to one pod and the logs' lines.
"""

from __future__ import annotations

import json

from analyzer.ingest import ingest

POD = {"metadata": {"name": "memory-hungry-app-59c695fbfb-4vnq4", "namespace": "default", "uid": "u1"},
       "spec": {"containers": [{"name": "memory-hog", "image": "alpine:latest"}]},
       "status": {"phase": "Running"}}


def _folder(source: str) -> str:
    return source.split("bundle/", 1)[1].split("/")[0]


def _bundle(extra: dict[str, bytes]) -> dict[str, bytes]:
    return {"bundle/cluster-resources/pods/default.json":
            json.dumps({"kind": "PodList", "apiVersion": "v1", "items": [POD]}, indent=2).encode(), **extra}


def test_a_collectors_log_of_a_pod_the_dump_holds_is_that_containers_log() -> None:
    r = ingest(_bundle({
        "bundle/memory-test-logs/memory-hungry-app-59c695fbfb-4vnq4/memory-hog.log": b"Starting memory-hungry application...\n",
        "bundle/memory-test-logs/memory-hungry-app-59c695fbfb-4vnq4/memory-hog-previous.log": b"Killed\n",
    }))
    logs = sorted((g.namespace, g.pod, g.container, g.previous, g.text) for g in r.logs)
    assert logs == [("default", "memory-hungry-app-59c695fbfb-4vnq4", "memory-hog", False,
                     "Starting memory-hungry application...\n"),
                    ("default", "memory-hungry-app-59c695fbfb-4vnq4", "memory-hog", True, "Killed\n")]
    assert not r.rejections and r.accounting_holds()


def test_the_same_log_under_cluster_resources_is_kept_once_and_a_stranger_is_named() -> None:
    r = ingest(_bundle({
        "bundle/cluster-resources/pods/logs/default/memory-hungry-app-59c695fbfb-4vnq4/memory-hog.log": b"a\n",
        "bundle/memory-test-logs/memory-hungry-app-59c695fbfb-4vnq4/memory-hog.log": b"a\n",
        # a pod the dump does not hold (the bundle's backend-api pod, cut from this one)
        "bundle/backend-api-logs/backend-api-75fb46b7bd-xtkrh/api-server.log": b"Starting Backend API Server v3.2.1\n",
    }))
    assert [(g.pod, _folder(g.source)) for g in r.logs] == [
        ("memory-hungry-app-59c695fbfb-4vnq4", "cluster-resources")]
    reasons = {_folder(s.source): s.reason for s in r.skipped}
    assert reasons["memory-test-logs"].startswith("same log as ")
    assert reasons["backend-api-logs"] == "plain text that is neither a dump nor a known log layout"


# Before troubleshoot 0.49.1 a `logs` collector wrote the log of a pod of one container as
# <collector name>/<pod>.log (<pod>.log at the bundle's root when the collector had no name), and
# <pod>/<container>.log for more (replicatedhq/troubleshoot#744, pkg/collect/logs.go savePodLogs
# @ 052a865). The pods and lines: the k3s bundle of replicatedhq/troubleshoot
# testdata/supportbundle/support-bundle.tar.gz @ 5bf008f (realdata
# k3s/troubleshoot-testdata-supportbundle: cluster-resources/pods/kube-system.json, trimmed, and
# traefik's logs), saved by the `kube-system-logs` collector of replicatedhq/troubleshoot#945's spec.
K3S_PODS = [
    {"metadata": {"name": "traefik-7cd4fcff68-9blj6", "namespace": "kube-system",
                  "uid": "e30f146a-1d86-46d8-a200-51c15fec3e63"},
     "spec": {"containers": [{"name": "traefik", "image": "rancher/mirrored-library-traefik:2.6.2"}]},
     "status": {"phase": "Running"}},
    {"metadata": {"name": "svclb-traefik-8ea5448e-d2m74", "namespace": "kube-system",
                  "uid": "9754497c-892b-49bf-902b-afa5ed799afe"},
     "spec": {"containers": [{"name": "lb-tcp-80", "image": "rancher/klipper-lb:v0.3.5"},
                             {"name": "lb-tcp-443", "image": "rancher/klipper-lb:v0.3.5"}]},
     "status": {"phase": "Running"}},
]
TRAEFIK = b'time="2022-12-21T09:42:40Z" level=info msg="Configuration loaded from flags."\n'
TRAEFIK_BEFORE = b'time="2022-12-20T23:40:34Z" level=info msg="Configuration loaded from flags."\n'


def test_a_log_named_after_a_pod_of_one_container_is_that_containers_log() -> None:
    r = ingest({
        "support-bundle/cluster-resources/pods/kube-system.json":
            json.dumps({"kind": "PodList", "apiVersion": "v1", "items": K3S_PODS}).encode(),
        "support-bundle/kube-system-logs/traefik-7cd4fcff68-9blj6.log": TRAEFIK,
        "support-bundle/kube-system-logs/traefik-7cd4fcff68-9blj6-previous.log": TRAEFIK_BEFORE,
        # a collector given no name: at the bundle's root
        "support-bundle/svclb-traefik-8ea5448e-d2m74.log": b"+ trap exit TERM INT\n",
    })
    logs = sorted((g.namespace, g.pod, g.container, g.previous, g.text) for g in r.logs)
    assert logs == [("kube-system", "traefik-7cd4fcff68-9blj6", "traefik", False, TRAEFIK.decode()),
                    ("kube-system", "traefik-7cd4fcff68-9blj6", "traefik", True, TRAEFIK_BEFORE.decode())]
    # a pod of two containers: troubleshoot never names its log after the pod alone
    (skipped,) = r.skipped
    assert skipped.source.endswith("/svclb-traefik-8ea5448e-d2m74.log")
    assert "the dump's pod has 2: not read" in skipped.reason
    assert not r.rejections and r.accounting_holds()


def test_a_root_link_named_after_a_pod_is_the_link_it_is() -> None:
    # troubleshoot 0.5x keeps <pod>.log at the root as a link to the log it saved under
    # cluster-resources/ (realdata k3s/troubleshoot-testdata-supportbundle/static-hi.log, its
    # target's path as its text where the archive was copied without links)
    r = ingest({
        "support-bundle/cluster-resources/pods/logs/default/static-hi/static-hi.log": b"hi static!\n",
        "support-bundle/static-hi.log": b"cluster-resources/pods/logs/default/static-hi/static-hi.log",
    })
    assert [(g.pod, g.container, g.text) for g in r.logs] == [("static-hi", "static-hi", "hi static!\n")]
    assert [s.reason for s in r.skipped] == [
        "link to cluster-resources/pods/logs/default/static-hi/static-hi.log; the log is read there"]
