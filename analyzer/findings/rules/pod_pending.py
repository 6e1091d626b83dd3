"""Pods the scheduler could not place, with the scheduler's own reason."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.events import event_ago, events_by_object
from analyzer.findings.facts import age_text, ev, object_age, text_status
from analyzer.findings.suspects import pod_suspects
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="pod-pending", title="Pod pending, not scheduled", severity="critical",
    category="workloads", requires=("Pod",),
    message="Pod {namespace}/{name} is Pending {placement}: {reason} ({reason_source})",
    remediation="Act on the scheduler's reason: free or add capacity, relax nodeSelector/affinity, add tolerations, or bind the pending volume.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    events_collected = cluster.covers("Event")
    events = events_by_object(cluster) if events_collected else {}
    no_nodes = cluster.covers("Node") and next(iter(cluster.objects_of("Node")), None) is None
    for pod in pod_suspects(cluster).of("pending", "text"):
        status = pod.view.status
        pending = status.phase == "Pending" or (status.phase is None and text_status(pod) == "Pending")
        if not pending or pod.view.spec.nodeName:
            continue
        evidence = [ev(pod, "status.phase", "Pending", "Running")]
        reason, source = None, None
        for cond in status.conditions or ():
            if cond.type == "PodScheduled" and cond.status == "False" and cond.message:
                reason, source = cond.message, "PodScheduled condition"
                evidence.append(ev(pod, "status.conditions[type=PodScheduled].message", cond.message))
        failed = [e for e in events.get(("Pod", pod.namespace, pod.name), ()) if e.reason == "FailedScheduling"]
        if failed:
            last = failed[-1]
            age = event_ago(cluster, last)
            evidence.append(ev(last.event, "Event.message (FailedScheduling)", last.message))
            if reason is None:
                reason, source = last.message, f"FailedScheduling event, {age}"
            else:
                source += f"; last FailedScheduling event {age}"
        if reason is None and no_nodes:
            reason, source = "no node is registered", "the dump lists nodes and holds none"
        if reason is None:
            reason = "no reason recorded"
            source = "events not collected" if not events_collected else "no scheduler condition or event"
        finding = RULE.fail(pod, *evidence, reason=reason, reason_source=source,
                            placement=_placement(pod, reason))
        age = object_age(cluster, pod)
        if reason == "no reason recorded" and age is not None and timedelta(0) <= age < _STARTING:
            # Seconds old, with nothing saying the scheduler failed: it may place it yet.
            finding = finding.as_info(resolved=f"created {age_text(age)} before capture: not yet placed, "
                                               "with no scheduler failure recorded")
        yield finding


# The scheduler places a pod within a second when a node fits; a minute without a recorded
# failure is still a cluster settling (nodes joining, a CNI being applied).
_STARTING = timedelta(minutes=1)


def _placement(pod, reason: str) -> str:
    """ "and not scheduled", unless all the dump has is a table row without a NODE column: a Pending
    pod may be bound and waiting for its kubelet (eks-cdk-blueprints#561), the row cannot say."""
    text = pod.view.text
    columns = text.columns if text is not None else None
    if reason == "no reason recorded" and columns is not None and "NODE" not in columns:
        return "(its table has no NODE column to say whether it is scheduled)"
    return "and not scheduled"
