"""StatefulSets with fewer ready pods than desired."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.replicas import short_of_ready
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="statefulset-unavailable", title="StatefulSet short of ready pods", severity="warning",
    category="workloads", requires=("StatefulSet",),
    message="StatefulSet {namespace}/{name} has {ready} of {desired} pods ready{detail}",
    remediation="Look at the StatefulSet's pods (pending, crashing, not ready) and its conditions; the pods' findings usually say why.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    return short_of_ready(cluster, RULE, "StatefulSet")
