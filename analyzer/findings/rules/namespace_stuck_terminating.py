"""Namespaces stuck in Terminating (finalizers or unreachable aggregated APIs)."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import age_at_capture, age_text, ev
from analyzer.findings.types import Finding, RuleMeta
from analyzer.kube.time import parse_time

RULE = RuleMeta(
    id="namespace-terminating", title="Namespace stuck terminating", severity="warning",
    category="cluster", requires=("Namespace",),
    message="Namespace {name} has been Terminating for {age}",
    remediation="Look at the namespace's status.conditions: usually an unavailable APIService or a resource with a finalizer whose controller is gone.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    for ns in cluster.objects_of("Namespace"):
        if ns.view.status.phase == "Terminating":
            age = age_at_capture(cluster, parse_time(ns.view.metadata.deletionTimestamp), ns)
            yield RULE.fail(ns, ev(ns, "status.phase", "Terminating", "Active"), age=age_text(age))
