"""Objects read from pasted tables have no ownerReferences: `owns` links them by the names their
controllers give them, when the dump holds the controller, so impact and incidents follow them."""

from __future__ import annotations

from pathlib import Path

import analyzer

GET_ALL = Path(__file__).parent / "data" / "get-all-eks.txt"  # hand-made, see its header


def _owns(cluster: analyzer.Cluster) -> set[tuple[str, str]]:
    g = cluster.graph
    return {(s, t) for s, t, rel in g.edges(keys=True) if rel == "owns"}


def test_table_rows_are_linked_to_their_controllers_by_name() -> None:
    owns = _owns(analyzer.load(GET_ALL))
    assert ("apps/ReplicaSet/default/web-7d9f8c6b5", "core/Pod/default/web-7d9f8c6b5-zz9lp") in owns
    assert ("apps/Deployment/default/web", "apps/ReplicaSet/default/web-7d9f8c6b5") in owns
    assert ("apps/DaemonSet/kube-system/aws-node", "core/Pod/kube-system/aws-node-8x7kd") in owns
    assert ("apps/Deployment/kube-system/coredns", "apps/ReplicaSet/kube-system/coredns-5d78c9869d") in owns
    assert len(owns) == 7  # 5 pods and 2 ReplicaSets, each to its one controller


def test_no_link_to_a_controller_the_dump_does_not_hold(tmp_path: Path) -> None:
    pods = tmp_path / "pods.txt"
    pods.write_text("NAME                  READY   STATUS    RESTARTS   AGE\n"
                    "web-7d9f8c6b5-x2k4q   1/1     Running   0          3d\n")
    cluster = analyzer.load(pods)
    assert not _owns(cluster)
    assert list(cluster.graph.nodes) == ["core/Pod//web-7d9f8c6b5-x2k4q"]  # (no namespace column)


def test_an_object_read_whole_is_never_linked_by_name(tmp_path: Path) -> None:
    # A bare pod (no ownerReferences in its YAML) named like a ReplicaSet's is really bare.
    dump = tmp_path / "dump.yaml"
    dump.write_text(
        "apiVersion: v1\nkind: List\nitems:\n"
        "- {apiVersion: apps/v1, kind: ReplicaSet, metadata: {name: web-7d9f8c6b5, namespace: default}}\n"
        "- {apiVersion: v1, kind: Pod, metadata: {name: web-7d9f8c6b5-x2k4q, namespace: default}}\n")
    assert not _owns(analyzer.load(dump))


def test_the_crashlooping_replica_and_its_deployment_are_one_incident() -> None:
    incidents = analyzer.load(GET_ALL).incidents
    assert len(incidents) == 1
    incident = incidents.iloc[0]
    assert incident.cause == "Pod default/web-7d9f8c6b5-zz9lp"
    assert incident.rules == "deployment-unavailable, pod-crashloop, pod-high-restarts"
    assert "the last 2m before the table was printed" in incident.headline


def test_a_deployments_pod_is_linked_to_it_when_the_dump_holds_no_replicaset(tmp_path: Path) -> None:
    paste = tmp_path / "paste.txt"
    paste.write_text(
        "$ kubectl get pods -n shop\n"
        "NAME                   READY   STATUS             RESTARTS   AGE\n"
        "web-7d9f8c6b5-x2k4q    0/1     ImagePullBackOff   0          2m\n"
        "$ kubectl get deploy -n shop\n"
        "NAME   READY   UP-TO-DATE   AVAILABLE   AGE\n"
        "web    0/1     1            0           2m\n")
    assert _owns(analyzer.load(paste)) == {("apps/Deployment/shop/web", "core/Pod/shop/web-7d9f8c6b5-x2k4q")}
