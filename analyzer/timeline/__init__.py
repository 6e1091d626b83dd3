"""Timeline: every dated fact of one dump, in time order, each with the source it was read from.

`build_timeline(cluster)` is `cluster.timeline`: one row per fact (creations, deletions,
condition transitions, container starts and terminations, events, taints, lease renewals)
plus spans that group them (a node restarting, an install window). `select` narrows it the way
`kda timeline --since/--namespace` does.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from analyzer.collector import collector_paused
from analyzer.timeline.facts import COLLECTORS, COLUMNS, MARK_SPAN, Rows, parse_times
from analyzer.timeline.spans import Span, during_install, install_windows, node_restarts

if TYPE_CHECKING:
    from analyzer.model.dump import ModeledDump

__all__ = ["COLUMNS", "build_timeline", "parse_duration", "select"]

_TEXT_COLUMNS = ("namespace", "name", "detail", "node", "source")
_CATEGORY_COLUMNS = ("kind", "fact", "mark")


def build_timeline(cluster: ModeledDump) -> pd.DataFrame:
    """The dump's dated facts and spans, oldest first (ties in a stable order).

    `frame.attrs` says what could not be placed: `undated` (ages stated relative to an unknown
    capture time) and `unparsed` (times that are not RFC 3339, or beyond what a nanosecond clock holds).
    """
    # Hundreds of thousands of rows and strings and few cycles, while the dump's objects are
    # alive: each collection would walk them all again.
    with collector_paused():
        return _build(cluster)


def _build(cluster: ModeledDump) -> pd.DataFrame:
    from analyzer.model.normalize import builtin_objects
    from analyzer.model.restarts import cluster_restart_moments

    capture = cluster.capture_time
    rows = Rows(capture, show_sensitive=getattr(cluster, "show_sensitive", False))
    pod_nodes = {(o.namespace, o.name): o.view.spec.nodeName
                 for o in builtin_objects(cluster, "Pod") if o.view.spec.nodeName}
    for collect in COLLECTORS:
        collect(cluster, rows, pod_nodes)
    frame = _frame(rows)
    unparsed = int(frame["time"].isna().sum())
    frame = frame[frame["time"].notna()].reset_index(drop=True)
    installs = install_windows(frame)
    restarts = node_restarts(frame, Counter(pod_nodes.values()), cluster_restart_moments(cluster))
    spans = during_install(restarts, installs) + installs
    if spans:
        frame = pd.concat([frame, _span_frame(spans)], ignore_index=True)
    frame = _typed(frame)
    frame = frame.sort_values(["time", "kind", "namespace", "name", "fact", "detail"],
                              key=_sort_key, kind="stable", na_position="last").reset_index(drop=True)
    frame.attrs.update(undated=rows.undated, unparsed=unparsed,
                       capture_time=capture.isoformat() if capture else None)
    return frame


def _sort_key(column: pd.Series) -> pd.Series:
    """A column as it sorts: by its text (a category by its name's place among the names,
    read from the few names rather than from every row)."""
    if column.name == "time":
        return column
    if isinstance(column.dtype, pd.CategoricalDtype):
        codes = column.cat.codes.to_numpy()
        if (codes >= 0).all():
            names = column.cat.categories.astype("string").to_numpy(dtype=object)
            rank = np.empty(len(names), dtype=np.int64)
            rank[np.argsort(names, kind="stable")] = np.arange(len(names))
            return pd.Series(rank[codes], index=column.index, name=column.name)
    return column.astype("string")


def _frame(rows: Rows) -> pd.DataFrame:
    data = rows.columns()
    data["time"] = parse_times(data["time"])
    data["end"] = parse_times(data["end"])
    for column in (*_TEXT_COLUMNS, *_CATEGORY_COLUMNS):
        data[column] = _text(data[column])
    return pd.DataFrame(data, columns=list(COLUMNS))


def _text(values: Sequence[Any]) -> Any:
    """Strings (None where absent) as the text column `_typed` makes of them, in one step."""
    import pyarrow as pa

    try:
        return pd.arrays.ArrowStringArray(pa.array(values, type=pa.large_string()))
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return list(values)  # not all strings: typed with the rest of the frame


def _span_frame(spans: list[Span]) -> pd.DataFrame:
    return pd.DataFrame({
        "time": pd.Series([s.start for s in spans], dtype="datetime64[ns, UTC]"),
        "end": pd.Series([s.end for s in spans], dtype="datetime64[ns, UTC]"),
        "kind": [s.kind for s in spans], "namespace": [s.namespace for s in spans],
        "name": [s.name for s in spans], "fact": [s.fact for s in spans],
        "detail": [s.detail for s in spans], "node": [s.node for s in spans],
        "mark": [MARK_SPAN] * len(spans), "source": [s.source for s in spans],
    }, columns=list(COLUMNS))


def _typed(frame: pd.DataFrame) -> pd.DataFrame:
    out = frame.copy()
    for column in ("time", "end"):
        out[column] = pd.Series(out[column], dtype="datetime64[ns, UTC]")
    for column in _TEXT_COLUMNS:
        out[column] = out[column].astype("string")
    for column in _CATEGORY_COLUMNS:
        out[column] = out[column].astype("string").fillna("").astype("category")
    out["namespace"] = out["namespace"].fillna("")
    out["name"] = out["name"].fillna("")
    out["detail"] = out["detail"].fillna("")
    return out


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
    return out
