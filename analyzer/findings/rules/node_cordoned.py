"""Nodes marked unschedulable (cordoned): no new pods land there. Also a node the paste shows
nothing else of, when kubectl's cordon or drain says it left it cordoned (`node/X already
cordoned`) and nothing later uncordoned it."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import ev, text_status
from analyzer.findings.types import Evidence, Finding, RuleMeta

RULE = RuleMeta(
    id="node-cordoned", title="Node cordoned", severity="info",
    category="nodes",
    message="Node {name} is cordoned (spec.unschedulable); {pods} pod(s) still run on it",
    remediation="If the maintenance is over, uncordon it (kubectl uncordon); a node left cordoned shrinks the cluster's capacity.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    quoted = list(getattr(cluster.ingest, "quoted_cordons", None) or ())
    if not cluster.covers("Node") and not quoted:
        yield RULE.not_applicable("the dump did not collect Node", missing="Node")
        return
    pods_known = cluster.covers("Pod")
    per_node: dict[str, int] | None = None

    def pods_on(name: str) -> int | str:
        nonlocal per_node
        if not pods_known:
            return "unknown (pods not collected)"
        if per_node is None:  # counted once, when a node is cordoned (most dumps have none)
            per_node = {}
            for pod in cluster.objects_of("Pod"):
                if pod.view.spec.nodeName:
                    per_node[pod.view.spec.nodeName] = per_node.get(pod.view.spec.nodeName, 0) + 1
        return per_node.get(name, 0)

    nodes = set()
    for node in cluster.objects_of("Node"):
        nodes.add(node.name)
        if node.view.spec.unschedulable:
            evidence = ev(node, "spec.unschedulable", True, False)
        elif "SchedulingDisabled" in (text_status(node) or ""):
            evidence = ev(node, "STATUS column", text_status(node), "Ready")
        else:
            continue
        yield RULE.fail(node, evidence, pods=pods_on(node.name))
    last: dict[str, object] = {}
    for said in quoted:
        last[said.node] = said  # in file order: the last word on a node is its state
    for name, said in last.items():
        if name in nodes or not said.cordoned:
            continue  # the node's own object says it (a row before the drain is restated by it)
        evidence = Evidence("kubectl cordon/drain", f"node/{name} cordoned", "uncordoned",
                            source=said.source, line=said.line)
        yield RULE.fail(None, evidence, kind="Node", namespace="", name=name, pods=pods_on(name))
