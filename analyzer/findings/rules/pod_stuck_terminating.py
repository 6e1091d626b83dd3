"""Pods marked for deletion long before the capture and still there (stuck finalizers, dead node)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import (
    age_at_capture,
    age_text,
    capture_is_lower_bound,
    ev,
    lasted_text,
)
from analyzer.findings.suspects import pod_suspects
from analyzer.findings.types import Finding, RuleMeta
from analyzer.ingest.records import KubeObject
from analyzer.kube.time import parse_time

RULE = RuleMeta(
    id="pod-stuck-terminating", title="Pod stuck terminating", severity="warning",
    category="workloads", requires=("Pod",),
    message="Pod {namespace}/{name} has been terminating for {lasted} ({where}, finalizers: {finalizers})",
    remediation="Check the node the pod ran on (NotReady nodes cannot confirm deletion) and any finalizers; force-delete only once the node is gone.",
)
GRACE = timedelta(minutes=10)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    deleting = pod_suspects(cluster).of("deleting")
    # a describe's `Terminating (lasts 18m)` says how long itself; a deletionTimestamp needs the
    # capture time to tell
    if cluster.capture_time is None and not any(_described_deletion(pod) is not None for pod in deleting):
        yield RULE.not_applicable("the dump's capture time is unknown")
        return
    for pod in deleting:
        meta = pod.view.metadata
        described = _described_deletion(pod)
        lower_bound = False
        if meta.deletionTimestamp is not None:
            age = age_at_capture(cluster, parse_time(meta.deletionTimestamp), pod)
            lower_bound = capture_is_lower_bound(cluster)
            evidence = ev(pod, "metadata.deletionTimestamp", meta.deletionTimestamp, f"gone within {age_text(GRACE)}")
        elif described is not None:
            age = described
            evidence = ev(pod, "Status (kubectl describe)", f"Terminating (lasts {age_text(age)})",
                          f"gone within {age_text(GRACE)}")
        else:
            continue
        if age is None or age < timedelta(0) or (age <= GRACE and not lower_bound):
            continue
        finding = RULE.fail(pod, evidence, age=age_text(age),
                            lasted=lasted_text(cluster, age) if lower_bound else age_text(age),
                            node=pod.view.spec.nodeName or "?", where=_where(pod), finalizers=_finalizers(pod))
        # within its grace by a capture that is a lower bound: how long it has lasted is not known
        yield finding if age > GRACE else finding.as_info()


def _described_deletion(pod: KubeObject) -> timedelta | None:
    """How long past its deletion time a described pod was (`Status: Terminating (lasts 18m)`)."""
    text = pod.view.text
    if text is None or text.deletion_ago_seconds is None:
        return None
    return timedelta(seconds=text.deletion_ago_seconds)


def _where(pod: KubeObject) -> str:
    """ "node N", or why no node is named, not "node ?": a paste that shows none, a pod whose
    spec the dump lacks, or a pod never scheduled (one a finalizer holds)."""
    v = pod.view
    if v.spec.nodeName:
        return f"node {v.spec.nodeName}"
    if v.text is not None:
        return "its node not shown in the paste"
    if any(c.type == "PodScheduled" and c.status == "False" for c in v.status.conditions or ()):
        return "on no node: never scheduled"
    if not v.spec.containers:
        return "its node not in the dump, which holds no spec of it"
    return "on no node"


def _finalizers(pod: KubeObject) -> str:
    """The pod's finalizers, as its object lists them (a describe or a table row prints none)."""
    if pod.view.metadata.finalizers:
        return ", ".join(pod.view.metadata.finalizers)
    return "not shown in the paste" if pod.view.text is not None else "none"
