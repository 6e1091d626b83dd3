"""Nodes marked unschedulable (cordoned): no new pods land there."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import ev, text_status
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="node-cordoned", title="Node cordoned", severity="info",
    category="nodes", requires=("Node",),
    message="Node {name} is cordoned (spec.unschedulable); {pods} pod(s) still run on it",
    remediation="If the maintenance is over, uncordon it (kubectl uncordon); a node left cordoned shrinks the cluster's capacity.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    per_node: dict[str, int] = {}
    for pod in cluster.objects_of("Pod"):
        if pod.view.spec.nodeName:
            per_node[pod.view.spec.nodeName] = per_node.get(pod.view.spec.nodeName, 0) + 1
    pods_known = cluster.covers("Pod")
    for node in cluster.objects_of("Node"):
        if node.view.spec.unschedulable:
            evidence = ev(node, "spec.unschedulable", True, False)
        elif "SchedulingDisabled" in (text_status(node) or ""):
            evidence = ev(node, "STATUS column", text_status(node), "Ready")
        else:
            continue
        yield RULE.fail(node, evidence, pods=per_node.get(node.name, 0) if pods_known else "unknown (pods not collected)")
