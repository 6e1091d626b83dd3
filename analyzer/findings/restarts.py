"""When containers last restarted, and the moments a node (or its runtime) restarted many at once.

Containers of several pods on one node whose last termination ended within a minute of each
other, most with a lost sandbox, did not crash each on its own: the node or its container
runtime restarted then (the moments are analyzer/model/restarts.py's, which the incidents, the
timeline and component health share). Such a moment is one finding (node-restart), and the
restart findings of its pods point to it.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from analyzer.findings.facts import (
    age_at_capture,
    age_text,
    lasted_text,
    pod_containers,
    states_no_container,
    when_text,
)
from analyzer.findings.suspects import pod_suspects
from analyzer.kube.time import parse_time
from analyzer.memo import once_per
from analyzer.model.restarts import NodeRestartMoment, cluster_restart_moments

if TYPE_CHECKING:
    from analyzer.findings.dump import AnalyzedDump
    from analyzer.ingest.records import KubeObject

# A restart older than this, of a container that runs and is ready now, is history (info).
OLD = timedelta(hours=6)
# ... and so are restarts that all came this soon after the pod was created (its start-up: the
# cluster or its dependencies coming up), the last of them this long before the capture.
START_UP = timedelta(minutes=30)
QUIET_SINCE_START_UP = timedelta(hours=1)


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


def container_restarts(cluster: AnalyzedDump) -> list[ContainerRestart]:
    """Every container with restarts, in dump order (built once per cluster)."""
    return _cache(cluster)


def restart_moments(cluster: AnalyzedDump) -> list[NodeRestartMoment]:
    """The node restart moments of the dump, by node and time (analyzer/model/restarts.py)."""
    return cluster_restart_moments(cluster)


def moment_of(cluster: AnalyzedDump, restart: ContainerRestart) -> NodeRestartMoment | None:
    """The node restart moment a container's last termination belongs to, if any."""
    key = (restart.pod.namespace, restart.pod.name, restart.ctype, str(restart.status.name))
    for moment in restart_moments(cluster):
        if any(m.key == key for m in moment.members):
            return moment
    return None


def last_restart_text(cluster: AnalyzedDump, restart: ContainerRestart) -> str:
    """ "7h before capture", the newest time of the dump where it is that, or why it cannot be told."""
    if restart.last_restart is None:
        return "at an unknown time"
    return when_text(cluster, restart.last_restart, restart.pod)


def table_last_restart_text(pod: KubeObject) -> str | None:
    """ "2m before the table was printed", from a pasted RESTARTS column's `42 (2m ago)`; None
    when the pod was not read from a table or the column gave no age."""
    facts = pod.view.text
    if facts is None or facts.last_restart_ago_seconds is None:
        return None
    return f"{age_text(timedelta(seconds=facts.last_restart_ago_seconds))} before the table was printed"


def table_restart_bound_text(pod: KubeObject) -> str | None:
    """ "at most 30s before the table was printed (its AGE)": a pasted row that says no time of its
    last restart still bounds it by the pod's age (k3d#686: a crashloop of a 30s-old pod was
    said to have last restarted 'at an unknown time'); where earlier rows of it in the paste
    bound it closer, that window. None when the row gives no age, or one older than OLD (at
    most 3d13h ago says nothing of now)."""
    facts = pod.view.text
    if facts is not None and facts.last_restart_window:
        return table_restart_window_text(facts.last_restart_window, facts.last_restart_seen)
    if facts is None or facts.age_seconds is None or timedelta(seconds=facts.age_seconds) > OLD:
        return None
    return f"at most {age_text(timedelta(seconds=facts.age_seconds))} before the table was printed (its AGE)"


def table_restart_window_text(window: list[float | None], seen: str | None) -> str:
    """When a pod's last restart was, as its rows of one session bound it (its earlier rows'
    RESTARTS and AGE: ingest's _with_restart_window).

    >>> table_restart_window_text([23.0, 195.0], "6 restarts at AGE 4m56s (line 22), 7 at AGE 7m45s (line 23)")
    'between 23s and 3m15s before the table was printed (its rows: 6 restarts at AGE 4m56s (line 22), 7 at AGE 7m45s (line 23))'
    >>> table_restart_window_text([600.0, None], "5 restarts already at AGE 3m (line 4)")
    'at least 10m before the table was printed (its rows: 5 restarts already at AGE 3m (line 4))'
    """
    least, most = window
    rows = f" (its rows: {seen})" if seen else ""
    if most is None:
        return f"at least {age_text(timedelta(seconds=least or 0))} before the table was printed{rows}"
    if not least:
        return f"at most {age_text(timedelta(seconds=most))} before the table was printed{rows}"
    return (f"between {age_text(timedelta(seconds=least))} and {age_text(timedelta(seconds=most))} "
            f"before the table was printed{rows}")


def table_history_reason(pod: KubeObject, cluster: AnalyzedDump | None = None) -> str:
    """Why a pasted pod's restarts are history ('' if they are not): its row says it runs with
    every container ready, and its RESTARTS column says the last one is old, or came with the
    last restarts of other pods of its node in the same minute (the node or its runtime
    restarted: a `-o wide` table shows each pod's node)."""
    facts = pod.view.text
    if facts is None or facts.status != "Running":
        return ""
    ready, _, total = (facts.ready or "").partition("/")
    if not (ready.isdigit() and ready == total):
        return ""
    if facts.last_restart_ago_seconds is None:
        window = facts.last_restart_window
        if window and window[0] is not None and timedelta(seconds=window[0]) > OLD:
            return f"last restart {table_restart_bound_text(pod)}; running and ready since"
        rare = _rare_restarts(facts.restarts, facts.age_seconds) or _spread_restarts(facts.restarts, int(total))
        if rare or cluster is None or pod.provenance.source not in _sources_giving_last_restarts(cluster):
            return rare
        # kubectl (1.25 on) prints `N (5m ago)` from the last termination the kubelet kept; a
        # row of the same paste without it has none kept: its containers were made anew since
        # (a node restart), and a container that crashed lately has its record (k3s udacity
        # dump served, hello-python `5` beside frontend `4 (17h ago)`: lastState empty)
        return ("no time of its last restart where other rows of its paste give theirs: the kubelet "
                "kept no record of its last termination (its containers made anew since, as after "
                "a node restart); running and ready")
    if timedelta(seconds=facts.last_restart_ago_seconds) > OLD:
        return f"last restart {table_last_restart_text(pod)}; running and ready since"
    together = _restarted_with(cluster, pod) if cluster is not None else 0
    if together:
        return (f"its last restart {table_last_restart_text(pod)} came with those of {together} other pods of "
                f"node {_node_of(cluster, pod)} in the same minute (the node or its runtime restarted); "
                f"running and ready since")
    made = _made_with(cluster, pod) if cluster is not None else 0
    if made:
        return (f"its last restart {table_last_restart_text(pod)} came as {made} other pods of node "
                f"{_node_of(cluster, pod)} were made anew in the same minute (their AGE: the node's components "
                f"deployed again, as an upgrade or a restart of its agent does); running and ready since")
    return ""


# A pod this old that restarted less than once a day on average, running and ready, shows no
# sign of restarting now when its table does not say when it last did (kubectl before 1.25
# printed no "(5m ago)"): the F5 VELOS k3s node's traefik, 15 restarts in 240d, its node
# rebooted six hours before.
RARE_MIN_AGE = timedelta(days=7)
RARE_PER_DAY = 1.0


def _rare_restarts(restarts: int | None, age_seconds: float | None) -> str:
    """Why restarts with no time are history ('' if they may not be): few for the pod's age.

    >>> _rare_restarts(15, 240 * 86400)
    '15 restarts in 240d (fewer than one a day), running and ready at capture'
    >>> _rare_restarts(16, 2.5 * 86400), _rare_restarts(15, None)
    ('', '')
    """
    if not restarts or age_seconds is None or timedelta(seconds=age_seconds) < RARE_MIN_AGE:
        return ""
    days = age_seconds / 86400
    if restarts / days >= RARE_PER_DAY:
        return ""
    return (f"{restarts} restarts in {age_text(timedelta(seconds=age_seconds))} (fewer than one a day), "
            f"running and ready at capture")


# A row's RESTARTS is the sum over its containers: spread over them this thinly, the restarts are
# what one or two restarts of the node leave in every container (ARO 4.15's ovnkube-node, 9/9 with
# 9 and 10 restarts in 14h, its nodes rebooted by the machine-config daemon as they joined).
SPREAD_MOST_EACH = 2


def _spread_restarts(restarts: int | None, containers: int) -> str:
    """Why a running, ready row's restarts with no time are no sign of a container restarting
    ('' if they may be): few for its containers, none of which need have restarted more than
    SPREAD_MOST_EACH times.

    >>> _spread_restarts(10, 9)
    '10 restarts among its 9 containers, none need have restarted more than 2 times (a node restart restarts each once); running and ready'
    >>> _spread_restarts(16, 8)[:48], _spread_restarts(8, 2), _spread_restarts(7, 1)
    ('16 restarts among its 8 containers, none need ha', '', '')
    """
    if not restarts or containers < 2:
        return ""
    fewest = -(-restarts // containers)  # the most restarts some container had, at the fewest
    if fewest > SPREAD_MOST_EACH:
        return ""
    times = "once" if fewest == 1 else f"{fewest} times"
    return (f"{restarts} restarts among its {containers} containers, none need have restarted more than "
            f"{times} (a node restart restarts each once); running and ready")


# Pasted rows whose last restarts fall within this of each other, on one node, restarted together.
TOGETHER = timedelta(seconds=60)
# ... when at least this many other pods of the node did (min_pods of a node restart, less this one).
TOGETHER_OTHERS = 2
# A restart of the node this recent is not history yet: its pods may still be settling.
TOGETHER_SETTLED = timedelta(minutes=30)


# A restart that came as the node's other pods were made anew (an upgrade re-deploys them: rke2#5492,
# etcd-server1 and the helm-install pods 26m old, cloud-controller-manager `3 (26m ago)`) is
# history once the pod has run this long since without another: the re-deploy is over.
MADE_ANEW_SETTLED = timedelta(minutes=10)


def _node_of(cluster: AnalyzedDump, pod: KubeObject) -> str:
    """The pod's node: its own, else the one Node of a one-node dump (a table without -o wide)."""
    if pod.view.spec.nodeName:
        return pod.view.spec.nodeName
    return _only_node(cluster)


@once_per
def _only_node(cluster: AnalyzedDump) -> str:
    nodes = list(cluster.objects_of("Node"))
    return nodes[0].name if len(nodes) == 1 else ""


def _made_with(cluster: AnalyzedDump, pod: KubeObject) -> int:
    """How many other pods of the same pasted table's node were created (their AGE) within a
    minute of this one's last restart (0 when fewer than TOGETHER_OTHERS, or too recently)."""
    node, facts = _node_of(cluster, pod), pod.view.text
    if not node or facts is None or facts.last_restart_ago_seconds is None \
            or timedelta(seconds=facts.last_restart_ago_seconds) < MADE_ANEW_SETTLED:
        return 0
    ago_, within = facts.last_restart_ago_seconds, TOGETHER.total_seconds()
    ages = _ages_by_node(cluster).get((pod.provenance.source, node), [])
    others = bisect_right(ages, ago_ + within) - bisect_left(ages, ago_ - within)
    if facts.age_seconds is not None and abs(facts.age_seconds - ago_) <= within:
        others -= 1  # (this pod itself, made then)
    return others if others >= TOGETHER_OTHERS else 0


def _ages_by_node(cluster: AnalyzedDump) -> dict[tuple[Any, str], list[float]]:
    """(pasted source, node) -> its pasted pods' ages (seconds before the table), sorted."""
    return _pasted_by_node(cluster)["age_seconds"]


def _last_restarts_by_node(cluster: AnalyzedDump) -> dict[tuple[Any, str], list[float]]:
    """(pasted source, node) -> its pasted pods' last restarts (seconds before the table), sorted."""
    return _pasted_by_node(cluster)["last_restart_ago_seconds"]


@once_per
def _pasted_by_node(cluster: AnalyzedDump) -> dict[str, dict[tuple[Any, str], list[float]]]:
    """Each pasted time of a pod row (its age, its last restart) -> (pasted source, node) -> the
    seconds before the table, sorted: one walk of the pods, however many rows ask (a
    20,000-row table asked 20,000 times)."""
    found: dict[str, dict[tuple[Any, str], list[float]]] = {"age_seconds": {}, "last_restart_ago_seconds": {}}
    for pod in cluster.objects_of("Pod"):
        text, node = pod.view.text, _node_of(cluster, pod)
        if text is None or not node:
            continue
        for field, by_node in found.items():
            seconds = getattr(text, field)
            if seconds is not None:
                by_node.setdefault((pod.provenance.source, node), []).append(seconds)
    for by_node in found.values():
        for seconds in by_node.values():
            seconds.sort()
    return found


def _restarted_with(cluster: AnalyzedDump, pod: KubeObject) -> int:
    """How many other pods of the same pasted table's node last restarted within a minute of
    this one (0 when fewer than TOGETHER_OTHERS, or too recently to be history)."""
    node, facts = _node_of(cluster, pod), pod.view.text
    if not node or facts is None or facts.last_restart_ago_seconds is None \
            or timedelta(seconds=facts.last_restart_ago_seconds) < TOGETHER_SETTLED:
        return 0
    ago_ = facts.last_restart_ago_seconds
    within = TOGETHER.total_seconds()
    agos = _last_restarts_by_node(cluster).get((pod.provenance.source, node), [])
    # this pod is among them (within 0 of itself)
    others = bisect_right(agos, ago_ + within) - bisect_left(agos, ago_ - within) - 1
    return others if others >= TOGETHER_OTHERS else 0


def restarted_without_last_exit(cluster: AnalyzedDump, pod: KubeObject) -> bool:
    """Whether a pasted row counts restarts but prints no `(5m ago)` where the kubectl that
    printed its file prints one for other pods: kubectl prints when the last restart was from
    a container's last termination, which a container looping between back-offs always has; so
    no container of this pod is waiting to restart (its node stopped the pod: a disk-pressure
    eviction leaves `0/1  Error  3` beside `1 (21h ago)`)."""
    text = pod.view.text
    if text is None or not text.restarts or text.last_restart_ago_seconds is not None or not states_no_container(pod):
        return False
    return pod.provenance.source in _sources_giving_last_restarts(cluster)


@once_per
def _sources_giving_last_restarts(cluster: AnalyzedDump) -> frozenset[Any]:
    """The pasted sources some pod row of which says when its last restart was (`4 (17h ago)`):
    a kubectl that prints it wherever the kubelet kept the last termination."""
    return frozenset(pod.provenance.source for pod in cluster.objects_of("Pod")
                     if pod.view.text is not None and pod.view.text.last_restart_ago_seconds is not None)


def history_reason(cluster: AnalyzedDump, restart: ContainerRestart) -> str:
    """Why a container's restarts are history rather than a present problem ('' if they are
    not): its last restart came with a node restart, or is old and it runs ready since."""
    moment = moment_of(cluster, restart)
    if moment is not None:
        return (f"its last restart came with node {moment.node}'s restart "
                f"{last_restart_text(cluster, restart)} ({len(moment.members)} containers of "
                f"{len(moment.pods)} pods at once; see node-restart)")
    age = age_at_capture(cluster, restart.last_restart, restart.pod) if restart.last_restart else None
    if age is not None and age > OLD and restart.ready_now:
        return f"last restart {lasted_text(cluster, age)} before capture; running and ready since"
    created = parse_time(restart.pod.view.metadata.creationTimestamp)
    if age is not None and age > QUIET_SINCE_START_UP and restart.ready_now and created is not None \
            and timedelta(0) <= restart.last_restart - created <= START_UP:
        # an operator restarting while its cluster came up (the API server and its webhooks
        # not yet there), then quiet for an hour and more: its start-up, not a loop now
        return (f"all its restarts came in its first {age_text(restart.last_restart - created)} (its "
                "start-up); running and ready since")
    return ""


@once_per
def _cache(cluster: AnalyzedDump) -> list[ContainerRestart]:
    return list(_restarts(cluster))


def _restarts(cluster: AnalyzedDump) -> Any:
    for pod in pod_suspects(cluster).of("restarted"):
        node = pod.view.spec.nodeName or ""
        for ctype, _spec, status in pod_containers(pod):
            if status is None or not status.restartCount:
                continue
            last = status.lastState.terminated if status.lastState else None
            finished = parse_time(last.finishedAt) if last else None
            running = status.state.running if status.state else None
            started = parse_time(running.startedAt) if running else None
            yield ContainerRestart(pod, ctype, status, node, finished, finished or started)
