"""Deployments with fewer ready pods than desired, or whose rollout timed out."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.replicas import short_of_ready
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="deployment-unavailable", title="Deployment short of ready pods or its rollout timed out", severity="warning",
    category="workloads", requires=("Deployment",),
    message="Deployment {namespace}/{name} {state}{detail}",
    remediation="Look at the Deployment's pods (pending, crashing, not ready) and its conditions; the pods' findings usually say why.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    return short_of_ready(cluster, RULE, "Deployment")
