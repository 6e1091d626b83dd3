"""Nodes reporting the MemoryPressure condition (or carrying its taint when the dump lacks the condition)."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.pressure import pressure_findings
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="node-memory-pressure", title="Node under memory pressure", severity="warning",
    category="nodes", requires=("Node",),
    message="Node {name} reports MemoryPressure=True since {since}: {detail}",
    remediation="The kubelet is evicting pods: find the pods using the most memory on this node, set memory requests close to usage, or add memory.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    yield from pressure_findings(cluster, RULE, "MemoryPressure")
