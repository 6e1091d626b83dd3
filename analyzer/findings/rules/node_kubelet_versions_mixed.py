"""Nodes running different kubelet minor versions (an upgrade left half done)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import ev, stitched_reason
from analyzer.findings.types import Finding, RuleMeta
from analyzer.findings.versions import minor_text, parse_version

RULE = RuleMeta(
    id="node-kubelet-versions-mixed", title="Nodes on different kubelet minor versions", severity="info",
    category="nodes", requires=("Node",),
    message="Node {name} runs kubelet {kubelet}, older than the newest node's {newest} ({counts})",
    remediation="Finish the upgrade of the older nodes or node pools so every node runs the same minor version.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    if stitched_reason(cluster):
        yield RULE.not_applicable(stitched_reason(cluster))
        return
    versions = {}
    for node in cluster.objects_of("Node"):
        info = node.view.status.nodeInfo
        parsed = parse_version(info.kubeletVersion if info else None)
        if parsed:
            versions[node.key] = (node, parsed, info.kubeletVersion)
    minors = Counter(minor_text(v) for _n, v, _t in versions.values())
    if len(minors) < 2:
        return
    newest = max(v[:2] for _n, v, _t in versions.values())
    counts = ", ".join(f"{n} node(s) on {m}" for m, n in sorted(minors.items()))
    for node, parsed, text in versions.values():
        if parsed[:2] < newest:
            yield RULE.fail(node, ev(node, "status.nodeInfo.kubeletVersion", text, f"{newest[0]}.{newest[1]}.x"),
                            kubelet=text, newest=f"{newest[0]}.{newest[1]}", counts=counts)
