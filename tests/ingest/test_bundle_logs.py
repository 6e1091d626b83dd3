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
