"""Jobs that failed (backoff limit or deadline reached)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.events import event_ago, events_by_object
from analyzer.findings.facts import age_text, ev, lasted_text, object_age
from analyzer.findings.types import Finding, RuleMeta
from analyzer.memo import once_per

if TYPE_CHECKING:
    from analyzer.ingest.records import KubeObject

RULE = RuleMeta(
    id="job-failed", title="Job failed", severity="warning",
    category="workloads", requires_any=("Job", "Pod"),
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
    if not cluster.covers("Job"):
        # the Jobs were not collected (a pasted `get pods`): their pods say how they went
        yield from _jobs_told_by_their_pods(cluster)
        return
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


# The job-name labels a Job sets on its pods (the second before 1.27).
_JOB_LABELS = ("batch.kubernetes.io/job-name", "job-name")
# A ReplicaSet's pods are <rs>-<5>, the ReplicaSet <deployment>-<pod-template-hash>: a hash spelled
# in the safe alphabet (no vowels, no 0, 1, 3), with a letter. A name stem ending so is not a Job's.
_TEMPLATE_HASH = re.compile(r"-(?=[0-9]*[a-z])[bcdfghjklmnpqrstvwxz2456789]{6,10}$")


def _job_named(pod: KubeObject) -> tuple[str, bool] | None:
    """(the Job that made the pod, whether its owner or label says so rather than its name)."""
    meta = pod.view.metadata
    if meta.ownerReferences:
        owner = next((o.name for o in meta.ownerReferences if o.kind == "Job" and o.name), None)
        return (owner, True) if owner else None
    labels = meta.labels or {}
    label = next((str(labels[k]) for k in _JOB_LABELS if labels.get(k)), None)
    if label:
        return label, True
    if pod.view.text is None or (named := _JOB_POD.match(pod.name)) is None \
            or _TEMPLATE_HASH.search(named.group(1)):
        return None
    return named.group(1), False


def _ended(pod: KubeObject) -> str:
    """'failed', 'completed', or '' for a pod still at work (or one a pasted row cannot say)."""
    row = pod.view.text
    if row is not None and row.status:
        if row.status in _ENDED_FAILED:
            return "failed"
        return "completed" if row.status == "Completed" else ""
    phase = pod.view.status.phase
    if phase == "Failed" and pod.view.status.reason != "Evicted":  # an eviction is pod-evicted's
        return "failed"
    return "completed" if phase == "Succeeded" else ""


def _jobs_told_by_their_pods(cluster: AnalyzedDump) -> Iterator[Finding]:
    """The Jobs of a dump that holds their pods and not them (kubernetes/kubernetes#96630: a
    `kubectl get po` of test-job's pods, 5 Error and 3 Completed, no Job pasted): a Job none of
    whose pods runs, whose pods failed more often than they completed, or whose newest pod failed
    and none came after it in RETRY_WITHIN, failed or gave up."""
    from analyzer.findings.suspects import pod_suspects

    failing = {(p.namespace, job[0]) for p in pod_suspects(cluster).of("exited", "reason", "text")
               if _ended(p) == "failed" and (job := _job_named(p)) is not None}
    if not failing:
        return
    groups: dict[tuple[str, str], list[tuple[KubeObject, bool]]] = {}
    for pod in cluster.objects_of("Pod"):
        job = _job_named(pod)
        if job is not None:  # every Job's pods: a later run of a CronJob may be among them
            groups.setdefault((pod.namespace, job[0]), []).append((pod, job[1]))
    for namespace, job in sorted(failing):
        finding = _told_by_pods(cluster, namespace, job, groups[namespace, job])
        if finding is not None:
            later = _later_run_told(cluster, namespace, job, groups)
            yield finding.as_info(resolved=later) if later else finding


def _told_by_pods(cluster: AnalyzedDump, namespace: str, job: str,
                  members: list[tuple[KubeObject, bool]]) -> Finding | None:
    pods = [p for p, _ in members]
    ends = [_ended(p) for p in pods]
    if "" in ends:
        return None  # a pod still at work: the Job runs on, its pod rules judge it
    # by its name alone a pod is a Job's only when it ended as Job pods do: not restarted in place
    # (a DaemonSet's pod `<ds>-<5>` shows Error between its restarts)
    if not all(sure or (p.view.text is not None and not p.view.text.restarts) for p, sure in members):
        return None
    failed = [p for p, end in zip(pods, ends, strict=True) if end == "failed"]
    done = len(pods) - len(failed)
    shown = ", ".join(sorted({_shown_end(p) for p in failed}))
    ages = {id(p): known for p in pods if (known := object_age(cluster, p)) is not None}
    newest = min(pods, key=lambda p: ages[id(p)]) if len(ages) == len(pods) else None
    evidence = [ev(p, "STATUS column", p.view.text.status, "Completed") if p.view.text is not None
                else ev(p, "status.phase", f"Failed ({_shown_end(p)})", "Succeeded") for p in failed[:3]]
    unseen = "the Job is not in the dump"
    if len(failed) >= 2 and len(failed) >= done:
        reason = (f"{len(failed)} of its {len(pods)} pods ended {shown}, {done} completed, none runs "
                  f"({unseen}: its completions and backoff limit are not known)")
    elif newest is not None and newest in failed and ages[id(newest)] >= RETRY_WITHIN:
        # (its age, not its end's: a pod ends some time after it is made; "at least" under a
        # capture dated only by the dump's own times)
        reason = (f"its newest pod {newest.name}, {lasted_text(cluster, ages[id(newest)])} old, ended "
                  f"{_shown_end(newest)} and none came after it (a Job still retrying has a pod younger than "
                  f"{age_text(RETRY_WITHIN)}; {unseen})")
    else:
        return None
    return RULE.fail(None, *evidence, kind="Job", namespace=namespace, name=job, reason=reason,
                     failed=len(failed), succeeded=done)


def _shown_end(pod: KubeObject) -> str:
    """How a failed pod ended, as its row's STATUS or its container's terminated reason says."""
    row = pod.view.text
    if row is not None and row.status:
        return str(row.status)
    for status in pod.view.status.containerStatuses or ():
        ended = status.state.terminated if status.state else None
        if ended is not None and (ended.exitCode or 0) != 0:
            return ended.reason or f"exit code {ended.exitCode}"
    return "Failed"


def _later_run_told(cluster: AnalyzedDump, namespace: str, job: str,
                    groups: dict[tuple[str, str], list[tuple[KubeObject, bool]]]) -> str:
    """A later run of the same CronJob, told by its pods, that completed ('' when none): the
    failed run is history kept by failedJobsHistoryLimit."""
    mine = _SCHEDULED.match(job)
    if mine is None:
        return ""
    later = []
    for (ns, other), members in groups.items():
        theirs = _SCHEDULED.match(other)
        if ns == namespace and theirs is not None and theirs.group(1) == mine.group(1) \
                and int(theirs.group(2)) > int(mine.group(2)) \
                and all(_ended(p) == "completed" for p, _ in members):
            later.append((int(theirs.group(2)), other))
    return f"a later run of CronJob {mine.group(1)}, Job {max(later)[1]}, completed" if later else ""
