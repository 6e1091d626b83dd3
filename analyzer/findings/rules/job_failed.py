"""Jobs that failed (backoff limit or deadline reached)."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import ev
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="job-failed", title="Job failed", severity="warning",
    category="workloads", requires=("Job",),
    message="Job {namespace}/{name} failed: {reason} ({failed} failed pod(s), {succeeded} succeeded)",
    remediation="Read the failed pods' logs; raise backoffLimit or activeDeadlineSeconds only once the cause is fixed.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    for job in cluster.objects_of("Job"):
        status = job.view.status
        failed_cond = next((c for c in status.conditions or ()
                            if c.type == "Failed" and c.status == "True"), None)
        if failed_cond is None:
            continue
        yield RULE.fail(job, ev(job, "status.conditions[type=Failed].status", "True", "False"),
                        reason=": ".join(x for x in (failed_cond.reason, failed_cond.message) if x) or "Failed",
                        failed=status.failed or 0, succeeded=status.succeeded or 0)
