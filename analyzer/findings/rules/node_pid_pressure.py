"""Nodes reporting the PIDPressure condition."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import age_at_capture, age_text, ev
from analyzer.findings.types import Finding, RuleMeta
from analyzer.kube.time import parse_time

RULE = RuleMeta(
    id="node-pid-pressure", title="Node under PID pressure", severity="warning",
    category="nodes", requires=("Node",),
    message="Node {name} reports PIDPressure=True since {since}: {detail}",
    remediation="A process is forking too many PIDs: find it (often a leaking app) and set pod PID limits.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    for node in cluster.objects_of("Node"):
        for cond in node.view.status.conditions or ():
            if cond.type == "PIDPressure" and cond.status == "True":
                since = age_at_capture(cluster, parse_time(cond.lastTransitionTime), node)
                yield RULE.fail(node, ev(node, "status.conditions[type=PIDPressure].status", "True", "False"),
                                since=f"{age_text(since)} before capture" if since else "an unknown time",
                                detail=": ".join(x for x in (cond.reason, cond.message) if x) or "no message")
