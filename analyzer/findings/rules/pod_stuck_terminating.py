"""Pods marked for deletion long before the capture and still there (stuck finalizers, dead node)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import age_at_capture, age_text, ev
from analyzer.findings.suspects import pod_suspects
from analyzer.findings.types import Finding, RuleMeta
from analyzer.kube.time import parse_time

RULE = RuleMeta(
    id="pod-stuck-terminating", title="Pod stuck terminating", severity="warning",
    category="workloads", requires=("Pod",),
    message="Pod {namespace}/{name} has been terminating for {age} (node {node}, finalizers: {finalizers})",
    remediation="Check the node the pod ran on (NotReady nodes cannot confirm deletion) and any finalizers; force-delete only once the node is gone.",
)
GRACE = timedelta(minutes=10)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    if cluster.capture_time is None:
        yield RULE.not_applicable("the dump's capture time is unknown")
        return
    for pod in pod_suspects(cluster).of("deleting"):
        meta = pod.view.metadata
        if meta.deletionTimestamp is None:
            continue  # not being deleted (nearly every pod)
        age = age_at_capture(cluster, parse_time(meta.deletionTimestamp), pod)
        if age is not None and age > GRACE:
            yield RULE.fail(pod, ev(pod, "metadata.deletionTimestamp", meta.deletionTimestamp,
                                    f"gone within {age_text(GRACE)}"),
                            age=age_text(age), node=pod.view.spec.nodeName or "?",
                            finalizers=", ".join(meta.finalizers or ()) or "none")
