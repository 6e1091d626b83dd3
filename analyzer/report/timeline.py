"""The report's Timeline section: a picture of the last hours before capture (a row per node or
namespace, marks for restarts, warnings and transitions) and the densest periods below it.

At 20,000 pods the marks are counted per row and time bin (a bigger mark for more facts), and
rows beyond the busiest few are folded into one "other" row, so the picture stays readable.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle

from analyzer.report.diagrams import _message_figure, _short, _style

if TYPE_CHECKING:
    from analyzer.cluster import Cluster

# "The last hours before capture": 6 hours, widened step by step while it holds fewer than
# ENOUGH marks (a dump taken a day after the incident still shows the incident).
WINDOWS = (pd.Timedelta(hours=6), pd.Timedelta(hours=24), pd.Timedelta(days=3), pd.Timedelta(days=7))
ENOUGH = 20
BINS = 72  # time bins over the window (5 minutes over 6 hours)
MAX_ROWS = 30  # rows drawn; the rest are folded into one
PERIOD = pd.Timedelta(minutes=10)  # the densest-periods table counts facts per 10 minutes
TOP_PERIODS = 10
MAX_SPANS = 100  # spans listed in the report (newest first); `kda timeline` has them all
CATEGORIES = (("restart", "restarts", "#d62728", "o"), ("warning", "warnings", "#ff9f1c", "s"),
              ("transition", "transitions", "#4c78a8", "^"))


# The marks of a timeline frame, kept while the frame lives: the section and the picture both
# read them, and at 20,000 pods they are a few hundred thousand rows.
_MARKS: dict[int, tuple[weakref.ref, pd.DataFrame]] = {}


def _marks(frame: pd.DataFrame) -> pd.DataFrame:
    """The facts that make marks: each with its moment (an event's latest), row and category."""
    known = _MARKS.get(id(frame))
    if known is not None and known[0]() is frame:
        return known[1]
    marks = _build_marks(frame)
    key = id(frame)
    _MARKS[key] = (weakref.ref(frame, lambda _: _MARKS.pop(key, None)), marks)
    return marks


def _build_marks(frame: pd.DataFrame) -> pd.DataFrame:
    mark = _text(frame["mark"]).fillna("")
    fact = _text(frame["fact"])
    category = mark.where(mark.isin(["restart", "warning", "transition"]), "")
    # a creation or deletion is a transition too: a rollout, a rescheduling, a cleanup
    lifecycle = pd.Series("", index=frame.index, dtype="string").mask(
        fact.isin(["created", "deletion requested"]).fillna(False).astype(bool), "transition")
    category = category.where(category != "", lifecycle)
    keep = category != ""  # spans are drawn as bars of their own, not counted as marks
    marked = frame[keep]
    moment = marked["end"].where(marked["end"].notna(), marked["time"])
    node = marked["node"].astype("string")
    ns = marked["namespace"].astype("string").fillna("")
    row = node.where(node.notna() & (node != ""),
                     ("namespace " + ns).where(ns != "", "cluster-scoped"))
    return pd.DataFrame({"moment": moment, "row": row.astype("string"),
                         "category": category[keep].astype("string"),
                         "fact": fact[keep], "kind": _text(marked["kind"]),
                         "namespace": ns, "name": marked["name"].astype("string"),
                         "detail": marked["detail"].astype("string"),
                         "start": marked["time"], "end": marked["end"]})


def _text(column: pd.Series) -> pd.Series:
    """A column as text; a category's read from its few names, not made again for every row."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        codes = column.cat.codes.to_numpy()
        if (codes >= 0).all():
            names = column.cat.categories.astype("string")
            return pd.Series(names.take(codes), index=column.index, name=column.name)
    return column.astype("string")


def _rows(recent: pd.DataFrame) -> tuple[list[str], dict[str, str]]:
    """The rows to draw (nodes first, then namespaces) and each row's place (folded or not)."""
    weight = recent["category"].map({"restart": 3, "warning": 2, "transition": 1}).astype(float)
    busy = weight.groupby(recent["row"]).sum().sort_values(ascending=False, kind="stable")
    ranked = sorted(busy.index, key=lambda r: (-busy[r], str(r)))
    # one row is kept for the folded ones
    shown = ranked if len(ranked) <= MAX_ROWS else ranked[: MAX_ROWS - 1]
    place = {r: r for r in shown}
    folded = [r for r in ranked if r not in place]
    other = ""
    if folded:
        nodes = sum(1 for r in folded if not r.startswith(("namespace ", "cluster-scoped")))
        other = f"{len(folded)} other rows ({nodes} nodes)"
        place.update({r: other for r in folded})
    ordered = sorted(shown, key=lambda r: (r.startswith(("namespace ", "cluster-scoped")), r))
    return ordered + ([other] if other else []), place


def timeline_picture(cluster: Cluster) -> Figure:
    """The hours before capture: marks per row and time bin, node restarts as bars."""
    with _style():
        capture = cluster.capture_time
        if capture is None:
            return _message_figure("Timeline", "the capture time is unknown: nothing to place")
        end = pd.Timestamp(capture)
        frame = cluster.timeline
        marks = _marks(frame)
        window = choose_window(marks, end)
        start = end - window
        recent = marks[(marks["moment"] >= start) & (marks["moment"] <= end)]
        if recent.empty:
            return _message_figure(
                "Timeline", f"no restart, warning or transition in the {_hours(window)} before capture")
        order, place = _rows(recent)
        index = {r: i for i, r in enumerate(order)}
        y = recent["row"].map(place).map(index)
        width = window / BINS
        bins = ((recent["moment"] - start) // width).clip(upper=BINS - 1).astype(int)
        fig = Figure(figsize=(11, 1.6 + 0.26 * len(order)))
        ax = fig.add_subplot()
        handles = []
        offsets = {"restart": -0.22, "warning": 0.0, "transition": 0.22}
        for category, label, colour, marker in CATEGORIES:
            part = recent["category"] == category
            if not part.any():
                continue
            counts = pd.DataFrame({"bin": bins[part], "y": y[part]}).value_counts().sort_index()
            xs = [start + width * (b + 0.5) for b, _ in counts.index]
            ys = [row + offsets[category] for _, row in counts.index]
            sizes = np.clip(12 * np.sqrt(counts.to_numpy()), 10, 160)
            ax.scatter([x.to_pydatetime() for x in xs], ys, s=sizes, c=colour, marker=marker,
                       alpha=0.8, linewidths=0)
            handles.append(Line2D([], [], color=colour, marker=marker, linestyle="",
                                  label=f"{label} ({int(part.sum())})"))
        restarted = _draw_spans(ax, frame, place, index, start, end, window)
        ax.axvline(end.to_pydatetime(), color="#333333", linewidth=1.2, linestyle="--")
        ax.text(end.to_pydatetime(), -0.9, " capture", fontsize=7, va="bottom", ha="left",
                color="#333333")
        ax.set_yticks(range(len(order)), [_short(r, 36) for r in order], fontsize=7)
        ax.set_ylim(len(order) - 0.5, -1.0)
        ax.set_xlim(start.to_pydatetime(), (end + width).to_pydatetime())
        ax.grid(axis="x", color="#eeeeee")
        ax.set_xlabel(f"UTC; marks counted per {int(width.total_seconds() // 60)} minutes "
                      "(a bigger mark for more facts)")
        ax.set_title(f"Timeline: the {_hours(window)} before capture "
                     f"({len(recent)} fact{'s' if len(recent) != 1 else ''})")
        if restarted:
            handles.append(Rectangle((0, 0), 1, 1, color="#d62728", alpha=0.18,
                                     label=f"node restarted ({restarted})"))
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=7,
                  frameon=False)
        fig.autofmt_xdate()
        return fig


def choose_window(marks: pd.DataFrame, end: pd.Timestamp) -> pd.Timedelta:
    """The shortest of WINDOWS holding ENOUGH marks before `end` (else the longest)."""
    for window in WINDOWS:
        inside = marks["moment"].between(end - window, end).sum()
        if inside >= ENOUGH:
            return window
    return WINDOWS[-1]


def _draw_spans(ax: Any, frame: pd.DataFrame, place: dict[str, str], index: dict[str, int],
                start: pd.Timestamp, end: pd.Timestamp, window: pd.Timedelta) -> int:
    """Node restarts in the window as bars on their node's row; returns how many."""
    spans = frame[(frame["fact"] == "node restarted") & (frame["time"] <= end)
                  & (frame["end"].fillna(frame["time"]) >= start)]
    minimum = window / 200  # a restart within seconds still shows as a bar
    drawn = 0
    for row in spans.itertuples(index=False):
        where = place.get(str(row.node))
        if where is None:
            continue  # a node with no mark in the window gets no row of its own
        left = max(row.time, start)
        right = max(row.end if not pd.isna(row.end) else row.time, left + minimum)
        ax.add_patch(Rectangle((left.to_pydatetime(), index[where] - 0.42),
                               (right - left).to_pytimedelta(), 0.84, color="#d62728",
                               alpha=0.18, linewidth=0))
        drawn += 1
    return drawn


def _hours(delta: pd.Timedelta) -> str:
    hours = delta.total_seconds() / 3600
    return f"{hours:g} hours" if hours < 48 else f"{hours / 24:g} days"


def timeline_section(cluster: Cluster) -> dict[str, Any]:
    """Counts of the timeline, its spans, and the densest periods (10-minute bins)."""
    frame = cluster.timeline
    capture = cluster.capture_time
    marks = _marks(frame)
    spans = frame[frame["mark"] == "span"]
    periods = []
    if not marks.empty:
        bucket = marks["moment"].dt.floor(PERIOD)
        counts = marks.groupby([bucket, marks["category"]]).size().unstack(fill_value=0)
        total = counts.sum(axis=1)
        weighted = sum(counts.get(c, 0) * w for c, w in (("restart", 3), ("warning", 2), ("transition", 1)))
        # the busiest first (weighted, then by count), the earliest among equals
        ranked = pd.DataFrame({"weighted": pd.Series(weighted, index=total.index).astype(float),
                               "total": total.astype(int)}, index=total.index)
        ranked = ranked.sort_values(["weighted", "total"], ascending=False, kind="stable")
        top = sorted(ranked.index[:TOP_PERIODS])
        for t in top:
            inside = marks[bucket == t]
            rows = inside["row"].value_counts()
            facts = inside["fact"].value_counts()
            periods.append({
                "start": _iso(t), "end": _iso(t + PERIOD),
                "before_capture": _ago(pd.Timestamp(capture) - t) if capture else None,
                "facts": int(total[t]),
                "restarts": int(counts.at[t, "restart"]) if "restart" in counts else 0,
                "warnings": int(counts.at[t, "warning"]) if "warning" in counts else 0,
                "transitions": int(counts.at[t, "transition"]) if "transition" in counts else 0,
                "where": ", ".join(f"{r} ({n})" for r, n in list(rows.items())[:3])
                         + (f", {len(rows) - 3} more" if len(rows) > 3 else ""),
                "what": ", ".join(f"{f} ({n})" for f, n in list(facts.items())[:4]),
            })
    return {
        "facts": len(frame),
        "first": _iso(frame["time"].min()) if len(frame) else None,
        "last": _iso(frame["time"].max()) if len(frame) else None,
        "capture_time": _iso(capture) if capture else None,
        "window_hours": (choose_window(marks, pd.Timestamp(capture)).total_seconds() / 3600
                         if capture else None),
        "by_fact": [{"fact": str(f), "count": int(n)} for f, n in
                    sorted(_text(frame["fact"]).value_counts().items())],
        "spans_total": len(spans),
        # the newest first: what led up to the capture
        "spans": [{"start": _iso(r.time), "end": _iso(r.end), "fact": str(r.fact),
                   "object": "/".join(x for x in (str(r.kind), str(r.namespace), str(r.name)) if x),
                   "detail": str(r.detail), "source": str(r.source)}
                  for r in spans.iloc[::-1].head(MAX_SPANS).itertuples(index=False)],
        "densest": periods,
        "undated": int(frame.attrs.get("undated", 0)),
        "unparsed": int(frame.attrs.get("unparsed", 0)),
    }


def _iso(value: Any) -> str | None:
    if value is None or pd.isna(value):
        return None
    return pd.Timestamp(value).isoformat().replace("+00:00", "Z")


def _ago(delta: pd.Timedelta) -> str:
    seconds = int(delta.total_seconds())
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if abs(seconds) >= size:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"
