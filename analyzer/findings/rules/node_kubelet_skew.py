"""Kubelets too far from the control plane's version (the supported version skew)."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import ev, stitched_reason
from analyzer.findings.types import Evidence, Finding, RuleMeta
from analyzer.findings.versions import cluster_version, minor_text, parse_version

RULE = RuleMeta(
    id="node-kubelet-skew", title="Kubelet version outside the supported skew", severity="warning",
    category="nodes", requires=("Node",),
    message="Node {name} runs kubelet {kubelet}, control plane is {control_plane}: {problem}",
    remediation="Upgrade the node (or its node pool) to within the supported skew: kubelets may not be newer than the API server, nor more than 2 minor versions older (3 from 1.28).",
)


def allowed_lag(control_plane_minor: int) -> int:
    """How many minor versions a kubelet may trail the API server (3 from 1.28, 2 before).

    >>> allowed_lag(27), allowed_lag(28)
    (2, 3)
    """
    return 3 if control_plane_minor >= 28 else 2


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    if stitched_reason(cluster):
        yield RULE.not_applicable(stitched_reason(cluster))
        return
    cp = cluster_version(cluster)
    if cp is None or "newest node" in cp.field:
        yield RULE.not_applicable("the control plane's version is not in the dump (no server version, no control-plane node)")
        return
    for node in cluster.objects_of("Node"):
        info = node.view.status.nodeInfo
        kubelet = parse_version(info.kubeletVersion if info else None)
        if kubelet is None:
            continue
        lag = cp.version[1] - kubelet[1]
        if kubelet[:2] > cp.version[:2]:
            problem = "the kubelet is newer than the API server"
        elif lag > allowed_lag(cp.version[1]):
            problem = f"{lag} minor versions behind (at most {allowed_lag(cp.version[1])} supported)"
        else:
            continue
        yield RULE.fail(node, ev(node, "status.nodeInfo.kubeletVersion", info.kubeletVersion,
                                 f">= {cp.version[0]}.{cp.version[1] - allowed_lag(cp.version[1])}, <= {minor_text(cp.version)}"),
                        Evidence(cp.field, cp.text, source=cp.source),
                        kubelet=info.kubeletVersion, control_plane=cp.text, problem=problem)
