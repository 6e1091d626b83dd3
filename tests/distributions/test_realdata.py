"""Every real dump in shared/realdata is named right, for the right reasons.

What each dump is comes from shared/realdata/SOURCES.md; the evidence each must show is what
makes that distribution recognisable in it (a provider ID scheme, a label, a version suffix, a
node name, a static pod). Evidence is matched by signal type and value, not by the exact
fingerprint pattern, so the fingerprint data can be refined without rewriting these tests.
"""

from __future__ import annotations

import re
from functools import cache

import pytest
from conftest import REALDATA

import analyzer
from analyzer.distributions import Distribution, detect_distribution

LABEL = ("node_label_key_prefix", "node_label")

# dir -> (distribution, [(signal types, value regex), ...] that must be among the winner's evidence)
EXPECTED: dict[str, tuple[str, list[tuple[tuple[str, ...], str]]]] = {
    "aks/autoscaler-issue-2805": ("aks", [(LABEL, r"^kubernetes\.azure\.com/")]),
    "aks/azure-aks-issue-1461": ("aks", [(LABEL, r"^kubernetes\.azure\.com/")]),
    "aks/virtual-kubelet-issue-1250": ("aks", [(LABEL, r"^kubernetes\.azure\.com/")]),
    # Only a pod (describe, get, yaml) on an AKS VMSS node: the node name is the evidence.
    "aks/holmesgpt-fixtures": ("aks", [(("node_name_regex",), r"^aks-agentpool-\d+-vmss")]),
    "docker-desktop/multi-k8s-ciobotaru": ("docker-desktop", [(("node_name_regex",), r"^docker-desktop$")]),
    "eks/holmesgpt-fixtures": ("eks", [(("kubelet_version_regex",), r"-eks-")]),
    "gke/cryptnono-issue-34": ("gke", [(("node_name_regex",), r"^gke-")]),
    "gke/holmesgpt-fixtures": ("gke", [(("node_name_regex",), r"^gke-")]),
    "k3s/troubleshoot-testdata-supportbundle": ("k3s", [(("kubelet_version_regex",), r"\+k3s"),
                                                        (("provider_id_prefix",), r"^k3s://")]),
    "k3s/udacity-nd064-cluster-info-dump": ("k3s", [(("kubelet_version_regex",), r"\+k3s"),
                                                    (("provider_id_prefix",), r"^k3s://")]),
    # kind fragments: pods only, on nodes kind names <cluster>-control-plane.
    "kind/k9s-testdata": ("kind", [(("node_name_regex",), r"-control-plane$")]),
    "kind/kubectl-neat": ("kind", [(("node_name_regex",), r"-control-plane$")]),
    "kind/troubleshoot-analyze-files": ("kind", [(("node_name_regex",), r"-control-plane$")]),
    "kubeadm/cka-3c97-cluster-info-dump": ("kubeadm", [(("node_annotation_key_prefix",), r"^kubeadm\.alpha"),
                                                       (("workload_name",), r"^kube-apiserver-")]),
    "kubeadm/sbctl-kurl-supportbundle": ("kubeadm", [(LABEL, r"^kurl\.sh/"),
                                                     (("node_annotation_key_prefix",), r"^kubeadm\.alpha"),
                                                     (("workload_name",), r"^kube-apiserver-")]),
    "minikube/bits-assignment-group11": ("minikube", [(("node_name_regex",), r"^minikube$")]),
    "minikube/k9s-testdata": ("minikube", [(("node_name_regex",), r"^minikube$")]),
    "minikube/kubectl-neat": ("minikube", [(("node_name_regex",), r"^minikube$")]),
    "minikube/multi-k8s-cluster-info-dump": ("minikube", [(("node_name_regex",), r"^minikube$")]),
    "minikube/troubleshoot-analyze-files": ("minikube", [(("node_name_regex",), r"^minikube$")]),
    "openshift/insights-operator-archive-sample": ("openshift", [(LABEL, r"^node\.openshift\.io/")]),
    "openshift/must-gather-clean-aws": ("openshift", [(LABEL, r"^node\.openshift\.io/"),
                                                      (("api_group",), r"openshift\.io$")]),
    "openshift/must-gather-clean-metal": ("openshift", [(LABEL, r"^node\.openshift\.io/")]),
    "openshift/must-gather-clean-vsphere": ("openshift", [(LABEL, r"^node\.openshift\.io/")]),
    "rke2/support-bundle-kit-harvester": ("rke2", [(("kubelet_version_regex",), r"\+rke2"),
                                                   (("provider_id_prefix",), r"^rke2://")]),
    "vanilla/kubernetes-vagrant-centos-cluster-info-dump": ("vanilla", [(("no_distribution_marks",), r"")]),
}
# Dumps whose content cannot name a distribution, and why.
UNNAMEABLE = {
    # SOURCES.md: lines wrapped in k9s box-drawing characters; nothing of it parses.
    "kubeadm/oci-ccm-issue-409": "no object could be read",
}


@cache
def _detect(rel: str) -> Distribution:
    return detect_distribution(analyzer.load(REALDATA / rel))


def _has(dist: Distribution, signals: tuple[str, ...], value: str) -> bool:
    return any(e.signal in signals and re.search(value, e.value) for e in dist.evidence)


def test_every_realdata_dump_has_an_expectation() -> None:
    dirs = {f"{p.parent.name}/{p.name}" for p in REALDATA.glob("*/*") if p.is_dir()}
    assert dirs == set(EXPECTED) | set(UNNAMEABLE) | {"unknown/troubleshoot-analyze-files",
                                                       "kubeadm/troubleshoot-analyze-files-kurl"}


@pytest.mark.parametrize("rel", sorted(EXPECTED))
def test_realdata_is_named_with_its_evidence(rel: str) -> None:
    name, required = EXPECTED[rel]
    dist = _detect(rel)
    assert dist.name == name, (dist.name, dist.scores, dist.evidence[:3])
    assert dist.confidence > 0.3
    for signals, value in required:
        assert _has(dist, signals, value), (signals, value, [(e.signal, e.value) for e in dist.evidence])
    # The winner's own evidence comes first.
    assert dist.evidence[0].distribution == name


@pytest.mark.parametrize("rel", sorted(UNNAMEABLE))
def test_unreadable_dumps_are_unknown(rel: str) -> None:
    dist = _detect(rel)
    assert (dist.name, dist.confidence, dist.evidence) == ("unknown", 0.0, [])


def test_nodes_of_three_clusters_are_mixed() -> None:
    # SOURCES.md: nodes.json mixes microk8s, DigitalOcean (DOKS) and a kURL GPU node.
    dist = _detect("unknown/troubleshoot-analyze-files")
    assert dist.name == "mixed"
    verdicts = {node: v.name for node, v in dist.per_node.items()}
    assert verdicts == {
        "repldev-marc": "microk8s",
        "biggernode-3i745": "doks", "pool-yd23sqk7u-3i7i7": "doks", "pool-yd23sqk7u-3i7it": "doks",
        "pool-yd23sqk7u-3i7v3": "doks", "smallnode-3i74t": "doks",
        "ip-172-31-21-92": "kubeadm",
    }
    assert _has(dist, ("provider_id_prefix",), r"^digitalocean://")
    assert _has(dist, LABEL, r"^microk8s\.io/")
    assert _has(dist, LABEL, r"^kurl\.sh/")


def test_kurl_fragment_is_not_mistaken() -> None:
    # Only application ReplicaSets (kotsadm, rook-ceph): kURL at best, never a managed cloud.
    dist = _detect("kubeadm/troubleshoot-analyze-files-kurl")
    assert dist.name in ("kubeadm", "unknown")


def test_self_hosted_control_planes_are_seen() -> None:
    for rel in ("kubeadm/cka-3c97-cluster-info-dump", "kubeadm/sbctl-kurl-supportbundle",
                "rke2/support-bundle-kit-harvester"):
        assert _detect(rel).control_plane.kind == "self-hosted", rel
    assert _detect("eks/holmesgpt-fixtures").control_plane.kind == "managed"
