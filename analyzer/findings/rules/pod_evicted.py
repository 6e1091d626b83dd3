"""Pods the kubelet evicted (node pressure), left behind as Failed."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import ev, text_status
from analyzer.findings.suspects import pod_suspects
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="pod-evicted", title="Pod evicted", severity="warning",
    category="workloads", requires=("Pod",),
    message="Pod {namespace}/{name} was evicted from node {node}: {detail}",
    remediation="Evictions follow node pressure (memory, disk, PIDs): set requests close to real usage and check the node's conditions; delete the leftover pods.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    for pod in pod_suspects(cluster).of("reason", "text"):
        status = pod.view.status
        if status.reason == "Evicted":
            yield RULE.fail(pod, ev(pod, "status.reason", "Evicted", "not evicted"),
                            node=pod.view.spec.nodeName or "?", detail=status.message or "no message")
        elif status.reason is None and text_status(pod) == "Evicted":
            yield RULE.fail(pod, ev(pod, "STATUS column", "Evicted", "Running"),
                            node=pod.view.spec.nodeName or "?", detail="from the STATUS column")
