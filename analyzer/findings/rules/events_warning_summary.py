"""Warning events, summarised by reason and object, with how long before the capture they last fired."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.events import (
    NOT_NAMED,
    event_ago,
    event_facts,
    first_text,
    fold_events,
    resolved_reason,
    unnamed_node,
)
from analyzer.findings.facts import ev
from analyzer.findings.render import object_ref
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="events-warning-summary", title="Warning events", severity="info",
    category="events", requires=("Event",),
    message="{reason} on {subject}: {count} time(s), {first}last {age}: {last_message}",
    remediation="Read the events in time order around the incident; reasons with many repeats point at the failing component.",
)
# The warnings a kubelet records on its own node and on nothing else (k8s.io/kubernetes
# pkg/kubelet/events: SystemOOM, Rebooted, the image and container collectors', the eviction
# manager's): such a group that names no object is the node's whose kubelet sent it.
KUBELET_NODE_WARNINGS = frozenset({"SystemOOM", "Rebooted", "ContainerGCFailed", "ImageGCFailed",
                                    "FreeDiskSpaceFailed", "EvictionThresholdMet", "KubeletSetupFailed",
                                    "FailedNodeAllocatableEnforcement"})


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    warnings = [f for f in event_facts(cluster) if f.type == "Warning"]
    # Folded by object, reason and probe (liveness and readiness failures apart).
    for group in sorted(fold_events(warnings), key=lambda g: (g.reason, g.kind, g.namespace, g.name, g.probe)):
        last = group.last
        # (their kind known from their source alone: "HorizontalPodAutoscaler (not named by its events)")
        name = group.name or (NOT_NAMED if group.kind else "")
        kind = group.kind
        if not kind and not name and group.reason in KUBELET_NODE_WARNINGS \
                and (node := unnamed_node(cluster, group.reason)):
            # a warning a kubelet records on its own node only: that node's, as the node rules say
            kind, name = "Node", node
        finding = RULE.fail(None, ev(last.event, "reason", group.reason, "Normal events only"),
                            kind=kind, namespace=group.namespace, name=name,
                            reason=group.label, count=group.told_count, first=first_text(cluster, group),
                            # (a describe's Events pasted alone name no object)
                            subject=object_ref(kind, group.namespace, name) or "an object the events do not name",
                            age=event_ago(cluster, last), last_message=group.told_message[:300])
        resolved = resolved_reason(cluster, group)
        yield replace(finding, resolved=resolved) if resolved else finding
