"""Pods failing to schedule, crashlooping or failing to pull, when the dump holds their events but
not the pods (a pasted `kubectl get events`): the events are then the only word on the pods."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.events import findings_for_reasons
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="events-pod-problem", title="Pod problems known only from events", severity="warning",
    category="events", requires=("Event",),
    message="{object}: {reason} {count} time(s), {first}last {age} (the dump holds no Pod to show its state): {last_message}",
    remediation="Collect the pods (`kubectl get pods -o yaml`, `kubectl describe pod`) to see their state now; "
    "the message names the usual cause: too few resources or a taint (FailedScheduling), a crash "
    "(BackOff restarting), a wrong image or pull secret (Failed, BackOff pulling).",
)
# The kubelet's and the scheduler's words for a pod that cannot run (FailedMount and FailedCreate
# have rules of their own, which fire whether the pods are in the dump or not).
REASONS = frozenset({"FailedScheduling", "BackOff", "Failed"})


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    if cluster.covers("Pod"):
        yield RULE.not_applicable("the dump holds the pods: the pod rules read their state")
        return
    for finding in findings_for_reasons(cluster, RULE, REASONS):
        if finding.kind == "Pod":
            yield finding
