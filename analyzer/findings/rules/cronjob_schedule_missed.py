"""CronJobs whose last schedule lies start times behind their schedule: no Job was started since."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from analyzer.findings.cronschedule import parse_schedule
from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import age_text, capture_is_lower_bound, capture_of, ev, lasted_text
from analyzer.findings.types import Finding, RuleMeta
from analyzer.ingest.records import KubeObject
from analyzer.kube.time import parse_time

RULE = RuleMeta(
    id="cronjob-schedule-missed", title="CronJob not scheduled for start times past", severity="warning",
    category="workloads", requires=("CronJob",),
    message="CronJob {namespace}/{name} ({schedule}) was last scheduled {last}: {missed} start time(s) "
            "of its schedule passed since with no Job started",
    remediation="Read the CronJob's events (FailedNeedsStart: more than 100 start times missed, after "
                "the controller or the clock stopped) and the kube-controller-manager's log; set "
                ".spec.startingDeadlineSeconds, or suspend and resume it, to make it start again.",
)
# The controller syncs CronJobs every 10s and starts a Job at its time; a start time this much
# past with no schedule recorded since is missed, not about to be taken.
GRACE = timedelta(minutes=10)
# Before 1.21 the controller gives a CronJob up past 100 missed start times: counting stops there.
MOST_COUNTED = 101
_HOLDS_BACK = frozenset({"Forbid"})


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    scheduled = [(cj, when) for cj in cluster.objects_of("CronJob")
                 if (when := parse_time(cj.view.status.lastScheduleTime)) is not None]
    if not scheduled:
        return
    newest = max(scheduled, key=lambda pair: pair[1])
    for cronjob, last in scheduled:
        finding = _missed(cluster, cronjob, last, newest)
        if finding is not None:
            yield finding


def _missed(cluster: AnalyzedDump, cronjob: KubeObject, last: datetime,
            newest: tuple[KubeObject, datetime]) -> Finding | None:
    spec = cronjob.view.spec
    if spec.suspend or not spec.schedule or _held_by_a_running_job(cronjob):
        return None
    schedule, zone = parse_schedule(spec.schedule), _zone(spec.timeZone)
    if schedule is None or zone is None:
        return None
    capture = capture_of(cluster, cronjob)
    if capture is not None and newest[0] is not cronjob and newest[1] >= capture and capture_is_lower_bound(cluster):
        capture = None  # dated by another CronJob's last schedule alone: said as that
    if capture is not None:
        until, said = capture, "before capture"
    elif newest[0] is not cronjob:
        # no capture time: the newest last schedule of the dump is one it is no earlier than
        other, until = newest
        said = (f"before CronJob {other.name}'s last schedule ({until:%Y-%m-%d %H:%M} UTC), "
                "the capture no earlier")
    else:
        return None
    missed = []
    for moment in schedule.times(last, until - GRACE, zone):
        missed.append(moment)
        if len(missed) >= MOST_COUNTED:
            break
    if len(missed) < 2:
        return None  # one start time past is a slow sync or a clock a minute off, not a stop
    count = f"over {MOST_COUNTED - 1}" if len(missed) >= MOST_COUNTED else str(len(missed))
    return RULE.fail(cronjob, ev(cronjob, "status.lastScheduleTime", cronjob.view.status.lastScheduleTime,
                                 f"a start time after it (the next was {missed[0].astimezone(UTC):%Y-%m-%d %H:%M} UTC)"),
                     schedule=spec.schedule, missed=count,
                     last=f"at {last:%Y-%m-%d %H:%M} UTC, {lasted_text(cluster, until - last) if capture else age_text(until - last)} {said}")


def _held_by_a_running_job(cronjob: KubeObject) -> bool:
    """A Job of it still runs and its policy (Forbid, or not in a pasted row) may skip start
    times while it does."""
    active = bool(cronjob.view.status.active) or bool(cronjob.view.text and cronjob.view.text.active)
    policy = cronjob.view.spec.concurrencyPolicy
    return active and (policy is None or policy in _HOLDS_BACK)


def _zone(name: str | None) -> tzinfo | None:
    """The time zone its schedule is read in: spec.timeZone, else the controller's (UTC)."""
    if not name:
        return UTC
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None
