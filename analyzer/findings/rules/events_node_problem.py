"""A node's kubelet failing at its own housekeeping, known from its events: garbage collection
of containers or images, freeing disk, enforcing allocatable, and (when the dump holds no Node)
the node's disk, memory or PID pressure as its status events last told it. These events are about the node
(a describe of it, or `kubectl get events`), and repeat while the failure lasts."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.events import node_findings_for_reasons
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


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    reasons = REASONS if cluster.covers("Node") else REASONS | PRESSURE_REASONS
    return node_findings_for_reasons(cluster, RULE, reasons)
