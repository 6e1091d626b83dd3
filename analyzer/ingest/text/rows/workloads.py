"""Workload rows: replica counts from READY `2/3`, containers and selectors, job and cron state."""

from __future__ import annotations

import re
from typing import Any

from analyzer.ingest.text.rows.common import containers_from, selector_into
from analyzer.ingest.text.rows.context import RowContext
from analyzer.ingest.text.values import (
    age_seconds,
    cell,
    describe_time,
    fraction,
    int_or_string,
    integer,
    set_path,
)

_TEMPLATE_CONTAINERS = "spec.template.spec.containers"


def _ready_replicas(body: dict[str, Any], cells: dict[str, str | None], facts: dict[str, Any]) -> None:
    if ready := cell(cells.get("READY")):
        facts["ready"] = ready
    if pair := fraction(cells.get("READY")):
        set_path(body, "status.readyReplicas", pair[0])
        set_path(body, "spec.replicas", pair[1])


def _containers(body: dict[str, Any], cells: dict[str, str | None]) -> None:
    if containers := containers_from(cells):
        set_path(body, _TEMPLATE_CONTAINERS, containers)


def read_deployment(body: dict[str, Any], cells: dict[str, str | None], facts: dict[str, Any],
                    ctx: RowContext | None) -> None:
    """Fill a Deployment (or StatefulSet) from READY `ready/desired` and the wide columns.

    >>> body = {}
    >>> read_deployment(body, {"READY": "2/3", "SELECTOR": "app=web"}, {}, None)
    >>> body
    {'status': {'readyReplicas': 2}, 'spec': {'replicas': 3, 'selector': {'matchLabels': {'app': 'web'}}}}
    """
    _ready_replicas(body, cells, facts)
    _containers(body, cells)
    selector_into(body, cells, facts)


def read_replicated(body: dict[str, Any], cells: dict[str, str | None], facts: dict[str, Any],
                    ctx: RowContext | None) -> None:
    """Fill a ReplicaSet or DaemonSet: counts are mapped columns; READY `a/b` (lineage) too."""
    if fraction(cells.get("READY")):
        _ready_replicas(body, cells, facts)
    _containers(body, cells)
    selector_into(body, cells, facts)


def read_replication_controller(body: dict[str, Any], cells: dict[str, str | None],
                                facts: dict[str, Any], ctx: RowContext | None) -> None:
    """Fill a ReplicationController, whose selector is a plain label map."""
    _containers(body, cells)
    selector_into(body, cells, facts, match_labels=False)


def read_job(body: dict[str, Any], cells: dict[str, str | None], facts: dict[str, Any],
             ctx: RowContext | None) -> None:
    """Fill a Job from COMPLETIONS `1/1` (or `0/1 of 3` with parallelism), DURATION, STATUS.

    >>> body, facts = {}, {}
    >>> read_job(body, {"COMPLETIONS": "1/1", "DURATION": "5s", "STATUS": "Complete"}, facts, None)
    >>> body, facts
    ({'status': {'succeeded': 1}, 'spec': {'completions': 1}}, {'status': 'Complete', 'duration_seconds': 5.0})
    """
    if status := cell(cells.get("STATUS")):
        facts["status"] = status
    completions = cell(cells.get("COMPLETIONS"))
    match = re.fullmatch(r"(\d+)/(\d+)(?: of (\d+))?", completions or "")
    if match:
        set_path(body, "status.succeeded", int(match.group(1)))
        if match.group(3):
            set_path(body, "spec.parallelism", int(match.group(3)))
        else:
            set_path(body, "spec.completions", int(match.group(2)))
    if (duration := age_seconds(cells.get("DURATION"))) is not None:
        facts["duration_seconds"] = duration
    _containers(body, cells)
    selector_into(body, cells, facts)


def read_cronjob(body: dict[str, Any], cells: dict[str, str | None], facts: dict[str, Any],
                 ctx: RowContext | None) -> None:
    """Fill a CronJob: ACTIVE count and LAST SCHEDULE age are facts (the API keeps refs/times)."""
    if (active := integer(cells.get("ACTIVE"))) is not None:
        facts["active"] = active
    if (last := age_seconds(cells.get("LAST SCHEDULE"))) is not None:
        facts["last_schedule_ago_seconds"] = last
    # kubectl before 1.8 printed the time itself under LAST-SCHEDULE (RFC 1123, `Thu, 10 Aug
    # 2017 08:40:00 -0400`): the API's lastScheduleTime, not an age
    elif when := describe_time(cells.get("LAST SCHEDULE") or cells.get("LAST-SCHEDULE")):
        set_path(body, "status.lastScheduleTime", when)
    if containers := containers_from(cells):
        set_path(body, "spec.jobTemplate.spec.template.spec.containers", containers)


def read_hpa(body: dict[str, Any], cells: dict[str, str | None], facts: dict[str, Any],
             ctx: RowContext | None) -> None:
    """Fill a HorizontalPodAutoscaler: REFERENCE `Deployment/web` is the scale target.

    >>> body, facts = {}, {}
    >>> read_hpa(body, {"REFERENCE": "Deployment/web", "TARGETS": "cpu: 12%/80%"}, facts, None)
    >>> body, facts
    ({'spec': {'scaleTargetRef': {'kind': 'Deployment', 'name': 'web'}}}, {'targets': 'cpu: 12%/80%'})
    """
    kind, slash, name = (cell(cells.get("REFERENCE")) or "").partition("/")
    if slash and kind and name:
        target = {"kind": kind, "name": name}
        if ctx and (info := ctx.catalog.for_resource(kind)):
            target = {"apiVersion": info.api_version, "kind": info.kind, "name": name}
        set_path(body, "spec.scaleTargetRef", target)
    if targets := cell(cells.get("TARGETS")):
        facts["targets"] = targets


def read_pdb(body: dict[str, Any], cells: dict[str, str | None], facts: dict[str, Any],
             ctx: RowContext | None) -> None:
    """Fill a PodDisruptionBudget's minAvailable / maxUnavailable (`N/A` when unset)."""
    for header, path in (("MIN AVAILABLE", "spec.minAvailable"),
                         ("MAX UNAVAILABLE", "spec.maxUnavailable")):
        value = cell(cells.get(header))
        if value and value != "N/A":
            set_path(body, path, int_or_string(value))


READERS = {
    "Deployment": read_deployment,
    "StatefulSet": read_deployment,
    "ReplicaSet": read_replicated,
    "DaemonSet": read_replicated,
    "ReplicationController": read_replication_controller,
    "Job": read_job,
    "CronJob": read_cronjob,
    "HorizontalPodAutoscaler": read_hpa,
    "PodDisruptionBudget": read_pdb,
}
