"""CronJobs whose controller gave up on them (from events): no Job is started while it does."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.events import findings_for_reasons
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="cronjob-not-scheduling", title="CronJobs the controller starts no Job for", severity="warning",
    category="events", requires=("Event",),
    message="{object} starts no Job: {reason} {count} time(s), {first}last {age}: {last_message}",
    remediation="Set or lower .spec.startingDeadlineSeconds (more than 100 start times missed, "
                "after the controller or the clock stopped), or fix the schedule; then watch for "
                "its next 'Created job' event.",
)
# The CronJob controller before 1.21 returns from a CronJob's sync with this warning and starts
# nothing, on every sync until the cause is gone ("Cannot determine if job needs to be started:
# Too many missed start time (> 100)"); 1.21's controller says too many missed times
# (TooManyMissedTimes) but starts the latest one, so that is no stop.
REASONS = frozenset({"FailedNeedsStart"})


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    return findings_for_reasons(cluster, RULE, REASONS)
