"""The sample dumps (sample_dumps/) are named right with their evidence, and their components
named in the seeds (shared/seeds/) get the role the seeds describe.

Seed roles: 000 (AKS kube-system: azure-ip-masq-agent, csi-azuredisk/azurefile, konnectivity-agent,
coredns + coredns-autoscaler, metrics-server, kube-proxy), 001 (kubeadm static pods, calico, kube-proxy;
EKS kube-dns), 002 (OKE proxymux-client, kube-flannel-ds, kube-dns-autoscaler, coredns), 003 (kubeadm
kube-proxy), 004 (kubeadm static pods, coredns, weave).
"""

from __future__ import annotations

import re
from functools import cache

import pandas as pd
import pytest
from conftest import SAMPLE_DUMPS

import analyzer
from analyzer.cluster import Cluster
from analyzer.distributions.components import COMPONENTS_SPEC

LABEL = ("node_label_key_prefix", "node_label")

# Every component the seeds name -> the role they describe it in.
SEED_ROLES = {
    "azure-ip-masq-agent": "cni", "csi-azuredisk-node": "csi", "csi-azuredisk-node-win": "csi",
    "csi-azurefile-node": "csi", "csi-azurefile-node-win": "csi", "konnectivity-agent": "api-tunnel",
    "coredns": "dns", "coredns-autoscaler": "autoscaler", "metrics-server": "metrics",
    "kube-proxy": "kube-proxy", "kube-apiserver": "control-plane", "kube-controller-manager": "control-plane",
    "kube-scheduler": "control-plane", "etcd": "control-plane", "calico-node": "cni",
    "calico-kube-controllers": "cni",
    "proxymux-client": "api-tunnel", "kube-flannel-ds": "cni", "kube-dns-autoscaler": "autoscaler",
    "weave-net": "cni", "aws-node": "cni",
}
# dump -> (distribution, evidence that must be there, seed components that must be in it)
EXPECTED = {
    "aks": ("aks", [(("provider_id_prefix",), r"^azure://"), (LABEL, r"^kubernetes\.azure\.com/")],
            {"azure-ip-masq-agent", "csi-azuredisk-node", "csi-azurefile-node", "konnectivity-agent",
             "coredns", "coredns-autoscaler", "metrics-server", "kube-proxy"}),
    "eks": ("eks", [(("kubelet_version_regex",), r"-eks-"), (("workload_name",), r"^aws-node")],
            {"aws-node", "coredns", "kube-proxy"}),
    "oke": ("oke", [(("provider_id_prefix",), r"^oci://"), (("workload_name",), r"^proxymux-client")],
            {"proxymux-client", "kube-flannel-ds", "kube-dns-autoscaler", "coredns", "kube-proxy"}),
    "kubeadm": ("kubeadm", [(("node_annotation_key_prefix",), r"^kubeadm\.alpha"),
                            (("workload_name",), r"^kube-apiserver-")],
                {"kube-apiserver", "kube-controller-manager", "kube-scheduler", "etcd", "calico-node",
                 "calico-kube-controllers",
                 "coredns", "kube-proxy"}),
}
DNS_IPS = {"aks": "10.0.0.10", "eks": "172.20.0.10", "oke": "10.96.0.10", "kubeadm": "10.96.0.10"}


@cache
def _cluster(name: str) -> Cluster:
    return analyzer.load(SAMPLE_DUMPS / name)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sample_dump_is_named_with_its_evidence(name: str) -> None:
    expected, required, _ = EXPECTED[name]
    dist = _cluster(name).distribution
    assert dist.name == expected and dist.confidence >= 0.6, (dist.name, dist.scores)
    for signals, value in required:
        assert any(e.signal in signals and re.search(value, e.value) for e in dist.evidence), (signals, value)
    assert dist.dns["service_ip"] == DNS_IPS[name]


def test_kubeadm_on_ec2_is_not_eks() -> None:
    # The kubeadm sample runs on EC2 (sample_dumps/README.md): aws:// IDs, yet self-hosted.
    dist = _cluster("kubeadm").distribution
    assert dist.control_plane.kind == "self-hosted"
    assert dist.name == "kubeadm"
    assert dist.scores.get("eks", 0.0) < dist.scores["kubeadm"]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_seed_components_have_their_roles(name: str) -> None:
    table = _cluster(name).tables["components"]
    roles = dict(zip(table["name"], table["role"], strict=True))
    expected = EXPECTED[name][2]
    assert expected <= set(roles), expected - set(roles)
    for component in sorted(set(roles) & set(SEED_ROLES)):
        assert roles[component] == SEED_ROLES[component], component


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_components_table_shape(name: str) -> None:
    table = _cluster(name).tables["components"]
    assert list(table.columns) == COMPONENTS_SPEC.column_names
    assert table["desired"].dtype == "Int64" and table["healthy"].dtype == "boolean"
    # Rows are sorted and unknown components are kept with role "unknown", never dropped.
    keys = list(zip(table["namespace"].astype(str), table["name"], strict=True))
    assert keys == sorted(keys)
    assert set(table["role"].astype(str)) - {"unknown"}
    assert not table["version"].isna().all()
    assert pd.api.types.is_string_dtype(table["images"])


def test_inspect_json_contract_has_distribution_and_components() -> None:
    summary = _cluster("oke").summary()
    dist = summary["distribution"]
    assert dist["name"] == "oke" and 0 < dist["confidence"] <= 1
    assert all({"signal", "object", "value"} <= set(e) for e in dist["evidence"])
    assert dist["runner_up"] is None or set(dist["runner_up"]) == {"name", "score", "evidence", "evidence_total"}
    assert dist["dns"]["service_ip"] == "10.96.0.10" and dist["api_tunnel"] == ["proxymux-client"]
    proxymux = next(c for c in summary["components"] if c["name"] == "proxymux-client")
    assert (proxymux["role"], proxymux["kind"], proxymux["host_network"]) == ("api-tunnel", "DaemonSet", True)
