"""`kubectl describe job`: its limits, its pods' counts and when it ran."""

from __future__ import annotations

import re
from typing import Any

from analyzer.ingest.text.describe.context import DescribeContext
from analyzer.ingest.text.describe.pod import set_template
from analyzer.ingest.text.describe.sections import key_values, owner_reference
from analyzer.ingest.text.describe.tree import Entry
from analyzer.ingest.text.types import TextObject
from analyzer.ingest.text.values import boolean, cell, csv, describe_time, integer, set_path

# `0 Active (0 Ready) / 0 Succeeded / 5 Failed` (kubectl 1.27+), `0 Running / 0 Succeeded / 1 Failed`
_POD_COUNTS = re.compile(r"(\d+) (Active|Running)\b.*?/ (\d+) Succeeded / (\d+) Failed")


def pod_counts(text: str | None) -> dict[str, int]:
    """A `Pods Statuses` line as the Job's status counts.

    >>> pod_counts("0 Active (0 Ready) / 0 Succeeded / 5 Failed")
    {'status.active': 0, 'status.succeeded': 0, 'status.failed': 5}
    >>> pod_counts("0 Running / 0 Succeeded / 1 Failed")["status.failed"]
    1
    """
    m = _POD_COUNTS.search(cell(text) or "")
    if m is None:
        return {}
    return {"status.active": int(m.group(1)), "status.succeeded": int(m.group(3)),
            "status.failed": int(m.group(4))}


def read_job(root: Entry, body: dict[str, Any], facts: dict[str, Any],
             ctx: DescribeContext) -> list[TextObject]:
    """Fill a Job from its describe (kubectl prints no conditions for a Job: its counts,
    limits and events are what tell whether it failed)."""
    if (entry := root.child("Selector")) and (found := key_values(
            [part for value in entry.values for part in csv(value)], "=")):
        set_path(body, "spec.selector", {"matchLabels": found})
    for key, path in (("Parallelism", "spec.parallelism"), ("Completions", "spec.completions"),
                      ("Backoff Limit", "spec.backoffLimit")):
        if (number := integer(root.child_value(key))) is not None:
            set_path(body, path, number)
    deadline = re.fullmatch(r"(\d+)s?", cell(root.child_value("Active Deadline Seconds")) or "")
    if deadline:
        set_path(body, "spec.activeDeadlineSeconds", int(deadline.group(1)))
    if mode := cell(root.child_value("Completion Mode")):
        set_path(body, "spec.completionMode", mode)
    if (suspend := boolean(root.child_value("Suspend"))) is not None:
        set_path(body, "spec.suspend", suspend)
    if started := describe_time(root.child_value("Start Time")):
        set_path(body, "status.startTime", started)
    if completed := describe_time(root.child_value("Completed At")):
        set_path(body, "status.completionTime", completed)
    for path, number in pod_counts(root.child_value("Pods Statuses")).items():
        set_path(body, path, number)
    if owner := owner_reference(root.child_value("Controlled By"), ctx.catalog):
        body["metadata"]["ownerReferences"] = [owner]
    set_template(body, root)
    return []


def read_cron_job(root: Entry, body: dict[str, Any], facts: dict[str, Any],
                  ctx: DescribeContext) -> list[TextObject]:
    """Fill a CronJob from its describe: its schedule and policy, its job template (the
    describe prints the template's Selector, Parallelism, Completions and Pod Template at the
    top level), when it last ran and the Jobs it runs now."""
    for key, path in (("Schedule", "spec.schedule"), ("Concurrency Policy", "spec.concurrencyPolicy")):
        if value := cell(root.child_value(key)):
            set_path(body, path, value)
    if (suspend := boolean(root.child_value("Suspend"))) is not None:
        set_path(body, "spec.suspend", suspend)
    for key, path in (("Successful Job History Limit", "spec.successfulJobsHistoryLimit"),
                      ("Failed Job History Limit", "spec.failedJobsHistoryLimit"),
                      ("Starting Deadline Seconds", "spec.startingDeadlineSeconds")):
        if seconds := re.fullmatch(r"(\d+)s?", cell(root.child_value(key)) or ""):
            set_path(body, path, int(seconds.group(1)))
    template: dict[str, Any] = {"apiVersion": body["apiVersion"], "kind": "Job", "metadata": {}}
    read_job(root, template, {}, ctx)
    job_spec = template.get("spec") or {}
    job_spec.pop("suspend", None)  # the describe's Suspend is the CronJob's own
    if job_spec:
        set_path(body, "spec.jobTemplate.spec", job_spec)
    if last := describe_time(root.child_value("Last Schedule Time")):
        set_path(body, "status.lastScheduleTime", last)
    active = root.child("Active Jobs")
    if names := [name for value in (active.values if active else ()) for name in csv(value)
                 if cell(name) is not None]:
        set_path(body, "status.active", [{"kind": "Job", "name": name, "apiVersion": "batch/v1",
                                          **({"namespace": ns} if (ns := body["metadata"].get("namespace")) else {})}
                                         for name in names])
    return []


READERS = {"Job": read_job, "CronJob": read_cron_job}
