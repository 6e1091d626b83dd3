"""Timeline: every dated fact of one dump, in time order, each with the source it was read from.

`build_timeline(cluster)` is `cluster.timeline`: one row per fact (creations, deletions,
condition transitions, container starts and terminations, events, taints, lease renewals)
plus spans that group them (a node restarting, an install window). `select` narrows it the way
`kda timeline --since/--namespace` does.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import pandas as pd

from analyzer.collector import collector_paused
from analyzer.ingest.result import capture_is_lower_bound
from analyzer.timeline.facts import COLLECTORS, COLUMNS, MARK_SPAN, Rows, parse_times
from analyzer.timeline.order import CATEGORY_COLUMNS, TEXT_COLUMNS, in_order, typed
from analyzer.timeline.spans import Span, during_install, install_windows, node_restarts
from analyzer.timeline.summary import TimelineSummary, summarize

if TYPE_CHECKING:
    from analyzer.model.dump import ModeledDump

__all__ = ["COLUMNS", "TimelineSummary", "build_timeline", "parse_duration", "select", "summarize",
           "timeline_summary"]


def build_timeline(cluster: ModeledDump) -> pd.DataFrame:
    """The dump's dated facts and spans, oldest first (ties in a stable order).

    `frame.attrs` says what could not be placed: `undated` (ages stated relative to an unknown
    capture time) and `unparsed` (times that are not RFC 3339, or beyond what a nanosecond clock holds).
    """
    # Hundreds of thousands of rows and strings and few cycles, while the dump's objects are
    # alive: each collection would walk them all again.
    with collector_paused():
        gathered = _gather(cluster)
        frame = gathered.assign(**{c: _text(gathered[c]) for c in TEXT_COLUMNS})
        frame = in_order(typed(frame)).reset_index(drop=True)
        frame.attrs.update(gathered.attrs)
        return frame


def timeline_summary(cluster: ModeledDump) -> TimelineSummary:
    """What a reader takes in of the timeline (counts, spans, marks, densest periods), as
    `summarize(build_timeline(cluster))` gives it, without typing and ordering every fact."""
    with collector_paused():
        return summarize(_gather(cluster))


def _gather(cluster: ModeledDump) -> pd.DataFrame:
    """The facts as collected, times parsed (those that are not left out), and the spans they
    add up to as rows after them; text as Python strings, not yet typed or ordered."""
    from analyzer.model.normalize import builtin_objects
    from analyzer.model.restarts import cluster_restart_moments

    capture = cluster.capture_time
    rows = Rows(capture, show_sensitive=getattr(cluster, "show_sensitive", False))
    pod_nodes = {(o.namespace, o.name): node
                 for o in builtin_objects(cluster, "Pod") if (node := o.view.spec.nodeName)}
    for collect in COLLECTORS:
        collect(cluster, rows, pod_nodes)
    frame = _frame(rows)
    dated = frame["time"].notna()
    unparsed = len(frame) - int(dated.sum())
    # (copied without the undated rows only where there are any: the usual dump has none)
    frame = _coded(frame[dated].reset_index(drop=True) if unparsed else frame)
    installs = install_windows(frame)
    restarts = node_restarts(frame, Counter(pod_nodes.values()), cluster_restart_moments(cluster))
    spans = during_install(restarts, installs) + installs
    if spans:
        frame = _appended(frame, _span_frame(spans))
    lower = _lower_bound_signal(cluster)
    frame.attrs.update(undated=rows.undated, unparsed=unparsed,
                       capture_time=capture.isoformat() if capture else None,
                       capture_lower_bound=lower,
                       capture_newest=cluster.capture.newest_words(capture) if capture and lower else None,
                       before_capture=_before_capture(rows))
    return frame


def _lower_bound_signal(cluster: Any) -> str | None:
    """The signal of a capture that is only a lower bound (the dump's newest write, status or log
    time: the capture came then or later), else None."""
    return cluster.capture.signal if capture_is_lower_bound(cluster) else None


def _before_capture(rows: Rows) -> list[dict[str, Any]]:
    """The facts stated only as ages of a dump whose capture time is unknown, oldest first (of
    one age, in the order read: a describe's Events in their rows' order)."""
    ordered = sorted(range(len(rows.before_capture)), key=lambda i: -rows.before_capture[i][0])
    return [dict(zip(("seconds", "end_seconds", *COLUMNS[2:]), rows.before_capture[i], strict=True))
            for i in ordered]


def _frame(rows: Rows) -> pd.DataFrame:
    """The facts, times parsed, the rest as Python objects (one block, no copy made per column)."""
    table = rows.table()
    frame = pd.DataFrame(table, columns=list(COLUMNS), dtype=object, copy=False)
    frame["time"] = parse_times(table[:, 0])
    frame["end"] = parse_times(table[:, 1])
    return frame


def _coded(frame: pd.DataFrame) -> pd.DataFrame:
    """The frame with kind, fact and mark coded by the few names they hold (categories), which
    the summary compares and counts."""
    for column in CATEGORY_COLUMNS:
        codes, names = pd.factorize(frame[column].to_numpy(), use_na_sentinel=True)
        frame[column] = pd.Categorical.from_codes(codes, categories=names)
    return frame


def _appended(frame: pd.DataFrame, more: pd.DataFrame) -> pd.DataFrame:
    """`more` rows after the frame's, the coded columns still coded (by the names of both)."""
    for column in CATEGORY_COLUMNS:
        names = frame[column].cat.categories
        names = names.append(pd.Index(more[column].unique()).difference(names))
        frame[column] = frame[column].cat.set_categories(names)
        more[column] = pd.Categorical(more[column], categories=names)
    return pd.concat([frame, more], ignore_index=True)


def _text(values: pd.Series) -> Any:
    """Strings (None where absent) as the text column `typed` makes of them, in one step."""
    import pyarrow as pa

    try:
        return pd.arrays.ArrowStringArray(pa.array(values.to_numpy(), type=pa.large_string()))
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return values  # not all strings: typed with the rest of the frame


def _span_frame(spans: list[Span]) -> pd.DataFrame:
    text = pd.DataFrame([(s.kind, s.namespace, s.name, s.fact, s.detail, s.node, MARK_SPAN, s.source)
                         for s in spans], columns=list(COLUMNS[2:]), dtype=object)
    text["time"] = pd.Series([s.start for s in spans], dtype="datetime64[ns, UTC]")
    text["end"] = pd.Series([s.end for s in spans], dtype="datetime64[ns, UTC]")
    return text[list(COLUMNS)]


def parse_duration(text: str) -> timedelta:
    """A duration such as `90s`, `15m`, `6h`, `2d`, `1h30m` or `1w`.

    Examples:
        >>> parse_duration("1h30m"), parse_duration("2d")
        (datetime.timedelta(seconds=5400), datetime.timedelta(days=2))
    """
    import re

    units = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}
    parts = re.findall(r"(\d+(?:\.\d+)?)\s*([smhdw])", text.strip().lower())
    if not parts or re.sub(r"(\d+(?:\.\d+)?)\s*([smhdw])|\s", "", text.strip().lower()):
        raise ValueError(f"not a duration: {text!r} (use e.g. 30m, 6h, 2d, 1h30m)")
    return timedelta(seconds=sum(float(n) * units[u] for n, u in parts))


def select(frame: pd.DataFrame, since: timedelta | None = None, namespace: str | None = None,
           capture: datetime | None = None) -> pd.DataFrame:
    """Rows that reach into the last `since` before `capture` and/or concern `namespace`.

    A fact with an end (an event still repeating, a span) counts if its end is in the period.
    """
    keep = pd.Series(True, index=frame.index)
    if since is not None:
        if capture is None:
            raise ValueError("the dump's capture time is unknown, so --since has nothing to count from")
        start = pd.Timestamp(capture) - pd.Timedelta(since)
        latest = frame["end"].where(frame["end"].notna(), frame["time"])
        keep &= latest >= start
    if namespace is not None:
        keep &= frame["namespace"] == namespace
    out = frame[keep].reset_index(drop=True)
    out.attrs.update(frame.attrs)
    if namespace is not None and frame.attrs.get("before_capture"):
        out.attrs["before_capture"] = [f for f in frame.attrs["before_capture"] if f["namespace"] == namespace]
    return out
