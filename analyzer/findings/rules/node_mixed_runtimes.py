"""Nodes on different container runtimes (docker vs containerd vs cri-o), among nodes of one OS."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import ev, stitched_reason
from analyzer.findings.types import Finding, RuleMeta
from analyzer.kube.platform import node_os

RULE = RuleMeta(
    id="node-mixed-runtimes", title="Nodes on different container runtimes", severity="info",
    category="nodes", requires=("Node",),
    message="Node {name} runs {runtime}, while {share} {peers} run {usual} ({counts})",
    remediation="Move the odd nodes to the same runtime as the rest of their OS; mixed runtimes behave differently (logging, image handling, dockershim removal in 1.24).",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    if stitched_reason(cluster):
        yield RULE.not_applicable(stitched_reason(cluster))
        return
    # A Windows pool's runtime is chosen apart from the Linux nodes' (docker or containerd on
    # Windows Server beside containerd on Linux is how such clusters are built): nodes are
    # compared with the nodes of their own OS only.
    by_os: dict[str, list] = defaultdict(list)
    for node in cluster.objects_of("Node"):
        info = node.view.status.nodeInfo
        version = info.containerRuntimeVersion if info else None
        if version:
            os_name = node_os(info, node.view.metadata.labels) or ""
            by_os[os_name].append((node, version.split("://")[0], version))
    mixed_os = len(by_os) > 1
    for os_name, runtimes in sorted(by_os.items()):
        counts = Counter(name for _n, name, _v in runtimes)
        if len(counts) < 2:
            continue
        usual = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
        summary = ", ".join(f"{n} {name}" for name, n in sorted(counts.items()))
        peers = f"{_os_title(os_name)} nodes" if mixed_os and os_name else "nodes"
        for node, name, version in runtimes:
            if name != usual:
                share = "most" if counts[usual] > counts[name] else "as many"
                yield RULE.fail(node, ev(node, "status.nodeInfo.containerRuntimeVersion", version, f"{usual}://..."),
                                runtime=version, usual=usual, counts=summary, share=share, peers=peers)


def _os_title(os_name: str) -> str:
    return {"linux": "Linux", "windows": "Windows"}.get(os_name, os_name)
