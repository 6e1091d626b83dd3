"""Deployments, DaemonSets and StatefulSets whose rollout a pasted `kubectl rollout status` saw not finish: the
Deployment exceeded its progress deadline, or kubectl's `--timeout` ran out while it waited; a
rollout kubectl still waited on where the paste ends is said as info. No object carries these
lines (kubernetes/kubernetes#95550: a CI log's `rollout status`, 'exceeded its progress deadline'
after '1 out of 2 new replicas have been updated', was not read)."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import holds_a_paste, quoted_pod
from analyzer.findings.types import Evidence, Finding, RuleMeta
from analyzer.ingest.rollouts import RolloutVerdict

RULE = RuleMeta(
    id="rollout-not-finished", title="Rollout that kubectl rollout status saw not finish", severity="warning",
    category="workloads",
    message="{kind} {workload}: `kubectl rollout status` {verdict}{progress} (line {line})",
    remediation="Look at the new ReplicaSet's pods (`kubectl get pods -l <selector>`, their events): an image "
    "that does not pull, a crash, a readiness probe that fails or no room to schedule keep new replicas from "
    "becoming available; `kubectl rollout undo` goes back to the revision that ran.",
)

_VERDICTS = {
    "timed out": ("said its rollout exceeded its progress deadline (Progressing=False, ProgressDeadlineExceeded)",
                  "error: exceeded its progress deadline"),
    "gave up": ("stopped waiting before its rollout finished (error: timed out waiting for the condition)",
                "error: timed out waiting for the condition"),
    "waiting": ("was still waiting for its rollout where the paste ends", "Waiting for rollout to finish"),
}


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    verdicts = list(getattr(cluster.ingest, "rollout_verdicts", None) or ())
    if not verdicts:
        if not holds_a_paste(cluster):
            yield RULE.not_applicable("the dump holds no pasted session to quote a `kubectl rollout status`")
        return
    for verdict in verdicts:
        if verdict.state not in _VERDICTS or _told_by_its_object(cluster, verdict):
            continue
        words, seen = _VERDICTS[verdict.state]
        evidence = Evidence("kubectl rollout status", seen, "successfully rolled out",
                            source=verdict.source, line=verdict.line)
        progress = f", its last wait: {verdict.said}" if verdict.said else ""
        finding = RULE.fail(None, evidence, kind=verdict.kind, namespace=verdict.namespace, name=verdict.name,
                            workload=quoted_pod(verdict.namespace, verdict.name), verdict=words,
                            progress=progress, line=verdict.line)
        yield finding.as_info() if verdict.state == "waiting" else finding


def _told_by_its_object(cluster: AnalyzedDump, verdict: RolloutVerdict) -> bool:
    """The dump holds the workload and its own conditions say its rollout timed out: that is
    deployment-unavailable's finding, with the counts the object states."""
    for obj in cluster.objects_of(verdict.kind):
        if obj.name != verdict.name or (verdict.namespace and obj.namespace != verdict.namespace):
            continue
        if any(c.type == "Progressing" and c.status == "False" and c.reason == "ProgressDeadlineExceeded"
               for c in obj.view.status.conditions or ()):
            return True
    return False
