"""Nodes on different container runtimes (docker vs containerd vs cri-o)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import ev, stitched_reason
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="node-mixed-runtimes", title="Nodes on different container runtimes", severity="info",
    category="nodes", requires=("Node",),
    message="Node {name} runs {runtime}, while most nodes run {usual} ({counts})",
    remediation="Move the odd nodes to the same runtime as the rest; mixed runtimes behave differently (logging, image handling, dockershim removal in 1.24).",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    if stitched_reason(cluster):
        yield RULE.not_applicable(stitched_reason(cluster))
        return
    runtimes = {}
    for node in cluster.objects_of("Node"):
        info = node.view.status.nodeInfo
        version = info.containerRuntimeVersion if info else None
        if version:
            runtimes[node.key] = (node, version.split("://")[0], version)
    counts = Counter(name for _n, name, _v in runtimes.values())
    if len(counts) < 2:
        return
    usual = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
    summary = ", ".join(f"{n} {name}" for name, n in sorted(counts.items()))
    for node, name, version in runtimes.values():
        if name != usual:
            yield RULE.fail(node, ev(node, "status.nodeInfo.containerRuntimeVersion", version, f"{usual}://..."),
                            runtime=version, usual=usual, counts=summary)
