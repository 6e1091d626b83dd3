"""Component health beyond readiness, read from real dumps whose state was checked by hand."""

from __future__ import annotations

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
