"""Nodes reporting the DiskPressure condition."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import age_at_capture, age_text, ev
from analyzer.findings.types import Finding, RuleMeta
from analyzer.kube.time import parse_time

RULE = RuleMeta(
    id="node-disk-pressure", title="Node under disk pressure", severity="warning",
    category="nodes", requires=("Node",),
    message="Node {name} reports DiskPressure=True since {since}: {detail}",
    remediation="Free disk on the node (unused images, container logs, emptyDir volumes) or grow the disk; the kubelet evicts pods until it recovers.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    for node in cluster.objects_of("Node"):
        for cond in node.view.status.conditions or ():
            if cond.type == "DiskPressure" and cond.status == "True":
                since = age_at_capture(cluster, parse_time(cond.lastTransitionTime), node)
                yield RULE.fail(node, ev(node, "status.conditions[type=DiskPressure].status", "True", "False"),
                                since=f"{age_text(since)} before capture" if since else "an unknown time",
                                detail=": ".join(x for x in (cond.reason, cond.message) if x) or "no message")
