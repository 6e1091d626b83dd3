"""Pods failing to schedule, crashlooping or failing to pull, when the dump holds their events but
not the pods (a pasted `kubectl get events`): the events are then the only word on the pods."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import replace

from analyzer.findings.autoscaler import autoscaler_word
from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.events import NOT_NAMED, EventFact, events_by_object, findings_for_reasons
from analyzer.findings.facts import ev
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="events-pod-problem", title="Pod problems known only from events", severity="warning",
    category="events", requires=("Event",),
    message="{object}: {reason} {count} time(s), {first}last {age} (the dump holds no Pod to show its state): {last_message}{autoscaler}",
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
    events = events_by_object(cluster)
    for finding in findings_for_reasons(cluster, RULE, REASONS):
        if finding.kind == "Pod":
            yield _with_autoscaler(cluster, finding, events.get(("Pod", finding.namespace, finding.name), ()))
        elif finding.kind == "" and _about_a_pod(finding):
            # kubernetes#91600: "Evicted ... The node was low on resource: ephemeral-storage.
            # Container calico-node was using 92Ki" under a describe's Events heading alone
            source = finding.evidence[0].source if finding.evidence else None
            loose = [e for e in events.get(("", "", ""), ()) if e.event.provenance.source == source]
            yield _with_autoscaler(cluster, replace(finding, kind="Pod", name=NOT_NAMED), loose)


def _with_autoscaler(cluster: AnalyzedDump, finding: Finding, facts: Iterable[EventFact]) -> Finding:
    """A pod's FailedScheduling said with the cluster autoscaler's newest word on the pod (from
    its events, or from the same pasted Events naming no object): a node it is adding, or why it
    adds none (kubeflow/kubeflow#5260: TriggeredScaleUp 2->3 (max: 4); pluralsh/plural-artifacts#137:
    NotTriggerScaleUp, every node group tainted or not matching its affinity)."""
    word = autoscaler_word(cluster, facts) if finding.facts.get("reason") == "FailedScheduling" else None
    if word is None:
        return replace(finding, facts={**finding.facts, "autoscaler": ""})
    evidence = (*finding.evidence, ev(word.fact.event, f"Event.message ({word.fact.reason})", word.fact.message))
    groups = {"autoscaler_groups": list(word.groups)} if word.groups else {}
    return replace(finding, evidence=evidence, facts={**finding.facts, "autoscaler": f"; {word.text}", **groups})


def _about_a_pod(finding: Finding) -> bool:
    reason = str(finding.facts.get("reason", ""))
    return reason in _POD_ONLY_REASONS or _POD_WORDS.search(str(finding.facts.get("last_message", ""))) is not None
