"""Nodes reporting the DiskPressure condition (or carrying its taint when the dump lacks the condition)."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.pressure import pressure_findings
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="node-disk-pressure", title="Node under disk pressure", severity="warning",
    category="nodes", requires=("Node",),
    message="Node {name} reports DiskPressure=True since {since}: {detail}",
    remediation="Free disk on the node (unused images, container logs, emptyDir volumes) or grow the disk; the kubelet evicts pods until it recovers.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    yield from pressure_findings(cluster, RULE, "DiskPressure")
