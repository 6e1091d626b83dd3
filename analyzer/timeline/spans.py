"""Spans the single facts add up to: a node (or its runtime) restarting, and install windows.

A reboot leaves one termination per container, all within a minute, on every pod of a node: read
one by one they look like many crashes. An install leaves a burst of creations. Both are shown
as one row with a start (`time`) and an `end`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

import pandas as pd

# Terminations of one restart: each within this of the previous one.
RESTART_GAP = pd.Timedelta(minutes=1)
# A node restart takes containers of this many pods (fewer where the node has fewer pods).
RESTART_MIN_PODS = 3
# Creations of one install: each within this of the previous one, and at least this many.
INSTALL_GAP = pd.Timedelta(minutes=5)
INSTALL_MIN_OBJECTS = 10
# Kinds that are created all the time by controllers: they do not make an install.
CHURN_KINDS = frozenset({"Pod", "ReplicaSet", "Event", "Job", "Lease", "EndpointSlice",
                         "Endpoints", "ControllerRevision", "PodMetrics", "NodeMetrics"})


@dataclass(frozen=True, slots=True)
class Span:
    """A period that groups facts, as one timeline row."""

    start: pd.Timestamp
    end: pd.Timestamp
    kind: str
    namespace: str
    name: str
    fact: str
    detail: str
    node: str | None
    source: str


def _runs(times: pd.Series, gap: pd.Timedelta) -> Iterator[pd.Index]:
    """Index labels of `times` (sorted) split where consecutive times are more than `gap` apart."""
    if times.empty:
        return
    breaks = times.diff().gt(gap).to_numpy().cumsum()
    for _, part in times.groupby(breaks, sort=True):
        yield part.index


def node_restarts(frame: pd.DataFrame, pods_per_node: Counter[str]) -> list[Span]:
    """A node restarted at T: its pods' containers' last terminations share one moment."""
    ended = frame[(frame["fact"] == "container terminated") & (frame["mark"] == "restart")
                  & frame["node"].notna() & (frame["kind"] == "Pod")]
    spans = []
    for node, part in ended.groupby("node", sort=True):
        times = part["time"].sort_values(kind="stable")
        for labels in _runs(times, RESTART_GAP):
            group = part.loc[labels]
            pods = group[["namespace", "name"]].drop_duplicates()
            needed = min(RESTART_MIN_PODS, max(2, pods_per_node.get(str(node), 0)))
            if len(pods) < needed:
                continue
            reasons = Counter(_reason(d) for d in group["detail"])
            said = ", ".join(f"{r} x{n}" for r, n in sorted(reasons.items(), key=lambda x: (-x[1], x[0])))
            start, end = group["time"].min(), group["time"].max()
            namespaces = sorted(set(group["namespace"]))
            spans.append(Span(
                start, end, "Node", "", str(node), "node restarted",
                f"{len(group)} containers of {len(pods)} pods on node {node} stopped within "
                f"{int((end - start).total_seconds())}s and were restarted: the node or its "
                f"container runtime restarted (last terminations: {said}; namespaces: "
                f"{', '.join(namespaces[:6])}{', ...' if len(namespaces) > 6 else ''})",
                str(node),
                f"{len(group)} container terminations, first read from {group['source'].iloc[0]}",
            ))
    return spans


def _reason(detail: str) -> str:
    for part in detail.split(", "):
        if part.startswith("reason "):
            return part.removeprefix("reason ").split(";")[0]
    return "no reason"


def install_windows(frame: pd.DataFrame) -> list[Span]:
    """Bursts of creation (the cluster's install, a chart's install): many objects, minutes apart."""
    created = frame[(frame["fact"] == "created") & ~frame["kind"].isin(CHURN_KINDS)]
    if created.empty:
        return []
    times = created["time"].sort_values(kind="stable")
    first = times.iloc[0]
    spans = []
    for labels in _runs(times, INSTALL_GAP):
        group = created.loc[labels]
        kinds = Counter(group["kind"])
        if len(group) < INSTALL_MIN_OBJECTS or len(kinds) < 2:
            continue
        start, end = group["time"].min(), group["time"].max()
        namespaces = Counter(ns or "(cluster-scoped)" for ns in group["namespace"])
        top_ns, top_n = namespaces.most_common(1)[0]
        what = "cluster install" if start == first else "install"
        single = top_ns != "(cluster-scoped)" and top_n >= 0.8 * len(group)
        kinds_said = ", ".join(f"{k} x{n}" for k, n in kinds.most_common(6))
        ns_said = ", ".join(f"{k} ({n})" for k, n in namespaces.most_common(6))
        spans.append(Span(
            start, end, "Namespace" if single else "Cluster", "", top_ns if single else "",
            "install window",
            f"{what}: {len(group)} objects created in "
            f"{_duration(end - start)} ({kinds_said}{', ...' if len(kinds) > 6 else ''}; "
            f"namespaces: {ns_said}{', ...' if len(namespaces) > 6 else ''})",
            None,
            f"{len(group)} creation timestamps, first read from {group['source'].iloc[0]}",
        ))
    return spans


def _duration(delta: pd.Timedelta) -> str:
    seconds = int(delta.total_seconds())
    if seconds >= 3600:
        return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
    if seconds >= 60:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds}s"
