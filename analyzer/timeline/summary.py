"""What a reader takes in of a timeline at a glance: counts, first and last, the spans, the marks
(restarts, warnings, transitions) and the densest periods.

`summarize(frame)` reads a timeline's facts in any order: the whole `cluster.timeline`, or the
facts as collected, before the frame is typed and sorted (`timeline_summary`, what the report
reads). Where an order shows (the spans, ties between equally busy rows), it is the timeline's
own (`order.in_order`), so both give the same summary.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

import numpy as np
import pandas as pd

from analyzer.timeline.order import in_order, typed

# The marks a picture draws, and how much each weighs when periods and rows are ranked.
WEIGHTS = {"restart": 3, "warning": 2, "transition": 1}
# A creation or deletion is a transition too: a rollout, a rescheduling, a cleanup.
LIFECYCLE = frozenset({"created", "deletion requested"})
PERIOD = pd.Timedelta(minutes=10)  # the densest periods are counted per 10 minutes
TOP_PERIODS = 10


@dataclass(frozen=True, slots=True)
class Period:
    """One of the densest periods: its start, marks by category, and where and what they were
    (the most first; among equals, the one the timeline lists first)."""

    start: pd.Timestamp
    facts: int
    categories: dict[str, int]
    rows: list[tuple[str, int]]
    kinds_of_fact: list[tuple[str, int]]


@dataclass(slots=True)
class TimelineSummary:
    """A timeline's counts, spans, marks and densest periods."""

    facts: int
    first: pd.Timestamp | None
    last: pd.Timestamp | None
    by_fact: list[tuple[str, int]]  # by the fact's name
    spans: pd.DataFrame  # the span rows, in the timeline's order
    # the facts that make marks: moment (an event's latest), row (node, else namespace), category, fact
    marks: pd.DataFrame
    densest: list[Period]  # by start
    undated: int = 0
    unparsed: int = 0
    capture_time: str | None = None

    # What a notebook shows of cluster.timeline_summary: its counts and span, the densest
    # period, not the dataclass's marks and spans frames printed whole.
    def __repr__(self) -> str:
        if not self.facts:
            return "<TimelineSummary: no dated facts>"
        facts = f"{self.facts} fact" + ("s" if self.facts > 1 else "")
        text = f"<TimelineSummary {facts}, {_stamp(self.first)} .. {_stamp(self.last)}"
        if self.capture_time:
            text += f" (captured {_stamp(pd.Timestamp(self.capture_time))})"
        if self.densest:
            busiest = max(self.densest, key=lambda p: p.facts)
            text += (f"; densest {PERIOD.total_seconds() // 60:g} minutes from {_stamp(busiest.start)}: "
                     f"{busiest.facts} of them")
        if self.undated or self.unparsed:
            text += f"; {self.undated} undated, {self.unparsed} unparsed"
        return text + ">"

    def _repr_html_(self) -> str:
        periods = pd.DataFrame(
            [{"start": _stamp(p.start), "facts": p.facts,
              "where": ", ".join(f"{row} ({n})" for row, n in p.rows[:3]),
              "what": ", ".join(f"{fact} ({n})" for fact, n in p.kinds_of_fact[:3])}
             for p in self.densest], columns=["start", "facts", "where", "what"])
        title = html.escape(repr(self).removeprefix("<").removesuffix(">"))
        return f"<p><b>{title}</b></p>{periods.to_html(index=False, escape=True)}"


def _stamp(moment: pd.Timestamp | None) -> str:
    return "?" if moment is None or pd.isna(moment) else moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def summarize(frame: pd.DataFrame) -> TimelineSummary:
    """The summary of a timeline's facts (`frame`: its columns, spans as rows marked `span`, in
    any order, each row its own label; `attrs` as the timeline's)."""
    marks = _marks(frame)
    periods = _densest(marks)
    times = frame["time"]
    # only the rows whose order shows are put in order: the spans, and the rows that may decide
    # a tie between equally busy rows or facts of a period (each value's earliest ones)
    mark_codes, mark_names = _names(frame["mark"])
    spans = frame.index[mark_names[mark_codes] == "span"]
    candidates = [_earliest(inside[column], times) for _, _, _, inside in periods
                  for column in ("row", "fact")]
    labels = spans.append(candidates).unique() if candidates else spans
    ordered = in_order(typed(frame.loc[labels]))
    position = pd.Series(np.arange(len(ordered)), index=ordered.index)
    return TimelineSummary(
        facts=len(frame),
        first=times.min() if len(frame) else None,
        last=times.max() if len(frame) else None,
        by_fact=_counts(frame["fact"]),
        spans=ordered[ordered.index.isin(spans)].reset_index(drop=True),
        marks=marks.reset_index(drop=True),
        densest=[Period(start, total, categories, _busiest(inside["row"], position),
                        _busiest(inside["fact"], position))
                 for start, total, categories, inside in periods],
        undated=int(frame.attrs.get("undated", 0)),
        unparsed=int(frame.attrs.get("unparsed", 0)),
        capture_time=frame.attrs.get("capture_time"),
    )


def _names(column: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """(codes, names) of a column's values, a missing one coded -1 (which picks `names[-1]`,
    the empty text, when the names index them): the few names are read, not every row."""
    codes, uniques = pd.factorize(column, use_na_sentinel=True)
    names = np.empty(len(uniques) + 1, dtype=object)
    names[:-1] = [str(u) for u in uniques]
    names[-1] = ""
    return codes, names


def _counts(column: pd.Series) -> list[tuple[str, int]]:
    codes, names = _names(column)
    counts = np.bincount(codes[codes >= 0], minlength=len(names) - 1)
    return sorted((str(names[i]), int(n)) for i, n in enumerate(counts) if n)


def _marks(frame: pd.DataFrame) -> pd.DataFrame:
    """The facts that make marks, with their moment, row and category (the frame's labels kept)."""
    mark_codes, mark_names = _names(frame["mark"])
    fact_codes, fact_names = _names(frame["fact"])
    by_mark = np.array([m if m in WEIGHTS else "" for m in mark_names], dtype=object)
    by_fact = np.array(["transition" if f in LIFECYCLE else "" for f in fact_names], dtype=object)
    category = by_mark[mark_codes]
    category = np.where(category != "", category, by_fact[fact_codes])
    keep = category != ""  # spans are drawn as bars of their own, not counted as marks
    marked = frame.loc[keep, ["time", "end", "node", "namespace"]]
    moment = marked["end"].where(marked["end"].notna(), marked["time"])
    # a fact's row is its node, else its namespace's (the namespaces of the few facts without
    # a node are named once each)
    row = marked["node"].to_numpy(dtype=object, na_value=None, copy=True)
    on_node = pd.notna(row)
    on_node[on_node] = row[on_node] != ""
    ns_codes, ns_names = _names(marked["namespace"][~on_node])
    by_namespace = np.array([f"namespace {n}" if n else "cluster-scoped" for n in ns_names], dtype=object)
    row[~on_node] = by_namespace[ns_codes]
    return pd.DataFrame({
        "moment": moment,
        "row": pd.Series(row, index=marked.index, dtype=object),
        "category": pd.Series(category[keep], index=marked.index, dtype=object),
        "fact": pd.Series(fact_names[fact_codes[keep]], index=marked.index, dtype=object),
    })


def _densest(marks: pd.DataFrame) -> list[tuple[pd.Timestamp, int, dict[str, int], pd.DataFrame]]:
    """The TOP_PERIODS busiest periods (weighted, then by count; the earliest among equals), by
    start: (start, marks, marks by category, the marks themselves)."""
    if marks.empty:
        return []
    bucket = marks["moment"].dt.floor(PERIOD)
    counts = marks.groupby([bucket, marks["category"]]).size().unstack(fill_value=0)
    total = counts.sum(axis=1)
    weighted = sum(counts.get(c, 0) * w for c, w in WEIGHTS.items())
    ranked = pd.DataFrame({"weighted": pd.Series(weighted, index=total.index).astype(float),
                           "total": total.astype(int)}, index=total.index)
    ranked = ranked.sort_values(["weighted", "total"], ascending=False, kind="stable")
    out = []
    for start in sorted(ranked.index[:TOP_PERIODS]):
        categories = {c: int(counts.at[start, c]) for c in WEIGHTS if c in counts}
        out.append((start, int(total[start]), categories, marks[(bucket == start).to_numpy()]))
    return out


def _earliest(values: pd.Series, times: pd.Series) -> pd.Index:
    """The labels of each value's earliest rows: the first of a value in the timeline's order
    (by time first) is among them."""
    when = times.loc[values.index]
    first = when.groupby(values.to_numpy()).transform("min")
    return values.index[(when.to_numpy() == first.to_numpy())]


def _busiest(values: pd.Series, position: pd.Series) -> list[tuple[str, int]]:
    """Each value with its count, the most first; among equals, the one the timeline lists
    first (`position`: the timeline's order of each value's earliest rows)."""
    counts = values.value_counts(sort=False)
    known = position.reindex(values.index)
    first = known.groupby(values.to_numpy()).min()
    return sorted(((str(v), int(n)) for v, n in counts.items()), key=lambda vn: (-vn[1], first[vn[0]]))
