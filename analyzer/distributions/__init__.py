"""Distributions stage: what cluster this is (AKS, EKS, OKE, kubeadm, ...), why, and its components.

`detect_distribution(cluster)` scores the fingerprints (fingerprints.yaml) against the dump and adds
the cluster facts; `build_components_table(cluster)` classifies system workloads by the catalog.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from analyzer.collector import collector_paused
from analyzer.distributions.catalog import Catalog, CatalogEntry, load_catalog
from analyzer.distributions.cluster_facts import fill_facts
from analyzer.distributions.components import build_components_table, classify
from analyzer.distributions.detector import detect
from analyzer.distributions.fingerprints import Fingerprint, load_fingerprints
from analyzer.distributions.profiles import load_profiles
from analyzer.distributions.result import (
    ControlPlane,
    Distribution,
    Evidence,
    NodeVerdict,
    RunnerUp,
)
from analyzer.distributions.workloads import component_workloads

if TYPE_CHECKING:
    from analyzer.model.dump import ModeledDump

__all__ = [
    "Catalog", "CatalogEntry", "ControlPlane", "Distribution", "Evidence", "Fingerprint",
    "NodeVerdict", "RunnerUp", "build_components_table", "detect_distribution", "load_catalog",
    "load_fingerprints",
]


def detect_distribution(cluster: ModeledDump) -> Distribution:
    """The cluster's distribution with its evidence, plus control plane, CNI, DNS and add-ons."""
    # Detection makes a few hundred thousand small objects and no cycles, with the dump alive:
    # a collection in the middle would walk them all (as in the graph's build).
    with collector_paused():
        profiles = load_profiles()
        result = detect(cluster)
        classified = classify(component_workloads(cluster, profiles), load_catalog())
        fill_facts(cluster, result, classified, profiles)
        return result
