"""Component health beyond readiness, read from real dumps whose state was checked by hand."""

from __future__ import annotations

from pathlib import Path

from conftest import REALDATA

import analyzer


def components(dump: str):
    table = analyzer.load(str(REALDATA / dump)).tables.components
    return {row["name"]: row for _, row in table.iterrows()}


def test_ready_coredns_whose_logs_are_upstream_timeouts_is_not_healthy() -> None:
    # udacity (k3s): coredns 1/1 ready, its last 29 lines "[ERROR] plugin/errors: ...
    # read udp ...->10.0.2.3:53: i/o timeout"; metrics-server cannot scrape the kubelet.
    rows = components("k3s/udacity-nd064-cluster-info-dump")
    coredns = rows["coredns"]
    assert coredns["ready"] == coredns["desired"] == 1 and coredns["healthy"] is False
    assert coredns["log_errors"] == 29 and "coredns-upstream-unreachable" in coredns["health_evidence"]
    assert "cluster-info-dump.txt:" in coredns["health_evidence"]
    assert rows["metrics-server"]["healthy"] is False and rows["metrics-server"]["log_errors"] > 100
    # traefik logged errors too, but they are not catalogued lines: no verdict on it
    assert rows["traefik"]["healthy"] is True


def test_restarts_of_a_node_restart_are_not_the_components_fault() -> None:
    # bits (minikube): the node restarted at 05:11:55 (static pods and kube-proxy exit 255 at
    # once) and storage-provisioner exited 84 s later; metrics-server kept restarting after
    # (exit 2 at 05:16:06, two minutes before the capture).
    rows = components("minikube/bits-assignment-group11")
    for name in ("etcd", "kube-apiserver", "kube-proxy", "coredns", "storage-provisioner"):
        assert rows[name]["healthy"] is True and rows[name]["recent_restarts"] == 0, name
    metrics = rows["metrics-server"]
    assert metrics["healthy"] is False and metrics["recent_restarts"] == 10
    assert "restarted 10 times, last 2m before capture (Error)" in metrics["health_evidence"]


def test_sporadic_probe_failures_of_ready_pods_are_not_unhealthy() -> None:
    # cka: calico-node pods ready, single Unhealthy events spread over two hours.
    rows = components("kubeadm/cka-3c97-cluster-info-dump")
    assert rows["calico-node"]["healthy"] is True and rows["calico-node"]["probe_failures"] == 0


def _probe_dump() -> dict:
    """A hand-written List: calico-node (a DaemonSet) with two pods and their Unhealthy events,
    captured at 12:00 (the node's heartbeat)."""
    def pod(name: str, ready: bool) -> dict:
        return {
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": "kube-system", "uid": f"uid-{name}",
                         "creationTimestamp": "2024-05-20T10:00:00Z",
                         "ownerReferences": [{"apiVersion": "apps/v1", "kind": "DaemonSet", "name": "calico-node",
                                              "uid": "ds", "controller": True}]},
            "spec": {"nodeName": "n1", "containers": [{"name": "calico-node", "image": "calico/node:v3.27.0"}]},
            "status": {"phase": "Running",
                       "conditions": [{"type": "Ready", "status": str(ready), "lastTransitionTime": "2024-05-20T11:10:00Z"}],
                       "containerStatuses": [{"name": "calico-node", "ready": ready, "restartCount": 0,
                                              "image": "calico/node:v3.27.0",
                                              "state": {"running": {"startedAt": "2024-05-20T11:10:00Z"}}}]},
        }

    def event(name: str, pod_name: str, message: str, count: int, first: str, last: str) -> dict:
        return {"apiVersion": "v1", "kind": "Event", "type": "Warning", "reason": "Unhealthy",
                "metadata": {"name": name, "namespace": "kube-system", "creationTimestamp": first},
                "involvedObject": {"kind": "Pod", "namespace": "kube-system", "name": pod_name},
                "message": message, "count": count, "firstTimestamp": first, "lastTimestamp": last}

    return {"apiVersion": "v1", "kind": "List", "items": [
        {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"},
         "status": {"conditions": [{"type": "Ready", "status": "True", "lastHeartbeatTime": "2024-05-20T12:00:00Z",
                                    "lastTransitionTime": "2024-05-20T10:00:00Z"}]}},
        {"apiVersion": "apps/v1", "kind": "DaemonSet",
         "metadata": {"name": "calico-node", "namespace": "kube-system", "uid": "ds"},
         "spec": {"selector": {"matchLabels": {"k8s-app": "calico-node"}},
                  "template": {"spec": {"containers": [{"name": "calico-node", "image": "calico/node:v3.27.0"}]}}},
         "status": {"desiredNumberScheduled": 2, "numberReady": 1}},
        pod("calico-node-a", False), pod("calico-node-b", True),
        # counted: recent, all five repeats within the hour
        event("a.1", "calico-node-a", "Liveness probe failed: calico/node is not ready", 5,
              "2024-05-20T11:50:00Z", "2024-05-20T11:59:00Z"),
        # not counted: before the running container started; a ready pod's readiness failure
        event("a.2", "calico-node-a", "Liveness probe failed: old", 9, "2024-05-20T11:00:00Z", "2024-05-20T11:05:00Z"),
        event("b.1", "calico-node-b", "Readiness probe failed: x", 4, "2024-05-20T11:55:00Z", "2024-05-20T11:58:00Z"),
    ]}


def test_recent_probe_failures_of_a_component_are_counted(tmp_path) -> None:
    import json

    path = tmp_path / "dump.json"
    path.write_text(json.dumps(_probe_dump(), indent=4))
    table = analyzer.load(str(path)).tables.components
    row = table[table["name"] == "calico-node"].iloc[0]
    assert row["probe_failures"] == 5 and not row["healthy"]
    assert "5 probe failures" in row["health_evidence"] and "calico/node is not ready" in row["health_evidence"]


SONOBUOY = Path(__file__).parents[1] / "ingest" / "data" / "sonobuoy-results"


def test_probe_failures_before_the_pod_became_ready_have_passed(tmp_path) -> None:
    # tests/ingest/data/sonobuoy-results (trimmed from sonobuoy's results-0.10.tar.gz, a kubeadm
    # cluster 9 minutes old): calico-node-fb8vk's liveness probe failed 3 times while it started
    # (17:02:44-17:03:14), the pod is Ready since 17:03:18, no restart since, capture 17:07.
    import json
    import shutil

    table = analyzer.load(str(SONOBUOY)).tables.components
    row = table[table["name"] == "calico-node"].iloc[0]
    assert row["healthy"] and row["probe_failures"] == 0
    # Had it become ready before the failures, they would still be coming: counted.
    copy = tmp_path / "sonobuoy-results"
    shutil.copytree(SONOBUOY, copy)
    pods_file = copy / "resources" / "ns" / "kube-system" / "Pods.json"
    pods = json.loads(pods_file.read_text())
    for cond in pods[0]["status"]["conditions"]:
        if cond["type"] == "Ready":
            cond["lastTransitionTime"] = "2017-12-13T17:02:30Z"
    pods_file.write_text(json.dumps(pods))
    table = analyzer.load(str(copy)).tables.components
    row = table[table["name"] == "calico-node"].iloc[0]
    assert not row["healthy"] and row["probe_failures"] == 3
    assert "Liveness probe failed" in row["health_evidence"]


def test_restarts_under_a_capture_dated_by_the_pods_own_start_say_at_least(tmp_path) -> None:
    # bits (minikube)'s metrics-server pod alone, without the Node whose heartbeat dates that
    # dump (trimmed from realdata minikube/bits-assignment-group11 cluster-dump.txt): the capture
    # is its container's own start, 05:16:25, so came then or later; the restart 19s before that
    # was at least 19s before capture, perhaps hours.
    import json

    pod = {"apiVersion": "v1", "kind": "Pod",
           "metadata": {"name": "metrics-server-84f9b77d49-48kxx", "namespace": "kube-system",
                        "creationTimestamp": "2022-07-25T21:19:59Z",
                        "labels": {"k8s-app": "metrics-server", "pod-template-hash": "84f9b77d49"},
                        "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet",
                                             "name": "metrics-server-84f9b77d49", "controller": True}]},
           "spec": {"nodeName": "minikube", "containers": [
               {"name": "metrics-server", "image": "k8s.gcr.io/metrics-server/metrics-server:v0.4.1"}]},
           "status": {"phase": "Running", "containerStatuses": [{
               "name": "metrics-server", "ready": True, "restartCount": 10,
               "state": {"running": {"startedAt": "2022-07-31T05:16:25Z"}},
               "lastState": {"terminated": {"exitCode": 2, "reason": "Error", "startedAt": "2022-07-31T05:15:17Z",
                                            "finishedAt": "2022-07-31T05:16:06Z"}}}]}}
    path = tmp_path / "pods.json"
    path.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": [pod]}))
    dump = analyzer.load(str(path))
    assert dump.capture.lower_bound
    row = dump.tables.components.set_index("name").loc["metrics-server"]
    assert row["recent_restarts"] == 10
    assert "restarted 10 times, last at least 19s before capture (Error)" in row["health_evidence"]
