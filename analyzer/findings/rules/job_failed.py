"""Jobs that failed (backoff limit or deadline reached)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.events import event_ago, events_by_object
from analyzer.findings.facts import age_text, ev, object_age
from analyzer.findings.types import Finding, RuleMeta
from analyzer.memo import once_per

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
        finding = _failure(cluster, job, events)
        if finding is None:
            continue
        later = _later_run_completed(cluster, job, _runs_by_cronjob(cluster))
        yield finding.as_info(resolved=later) if later else finding


# A CronJob names its Jobs <cronjob>-<scheduled time in minutes since the epoch> (the cronjob
# controller's getJobName; a hash of the time in seconds before 1.21): a larger number, a later run.
_SCHEDULED = re.compile(r"^(.+)-(\d{8,})$")


def _cronjob_of(job: KubeObject) -> tuple[str, int | None] | None:
    """(the CronJob that made the Job, its run's scheduled number), from its owner or its name."""
    named = _SCHEDULED.match(job.name)
    owner = next((o.name for o in job.view.metadata.ownerReferences or () if o.kind == "CronJob" and o.name), None)
    if owner is None and named is None:
        return None
    return (owner or named.group(1)), (int(named.group(2)) if named is not None else None)


def _order(cluster: AnalyzedDump, job: KubeObject, number: int | None) -> tuple[int, float] | None:
    """How to order runs of one CronJob: by their scheduled number, else by how old they were."""
    if number is not None:
        return 0, float(number)
    age = object_age(cluster, job)
    return (1, -age.total_seconds()) if age is not None else None


def _completed(job: KubeObject) -> bool:
    """Whether the Job ran to completion: its Complete condition, its succeeded pods, or what
    its pasted row says (STATUS Complete, COMPLETIONS 3/3)."""
    status, row = job.view.status, job.view.text
    if any(c.type == "Complete" and c.status == "True" for c in status.conditions or ()):
        return True
    if row is not None:
        done, _, wanted = str((row.columns or {}).get("COMPLETIONS") or "").partition("/")
        return row.status == "Complete" or (done.isdigit() and done == wanted and int(done) > 0)
    completions = job.view.spec.completions if job.view.spec.completions is not None else 1
    return bool(status.completionTime) and (status.succeeded or 0) >= completions


@once_per
def _runs_by_cronjob(cluster: AnalyzedDump) -> dict[tuple[str, str], list[tuple[Any, KubeObject]]]:
    """(namespace, CronJob) -> its Jobs with their order, of every Job a CronJob made."""
    runs: dict[tuple[str, str], list[tuple[Any, KubeObject]]] = {}
    for job in cluster.objects_of("Job"):
        made = _cronjob_of(job)
        if made is not None:
            runs.setdefault((job.namespace, made[0]), []).append((made[1], job))
    return runs


def _later_run_completed(cluster: AnalyzedDump, job: KubeObject,
                         runs: dict[tuple[str, str], list[tuple[Any, KubeObject]]]) -> str:
    """Why a failed Job of a CronJob is history ('' when it is not): a later run of the same
    CronJob completed (the failed Job stays, kept by failedJobsHistoryLimit, after the runs
    since succeeded: CrunchyData/postgres-operator#3444, a backup Job 0/1 167m old under
    three completed runs of 2m46s, 106s and 46s)."""
    made = _cronjob_of(job)
    if made is None:
        return ""
    siblings = runs.get((job.namespace, made[0]), [])
    # orders compare only of one kind: both scheduled numbers, or both ages
    mine = _order(cluster, job, made[1] if all(n is not None for n, _ in siblings) else None)
    later = []
    for number, other in siblings:
        theirs = _order(cluster, other, number if mine is not None and mine[0] == 0 else None)
        if other is not job and mine is not None and theirs is not None and theirs > mine and _completed(other):
            later.append((theirs, other))
    if not later:
        return ""
    _, newest = max(later, key=lambda t: t[0])
    age = object_age(cluster, newest)
    return (f"a later run of CronJob {made[0]}, Job {newest.name}"
            + (f" ({age_text(age)} old)" if age is not None else "") + ", completed")


def _failure(cluster: AnalyzedDump, job: KubeObject, events: dict[Any, list[Any]]) -> Finding | None:
    """The Job's failure finding, or None when it did not fail."""
    status = job.view.status
    counts = {"failed": status.failed or 0, "succeeded": status.succeeded or 0}
    conditions = status.conditions or ()
    failed_cond = next((c for c in conditions if c.type == "Failed" and c.status == "True"), None)
    if failed_cond is not None:
        return RULE.fail(job, ev(job, "status.conditions[type=Failed].status", "True", "False"),
                         reason=": ".join(x for x in (failed_cond.reason, failed_cond.message) if x) or "Failed",
                         **counts)
    if any(c.type in ("Complete", "Failed") for c in conditions):
        return None  # its conditions tell, and say it did not fail
    row = job.view.text
    if row is not None and row.status in PASTED_FAILED:
        # kubectl 1.28+ prints a Job's state in STATUS (from its conditions)
        done = (row.columns or {}).get("COMPLETIONS")
        return RULE.fail(job, ev(job, "STATUS column", row.status, "Complete or Running"),
                         reason=f"its pasted row says {row.status}" + (f", completions {done}" if done else ""),
                         failed="unknown", succeeded=counts["succeeded"])
    gave_up = [e for e in events.get(("Job", job.namespace, job.name), ())
               if e.type == "Warning" and e.reason in FAILED_EVENTS]
    if gave_up:
        last = gave_up[-1]
        return RULE.fail(job, ev(last.event, f"Event.message ({last.reason})", last.message),
                         reason=f"{last.reason}: {last.message} ({event_ago(cluster, last)})", **counts)
    if past_backoff_limit(job):
        limit = job.view.spec.backoffLimit
        limit = DEFAULT_BACKOFF_LIMIT if limit is None else limit
        return RULE.fail(job, ev(job, "status.failed", counts["failed"], f"<= {limit} (spec.backoffLimit)"),
                         reason=f"more pods failed than its backoff limit ({limit}) allows, none runs",
                         **counts)
    if row is not None and (pods := _pasted_pods_all_failed(cluster, job)):
        done = (row.columns or {}).get("COMPLETIONS")
        shown = ", ".join(sorted({str(p.view.text.status) for p in pods}))
        newest = min(object_age(cluster, p) for p in pods)
        return RULE.fail(job, *(ev(p, "STATUS column", p.view.text.status, "Running or Completed") for p in pods[:3]),
                         reason=f"its pasted row says completions {done} and its {len(pods)} pod(s) ended {shown}, "
                                f"the newest {age_text(newest)} old, none since (a Job still retrying has a pod "
                                f"younger than {age_text(RETRY_WITHIN)})",
                         failed=len(pods), succeeded=0)
    return None


# The job controller's back-off between a failed pod and the next is at most 6 minutes (10s
# doubled, capped): a Job still retrying has a pod younger than that and a margin.
RETRY_WITHIN = timedelta(minutes=10)
# What a pasted pod row's STATUS says of a pod whose containers ended and are not restarted.
_ENDED_FAILED = frozenset({"Error", "OOMKilled", "ContainerCannotRun", "StartError", "Failed",
                           "DeadlineExceeded", "ContainerStatusUnknown"})
# A Job's pods are named <job>-<5 random characters>.
_JOB_POD = re.compile(r"^(.+)-[a-z0-9]{5}$")


def _pasted_pods_all_failed(cluster: AnalyzedDump, job: KubeObject) -> list[KubeObject]:
    """The pasted pods of a pasted Job row that has not completed, when every one of them
    ended with a failure and the newest is older than RETRY_WITHIN ([] otherwise): a table
    shows no Failed condition (kubectl before 1.28 printed no STATUS for a Job), its pods do
    (CrunchyData/postgres-operator#3444: `0/1  167m  167m`, its pod `0/1  Error  0  174m`)."""
    row = job.view.text
    done, _, wanted = str((row.columns or {}).get("COMPLETIONS") or "").partition("/")
    if not (done.isdigit() and wanted.isdigit() and int(done) < int(wanted)) \
            or row.status not in (None, *PASTED_FAILED):
        return []
    pods = _pods_by_job_name(cluster).get((job.namespace, job.name), [])
    ages = [object_age(cluster, p) for p in pods]
    if not pods or any(p.view.text is None or p.view.text.status not in _ENDED_FAILED for p in pods) \
            or any(age is None or age < RETRY_WITHIN for age in ages):
        return []
    return pods


@once_per
def _pods_by_job_name(cluster: AnalyzedDump) -> dict[tuple[str, str], list[KubeObject]]:
    """(namespace, the Job its name says made it) -> the pods, walked once however many Jobs ask."""
    found: dict[tuple[str, str], list[KubeObject]] = {}
    for pod in cluster.objects_of("Pod"):
        if (named := _JOB_POD.match(pod.name)) is not None:
            found.setdefault((pod.namespace, named.group(1)), []).append(pod)
    return found


def past_backoff_limit(job: KubeObject) -> bool:
    """A Job with no conditions (a describe) whose failed pods passed its backoff limit, with
    none running and its completions not reached: the controller gave it up."""
    spec, status = job.view.spec, job.view.status
    if status.failed is None or status.active or status.completionTime:
        return False
    limit = spec.backoffLimit if spec.backoffLimit is not None else DEFAULT_BACKOFF_LIMIT
    completions = spec.completions if spec.completions is not None else 1
    return status.failed > limit and (status.succeeded or 0) < completions
