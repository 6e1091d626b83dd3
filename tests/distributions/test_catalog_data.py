"""The knowledge data files (catalog.yaml, fingerprints.yaml) are well-formed and agree with the
seeds and the sample dumps (their regeneration is checked in tests/synthetic/test_samples.py).

Fixtures: the two data files as shipped, the seed texts in shared/seeds/ (which components each
distribution runs), and sample_dumps/ (made by sample_dumps/_generate.py).
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
import yaml
from conftest import ROOT, SAMPLE_DUMPS, SEEDS

DATA = ROOT / "analyzer" / "distributions"
ROLES = {
    "dns", "cni", "csi", "kube-proxy", "control-plane", "api-tunnel", "metrics", "autoscaler",
    "cloud-controller", "ingress", "load-balancer", "logging-monitoring", "device-plugin", "storage", "network-policy",
    "security", "addon-manager", "operator", "other",
}
DISTRIBUTIONS = {
    "aks", "eks", "oke", "gke", "kubeadm", "k3s", "rke2", "openshift", "kind", "minikube",
    "docker-desktop", "microk8s", "doks", "vanilla", "lke", "talos", "kops", "eks-anywhere",
    "rancher-desktop", "tkg", "microshift", "aro",
}
SIGNALS = {
    "provider_id_prefix", "node_label_key_prefix", "node_label", "node_annotation_key_prefix",
    "kubelet_version_regex", "os_image_regex", "node_name_regex", "workload_name", "configmap_name",
    "api_group", "image_registry_regex", "namespace_name", "namespace_annotation_key_prefix",
    "pull_secret_name", "cli_tool", "pod_annotation", "event_source", "system_object_label", "system_workload",
    "service_cluster_ip", "node_name_suffix", "service_port",
}
# Signals whose pattern is a regular expression (the others are literal prefixes or key=value).
REGEX_SIGNALS = {"kubelet_version_regex", "os_image_regex", "node_name_regex", "workload_name",
                 "configmap_name", "api_group", "image_registry_regex", "namespace_name",
                 "pull_secret_name", "event_source", "system_workload", "service_cluster_ip",
                 "node_name_suffix"}
# A catalog `match` pattern with one of these characters is a regex; plain ones are names.
REGEX_CHARS = re.compile(r"[\\^$*+?()\[\]{}|]")

# Every component the seeds name (seed file -> names), and the role the seed describes.
SEED_COMPONENTS = {
    "000_38c768ac0fe26b54.txt": {  # AKS `kubectl get all -n kube-system`
        "azure-ip-masq-agent": "cni", "coredns": "dns", "coredns-autoscaler": "autoscaler",
        "csi-azuredisk-node": "csi", "csi-azuredisk-node-win": "csi", "csi-azurefile-node": "csi",
        "csi-azurefile-node-win": "csi", "konnectivity-agent": "api-tunnel", "kube-proxy": "kube-proxy",
        "metrics-server": "metrics", "kube-dns": "dns",
    },
    "001_bdd863a7ce4b57a1.txt": {  # kubeadm static pods and add-ons; EKS kube-dns
        "kube-apiserver": "control-plane", "kube-controller-manager": "control-plane",
        "kube-scheduler": "control-plane", "etcd": "control-plane", "coredns": "dns",
        "calico-kube-controllers": "cni", "calico-node": "cni", "kube-proxy": "kube-proxy",
        "kube-dns": "dns",
    },
    "002_3885748c96a80132.txt": {  # OKE kube-system
        "proxymux-client": "api-tunnel", "coredns": "dns", "kube-dns-autoscaler": "autoscaler",
        "kube-flannel-ds": "cni", "kube-proxy": "kube-proxy",
    },
    "003_7f31cab34a0d5b69.txt": {"kube-proxy": "kube-proxy"},
    "004_417db4bb012edb13.txt": {  # kubeadm static pod manifests, add-ons
        "kube-apiserver": "control-plane", "etcd": "control-plane", "kube-scheduler": "control-plane",
        "kube-controller-manager": "control-plane", "kube-proxy": "kube-proxy", "coredns": "dns",
        "weave-net": "cni",
    },
}


def _load(name: str, key: str) -> list[dict[str, Any]]:
    data = yaml.safe_load((DATA / name).read_text(encoding="utf-8"))
    assert isinstance(data, dict) and isinstance(data.get(key), list), f"{name}: a mapping with a `{key}` list"
    return data[key]


CATALOG = _load("catalog.yaml", "components")
CATALOG_NAMES = {str(e.get("name")) for e in CATALOG}
FINGERPRINTS = _load("fingerprints.yaml", "fingerprints")


def _match_score(pattern: str, name: str) -> tuple[int, int] | None:
    """The catalog.yaml header's rule: exact name > regex > `<pattern>-` prefix, then length."""
    if REGEX_CHARS.search(pattern):
        return (1, len(pattern)) if re.match(pattern, name) else None
    if name == pattern:
        return (3, len(pattern))
    if name.startswith(pattern + "-"):
        return (0, len(pattern))
    return None


def _catalog_entry_for(name: str) -> dict[str, Any] | None:
    scored = [(score, -i, entry) for i, entry in enumerate(CATALOG) for pattern in entry["match"]
              if (score := _match_score(pattern, name))]
    return max(scored, key=lambda s: (s[0], s[1]))[2] if scored else None


# --- catalog.yaml ----------------------------------------------------------------------------


@pytest.mark.parametrize("entry", CATALOG, ids=[str(e.get("name")) for e in CATALOG])
def test_catalog_entry_is_well_formed(entry: dict[str, Any]) -> None:
    assert set(entry) >= {"name", "match", "role", "distributions", "critical", "description"}
    assert set(entry) <= {"name", "match", "images", "role", "distributions", "critical", "description", "controller",
                          "user_installed", "managed_on", "managed_with", "family", "parts", "any_namespace"}
    assert entry.get("user_installed", True) is True  # said only where true
    assert entry.get("any_namespace", True) is True and (not entry.get("any_namespace") or entry["distributions"])
    assert entry.get("family", True) is True and (not entry.get("family") or not entry["distributions"])
    assert not entry.get("parts") or (entry.get("family") and re.compile(entry["parts"]))  # a family's only
    # managed_on: for a generic component only, naming known distributions
    assert not entry.get("managed_on") or (not entry["distributions"] and not entry.get("user_installed")
                                           and set(entry["managed_on"]) <= DISTRIBUTIONS)
    # managed_with: for a generic component only, naming known distributions and catalog components
    assert not entry.get("managed_with") or (not entry["distributions"] and set(entry["managed_with"]) <= DISTRIBUTIONS
                                             and all(n in CATALOG_NAMES for ns in entry["managed_with"].values() for n in ns))
    assert entry.get("controller", "Job") in ("Job", "DaemonSet", "Deployment", "StatefulSet")
    assert isinstance(entry["name"], str) and entry["name"]
    assert isinstance(entry["match"], list) and entry["match"]
    assert all(isinstance(p, str) and p for p in entry["match"] + entry.get("images", []))
    assert entry["role"] in ROLES
    assert isinstance(entry["distributions"], list) and set(entry["distributions"]) <= DISTRIBUTIONS
    assert isinstance(entry["critical"], bool)
    assert isinstance(entry["description"], str) and entry["description"] and "\n" not in entry["description"]
    for pattern in [p for p in entry["match"] if REGEX_CHARS.search(p)] + entry.get("images", []):
        re.compile(pattern)


def test_catalog_names_and_patterns_are_unique() -> None:
    names = [e["name"] for e in CATALOG]
    assert len(names) == len(set(names)), sorted({n for n in names if names.count(n) > 1})
    patterns = [p for e in CATALOG for p in e["match"]]
    assert len(patterns) == len(set(patterns)), sorted({p for p in patterns if patterns.count(p) > 1})


def test_catalog_covers_every_distribution() -> None:
    assert len(CATALOG) >= 80
    covered = {d for e in CATALOG for d in e["distributions"]}
    assert covered == DISTRIBUTIONS - {"vanilla"}  # vanilla runs only generic components


@pytest.mark.parametrize("seed", sorted(SEED_COMPONENTS))
def test_components_named_in_the_seeds_have_their_roles(seed: str) -> None:
    path = SEEDS / seed
    if not path.exists():
        pytest.skip(f"{path} is not beside the repository")
    text = path.read_text(encoding="utf-8")
    for name, role in SEED_COMPONENTS[seed].items():
        assert name in text, f"{seed} does not name {name}"
        entry = _catalog_entry_for(name)
        assert entry is not None, name
        assert entry["role"] == role, (name, entry["name"], entry["role"])


@pytest.mark.parametrize(("workload", "component"), [
    ("coredns-autoscaler", "coredns-autoscaler"),  # more specific than coredns
    ("kube-dns-autoscaler", "kube-dns-autoscaler"),  # more specific than kube-dns
    ("etcd-kube-master-node1", "etcd"),  # static pod <component>-<node>
    ("kube-apiserver-controlplane", "kube-apiserver"),
    ("rke2-coredns-rke2-coredns-autoscaler", "rke2-coredns-autoscaler"),
    ("svclb-traefik-8ea5448e", "svclb"),
    ("instance-manager-e-20c7e80d", "longhorn"),
    ("kube-proxy-gke-pool-1-abcd", "kube-proxy"),
    ("calico-node", "calico-node"),
])
def test_catalog_prefers_the_most_specific_pattern(workload: str, component: str) -> None:
    entry = _catalog_entry_for(workload)
    assert entry is not None and entry["name"] == component


def test_critical_seed_components_are_marked_critical() -> None:
    # The OKE seed shows what breaks without proxymux-client; DNS, kube-proxy and the CNI likewise.
    for name in ("proxymux-client", "coredns", "kube-proxy", "aws-node", "kube-flannel-ds", "calico-node",
                 "konnectivity-agent", "etcd", "kube-apiserver"):
        entry = _catalog_entry_for(name)
        assert entry is not None and entry["critical"] is True, name
    for name in ("coredns-autoscaler", "kube-dns-autoscaler", "metrics-server"):
        entry = _catalog_entry_for(name)
        assert entry is not None and entry["critical"] is False, name


# --- fingerprints.yaml ------------------------------------------------------------------------


@pytest.mark.parametrize("row", FINGERPRINTS, ids=[f"{r.get('distribution')}:{r.get('pattern')}" for r in FINGERPRINTS])
def test_fingerprint_row_is_well_formed(row: dict[str, Any]) -> None:
    assert {"distribution", "signal", "pattern", "weight", "note"} <= set(row) <= {
        "distribution", "signal", "pattern", "weight", "note", "with_base"}
    assert row.get("with_base", True) is True  # said only where true
    assert row["distribution"] in DISTRIBUTIONS
    assert row["signal"] in SIGNALS
    assert isinstance(row["pattern"], str) and row["pattern"]
    # (a negative weight: something the distribution never shows, counted against it)
    assert isinstance(row["weight"], int) and not isinstance(row["weight"], bool) and 1 <= abs(row["weight"]) <= 10
    assert isinstance(row["note"], str) and row["note"]
    if row["signal"] in REGEX_SIGNALS:
        re.compile(row["pattern"])


def test_fingerprint_rows_are_unique() -> None:
    keys = [(r["distribution"], r["signal"], r["pattern"]) for r in FINGERPRINTS]
    assert len(keys) == len(set(keys)), sorted({k for k in keys if keys.count(k) > 1})


def _weight(distribution: str, signal: str, pattern: str) -> int:
    return next(r["weight"] for r in FINGERPRINTS
                if (r["distribution"], r["signal"], r["pattern"]) == (distribution, signal, pattern))


def test_each_distribution_has_a_decisive_mark_except_kubeadm() -> None:
    decisive = {r["distribution"] for r in FINGERPRINTS if r["weight"] >= 8}
    assert decisive >= DISTRIBUTIONS - {"kubeadm", "vanilla"}
    # kubeadm's own marks also appear on kind, minikube, Docker Desktop and kURL: none is decisive,
    # except kURL's label, which only kubeadm-based kURL writes.
    assert {r["pattern"] for r in FINGERPRINTS if r["distribution"] == "kubeadm" and r["weight"] >= 8} == {"kurl.sh/"}
    # vanilla is the absence of marks; a row for it would be a mark.
    assert not [r for r in FINGERPRINTS if r["distribution"] == "vanilla"]


def test_false_friends_weigh_less_than_decisive_marks() -> None:
    # aws:// is any EC2 instance; -eks- builds and eks.amazonaws.com/ labels are EKS only.
    assert _weight("eks", "provider_id_prefix", "aws://") < 8
    assert _weight("eks", "provider_id_prefix", "aws://") < _weight("eks", "kubelet_version_regex", "-eks-(?![0-9]+-[0-9]+-[0-9]+$)")
    assert _weight("eks", "os_image_regex", "^Amazon Linux") <= 2
    # kubeadm's annotation and static pods appear on kind and minikube: their own marks outweigh them.
    kubeadm_marks = (_weight("kubeadm", "node_annotation_key_prefix", "kubeadm.alpha.kubernetes.io/")
                     + _weight("kubeadm", "workload_name", "^kube-apiserver-"))
    assert _weight("kind", "provider_id_prefix", "kind://") > kubeadm_marks / 2
    assert _weight("minikube", "node_label_key_prefix", "minikube.k8s.io/") > kubeadm_marks / 2
    assert _weight("oke", "provider_id_prefix", "oci://") < _weight("oke", "workload_name", "^proxymux-client")


# --- the data agrees with the sample dumps --------------------------------------------------------


def _sample_nodes(name: str) -> list[dict[str, Any]]:
    """Node objects of one sample dump, read straight from its files."""
    if name == "aks":
        return yaml.safe_load((SAMPLE_DUMPS / "aks" / "nodes.yaml").read_text(encoding="utf-8"))["items"]
    if name == "eks":
        text = (SAMPLE_DUMPS / "eks" / "cluster-info-dump.txt").read_text(encoding="utf-8")
        return json.JSONDecoder().raw_decode(text)[0]["items"]  # the NodeList comes first
    if name == "oke":
        return json.loads((SAMPLE_DUMPS / "oke" / "cluster-resources" / "nodes.json").read_text(encoding="utf-8"))["items"]
    return json.loads((SAMPLE_DUMPS / "kubeadm" / "nodes.json").read_text(encoding="utf-8"))["items"]


def _node_rows_matching(node: dict[str, Any], min_weight: int) -> set[str]:
    """Distributions whose node-level rows of at least `min_weight` match this node."""
    md, info = node["metadata"], node["status"]["nodeInfo"]
    labels, annotations = md.get("labels", {}), md.get("annotations", {})
    found = set()
    for r in FINGERPRINTS:
        if r["weight"] < min_weight:
            continue
        signal, pattern = r["signal"], r["pattern"]
        hit = (
            (signal == "provider_id_prefix" and node["spec"].get("providerID", "").startswith(pattern))
            or (signal == "node_label_key_prefix" and any(k.startswith(pattern) for k in labels))
            or (signal == "node_label" and any(f"{k}={v}" == pattern or k == pattern for k, v in labels.items()))
            or (signal == "node_annotation_key_prefix" and any(k.startswith(pattern) for k in annotations))
            or (signal == "kubelet_version_regex" and re.search(pattern, info["kubeletVersion"]))
            or (signal == "os_image_regex" and re.search(pattern, info["osImage"]))
            or (signal == "node_name_regex" and re.search(pattern, md["name"]))
        )
        if hit:
            found.add(r["distribution"])
    return found


@pytest.mark.parametrize("name", ["aks", "eks", "oke", "kubeadm"])
def test_sample_nodes_carry_only_their_own_strong_marks(name: str) -> None:
    for node in _sample_nodes(name):
        strong = _node_rows_matching(node, 5)
        if name == "kubeadm":
            assert strong == {"kubeadm"}, (node["metadata"]["name"], strong)
        else:
            assert strong == {name}, (node["metadata"]["name"], strong)
            assert _node_rows_matching(node, 9) == {name}
