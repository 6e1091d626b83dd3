"""The moments a node (or its container runtime) restarted, read from its pods' containers.

A reboot or a runtime restart leaves one termination per running container, all within a
minute, on every pod of the node, most of them with the sign of a lost sandbox (exit code 255,
reason Unknown): read one by one they look like many crashes. The node-restart rule, the
incidents, the timeline's spans and component health all take the moments from here, so they
name the same ones. The thresholds are data: data/node_restarts.yaml.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from analyzer.kube.time import parse_time
from analyzer.memo import once_per
from analyzer.safeyaml import load_yaml

if TYPE_CHECKING:
    from analyzer.ingest.dump import Dump

DATA = Path(__file__).parent / "data" / "node_restarts.yaml"
# The container status lists of a pod, by the container type the findings' paths name.
_STATUS_LISTS = (("init", "initContainerStatuses"), ("container", "containerStatuses"),
                 ("ephemeral", "ephemeralContainerStatuses"))


@dataclass(frozen=True, slots=True)
class Thresholds:
    """What makes terminations one node restart (data/node_restarts.yaml)."""

    window: timedelta
    min_pods: int
    after: timedelta
    lost_reasons: frozenset[str]
    lost_exit_codes: frozenset[int]
    not_lost_reasons: frozenset[str]


@cache
def thresholds() -> Thresholds:
    """The thresholds, read once."""
    raw = load_yaml(DATA.read_text(encoding="utf-8"))
    lost = raw["sandbox_lost"]
    return Thresholds(window=timedelta(seconds=int(raw["window_seconds"])), min_pods=int(raw["min_pods"]),
                      after=timedelta(seconds=int(raw["after_seconds"])),
                      lost_reasons=frozenset(lost["reasons"]),
                      lost_exit_codes=frozenset(int(c) for c in lost["exit_codes"]),
                      not_lost_reasons=frozenset(lost["not_with_reasons"]))


def sandbox_lost(exit_code: Any, reason: Any) -> bool:
    """Whether a last termination is a lost sandbox (the runtime under the container went
    away) rather than the process ending on its own.

    >>> sandbox_lost(255, "Unknown"), sandbox_lost(137, "ContainerStatusUnknown"), sandbox_lost(255, "Error")
    (True, True, True)
    >>> sandbox_lost(137, "Error"), sandbox_lost(137, "OOMKilled"), sandbox_lost(128, "StartError")
    (False, False, False)
    """
    t = thresholds()
    reason = str(reason) if reason is not None else ""
    if reason in t.lost_reasons:
        return True
    try:
        code = int(exit_code)
    except (TypeError, ValueError):
        return False
    return code in t.lost_exit_codes and reason not in t.not_lost_reasons


@dataclass(frozen=True, slots=True)
class ContainerEnd:
    """A container's last termination (lastState.terminated): it ended, then restarted."""

    pod: Any  # the pod object (namespace, name, view)
    ctype: str  # init, container or ephemeral
    status: Any  # its container status
    node: str
    finished: datetime  # lastState.terminated.finishedAt
    exit_code: Any
    reason: str

    @property
    def key(self) -> tuple[str, str, str, str]:
        """(namespace, pod, container type, container): one container of the dump."""
        return self.pod.namespace, self.pod.name, self.ctype, str(self.status.name)

    @property
    def lost_sandbox(self) -> bool:
        return sandbox_lost(self.exit_code, self.reason)


@dataclass(frozen=True, slots=True)
class NodeRestartMoment:
    """A node (or its runtime) restarting: the containers whose last termination it was."""

    node: str
    start: datetime
    end: datetime
    members: tuple[ContainerEnd, ...]

    @property
    def pods(self) -> list[str]:
        """The pods restarted with it, as "namespace/name"."""
        return sorted({f"{m.pod.namespace}/{m.pod.name}" for m in self.members})

    def explains(self, node: str, finished: datetime) -> bool:
        """Whether a termination on `node` at `finished` came with this moment: within it, or
        within the after-window (it started before the API server was back and exited once more)."""
        return node == self.node and self.start <= finished <= self.end + thresholds().after


def container_ends(pods: Iterable[Any]) -> Iterator[ContainerEnd]:
    """The last terminations of the containers of scheduled pods, in dump order."""
    for pod in pods:
        view = pod.view
        node = view.spec.nodeName
        if not node:
            continue
        for ctype, field in _STATUS_LISTS:
            for status in getattr(view.status, field, None) or ():
                last = status.lastState.terminated if status.lastState else None
                finished = parse_time(last.finishedAt) if last is not None else None
                if finished is not None:
                    yield ContainerEnd(pod, ctype, status, str(node), finished, last.exitCode,
                                       str(last.reason) if last.reason else "")


def node_restart_moments(pods: Iterable[Any]) -> list[NodeRestartMoment]:
    """The node restart moments of these pods, by node and time: terminations within the window
    of the first of them, of at least min_pods pods (every pod of a node that has fewer, but
    two at least), most of which lost their sandbox, and which fewer of the node's pods lived
    through than ended in (a reboot leaves no container running from before it)."""
    t = thresholds()
    pods = list(pods)
    on_node = Counter(str(p.view.spec.nodeName) for p in pods if p.view.spec.nodeName)
    by_node: dict[str, list[ContainerEnd]] = {}
    for end in container_ends(pods):
        by_node.setdefault(end.node, []).append(end)
    running_since: dict[str, list[datetime]] | None = None
    moments = []
    for node, items in sorted(by_node.items()):
        items.sort(key=lambda e: e.finished)
        start = 0
        for k in range(1, len(items) + 1):
            if k < len(items) and items[k].finished - items[start].finished <= t.window:
                continue
            group = items[start:k]
            start = k
            ended = len({(m.pod.namespace, m.pod.name) for m in group})
            if ended < min(t.min_pods, max(2, on_node[node])) or 2 * sum(m.lost_sandbox for m in group) <= len(group):
                continue
            if running_since is None:
                running_since = _running_since(pods)
            # pods of the node with a container running since before: they lived through it
            # (an OpenShift install's bootstrap going away: 4 of a master's 86 pods exit 255
            # as they lose their leases, 36 run on from before)
            if bisect_left(running_since.get(node, ()), group[0].finished) > ended:
                continue
            moments.append(NodeRestartMoment(node, group[0].finished, group[-1].finished, tuple(group)))
    return moments


def _running_since(pods: Iterable[Any]) -> dict[str, list[datetime]]:
    """For each node, the earliest start of each of its pods' running containers, sorted."""
    since: dict[str, list[datetime]] = {}
    for pod in pods:
        view = pod.view
        node = view.spec.nodeName
        if not node:
            continue
        starts = [when for _ctype, field in _STATUS_LISTS for status in getattr(view.status, field, None) or ()
                  if status.state is not None and status.state.running is not None
                  and (when := parse_time(status.state.running.startedAt)) is not None]
        if starts:
            since.setdefault(str(node), []).append(min(starts))
    for starts in since.values():
        starts.sort()
    return since


@once_per
def cluster_restart_moments(cluster: Dump) -> list[NodeRestartMoment]:
    """The node restart moments of a dump's pods (built once per cluster)."""
    from analyzer.model.normalize import builtin_objects

    return node_restart_moments(builtin_objects(cluster, "Pod"))


def moment_explaining(moments: Iterable[NodeRestartMoment], node: str, finished: datetime | None) -> NodeRestartMoment | None:
    """The moment a termination on `node` at `finished` came with, if any."""
    if finished is None or not node:
        return None
    return next((m for m in moments if m.explains(node, finished)), None)
