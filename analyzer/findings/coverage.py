"""Which namespaces a dump collected a kind for, so "missing" is only said where we could see."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from analyzer.cluster import Cluster


@dataclass(frozen=True, slots=True)
class NamespaceCoverage:
    """Where a kind was collected: every namespace (a cluster-wide list) or only some.

    A kind counts as collected for a namespace when the dump holds an object of that kind there,
    or when one file held that kind from several namespaces (an all-namespaces list, which
    covers the namespaces where it found nothing too).
    """

    kind: str
    collected: bool
    all_namespaces: bool
    namespaces: frozenset[str]

    def covers(self, namespace: str) -> bool:
        return self.collected and (self.all_namespaces or namespace in self.namespaces)


def namespace_coverage(cluster: Cluster, kind: str) -> NamespaceCoverage:
    """How far the dump collected `kind`, namespace by namespace."""
    if not cluster.covers(kind):
        return NamespaceCoverage(kind, False, False, frozenset())
    per_file: dict[str, set[str]] = defaultdict(set)
    for obj in cluster.objects_of(kind):
        per_file[obj.provenance.source].add(obj.namespace)
    namespaces = frozenset(ns for nss in per_file.values() for ns in nss)
    all_namespaces = any(len(nss) > 1 for nss in per_file.values())
    return NamespaceCoverage(kind, True, all_namespaces, namespaces)
