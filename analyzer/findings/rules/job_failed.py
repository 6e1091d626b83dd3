"""Jobs that failed (backoff limit or deadline reached)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.events import event_ago, events_by_object
from analyzer.findings.facts import ev
from analyzer.findings.types import Finding, RuleMeta

if TYPE_CHECKING:
    from analyzer.ingest.records import KubeObject

RULE = RuleMeta(
    id="job-failed", title="Job failed", severity="warning",
    category="workloads", requires=("Job",),
    message="Job {namespace}/{name} failed: {reason} ({failed} failed pod(s), {succeeded} succeeded)",
    remediation="Read the failed pods' logs; raise backoffLimit or activeDeadlineSeconds only once the cause is fixed.",
)

# The job controller's Warning events when it gives a Job up (a `kubectl describe job` prints
# no conditions: its events and pod counts are what say it failed).
FAILED_EVENTS = frozenset({"BackoffLimitExceeded", "DeadlineExceeded", "MaxFailedIndexesExceeded",
                           "PodFailurePolicy"})
DEFAULT_BACKOFF_LIMIT = 6  # the API's default
# What a pasted Job row's STATUS says of a Job that failed (FailureTarget: failing, pods ending).
PASTED_FAILED = frozenset({"Failed", "FailureTarget"})


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    events = events_by_object(cluster) if cluster.covers("Event") else {}
    for job in cluster.objects_of("Job"):
        status = job.view.status
        counts = {"failed": status.failed or 0, "succeeded": status.succeeded or 0}
        conditions = status.conditions or ()
        failed_cond = next((c for c in conditions if c.type == "Failed" and c.status == "True"), None)
        if failed_cond is not None:
            yield RULE.fail(job, ev(job, "status.conditions[type=Failed].status", "True", "False"),
                            reason=": ".join(x for x in (failed_cond.reason, failed_cond.message) if x) or "Failed",
                            **counts)
            continue
        if any(c.type in ("Complete", "Failed") for c in conditions):
            continue  # its conditions tell, and say it did not fail
        row = job.view.text
        if row is not None and row.status in PASTED_FAILED:
            # kubectl 1.28+ prints a Job's state in STATUS (from its conditions)
            done = (row.columns or {}).get("COMPLETIONS")
            yield RULE.fail(job, ev(job, "STATUS column", row.status, "Complete or Running"),
                            reason=f"its pasted row says {row.status}" + (f", completions {done}" if done else ""),
                            failed="unknown", succeeded=counts["succeeded"])
            continue
        gave_up = [e for e in events.get(("Job", job.namespace, job.name), ())
                   if e.type == "Warning" and e.reason in FAILED_EVENTS]
        if gave_up:
            last = gave_up[-1]
            yield RULE.fail(job, ev(last.event, f"Event.message ({last.reason})", last.message),
                            reason=f"{last.reason}: {last.message} ({event_ago(cluster, last)})", **counts)
            continue
        if past_backoff_limit(job):
            limit = job.view.spec.backoffLimit
            limit = DEFAULT_BACKOFF_LIMIT if limit is None else limit
            yield RULE.fail(job, ev(job, "status.failed", counts["failed"], f"<= {limit} (spec.backoffLimit)"),
                            reason=f"more pods failed than its backoff limit ({limit}) allows, none runs",
                            **counts)


def past_backoff_limit(job: KubeObject) -> bool:
    """A Job with no conditions (a describe) whose failed pods passed its backoff limit, with
    none running and its completions not reached: the controller gave it up."""
    spec, status = job.view.spec, job.view.status
    if status.failed is None or status.active or status.completionTime:
        return False
    limit = spec.backoffLimit if spec.backoffLimit is not None else DEFAULT_BACKOFF_LIMIT
    completions = spec.completions if spec.completions is not None else 1
    return status.failed > limit and (status.succeeded or 0) < completions
