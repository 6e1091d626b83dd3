"""`kda get` and `kda describe` of hand-edited objects whose fields have another type than the
API's (a count that is text or a mapping, a condition's type that is a list, a uid that is a
mapping): every object is printed, the odd field as a zero or left out, never a traceback. The
objects are the rule cases' (tests/findings/cases: node-restart after realdata/docker-desktop/
multi-k8s-ciobotaru, pod-high-restarts after realdata/k3s/troubleshoot-testdata-supportbundle,
events-node-oom after realdata/minikube/troubleshoot-analyze-files, deployment-unavailable after
realdata/gke/holmesgpt-fixtures), each with the edit a structural fuzz of the printers made."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analyzer.cli import app

runner = CliRunner()

EDITED = {"apiVersion": "v1", "kind": "List", "items": [
    {"apiVersion": "v1", "kind": "Node",
     "metadata": {"name": "docker-desktop", "uid": {"edited": 1}, "creationTimestamp": "2019-12-01T10:00:00Z"},
     "status": {"conditions": [{"type": ["Ready"], "status": "True", "lastHeartbeatTime": "2019-12-26T10:12:29Z"},
                               {"type": "Ready", "status": "True", "lastHeartbeatTime": "2019-12-26T10:12:29Z"}]}},
    {"apiVersion": "v1", "kind": "Pod",
     "metadata": {"name": "coredns-a", "namespace": "kube-system", "creationTimestamp": "2019-12-01T10:00:00Z"},
     "spec": {"nodeName": "docker-desktop",
              "containers": [{"name": "coredns", "image": "k8s.gcr.io/coredns:1.3.1",
                              "livenessProbe": {"httpGet": {"path": "/health", "port": [8080]},
                                                "periodSeconds": "1e400", "timeoutSeconds": {"s": 5}}},
                             {"name": ["sidecar"], "image": "busybox"}],
              "initContainers": [{"name": {"edited": "init"}, "image": "busybox"}]},
     "status": {"phase": "Running",
                "initContainerStatuses": [{"name": {"edited": "init"}, "restartCount": 1}],
                "containerStatuses": [{"name": "coredns", "ready": True, "restartCount": {"": None},
                                       "state": {"running": {"startedAt": "2019-12-14T20:20:30Z"}},
                                       "lastState": {"terminated": {"exitCode": "1Gi", "signal": [9],
                                                                    "finishedAt": "2019-12-14T20:20:07Z"}}},
                                      {"name": ["sidecar"], "ready": False}]}},
    {"apiVersion": "apps/v1", "kind": "Deployment",
     "metadata": {"name": "payment-processor", "namespace": "default", "creationTimestamp": "2019-12-01T10:00:00Z"},
     "spec": {"replicas": "abc:def", "minReadySeconds": [1],
              "template": {"spec": {"containers": [{"name": "app", "image": "payments:1", "env": True}]}}},
     "status": {"replicas": [2], "updatedReplicas": 10**20, "availableReplicas": 1,
                "conditions": [{"type": {"edited": "Available"}, "status": "False"}]}},
    {"apiVersion": "v1", "kind": "Event", "metadata": {"name": "oom.1", "namespace": "default"},
     "involvedObject": {"kind": "Node", "name": "docker-desktop", "uid": {"edited": 1}},
     "reason": "OOMKilling", "type": "Warning", "count": [3], "message": "Memory cgroup out of memory",
     "lastTimestamp": "2019-12-26T10:10:00Z"},
]}


@pytest.fixture(scope="module")
def dump(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("edited") / "edited.json"
    path.write_text(json.dumps(EDITED), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("kind", ["pods", "nodes", "deployments", "events"])
def test_get_prints_every_edited_object(dump: str, kind: str) -> None:
    result = runner.invoke(app, ["get", kind, "-A", "-o", "wide", dump])
    assert result.exit_code == 0, result.output
    name = {"pods": "coredns-a", "nodes": "docker-desktop", "deployments": "payment-processor",
            "events": "OOMKilling"}[kind]
    assert name in result.output


@pytest.mark.parametrize(("kind", "expected"), [
    ("pods", ["Name:         coredns-a", "Exit Code:    0", "Restart Count:  0"]),
    ("nodes", ["Name:               docker-desktop", "OOMKilling"]),
    ("deployments", ["Name:               payment-processor", "Replicas:           0 desired"]),
])
def test_describe_prints_every_edited_object(dump: str, kind: str, expected: list[str]) -> None:
    result = runner.invoke(app, ["describe", kind, "-A", dump])
    assert result.exit_code == 0, result.output
    for line in expected:
        assert line in result.output, result.output


def test_the_edited_dump_is_read_whole(dump: str) -> None:
    result = runner.invoke(app, ["inspect", dump, "--format", "json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["objects_read"] == 4
    assert Path(dump).exists()
