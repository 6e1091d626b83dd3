"""Which namespaces a dump collected a kind for, so "missing" is only said where we could see."""

from __future__ import annotations

import weakref
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING

from analyzer.memo import once_per

if TYPE_CHECKING:
    from analyzer.findings.dump import AnalyzedDump


@dataclass(frozen=True, slots=True)
class NamespaceCoverage:
    """Where a kind was collected: every namespace (a cluster-wide list) or only some.

    `listed`: the kind came in a listing (a typed List, or a file or pasted table holding
    several objects), not only as single objects: a lone `get pod x -o yaml` says nothing about
    what else exists. A listed kind counts as collected for a namespace when the dump holds an object
    of that kind there, or when one file held it from several namespaces (an all-namespaces
    list, which covers the namespaces where it found nothing too).
    """

    kind: str
    collected: bool
    listed: bool
    all_namespaces: bool
    namespaces: frozenset[str]

    def covers(self, namespace: str) -> bool:
        return self.collected and self.listed and (self.all_namespaces or namespace in self.namespaces)


_COVERAGE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def namespace_coverage(cluster: AnalyzedDump, kind: str) -> NamespaceCoverage:
    """How far the dump collected `kind`, namespace by namespace (found once per cluster and
    kind: a dozen rules ask about Pods)."""
    try:
        known = _COVERAGE.setdefault(cluster, {})
    except TypeError:  # not weakly referable
        return _namespace_coverage(cluster, kind)
    if kind not in known:
        known[kind] = _namespace_coverage(cluster, kind)
    return known[kind]


def _namespace_coverage(cluster: AnalyzedDump, kind: str) -> NamespaceCoverage:
    if not cluster.covers(kind):
        return NamespaceCoverage(kind, False, False, False, frozenset())
    per_file: dict[str, set[str]] = defaultdict(set)
    for obj in cluster.objects_of(kind):
        per_file[obj.provenance.source].add(obj.namespace)
    listed = kind in cluster.ingest.collected_kinds
    if not listed:  # a file holding several objects is a listing (a List, a table, a dump)
        sizes = objects_per_file(cluster)
        listed = any(sizes[source] > 1 for source in per_file)
    namespaces = frozenset(ns for nss in per_file.values() for ns in nss)
    all_namespaces = any(len(nss) > 1 for nss in per_file.values())
    return NamespaceCoverage(kind, True, listed, all_namespaces, namespaces)


@once_per
def objects_per_file(cluster: AnalyzedDump) -> Counter[str]:
    """How many objects each file of the dump held (counted once per cluster: each kind that came
    with no listing of its own asks)."""
    return Counter(o.provenance.source for o in cluster.objects)


def listed_whole(cluster: AnalyzedDump, kind: str, namespace: str) -> bool:
    """Whether the dump lists every `kind` object of `namespace` ("" for a cluster-scoped kind):
    a structured listing, or a pasted `kubectl get` unfiltered (a `| grep` or a selector shows
    only the rows kept, so one it lacks may be there)."""
    coverage = namespace_coverage(cluster, kind)
    # (a cluster-scoped kind listed empty is listed whole: no object holds its namespace "")
    if not (coverage.covers(namespace) or (not namespace and coverage.collected and coverage.listed)):
        return False
    pasted = [o.view.text for o in cluster.objects_of(kind)
              if o.view.text is not None and (coverage.all_namespaces or o.namespace == namespace)]
    return not pasted or any(t.listed_whole for t in pasted)


def not_listed_reason(coverage: NamespaceCoverage) -> str:
    """Why absence of `coverage.kind` objects means nothing in this dump."""
    return (f"the dump holds {coverage.kind} objects only one by one, not as a listing, "
            f"so a {coverage.kind} it lacks may still exist")
