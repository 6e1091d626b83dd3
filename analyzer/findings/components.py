"""The system components the distribution stage classified, as the cluster rules need them."""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

import pandas as pd

from analyzer.findings.versions import DATA
from analyzer.safeyaml import load_yaml

if TYPE_CHECKING:
    from analyzer.findings.dump import AnalyzedDump


class ComponentsUnavailable(Exception):
    """The distribution stage could not classify components for this dump (reason in args)."""


def components(cluster: AnalyzedDump) -> pd.DataFrame:
    """The `components` table's system workloads (one row each with role, critical, healthy).

    Its ClusterOperator rows are left out: an operator's conditions are object-condition-bad's
    to judge (one finding per cause), and an operator says its role is filled, not that a
    workload the rules look for runs."""
    try:
        from analyzer.distributions import build_components_table
    except ImportError as exc:
        raise ComponentsUnavailable(f"component classification is unavailable ({exc})") from None
    try:
        table = cluster.tables["components"]
    except KeyError:
        table = build_components_table(cluster)
    operators = table["kind"] == "ClusterOperator"
    return table[~operators].reset_index(drop=True) if operators.any() else table


def running_components(cluster: AnalyzedDump) -> frozenset[str]:
    """The catalog components the dump runs, by name (what `platform_of` asks `managed_with` of)."""
    return frozenset(c for c in components(cluster)["component"].tolist() if isinstance(c, str))


def distribution_name(cluster: AnalyzedDump) -> str | None:
    """The detected distribution's name (None when detection is unavailable)."""
    try:
        return getattr(cluster.distribution, "name", None)
    except ImportError:
        return None


@cache
def expected_roles() -> dict[str, tuple[str, ...]]:
    """Distribution -> roles it cannot work without, from data/expected_components.yaml."""
    return {dist: tuple(roles) for dist, roles in _expected_components().items()}


def role_namespaces(distribution: str, role: str) -> tuple[str, ...]:
    """The namespaces other than kube-system a distribution runs a role in (OpenShift's DNS in
    openshift-dns); () where it runs it in kube-system."""
    return _expected_components().get(distribution, {}).get(role, ())


@cache
def _expected_components() -> dict[str, dict[str, tuple[str, ...]]]:
    """Distribution -> role -> its namespaces outside kube-system (a list of roles: none)."""
    raw = load_yaml((DATA / "expected_components.yaml").read_text(encoding="utf-8"))
    return {str(dist): ({str(role): () for role in roles} if isinstance(roles, list)
                        else {str(role): tuple(str(n) for n in namespaces or ()) for role, namespaces in roles.items()})
            for dist, roles in raw.items()}


def roles_run_by_nodes(cluster: AnalyzedDump, distribution: str | None) -> tuple[tuple[str, ...], str]:
    """(roles, why) the distribution's nodes run as their own processes where every node of the
    dump is such a node (data/node_run_components.yaml); ((), '') otherwise or with no node."""
    spec = _node_run_components().get(distribution or "")
    nodes = list(cluster.objects_of("Node"))
    if not spec or not nodes:
        return (), ""
    labels = [tuple(item.split("=", 1)) for item in spec.get("node_labels") or ()]
    images = [re.compile(pattern) for pattern in spec.get("os_images") or ()]
    for node in nodes:
        have = node.view.metadata.labels or {}
        image = (node.view.status.nodeInfo.osImage if node.view.status.nodeInfo else None) or ""
        if not any(have.get(key) == value for key, value in labels) and not any(p.search(image) for p in images):
            return (), ""
    roles = tuple(str(role) for role in spec.get("roles") or ())
    return roles, f"every node is an {spec.get('nodes')} node, which runs its {', '.join(roles)} as its own processes, not as pods"


@cache
def _node_run_components() -> dict[str, dict]:
    return load_yaml((DATA / "node_run_components.yaml").read_text(encoding="utf-8")) or {}


# Distributions whose name is an acronym (the rest are said as they are written: k3s, kind, ...).
_ACRONYMS = frozenset({"aks", "eks", "oke", "gke", "doks", "rke2", "aro"})


def spoken_name(distribution: str) -> str:
    """A distribution's name as a sentence says it: AKS, OKE, RKE2; k3s, kubeadm, openshift."""
    return distribution.upper() if distribution in _ACRONYMS else distribution


def tunnel_names(cluster: AnalyzedDump) -> list[str]:
    """The components through which this distribution's API server reaches its nodes (the
    catalog's api-tunnel role): those the dump runs first, else every one the catalog names for
    the distribution ([] where it has none, as on EKS and kubeadm)."""
    from analyzer.distributions.catalog import load_catalog

    dist = distribution_name(cluster)
    if not dist:
        return []
    known = [e.name for e in load_catalog().entries if e.role == "api-tunnel" and dist in e.distributions]
    try:
        table = components(cluster)
        running = {str(n) for n, role in zip(table["component"], table["role"], strict=True) if role == "api-tunnel"}
    except (ComponentsUnavailable, KeyError):
        running = set()
    return [n for n in known if n in running] or known
