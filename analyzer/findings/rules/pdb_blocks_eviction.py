"""PodDisruptionBudgets that allow no disruption at all (node drains and upgrades hang)."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import ev
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="pdb-blocks-eviction", title="PodDisruptionBudget allows no disruption", severity="warning",
    category="workloads", requires=("PodDisruptionBudget",),
    message="PodDisruptionBudget {namespace}/{name} allows 0 disruptions ({counts}): draining their nodes blocks",
    remediation="Scale the workload above the budget, or relax minAvailable/maxUnavailable, before draining or upgrading nodes.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    for pdb in cluster.objects_of("PodDisruptionBudget"):
        status = pdb.view.status or {}
        if "disruptionsAllowed" not in status or status.get("disruptionsAllowed") != 0:
            continue
        if "expectedPods" not in status and pdb.view.text is not None:
            # a `kubectl get pdb` row prints ALLOWED DISRUPTIONS, not the pods it counts: a budget
            # matching no pod allows 0 too, so that is said, not left out (canonical/bundle-kubeflow#1339)
            counts = "the listing does not count its pods: if it selects any, none of them may be evicted"
        elif (expected := status.get("expectedPods") or 0) > 0:
            counts = (f"{status.get('currentHealthy', 'an unknown number of')} healthy, "
                      f"{status.get('desiredHealthy', 'an unknown number of')} desired, {expected} expected pods")
        else:
            continue  # it matches no pod: nothing to evict
        yield RULE.fail(pdb, ev(pdb, "status.disruptionsAllowed", 0, ">= 1"), counts=counts,
                        expected=status.get("expectedPods"))
