"""One definition of "a node (or its runtime) restarted at T" (analyzer/model/restarts.py): the
node-restart rule, the incident, the timeline span and component health name the same moment."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from conftest import REALDATA

import analyzer
from analyzer.findings import collect_findings
from analyzer.findings.incidents import group_incidents
from analyzer.model.restarts import cluster_restart_moments, sandbox_lost

CAPTURE = "2024-05-20T10:00:00Z"


def _pod(name: str, node: str, finished: str, exit_code: int = 255, reason: str = "Unknown") -> dict:
    """A pod whose one container ended at `finished` and runs again (hand-written, the shape
    kubectl get pods -o json gives)."""
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": "shop"},
            "spec": {"nodeName": node, "containers": [{"name": "app", "image": "app:1"}]},
            "status": {"phase": "Running", "containerStatuses": [{
                "name": "app", "ready": True, "restartCount": 1,
                "state": {"running": {"startedAt": "2024-05-20T09:46:00Z"}},
                "lastState": {"terminated": {"reason": reason, "exitCode": exit_code,
                                             "finishedAt": finished}}}]}}


def _moments(*pods: dict) -> list:
    dump = json.dumps({"apiVersion": "v1", "kind": "List", "items": list(pods)})
    return cluster_restart_moments(analyzer.load(dump))


def test_what_a_lost_sandbox_is() -> None:
    # containerd after a reboot; the kubelet losing a container; dockerd after a restart
    assert sandbox_lost(255, "Unknown") and sandbox_lost(137, "ContainerStatusUnknown") and sandbox_lost(255, "Error")
    # a liveness kill or an OOM kill (137), a container that could not start (128), a clean exit
    assert not sandbox_lost(137, "Error") and not sandbox_lost(137, "OOMKilled")
    assert not sandbox_lost(128, "StartError") and not sandbox_lost(0, "Completed")
    assert not sandbox_lost(None, None)


def test_a_node_restart_is_most_pods_of_a_node_losing_their_sandbox_at_once() -> None:
    pods = [_pod(f"web-{i}", "n1", f"2024-05-20T09:45:{10 * i:02d}Z") for i in range(3)]
    [moment] = _moments(*pods)
    assert (moment.node, moment.start.isoformat(), moment.end.isoformat()) == (
        "n1", "2024-05-20T09:45:00+00:00", "2024-05-20T09:45:20+00:00")
    assert moment.pods == ["shop/web-0", "shop/web-1", "shop/web-2"]
    # a pod ending 90 s after the moment started it before the API server was back
    assert moment.explains("n1", pd.Timestamp("2024-05-20T09:46:30Z").to_pydatetime())
    assert not moment.explains("n2", moment.start)


def test_killed_containers_meeting_by_chance_are_not_a_node_restart() -> None:
    # three liveness kills (137 Error) within a minute: the containers' own fault
    assert not _moments(*[_pod(f"web-{i}", "n1", f"2024-05-20T09:45:{i:02d}Z", 137, "Error") for i in range(3)])
    # three OOM kills at once: memory pressure, not a restart
    assert not _moments(*[_pod(f"web-{i}", "n1", f"2024-05-20T09:45:{i:02d}Z", 137, "OOMKilled") for i in range(3)])


def test_two_pods_are_a_node_restart_only_when_they_are_all_the_node_runs() -> None:
    # kube-scheduler and kube-controller-manager exit 255 together when they lose their leases
    # (cka dump, cka-controller1): two of a node's five pods are not the node restarting
    two = [_pod(f"cp-{i}", "n1", "2024-05-20T09:45:00Z", 255, "Error") for i in range(2)]
    others = [_pod(f"other-{i}", "n1", "2024-05-19T09:00:00Z", 1, "Error") for i in range(3)]
    assert not _moments(*two, *others)
    assert len(_moments(*two)) == 1


def _running(name: str, node: str, started: str) -> dict:
    """A pod whose one container runs since `started`, never restarted."""
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": "shop"},
            "spec": {"nodeName": node, "containers": [{"name": "app", "image": "app:1"}]},
            "status": {"phase": "Running", "containerStatuses": [{
                "name": "app", "ready": True, "restartCount": 0,
                "state": {"running": {"startedAt": started}}}]}}


def test_containers_ending_at_once_while_more_of_the_nodes_pods_run_on_are_not_a_node_restart() -> None:
    # openshift/must-gather-clean must-gather-aws (OpenShift 4.8 install): as the bootstrap API
    # server went away, 4 of master ip-10-0-195-177's 86 pods exited 255 Error within a minute
    # (leases lost) while 36 ran on from before; a reboot leaves none running from before it
    ended = [_pod(f"operator-{i}", "n1", f"2024-05-20T09:45:{10 * i:02d}Z", 255, "Error") for i in range(4)]
    lived = [_running(f"sdn-{i}", "n1", "2024-05-20T09:18:00Z") for i in range(5)]
    assert not _moments(*ended, *lived)
    # fewer survivors than pods that ended (a pod started after the moment does not count; a
    # status or two the kubelet had not refreshed yet may carry an old start): a node restart
    fewer = [*lived[:3], _running("dns-0", "n1", "2024-05-20T09:47:00Z")]
    assert len(_moments(*ended, *fewer)) == 1


@pytest.mark.parametrize("dump", ["minikube/bits-assignment-group11", "k3s/troubleshoot-testdata-supportbundle"])
def test_rule_incident_timeline_and_health_name_the_same_moment(dump: str) -> None:
    # bits (minikube): static pods, kube-proxy and coredns exit 255 at 05:11:55, 6 minutes
    # before the capture. troubleshoot (k3d): six containers exit 255 Unknown at 09:42:35 and two
    # more exit 1/2 at 09:43:10, 7h before the capture (history: no incident).
    cluster = analyzer.load(str(REALDATA / dump))
    [moment] = cluster_restart_moments(cluster)
    at = moment.start.isoformat().replace("+00:00", "Z")
    findings = collect_findings(cluster)
    [rule] = [f for f in findings if f.rule == "node-restart" and f.status == "fail"]
    assert (rule.name, rule.facts["time"], rule.facts["pods"]) == (moment.node, at, len(moment.pods))
    spans = cluster.timeline[cluster.timeline["fact"] == "node restarted"]
    assert [(s.name, s.time, s.end) for s in spans.itertuples()] == [
        (moment.node, pd.Timestamp(moment.start), pd.Timestamp(moment.end))]
    assert f"{len(moment.members)} containers of {len(moment.pods)} pods" in spans.iloc[0]["detail"]
    incidents = [i for i in group_incidents(findings, cluster) if i.cause_rule == "node-restart"]
    if rule.severity == "info":
        assert not incidents  # an old restart, run since: history
    else:
        [incident] = incidents
        assert incident.cause == f"Node {moment.node} restart at {moment.start.isoformat()}"
        assert f"{len(moment.pods)} pods restarted with it" in incident.headline
        assert rule in incident.members
        # the components that restarted with it (within the last hour) are not unhealthy for it
        pods = cluster.tables.pods
        restarted = {f"{ns}/{name}" for ns, name in zip(pods["namespace"], pods["name"], strict=True)
                     if f"{ns}/{name}" in moment.pods}
        restarted |= {f"{kind}/{ns}/{name}" for ns, pod, kind, name in zip(
            pods["namespace"], pods["name"], pods["workload_kind"], pods["workload_name"], strict=True)
            if f"{ns}/{pod}" in moment.pods}
        checked = [row.name for row in cluster.tables.components.itertuples()
                   if {"/".join(o.split("/")[2 if o.split("/")[1] == "Pod" else 1:])
                       for o in str(row.objects).split(",")} & restarted]
        assert len(checked) >= 5, checked
        rows = cluster.tables.components.set_index("name")
        assert all(rows.loc[name, "recent_restarts"] == 0 for name in checked)
