"""Pods failing to schedule, crashlooping or failing to pull, when the dump holds their events but
not the pods (a pasted `kubectl get events`): the events are then the only word on the pods."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.events import NOT_NAMED, findings_for_reasons
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="events-pod-problem", title="Pod problems known only from events", severity="warning",
    category="events", requires=("Event",),
    message="{object}: {reason} {count} time(s), {first}last {age} (the dump holds no Pod to show its state): {last_message}",
    remediation="Collect the pods (`kubectl get pods -o yaml`, `kubectl describe pod`) to see their state now; "
    "the message names the usual cause: too few resources or a taint (FailedScheduling), a crash "
    "(BackOff restarting), a wrong image or pull secret (Failed, BackOff pulling).",
)
# The kubelet's and the scheduler's words for a pod that cannot run, or was put out of its node
# (Evicted: the kubelet's eviction manager and the taint manager); FailedMount and FailedCreate
# have rules of their own, which fire whether the pods are in the dump or not.
REASONS = frozenset({"FailedScheduling", "BackOff", "Failed", "Evicted"})
# What makes an event that names no object (a describe's Events section pasted alone) a pod's:
# reasons only pods get, or the kubelet's words about a pod's containers and images.
_POD_ONLY_REASONS = frozenset({"FailedScheduling", "Evicted"})
_POD_WORDS = re.compile(r"\b(?:container|image|pod)\b", re.IGNORECASE)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    if cluster.covers("Pod"):
        yield RULE.not_applicable("the dump holds the pods: the pod rules read their state")
        return
    for finding in findings_for_reasons(cluster, RULE, REASONS):
        if finding.kind == "Pod":
            yield finding
        elif finding.kind == "" and _about_a_pod(finding):
            # kubernetes#91600: "Evicted ... The node was low on resource: ephemeral-storage.
            # Container calico-node was using 92Ki" under a describe's Events heading alone
            yield replace(finding, kind="Pod", name=NOT_NAMED)


def _about_a_pod(finding: Finding) -> bool:
    reason = str(finding.facts.get("reason", ""))
    return reason in _POD_ONLY_REASONS or _POD_WORDS.search(str(finding.facts.get("last_message", ""))) is not None
