"""The timeline as text, JSON, CSV or Markdown (what `kda timeline` prints)."""

from __future__ import annotations

import csv
import html
import io
import json
import re
from typing import Any

import pandas as pd

from analyzer.printing.timefmt import human_duration

FORMATS = ("text", "json", "csv", "markdown")


def iso(value: Any) -> str | None:
    """A timestamp as RFC 3339 UTC with `Z` (None when missing)."""
    if value is None or value is pd.NaT or (isinstance(value, float) and value != value):
        return None
    ts = pd.Timestamp(value)
    if pd.isna(ts):
        return None
    text = ts.tz_convert("UTC").isoformat() if ts.tzinfo else ts.isoformat()
    return text.replace("+00:00", "Z")


def object_label(kind: str, namespace: str, name: str) -> str:
    """`Kind/namespace/name` (or `Kind/name` for cluster-scoped objects)."""
    parts = [p for p in (kind, namespace, name) if p]
    return "/".join(parts) if parts else "-"


def to_records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """Rows as the JSON contract: time, end, object {kind, namespace, name}, fact, detail, source."""
    out = []
    for row in frame.itertuples(index=False):
        out.append({
            "time": iso(row.time), "end": iso(row.end),
            "object": {"kind": str(row.kind), "namespace": str(row.namespace), "name": str(row.name)},
            "fact": str(row.fact), "detail": str(row.detail),
            "node": None if pd.isna(row.node) else str(row.node),
            "source": str(row.source),
        })
    return out


def before_capture_records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """The facts stated only as ages of a dump whose capture time is unknown, oldest first, as
    the JSON contract with `time` null and how long before the capture instead."""
    return [{
        "time": None, "end": None, "before_capture": human_duration(f["seconds"]),
        "end_before_capture": human_duration(f["end_seconds"]) if f["end_seconds"] is not None else None,
        "object": {"kind": str(f["kind"]), "namespace": str(f["namespace"]), "name": str(f["name"])},
        "fact": str(f["fact"]), "detail": str(f["detail"]),
        "node": None if f["node"] is None else str(f["node"]), "source": str(f["source"]),
    } for f in frame.attrs.get("before_capture") or ()]


def as_json(frame: pd.DataFrame) -> str:
    return json.dumps(to_records(frame) + before_capture_records(frame), indent=2, sort_keys=True,
                      ensure_ascii=False)


def as_csv(frame: pd.DataFrame) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["time", "end", "kind", "namespace", "name", "fact", "detail", "node", "source"])
    for r in to_records(frame):
        o = r["object"]
        writer.writerow([r["time"], r["end"] or "", o["kind"], o["namespace"], o["name"],
                         r["fact"], r["detail"], r["node"] or "", r["source"]])
    return buffer.getvalue()


def _footer(frame: pd.DataFrame) -> list[str]:
    notes = [f"{len(frame)} facts"]
    capture = frame.attrs.get("capture_time")
    if capture and (signal := frame.attrs.get("capture_lower_bound")):
        notes.append(f"captured {iso(capture)} or later ({signal}, {frame.attrs['capture_newest']})")
    else:
        notes.append(f"captured {iso(capture)}" if capture else "capture time unknown")
    if listed := len(frame.attrs.get("before_capture") or ()):
        notes.append(f"{listed} facts stated only as ages: listed after any dated ones by how "
                     "long before the capture, oldest first")
    elif frame.attrs.get("undated"):
        notes.append(f"{frame.attrs['undated']} facts stated only as ages, not placed "
                     "(the capture time is unknown)")
    if frame.attrs.get("unparsed"):
        notes.append(f"{frame.attrs['unparsed']} times left out (not RFC 3339, or beyond the year 2262)")
    return notes


def as_text(frame: pd.DataFrame) -> str:
    lines = []
    for r in to_records(frame):
        o = r["object"]
        until = f" .. {r['end']}" if r["end"] else ""
        lines.append(f"{r['time']}{until}  {object_label(o['kind'], o['namespace'], o['name'])}  "
                     f"{r['fact']}{': ' + r['detail'] if r['detail'] else ''}  [{r['source']}]")
    for r in before_capture_records(frame):
        o = r["object"]
        until = f" .. {r['end_before_capture']}" if r["end_before_capture"] else ""
        lines.append(f"{r['before_capture']}{until} before capture  {object_label(o['kind'], o['namespace'], o['name'])}  "
                     f"{r['fact']}{': ' + r['detail'] if r['detail'] else ''}  [{r['source']}]")
    lines.append("; ".join(_footer(frame)))
    return "\n".join(lines)


_MD_SPECIAL = re.compile(r"([\\`*\[\]|_<>])")


def _md(value: Any) -> str:
    """A value as inert Markdown table text: HTML and Markdown syntax escaped, one line."""
    text = html.escape(str(value), quote=False)
    return " ".join(_MD_SPECIAL.sub(r"\\\1", text).splitlines())


def as_markdown(frame: pd.DataFrame) -> str:
    lines = ["| time | until | object | fact | detail | source |", "|---|---|---|---|---|---|"]
    for r in to_records(frame):
        o = r["object"]
        lines.append("| " + " | ".join(_md(x) for x in (
            r["time"], r["end"] or "", object_label(o["kind"], o["namespace"], o["name"]),
            r["fact"], r["detail"], r["source"])) + " |")
    for r in before_capture_records(frame):
        o = r["object"]
        lines.append("| " + " | ".join(_md(x) for x in (
            f"{r['before_capture']} before capture",
            f"{r['end_before_capture']} before capture" if r["end_before_capture"] else "",
            object_label(o["kind"], o["namespace"], o["name"]), r["fact"], r["detail"], r["source"])) + " |")
    lines.append("")
    lines.append(_md("; ".join(_footer(frame))) + ".")
    return "\n".join(lines)


def render(frame: pd.DataFrame, fmt: str) -> str:
    """The timeline in one of FORMATS."""
    return {"text": as_text, "json": as_json, "csv": as_csv, "markdown": as_markdown}[fmt](frame)
