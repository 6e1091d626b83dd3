"""Nodes whose kubelet is not Ready (or has stopped reporting: Unknown)."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.cluster import Cluster
from analyzer.findings.facts import age_at_capture, age_text, ev, parse_time, text_status
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="node-not-ready", title="Node not Ready", severity="critical",
    category="nodes", requires=("Node",),
    message="Node {name} is {status} ({detail}), for {since}",
    remediation="Check the kubelet and container runtime on the node (journalctl -u kubelet), its network to the API server, and its resources.",
)


def check(cluster: Cluster) -> Iterator[Finding]:
    for node in cluster.objects_of("Node"):
        ready = next((c for c in node.view.status.conditions or () if c.type == "Ready"), None)
        if ready is not None and ready.status != "True":
            since = age_at_capture(cluster, parse_time(ready.lastTransitionTime), node)
            yield RULE.fail(node, ev(node, "status.conditions[type=Ready].status", ready.status, "True"),
                            status="NotReady" if ready.status == "False" else f"Ready={ready.status}",
                            detail=": ".join(x for x in (ready.reason, ready.message) if x) or "no message",
                            since=f"{age_text(since)} before capture" if since else "an unknown time")
        elif ready is None and (text_status(node) or "").startswith("NotReady"):
            yield RULE.fail(node, ev(node, "STATUS column", text_status(node), "Ready"),
                            status=text_status(node), detail="from the STATUS column", since="an unknown time")
