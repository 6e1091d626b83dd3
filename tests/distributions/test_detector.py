"""The detector's scoring rules, on synthetic fingerprints so each rule is tested on its own.

Fixtures are small in-memory dumps (tests/distributions/dumps.py) built for each case; the
fingerprint rows below are made up for these tests, in the shape of fingerprints.yaml.
"""

from __future__ import annotations

import orjson
import pytest
import yaml

from analyzer.distributions.detector import detect
from analyzer.distributions.fingerprints import load_fingerprints

from .dumps import configmap, load, node, pod

ROWS = [
    {"distribution": "eks", "signal": "provider_id_prefix", "pattern": "aws://", "weight": 4, "note": "AWS instance"},
    {"distribution": "eks", "signal": "kubelet_version_regex", "pattern": "-eks-", "weight": 10, "note": "EKS build"},
    {"distribution": "aks", "signal": "node_label_key_prefix", "pattern": "kubernetes.azure.com/", "weight": 2, "note": "AKS label"},
    {"distribution": "aks", "signal": "configmap_name", "pattern": "overlay-upgrade-data", "weight": 8, "note": "AKS overlay"},
    {"distribution": "kubeadm", "signal": "node_annotation_key_prefix", "pattern": "kubeadm.alpha.kubernetes.io/", "weight": 4, "note": "kubeadm join"},
    {"distribution": "kubeadm", "signal": "workload_name", "pattern": "^kube-apiserver-", "weight": 4, "note": "static pod"},
    {"distribution": "kind", "signal": "provider_id_prefix", "pattern": "kind://", "weight": 10, "note": "kind node"},
    {"distribution": "kind", "signal": "node_name_regex", "pattern": "-(control-plane|worker[0-9]*)$", "weight": 3, "note": "kind node name"},
    {"distribution": "k3s", "signal": "kubelet_version_regex", "pattern": r"\+k3s", "weight": 10, "note": "k3s build"},
    {"distribution": "doks", "signal": "provider_id_prefix", "pattern": "digitalocean://", "weight": 10, "note": "droplet"},
    {"distribution": "microk8s", "signal": "node_label_key_prefix", "pattern": "microk8s.io/", "weight": 10, "note": "microk8s"},
]


@pytest.fixture(scope="module")
def fingerprints(tmp_path_factory: pytest.TempPathFactory):
    path = tmp_path_factory.mktemp("fp") / "fingerprints.yaml"
    path.write_text(yaml.safe_dump(ROWS))
    return load_fingerprints(path)


def test_a_signal_type_counts_once_per_object_kind(fingerprints) -> None:
    # 50 nodes with the same weak AKS label score it once; a decisive ConfigMap adds its own type.
    nodes = [node(f"n{i}", labels={"kubernetes.azure.com/role": "agent"}) for i in range(50)]
    dist = detect(load(*nodes), fingerprints)
    assert dist.scores == {"aks": 2.0}
    assert dist.name == "unknown"  # 2 < MIN_SCORE: one weak label is not convincing
    assert dist.evidence[0].count == 50 and dist.evidence[0].object == "core/Node//n0"
    dist = detect(load(*nodes, configmap("kube-system", "overlay-upgrade-data")), fingerprints)
    assert dist.name == "aks" and dist.scores == {"aks": 10.0}
    assert [(e.signal, e.value) for e in dist.evidence] == [
        ("configmap_name", "overlay-upgrade-data"),
        ("node_label_key_prefix", "kubernetes.azure.com/role"),
    ]


def test_a_lone_pod_is_unknown(fingerprints) -> None:
    dist = detect(load(pod("default", "web", node_name="node-1")), fingerprints)
    assert (dist.name, dist.confidence, dist.evidence, dist.runner_up) == ("unknown", 0.0, [], None)


def test_nodes_of_several_clusters_are_mixed_with_per_node_verdicts(fingerprints) -> None:
    cluster = load(
        node("droplet-1", provider_id="digitalocean://1"), node("droplet-2", provider_id="digitalocean://2"),
        node("desk", labels={"microk8s.io/cluster": "true"}),
        node("plain"),
    )
    dist = detect(cluster, fingerprints)
    assert dist.name == "mixed"
    assert {n: v.name for n, v in dist.per_node.items()} == {
        "droplet-1": "doks", "droplet-2": "doks", "desk": "microk8s"}
    assert {e.distribution for e in dist.evidence} == {"doks", "microk8s"}
    assert any("doks: droplet-1, droplet-2" in n for n in dist.notes)


def test_a_distribution_built_on_another_takes_its_signals_as_support(fingerprints) -> None:
    kubeadm_annotations = {"kubeadm.alpha.kubernetes.io/cri-socket": "unix:///run/containerd/containerd.sock"}
    cluster = load(
        node("kind-control-plane", provider_id="kind://docker/kind/kind-control-plane",
             annotations=kubeadm_annotations),
        pod("kube-system", "kube-apiserver-kind-control-plane", node_name="kind-control-plane", mirror=True),
    )
    dist = detect(cluster, fingerprints)
    assert dist.name == "kind"
    assert dist.runner_up is None  # kubeadm is what kind is built on, not an alternative
    assert [(e.distribution, e.signal) for e in dist.evidence] == [
        ("kind", "provider_id_prefix"), ("kind", "node_name_regex"),
        ("kubeadm", "node_annotation_key_prefix"), ("kubeadm", "workload_name"),
    ]
    assert dist.scores == {"kind": 21.0, "kubeadm": 8.0}


def test_a_weak_hint_of_a_derived_distribution_does_not_borrow_its_base(fingerprints) -> None:
    # A kubeadm cluster whose worker is called k8s-worker2 (realdata/kubeadm/cka-3c97) is not kind.
    annotations = {"kubeadm.alpha.kubernetes.io/cri-socket": "/var/run/dockershim.sock"}
    dist = detect(load(node("k8s-worker2", annotations=annotations), node("k8s-worker1", annotations=annotations)),
                  fingerprints)
    assert (dist.name, dist.scores) == ("kubeadm", {"kubeadm": 4.0, "kind": 3.0})
    assert dist.per_node["k8s-worker2"].name == "kubeadm"
    # Alone, the same hint names kind, with the low confidence one weak hint deserves.
    alone = detect(load(pod("default", "web", node_name="kind-control-plane")), fingerprints)
    assert alone.name == "kind" and alone.confidence < 0.4


def test_visible_control_plane_pods_contradict_a_managed_distribution(fingerprints) -> None:
    # kubeadm on AWS: aws:// provider IDs, but its own apiserver pods show it is not EKS.
    cluster = load(
        node("ip-10-0-0-1", provider_id="aws:///us-east-1a/i-0abc", annotations={}),
        pod("kube-system", "kube-apiserver-ip-10-0-0-1", node_name="ip-10-0-0-1", mirror=True),
    )
    dist = detect(cluster, fingerprints)
    assert dist.name == "kubeadm"
    assert "eks" not in dist.scores  # 4 - 10, floored at 0
    without_pods = detect(load(node("ip-10-0-0-1", provider_id="aws:///us-east-1a/i-0abc")), fingerprints)
    assert (without_pods.name, without_pods.scores) == ("eks", {"eks": 4.0})
    # A Deployment's pod that is merely named like a control-plane component is not one.
    backup = pod("kube-system", "etcd-backup-7d4f9c8b5-x2k4d", node_name="ip-10-0-0-1",
                 owner=("ReplicaSet", "etcd-backup-7d4f9c8b5"))
    with_backup = detect(load(node("ip-10-0-0-1", provider_id="aws:///us-east-1a/i-0abc"), backup), fingerprints)
    assert (with_backup.name, with_backup.scores["eks"]) == ("eks", 4.0)


def test_virtual_cluster_nodes_show_their_host(fingerprints) -> None:
    host_annotations = {"kubeadm.alpha.kubernetes.io/cri-socket": "unix:///run/containerd/containerd.sock"}
    cluster = load(
        node("worker-1", annotations=host_annotations, provider_id="kind://docker/host/worker-1"),
        node("fake-1", labels={"vcluster.loft.sh/fake-node": "true"}, provider_id="digitalocean://9"),
        server_version="v1.28.2+k3s1",
    )
    dist = detect(cluster, fingerprints)
    assert dist.name == "k3s"
    assert [e.value for e in dist.evidence] == ["v1.28.2+k3s1"]
    assert "fake-1" not in dist.per_node and dist.per_node["worker-1"].name == "kind"
    assert any("virtual cluster" in n for n in dist.notes)


def test_result_is_json_safe_and_deterministic(fingerprints) -> None:
    cluster = load(node("n1", provider_id="aws:///x/i-1", kubelet="v1.30.4-eks-a737599"))
    first, second = detect(cluster, fingerprints).to_dict(), detect(cluster, fingerprints).to_dict()
    assert orjson.dumps(first) == orjson.dumps(second)
    assert first["name"] == "eks" and first["confidence"] > 0.8
    assert {"signal", "object", "value"} <= set(first["evidence"][0])


def test_bad_fingerprint_rows_fail_when_loaded(tmp_path) -> None:
    path = tmp_path / "fingerprints.yaml"
    path.write_text(yaml.safe_dump([{"distribution": "eks", "signal": "telepathy", "pattern": "x", "weight": 1}]))
    with pytest.raises(ValueError, match="row 1: unknown signal 'telepathy'"):
        load_fingerprints(path)
    path.write_text(yaml.safe_dump([{"distribution": "eks", "signal": "workload_name", "pattern": "(", "weight": 1}]))
    with pytest.raises(ValueError, match="row 1: pattern '\\('"):
        load_fingerprints(path)


def test_custom_resources_named_like_built_in_kinds_are_not_nodes(fingerprints) -> None:
    # Longhorn's nodes.longhorn.io objects are kind `Node` too (as in the kURL bundle of realdata).
    longhorn_node = {"apiVersion": "longhorn.io/v1beta1", "kind": "Node",
                     "metadata": {"name": "n1", "namespace": "longhorn-system",
                                  "labels": {"microk8s.io/cluster": "true"}},
                     "spec": {"providerID": "digitalocean://1"}}
    dist = detect(load(longhorn_node), fingerprints)
    assert (dist.name, dist.scores, dist.per_node) == ("unknown", {}, {})


def test_the_runner_up_keeps_its_heaviest_counted_rows_then_those_against_it() -> None:
    # Rows as a managed runner-up's tally holds them (weights of fingerprints.yaml's EKS rows and
    # the detector's contradiction): the uncounted row and the weightless are not what made it.
    from analyzer.distributions.result import RUNNER_UP_ROWS, Evidence, RunnerUp

    def row(signal: str, weight: float, counted: bool = True) -> Evidence:
        return Evidence(signal, f"core/Node//{signal}", signal, weight, "eks", counted=counted)

    rows = [row("against", -10.0), row("weak", 1.0), row("uncounted", 9.0, counted=False), row("zero", 0.0)]
    rows += [row(f"s{w}", float(w)) for w in (2, 8, 5, 3, 6)]
    runner_up = RunnerUp.of("eks", 15.0, rows)
    assert runner_up.evidence_total == 7 and len(runner_up.evidence) == RUNNER_UP_ROWS == 5
    assert [e.signal for e in runner_up.evidence] == ["s8", "s6", "s5", "s3", "s2"]
    assert [e.signal for e in RunnerUp.of("eks", 3.0, rows[:2]).evidence] == ["weak", "against"]
