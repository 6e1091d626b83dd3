"""Nodes reporting the NetworkUnavailable condition."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import age_at_capture, age_text, ev
from analyzer.findings.types import Finding, RuleMeta
from analyzer.kube.time import parse_time

RULE = RuleMeta(
    id="node-network-unavailable", title="Node network unavailable", severity="critical",
    category="nodes", requires=("Node",),
    message="Node {name} reports NetworkUnavailable=True since {since}: {detail}",
    remediation="The CNI (or the cloud route controller) has not configured this node's network: check the CNI pods on the node and the routes.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    for node in cluster.objects_of("Node"):
        for cond in node.view.status.conditions or ():
            if cond.type == "NetworkUnavailable" and cond.status == "True":
                since = age_at_capture(cluster, parse_time(cond.lastTransitionTime), node)
                yield RULE.fail(node, ev(node, "status.conditions[type=NetworkUnavailable].status", "True", "False"),
                                since=f"{age_text(since)} before capture" if since else "an unknown time",
                                detail=": ".join(x for x in (cond.reason, cond.message) if x) or "no message")
