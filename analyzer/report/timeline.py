"""The report's Timeline section: a picture of the last hours before capture (a row per node or
namespace, marks for restarts, warnings and transitions) and the densest periods below it.

At 20,000 pods the marks are counted per row and time bin (a bigger mark for more facts), and
rows beyond the busiest few are folded into one "other" row, so the picture stays readable.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle

from analyzer.report.diagrams import _message_figure, _short, _style, title_at_top
from analyzer.timeline.summary import PERIOD, WEIGHTS

if TYPE_CHECKING:
    from analyzer.cluster import Cluster

# "The last hours before capture": 6 hours, widened step by step while it holds fewer than
# ENOUGH marks (a dump taken a day after the incident still shows the incident).
WINDOWS = (pd.Timedelta(hours=6), pd.Timedelta(hours=24), pd.Timedelta(days=3), pd.Timedelta(days=7))
ENOUGH = 20
BINS = 72  # time bins over the window (5 minutes over 6 hours)
MAX_ROWS = 30  # rows drawn; the rest are folded into one
MAX_SPANS = 100  # spans listed in the report (newest first); `kda timeline` has them all
CATEGORIES = (("restart", "restarts", "#d62728", "o"), ("warning", "warnings", "#ff9f1c", "s"),
              ("transition", "transitions", "#4c78a8", "^"))


def _rows(recent: pd.DataFrame) -> tuple[list[str], dict[str, str]]:
    """The rows to draw (nodes first, then namespaces) and each row's place (folded or not)."""
    weight = recent["category"].map(WEIGHTS).astype(float)
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
        summary = cluster.timeline_summary
        marks = summary.marks
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
        restarted = _draw_spans(ax, summary.spans, place, index, start, end, window)
        ax.axvline(end.to_pydatetime(), color="#333333", linewidth=1.2, linestyle="--")
        # inside the axes, left of the line: to its right the legend begins
        ax.text(end.to_pydatetime(), 0.99, "capture ", fontsize=7, va="top", ha="right",
                color="#333333", transform=ax.get_xaxis_transform())
        ax.set_yticks(range(len(order)), [_short(r, 36) for r in order], fontsize=7)
        ax.set_ylim(len(order) - 0.5, -1.0)
        ax.set_xlim(start.to_pydatetime(), (end + width).to_pydatetime())
        ax.grid(axis="x", color="#eeeeee")
        ax.set_xlabel(f"UTC; marks counted per {int(width.total_seconds() // 60)} minutes "
                      "(a bigger mark for more facts)")
        title_at_top(ax, f"Timeline: the {_hours(window)} before capture "
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


def _draw_spans(ax: Any, spans: pd.DataFrame, place: dict[str, str], index: dict[str, int],
                start: pd.Timestamp, end: pd.Timestamp, window: pd.Timedelta) -> int:
    """Node restarts in the window as bars on their node's row; returns how many."""
    spans = spans[(spans["fact"] == "node restarted") & (spans["time"] <= end)
                  & (spans["end"].fillna(spans["time"]) >= start)]
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
    summary = cluster.timeline_summary
    capture = cluster.capture_time
    periods = []
    for p in summary.densest:
        periods.append({
            "start": _iso(p.start), "end": _iso(p.start + PERIOD),
            "before_capture": _ago(pd.Timestamp(capture) - p.start) if capture else None,
            "facts": p.facts,
            "restarts": p.categories.get("restart", 0),
            "warnings": p.categories.get("warning", 0),
            "transitions": p.categories.get("transition", 0),
            "where": ", ".join(f"{r} ({n})" for r, n in p.rows[:3])
                     + (f", {len(p.rows) - 3} more" if len(p.rows) > 3 else ""),
            "what": ", ".join(f"{f} ({n})" for f, n in p.kinds_of_fact[:4]),
        })
    spans = summary.spans
    return {
        "facts": summary.facts,
        "first": _iso(summary.first),
        "last": _iso(summary.last),
        "capture_time": _iso(capture) if capture else None,
        "window_hours": (choose_window(summary.marks, pd.Timestamp(capture)).total_seconds() / 3600
                         if capture else None),
        "by_fact": [{"fact": f, "count": n} for f, n in summary.by_fact],
        "spans_total": len(spans),
        # the newest first: what led up to the capture
        "spans": [{"start": _iso(r.time), "end": _iso(r.end), "fact": str(r.fact),
                   "object": "/".join(x for x in (str(r.kind), str(r.namespace), str(r.name)) if x),
                   "detail": str(r.detail), "source": str(r.source)}
                  for r in spans.iloc[::-1].head(MAX_SPANS).itertuples(index=False)],
        "densest": periods,
        "undated": summary.undated,
        "unparsed": summary.unparsed,
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
