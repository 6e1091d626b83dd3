"""Nodes the cluster autoscaler tainted for removal (ToBeDeletedByClusterAutoscaler) longer ago
than a removal takes: the removal stopped (the autoscaler restarted mid-way, or the cloud refused
the deletion), the node takes no new pod, and the autoscaler may hold its node group's scaling
meanwhile (kubernetes/autoscaler#5657, #3949)."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import ev, when_text
from analyzer.findings.removal import AUTOSCALER_TAINT, REMOVAL_STOPPED, removal_of
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="node-removal-stopped", title="Node removal by the cluster autoscaler stopped", severity="warning",
    category="nodes", requires=("Node",),
    message="Node {name} has carried the cluster autoscaler's " + AUTOSCALER_TAINT + " taint since {since}, "
            "longer than a removal takes ({minutes} minutes: its pods' 10 minutes to end, then the node's "
            "deletion): the removal stopped, the node takes no new pod, and the autoscaler may hold its node group",
    remediation="Read the cluster autoscaler's log around that time (a restart mid-removal, the cloud refusing the "
                "deletion); then delete the node from its node group, or remove the taint "
                "(kubectl taint node NODE " + AUTOSCALER_TAINT + "-) to keep it.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    for node in cluster.objects_of("Node"):
        if not node.view.spec.taints:
            continue
        removal = removal_of(cluster, node)
        if removal is None or not removal.stopped:
            continue
        yield RULE.fail(node, ev(node, f"spec.taints[{removal.index}]", removal.taint, "no removal taint"),
                        since=f"{removal.added:%Y-%m-%d %H:%M:%S} UTC, {when_text(cluster, removal.added, node)}",
                        minutes=int(REMOVAL_STOPPED.total_seconds() // 60))
