"""Namespaces stuck in Terminating (finalizers or unreachable aggregated APIs), with what their
own conditions say holds them."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import age_at_capture, age_text, capture_is_lower_bound, ev
from analyzer.findings.types import Finding, RuleMeta
from analyzer.ingest.records import KubeObject
from analyzer.kube.time import parse_time

RULE = RuleMeta(
    id="namespace-terminating", title="Namespace stuck terminating", severity="warning",
    category="cluster", requires=("Namespace",),
    message="Namespace {name} has been Terminating {since}{why}",
    remediation="Look at the namespace's status.conditions: usually an unavailable APIService or a resource with a finalizer whose controller is gone.",
)

# The namespace controller's conditions that say, when True, what keeps it from finishing
# (pkg/controller/namespace/deletion: discovery, parsing or deleting content failed; content or
# finalizers remain)
_HOLDING = ("NamespaceDeletionDiscoveryFailure", "NamespaceDeletionGroupVersionParsingFailure",
            "NamespaceDeletionContentFailure", "NamespaceContentRemaining", "NamespaceFinalizersRemaining")


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    for ns in cluster.objects_of("Namespace"):
        if ns.view.status.phase == "Terminating":
            deleted = parse_time(ns.view.metadata.deletionTimestamp)
            age = age_at_capture(cluster, deleted, ns)
            yield RULE.fail(ns, ev(ns, "status.phase", "Terminating", "Active"), age=age_text(age),
                            since=_since(cluster, age, deleted), why=_why(ns))


def _since(cluster: AnalyzedDump, age: timedelta | None, deleted: datetime | None) -> str:
    """"for 2d"; "since <deletion> UTC, at least 5s before the capture" where the capture is dated
    only by the dump's own writes or status times (a creation, a condition's change, a container's
    start), so may be any time later (aws/containers-roadmap#1006: a namespace's `get -o yaml`
    alone, its own condition 5s after its deletion); "since <deletion> UTC" where the capture is
    unknown or not after the deletion by what the dump holds (the same namespace dated by its
    creation, 13 days before its deletion, was 'Terminating for 0s')."""
    if deleted is None:
        return "(since when, the dump does not say)"
    since = f"since {deleted:%Y-%m-%d %H:%M:%S} UTC"
    if age is None:
        return since
    if age.total_seconds() <= 0:
        return f"{since} (how long before the capture, the dump does not tell)"
    if capture_is_lower_bound(cluster):
        return f"{since}, at least {age_text(age)} before the capture"
    return f"for {age_text(age)}"


def _why(ns: KubeObject) -> str:
    """What the namespace's own conditions say holds its deletion: '; NamespaceDeletionDiscoveryFailure:
    Discovery failed for some groups, ...' ('' when they say nothing)."""
    said = [f"{c.type}: {' '.join((c.message or c.reason or '').split())}"
            for c in ns.view.status.conditions or () if c.type in _HOLDING and c.status == "True"]
    return "; " + "; ".join(said) if said else ""
