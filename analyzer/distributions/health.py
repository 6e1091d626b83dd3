"""Component health beyond "ready now": recent restarts, recent probe failures, error logs.

A component whose pods are all ready can still be failing: it restarted many times in the
last hour, the kubelet's probes keep failing, or its logs are full of known error lines.
Each signal comes with the evidence a reader can check in the dump.

Examples:
    >>> ComponentHealth().healthy, ComponentHealth(restarts=6, evidence=["..."]).healthy
    (True, False)
"""

from __future__ import annotations

import weakref
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import timedelta
from typing import TYPE_CHECKING

import pandas as pd

from analyzer.ingest.result import capture_is_lower_bound
from analyzer.kube.time import parse_time
from analyzer.model.logsignatures import ContainerLogMatch, container_log_matches
from analyzer.model.restarts import NodeRestartMoment, cluster_restart_moments, moment_explaining

if TYPE_CHECKING:
    from analyzer.distributions.workloads import ComponentWorkload
    from analyzer.model.dump import ModeledDump

# "Recently": the last hour before the capture (before the dump's newest time where that is all
# the capture is dated by: a lower bound, so ages from it are "at least").
RECENT = timedelta(hours=1)
# A container restarting this many times (cumulative), last within RECENT, is restarting a lot.
MANY_RESTARTS = 5
# Restarts that came with a node or runtime restart (analyzer/model/restarts.py: the moments
# the node-restart rule names) are not counted: the component did not fail, its node did.
# Probe failures (Unhealthy events) that make a component unhealthy when they keep coming.
PROBE_FAILURES = 3
# Containers quoted per signal (the rest are counted).
EVIDENCE_PER_SIGNAL = 3
# Current error lines in its logs that make a component unhealthy.
LOG_ERROR_LINES = 3


@dataclass(slots=True)
class ComponentHealth:
    """The signals beyond readiness for one component, with their evidence as sentences."""

    restarts: int = 0  # restarts of containers that restarted many times, last within RECENT
    probe_failures: int = 0  # Unhealthy events seen within RECENT
    log_errors: int = 0  # current warning/critical log lines
    evidence: list[str] = field(default_factory=list)
    log_matches: list[ContainerLogMatch] = field(default_factory=list)  # the current error lines

    @property
    def healthy(self) -> bool:
        return not self.evidence


def _pod_keys(cluster: ModeledDump, workloads: list[ComponentWorkload]) -> dict[tuple[str, str], tuple[str, str, str]]:
    """(namespace, pod) -> the component key (namespace, kind, name) the pod belongs to."""
    by_workload: dict[tuple[str, str, str], tuple[str, str, str]] = {}
    owner: dict[tuple[str, str], tuple[str, str, str]] = {}
    for w in workloads:
        key = (w.namespace, w.kind, w.name)
        by_workload[key] = key
        for obj_id in w.objects:
            parts = obj_id.split("/")
            if len(parts) == 4 and parts[1] == "Pod":
                owner[(parts[2], parts[3])] = key
    pods = cluster.tables["pods"]
    if pods.empty:
        return owner
    # Only pods of the components' namespaces can belong to one (most pods are applications'),
    # read from plain lists (stepping through a pyarrow-backed column costs more per value).
    pods = pods[pods["namespace"].isin({w.namespace for w in workloads}).to_numpy(dtype=bool)
                & pods["workload_kind"].notna().to_numpy(dtype=bool)]
    for ns, name, wkind, wname in zip(pods["namespace"].tolist(), pods["name"].tolist(),
                                      pods["workload_kind"].tolist(), pods["workload_name"].tolist(),
                                      strict=True):
        if (ns, name) in owner:
            continue
        key = by_workload.get((ns, str(wkind), str(wname)))
        if key is not None:
            owner[(ns, name)] = key
    return owner


def _node_wide_moments(containers: pd.DataFrame, pods: pd.DataFrame,
                       moments: list[NodeRestartMoment]) -> set[tuple[str, str, str]]:
    """(namespace, pod, container) whose last termination came with a node restart, or within
    its after-window (a component that starts before the API server is back exits once):
    collateral of the node's restart, not a fault of its own."""
    if not moments:
        return set()
    node_of = dict(zip(zip(pods["namespace"], pods["name"], strict=True), pods["node"], strict=True))
    wide: set[tuple[str, str, str]] = set()
    for ns, pod, name, finished in zip(containers["namespace"], containers["pod"], containers["name"],
                                       containers["last_finished"], strict=True):
        node = node_of.get((ns, pod))
        if pd.isna(finished) or node is None or pd.isna(node):
            continue
        if moment_explaining(moments, str(node), finished.to_pydatetime()) is not None:
            wide.add((ns, pod, name))
    return wide


_HEALTH: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def component_health(cluster: ModeledDump, workloads: list[ComponentWorkload]) -> dict[tuple[str, str, str], ComponentHealth]:
    """Component key (namespace, kind, name) -> its health signals (only components with a
    signal); kept per cluster, so the rules can quote the log lines behind a verdict."""
    known = _HEALTH.get(cluster)
    if known is not None:
        return known
    _HEALTH[cluster] = found = _component_health(cluster, workloads)
    return found


def health_of(cluster: ModeledDump) -> dict[tuple[str, str, str], ComponentHealth]:
    """The health signals of a cluster's components, as the components table was built with."""
    if cluster not in _HEALTH:
        from analyzer.distributions.profiles import load_profiles
        from analyzer.distributions.workloads import component_workloads

        component_health(cluster, component_workloads(cluster, load_profiles()))
    return _HEALTH[cluster]


def _component_health(cluster: ModeledDump, workloads: list[ComponentWorkload]) -> dict[tuple[str, str, str], ComponentHealth]:
    pod_key = _pod_keys(cluster, workloads)
    health: dict[tuple[str, str, str], ComponentHealth] = defaultdict(ComponentHealth)
    capture = cluster.capture_time
    if capture is not None:
        lower_bound = capture_is_lower_bound(cluster)
        _restarts(cluster, pod_key, health, pd.Timestamp(capture), lower_bound)
        _probe_failures(cluster, pod_key, health, pd.Timestamp(capture), lower_bound)
    _log_errors(cluster, pod_key, health)
    return dict(health)


def _restarts(cluster: ModeledDump, pod_key: dict, health: dict, capture: pd.Timestamp, lower_bound: bool) -> None:
    containers, pods = cluster.tables["containers"], cluster.tables["pods"]
    if containers.empty or "last_finished" not in containers:
        return
    wide = _node_wide_moments(containers, pods, cluster_restart_moments(cluster))
    lines: dict[tuple[str, str, str], list[tuple[pd.Timestamp, str]]] = defaultdict(list)
    # Only containers restarted often with a last termination can count: the others are passed
    # over before the loop, which steps through each row's values one by one.
    often = containers[(containers["restarts"] >= MANY_RESTARTS).fillna(False).astype(bool)
                       & containers["last_finished"].notna()]
    for ns, pod, name, restarts, finished, reason in zip(
            often["namespace"], often["pod"], often["name"], often["restarts"],
            often["last_finished"], often["last_state_reason"], strict=True):
        key = pod_key.get((ns, pod))
        if key is None or pd.isna(restarts) or restarts < MANY_RESTARTS or pd.isna(finished):
            continue
        if capture - finished > RECENT or (ns, pod, name) in wide or str(reason) == "Completed":
            continue
        health[key].restarts += int(restarts)
        why = f" ({reason})" if isinstance(reason, str) and reason else ""
        lines[key].append((finished, f"container {pod}/{name} restarted {int(restarts)} times, last "
                                     f"{_before_capture(capture, finished, lower_bound)}{why}"))
    for key, items in lines.items():
        # the latest few, and how many there are (a DaemonSet can have hundreds)
        items.sort(key=lambda t: t[0], reverse=True)
        shown = "; ".join(text for _, text in items[:EVIDENCE_PER_SIGNAL])
        more = f" (and {len(items) - EVIDENCE_PER_SIGNAL} more containers)" if len(items) > EVIDENCE_PER_SIGNAL else ""
        health[key].evidence.append(shown + more)


def _probe_failures(cluster: ModeledDump, pod_key: dict, health: dict, capture: pd.Timestamp,
                    lower_bound: bool) -> None:
    events = cluster.tables["events"]
    if events.empty:
        return
    unhealthy = events[(events["reason"] == "Unhealthy") & (events["object_kind"] == "Pod")]
    pods, containers = cluster.tables["pods"], cluster.tables["containers"]
    # Only the pods the Unhealthy events name are looked up below.
    named = unhealthy["object_name"].dropna().unique()
    pods = pods[pods["name"].isin(named)]
    containers = containers[containers["pod"].isin(named)]
    ready = dict(zip(zip(pods["namespace"], pods["name"], strict=True), pods["ready"], strict=True))
    started: dict[tuple[str, str], pd.Timestamp] = {}
    if "started_at" in containers:
        for ns, pod, at in zip(containers["namespace"], containers["pod"], containers["started_at"], strict=True):
            if not pd.isna(at) and ((ns, pod) not in started or at > started[(ns, pod)]):
                started[(ns, pod)] = at
    ready_since = _ready_since(cluster, set(named))
    seen: dict[tuple[str, str, str], list[tuple[int, str, pd.Timestamp]]] = defaultdict(list)
    for ns, pod, count, first, last, message in zip(
            unhealthy["object_namespace"], unhealthy["object_name"], unhealthy["count"],
            unhealthy["first_seen"], unhealthy["last_seen"], unhealthy["message"], strict=True):
        key = pod_key.get((ns, pod))
        if key is None or pd.isna(last) or capture - last > RECENT:
            continue
        # Failures before the running container started concern one that is gone; a readiness
        # failure of a pod that is ready now has passed.
        if (ns, pod) in started and last < started[(ns, pod)]:
            continue
        if str(message).startswith("Readiness probe") and _true(ready.get((ns, pod))):
            continue
        # Any probe failure before the pod last became ready (and ready it is now) has passed:
        # a liveness probe failing while a container starts, then passing ever since.
        since = ready_since.get((ns, pod))
        if since is not None and last <= since:
            continue
        # An event's count spans its whole life: only when it began within RECENT are all its
        # repeats recent (sporadic failures over hours are not a failing component).
        recent_count = 1 if pd.isna(count) or pd.isna(first) or capture - first > RECENT else int(count)
        seen[key].append((recent_count, str(message), last))
    for key, items in seen.items():
        total = sum(c for c, _, _ in items)
        if total < PROBE_FAILURES:
            continue
        _, message, last = max(items, key=lambda t: t[2])
        h = health[key]
        h.probe_failures = total
        hour = "the last hour the dump shows" if lower_bound else "the last hour"
        h.evidence.append(f"{total} probe failures (Unhealthy events) in {hour}, last "
                          f"{_before_capture(capture, last, lower_bound)}: {message[:200]}")


def _ready_since(cluster: ModeledDump, names: set[str]) -> dict[tuple[str, str], pd.Timestamp]:
    """(namespace, pod) -> when the pod last became Ready, for the pods of `names` Ready now."""
    from analyzer.distributions.objects import builtin_objects

    out: dict[tuple[str, str], pd.Timestamp] = {}
    for pod in builtin_objects(cluster, "Pod"):
        if pod.name not in names:
            continue
        for cond in pod.view.status.conditions or ():
            if cond.type == "Ready" and cond.status == "True" and cond.lastTransitionTime:
                # the API's own format by the one parser (pandas' guesses the format of each
                # value anew: 1,000 pods cost 0.2 s); anything else as pandas reads it
                parsed = parse_time(cond.lastTransitionTime)
                at = (pd.Timestamp(parsed) if parsed is not None
                      else pd.to_datetime(cond.lastTransitionTime, utc=True, errors="coerce"))
                if not pd.isna(at):
                    out[(pod.namespace, pod.name)] = at
    return out


def _log_errors(cluster: ModeledDump, pod_key: dict, health: dict) -> None:
    lines: dict[tuple[str, str, str], list] = defaultdict(list)
    for m in container_log_matches(cluster):
        sig = m.match.signature
        if not m.current or sig.severity == "info" or sig.dump_wide:
            continue
        key = pod_key.get((m.log.namespace, m.log.pod))
        if key is not None:
            lines[key].append(m)
    for key, matches in lines.items():
        if len(matches) < LOG_ERROR_LINES:
            continue
        last = matches[-1]
        h = health[key]
        h.log_errors = len(matches)
        h.log_matches = matches
        h.evidence.append(f"{len(matches)} current error lines in its logs ({last.match.signature.id}: "
                          f"{last.match.meaning}), e.g. {last.file}:{last.file_line}: "
                          f"{last.match.text[:200]}")


def _true(value: object) -> bool:
    return value is not None and not pd.isna(value) and bool(value)


# A time this far after the capture was written by a clock ahead (a node's), not "just now".
AHEAD_SLACK = pd.Timedelta(minutes=5)


def _before_capture(capture: pd.Timestamp, when: pd.Timestamp, lower_bound: bool = False) -> str:
    """ "12m before capture" ("at least 12m" where the capture is a lower bound: the dump's newest
    time, the capture then or later), or, for a time a clock ahead wrote, when and how far after it."""
    if when - capture > AHEAD_SLACK:
        return f"at {when:%Y-%m-%d %H:%M}Z, {_minutes(when - capture)} after the capture (a clock ahead of the cluster's)"
    return f"{'at least ' if lower_bound else ''}{_minutes(capture - when)} before capture"


def _minutes(delta: pd.Timedelta) -> str:
    seconds = max(int(delta.total_seconds()), 0)
    if seconds < 60:
        return f"{seconds}s"  # (not "0m": "at least 0m before capture" says nothing)
    minutes = seconds // 60
    return f"{minutes}m" if minutes < 120 else f"{minutes // 60}h"
