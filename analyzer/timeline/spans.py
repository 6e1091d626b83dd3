"""Spans the single facts add up to: a node (or its runtime) restarting, and install windows.

A reboot leaves one termination per container, all within a minute, on every pod of a node: read
one by one they look like many crashes. An install leaves a burst of creations. Both are shown
as one row with a start (`time`) and an `end`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from itertools import groupby
from typing import Any

import pandas as pd

from analyzer.model.restarts import NodeRestartMoment, thresholds

# A node restart is a moment of analyzer/model/restarts.py (the node-restart rule, the
# incidents and component health name the same ones). Other terminations of one node, each
# within the same window of the previous one, are "restarted together" from TOGETHER_MIN_PODS
# pods (fewer where the node has fewer pods): a shared cause, not a restart of the node.
RESTART_GAP = pd.Timedelta(thresholds().window)
TOGETHER_MIN_PODS = 3
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


def _runs(times: list[pd.Timestamp], gap: pd.Timedelta) -> Iterator[range]:
    """Positions of sorted `times` split where consecutive times are more than `gap` apart."""
    first = 0
    for i in range(1, len(times) + 1):
        if i == len(times) or times[i] - times[i - 1] > gap:
            yield range(first, i)
            first = i


def _sorted_rows(frame: pd.DataFrame, by: list[str]) -> list[tuple[Any, ...]]:
    # plain tuples: a dump's thousands of short runs cost nothing, unlike a DataFrame slice each
    part = frame.sort_values(by, kind="stable")
    return list(part[["node", "time", "namespace", "name", "detail", "source", "kind"]]
                .astype(object).itertuples(index=False, name=None))


def node_restarts(frame: pd.DataFrame, pods_per_node: Counter[str],
                  moments: list[NodeRestartMoment]) -> list[Span]:
    """A node restarted at T: the terminations of one of the dump's node restart `moments`.
    Other terminations of a node that share one moment are a span of containers restarted
    together (a cause they share)."""
    ended = frame[(frame["fact"] == "container terminated") & (frame["mark"] == "restart")
                  & frame["node"].notna() & (frame["kind"] == "Pod")]
    rows = _sorted_rows(ended, ["node", "time"])
    spans = []
    for _, group_iter in groupby(rows, key=lambda r: r[0]):
        node_rows = list(group_iter)
        node = str(node_rows[0][0])
        rest = node_rows
        for moment in (m for m in moments if m.node == node):
            start, end = pd.Timestamp(moment.start), pd.Timestamp(moment.end)
            group = [r for r in rest if start <= r[1] <= end]
            rest = [r for r in rest if not start <= r[1] <= end]
            if group:
                spans.append(_span(node, group, node_restart=True))
        for run in _runs([r[1] for r in rest], RESTART_GAP):
            group = [rest[i] for i in run]
            together = min(TOGETHER_MIN_PODS, max(2, pods_per_node.get(node, 0)))
            if len({(r[2], r[3]) for r in group}) >= together:
                spans.append(_span(node, group, node_restart=False))
    return spans


def _span(node: str, group: list[tuple[Any, ...]], node_restart: bool) -> Span:
    pods = {(r[2], r[3]) for r in group}
    reasons = Counter(_reason(r[4]) for r in group)
    said = ", ".join(f"{r} x{n}" for r, n in sorted(reasons.items(), key=lambda x: (-x[1], x[0])))
    start, end = group[0][1], group[-1][1]
    namespaces = sorted({r[2] for r in group})
    what = ("the node or its container runtime restarted (most lost their sandbox: exit "
            "code 255 or Unknown)" if node_restart else
            "a cause they share; not a node restart (too few of them lost their sandbox at one moment)")
    return Span(
        start, end, "Node", "", node, "node restarted" if node_restart else "restarted together",
        f"{len(group)} containers of {len(pods)} pods on node {node} stopped within "
        f"{int((end - start).total_seconds())}s and were restarted: {what} (last "
        f"terminations: {said}; namespaces: "
        f"{', '.join(namespaces[:6])}{', ...' if len(namespaces) > 6 else ''})",
        node, f"{len(group)} container terminations, first read from {group[0][5]}",
    )


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
    rows = _sorted_rows(created, ["time"])
    first = rows[0][1]
    spans = []
    for run in _runs([r[1] for r in rows], INSTALL_GAP):
        if len(run) < INSTALL_MIN_OBJECTS:
            continue
        group = [rows[i] for i in run]
        kinds = Counter(r[6] for r in group)
        if len(kinds) < 2:
            continue
        start, end = group[0][1], group[-1][1]
        namespaces = Counter(r[2] or "(cluster-scoped)" for r in group)
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
            None, f"{len(group)} creation timestamps, first read from {group[0][5]}",
        ))
    return spans


# A restart this close to an install window belongs to it (runtimes and kubelets are restarted
# while a cluster or node is being set up).
INSTALL_MARGIN = pd.Timedelta(minutes=5)


def during_install(restarts: list[Span], installs: list[Span]) -> list[Span]:
    """Node restarts that happened while the cluster (or a chart) was being installed say so."""
    out = []
    for span in restarts:
        window = next((w for w in installs if w.start - INSTALL_MARGIN <= span.start
                       and span.end <= w.end + INSTALL_MARGIN), None)
        if window is not None:
            what = "the cluster's install" if window.detail.startswith("cluster install") else "an install"
            span = replace(span, detail=f"{span.detail}; during {what} ({_iso(window.start)} to "
                                        f"{_iso(window.end)}): expected while it is set up")
        out.append(span)
    return out


def _iso(ts: pd.Timestamp) -> str:
    return ts.isoformat().replace("+00:00", "Z")


def _duration(delta: pd.Timedelta) -> str:
    seconds = int(delta.total_seconds())
    if seconds >= 3600:
        return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
    if seconds >= 60:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds}s"
