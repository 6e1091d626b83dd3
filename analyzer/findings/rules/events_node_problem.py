"""A node's kubelet failing at its own housekeeping, known from its events: garbage collection
of containers or images, freeing disk, enforcing allocatable, and (when the dump holds no Node)
the node's disk, memory or PID pressure as its status events last told it. These events are about the node
(a describe of it, or `kubectl get events`), and repeat while the failure lasts."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.events import NOT_NAMED, findings_for_reasons
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="events-node-problem", title="Node kubelet failing its housekeeping (events)", severity="warning",
    category="events", requires=("Event",),
    message="Node {name}: {reason} {count} time(s), {first}last {age}: {last_message}",
    remediation="Look at the node's container runtime and disk (crictl ps -a / images, df): too many "
    "containers or images for the runtime's API, a full disk, or a runtime that does not answer.",
)
# The kubelet's Warning reasons about its node (k8s.io/kubernetes pkg/kubelet/events); SystemOOM
# has a rule of its own (events-node-oom). Not InvalidDiskCapacity: every kubelet logs it once as it
# starts ("invalid capacity 0 on image filesystem", before the runtime's image stats are in).
REASONS = frozenset({"ContainerGCFailed", "ImageGCFailed", "FreeDiskSpaceFailed",
                     "KubeletSetupFailed", "FailedNodeAllocatableEnforcement", "EvictionThresholdMet"})
# The kubelet's Normal events "Node X status is now: NodeHasDiskPressure" (and memory, PID):
# when the dump holds no Node to read its conditions from, the newest of them is the word on the
# node's pressure, until a later NodeHasNoDiskPressure (data/event_successors.yaml) says it ended
# (bsycorp/kind#15: a describe's Events alone, the node's disk pressure its last word).
PRESSURE_REASONS = frozenset({"NodeHasDiskPressure", "NodeHasInsufficientMemory", "NodeHasInsufficientPID"})


# The kubelet's own words for its node (kubelet_node_status.go: "Node %s status is now: %s";
# "Node %s has been rebooted, boot id: %s").
NODE_IN_MESSAGE = re.compile(r"^Node (\S+) (?:status is now: |has been rebooted\b)")


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    hosts = _kubelet_hosts(cluster)
    reasons = REASONS if cluster.covers("Node") else REASONS | PRESSURE_REASONS
    told = None
    for finding in findings_for_reasons(cluster, RULE, reasons):
        if finding.kind in ("Node", ""):
            # An Events section pasted alone does not name its object: these reasons are the
            # node's, and the kubelet that reports them runs on it (its host, or the node its
            # status events name).
            name = finding.name or hosts.get(str(finding.facts.get("reason")), "")
            if not name:
                told = _named_by_status_events(cluster) if told is None else told
                name = told or NOT_NAMED
            yield replace(finding, kind="Node", namespace="", name=name)


def _kubelet_hosts(cluster: AnalyzedDump) -> dict[str, str]:
    """reason -> the host of the kubelet that reported it, for events that name no object."""
    hosts: dict[str, str] = {}
    for obj in cluster.objects_of("Event"):
        view = obj.view
        involved = view.involvedObject
        if (view.reason in REASONS or view.reason in PRESSURE_REASONS) and not (involved and involved.name) and view.source and view.source.host:
            hosts.setdefault(view.reason, view.source.host)
    return hosts


def _named_by_status_events(cluster: AnalyzedDump) -> str:
    """The one node the kubelet's status messages among events that name no object speak of
    (k3s-io/k3s#6290: a describe's Events pasted alone, From `kubelet` with no host, "Node node1
    status is now: NodeHasNoDiskPressure"); '' when they name none, or more than one."""
    names = set()
    for obj in cluster.objects_of("Event"):
        view = obj.view
        involved = view.involvedObject
        if involved and involved.name:
            continue
        said = NODE_IN_MESSAGE.match(view.message or "")
        if said:
            names.add(said.group(1))
    return next(iter(names)) if len(names) == 1 else ""
