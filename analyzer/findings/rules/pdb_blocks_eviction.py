"""PodDisruptionBudgets that allow no disruption at all (node drains and upgrades hang)."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import ev
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="pdb-blocks-eviction", title="PodDisruptionBudget allows no disruption", severity="warning",
    category="workloads", requires=("PodDisruptionBudget",),
    message="PodDisruptionBudget {namespace}/{name} allows 0 disruptions ({healthy} healthy, {desired} desired, {expected} expected pods): draining their nodes blocks",
    remediation="Scale the workload above the budget, or relax minAvailable/maxUnavailable, before draining or upgrading nodes.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    for pdb in cluster.objects_of("PodDisruptionBudget"):
        status = pdb.view.status or {}
        if "disruptionsAllowed" not in status:
            continue
        expected = status.get("expectedPods") or 0
        if status.get("disruptionsAllowed") == 0 and expected > 0:
            yield RULE.fail(pdb, ev(pdb, "status.disruptionsAllowed", 0, ">= 1"),
                            healthy=status.get("currentHealthy", "?"), desired=status.get("desiredHealthy", "?"),
                            expected=expected)
