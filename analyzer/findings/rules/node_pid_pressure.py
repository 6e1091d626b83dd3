"""Nodes reporting the PIDPressure condition (or carrying its taint when the dump lacks the condition)."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.pressure import pressure_findings
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="node-pid-pressure", title="Node under PID pressure", severity="warning",
    category="nodes", requires=("Node",),
    message="Node {name} reports PIDPressure=True since {since}: {detail}",
    remediation="A process is forking too many PIDs: find it (often a leaking app) and set pod PID limits.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    yield from pressure_findings(cluster, RULE, "PIDPressure")
