"""When containers last restarted, and the moments a node (or its runtime) restarted many at once.

Containers of several pods on one node whose last termination ended within a minute of each
other did not crash each on its own: the node or its container runtime restarted then. Such a
moment is one finding (node-restart), and the restart findings of its pods point to it.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from analyzer.findings.facts import age_at_capture, age_text, parse_time, pod_containers

if TYPE_CHECKING:
    from analyzer.cluster import Cluster
    from analyzer.ingest.records import KubeObject

MOMENT = timedelta(minutes=1)  # terminations this close on one node are one moment
MOMENT_PODS = 3  # ... when at least this many pods share it
# ... and most of them lost their sandbox, as a node or runtime restart leaves them (crashing
# containers that meet by chance end with their own exit codes).
SANDBOX_LOST_CODES = frozenset({255, 128, 137})
SANDBOX_LOST_REASONS = frozenset({"Unknown", "ContainerStatusUnknown"})
# A restart older than this, of a container that runs and is ready now, is history (info).
OLD = timedelta(hours=6)


@dataclass(frozen=True, slots=True)
class ContainerRestart:
    """One container that restarted: its count and when it last restarted."""

    pod: KubeObject
    ctype: str
    status: Any
    node: str
    finished: datetime | None  # lastState.terminated.finishedAt
    last_restart: datetime | None  # finishedAt, else the running container's startedAt

    @property
    def ready_now(self) -> bool:
        state = self.status.state
        return bool(self.status.ready) and state is not None and state.running is not None


@dataclass(frozen=True, slots=True)
class RestartMoment:
    """A node (or its runtime) restarting: the containers whose last termination it was."""

    node: str
    start: datetime
    end: datetime
    members: tuple[ContainerRestart, ...]

    @property
    def pods(self) -> list[str]:
        return sorted({f"{m.pod.namespace}/{m.pod.name}" for m in self.members})


def container_restarts(cluster: Cluster) -> list[ContainerRestart]:
    """Every container with restarts, in dump order (built once per cluster)."""
    return _cache(cluster)[0]


def restart_moments(cluster: Cluster) -> list[RestartMoment]:
    """The node restart moments of the dump, by node and time."""
    return _cache(cluster)[1]


def moment_of(cluster: Cluster, restart: ContainerRestart) -> RestartMoment | None:
    """The node restart moment a container's last termination belongs to, if any."""
    for moment in restart_moments(cluster):
        if any(m is restart for m in moment.members):
            return moment
    return None


def last_restart_text(cluster: Cluster, restart: ContainerRestart) -> str:
    """ "7h before capture", or why it cannot be told."""
    if restart.last_restart is None:
        return "at an unknown time"
    age = age_at_capture(cluster, restart.last_restart, restart.pod)
    return f"{age_text(age)} before capture" if age is not None else restart.last_restart.isoformat()


def history_reason(cluster: Cluster, restart: ContainerRestart) -> str:
    """Why a container's restarts are history rather than a present problem ('' if they are
    not): its last restart came with a node restart, or is old and it runs ready since."""
    moment = moment_of(cluster, restart)
    if moment is not None:
        return (f"its last restart came with node {moment.node}'s restart "
                f"{last_restart_text(cluster, restart)} ({len(moment.members)} containers of "
                f"{len(moment.pods)} pods at once; see node-restart)")
    age = age_at_capture(cluster, restart.last_restart, restart.pod) if restart.last_restart else None
    if age is not None and age > OLD and restart.ready_now:
        return f"last restart {age_text(age)} before capture; running and ready since"
    return ""


_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _cache(cluster: Cluster) -> tuple[list[ContainerRestart], list[RestartMoment]]:
    cached = _CACHE.get(cluster)
    if cached is None:
        restarts = list(_restarts(cluster))
        cached = _CACHE[cluster] = (restarts, _moments(restarts))
    return cached


def _restarts(cluster: Cluster) -> Any:
    for pod in cluster.objects_of("Pod"):
        node = pod.view.spec.nodeName or ""
        for ctype, _spec, status in pod_containers(pod):
            if status is None or not status.restartCount:
                continue
            last = status.lastState.terminated if status.lastState else None
            finished = parse_time(last.finishedAt) if last else None
            running = status.state.running if status.state else None
            started = parse_time(running.startedAt) if running else None
            yield ContainerRestart(pod, ctype, status, node, finished, finished or started)


def _lost_sandbox(r: ContainerRestart) -> bool:
    last = r.status.lastState.terminated if r.status.lastState else None
    # (137 is also an OOM kill's code: OOM kills at once are memory pressure, not a restart)
    return last is not None and last.reason != "OOMKilled" and (
        last.exitCode in SANDBOX_LOST_CODES or last.reason in SANDBOX_LOST_REASONS)


def _moments(restarts: list[ContainerRestart]) -> list[RestartMoment]:
    by_node: dict[str, list[ContainerRestart]] = {}
    for r in restarts:
        if r.node and r.finished is not None:
            by_node.setdefault(r.node, []).append(r)
    moments = []
    for node, items in sorted(by_node.items()):
        items.sort(key=lambda r: r.finished)  # type: ignore[arg-type, return-value]
        group = [items[0]]
        for r in items[1:] + [None]:  # type: ignore[list-item]
            if r is not None and r.finished - group[0].finished <= MOMENT:  # type: ignore[operator]
                group.append(r)
                continue
            if len({(m.pod.namespace, m.pod.name) for m in group}) >= MOMENT_PODS \
                    and 2 * sum(map(_lost_sandbox, group)) > len(group):
                moments.append(RestartMoment(node, group[0].finished, group[-1].finished,  # type: ignore[arg-type]
                                             tuple(group)))
            if r is not None:
                group = [r]
    return moments
