"""Writing tables out: Parquet for every table, and CSV/JSON/Markdown/Parquet for chosen ones."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

if TYPE_CHECKING:
    from analyzer.model.dump import ModeledDump

FORMATS = ("csv", "json", "parquet", "markdown")
EXTENSIONS = {"csv": "csv", "json": "json", "parquet": "parquet", "markdown": "md"}


def _jsonable(value: Any) -> str | None:
    if value is None or value is pd.NA or (isinstance(value, float) and value != value):
        return None
    return json.dumps(value, sort_keys=True, default=str)


def flatten_objects(df: pd.DataFrame) -> pd.DataFrame:
    """The table with object columns (lists, dicts) as JSON text, for files that need scalars."""
    object_cols = [c for c in df.columns if df[c].dtype == object]
    if not object_cols:
        return df
    out = df.copy()
    for c in object_cols:
        out[c] = pd.array([_jsonable(v) for v in df[c]], dtype="string")
    return out


def _markdown_cell(value: Any) -> str:
    if value is None or value is pd.NA or value is pd.NaT or (
            isinstance(value, float) and value != value):
        return ""
    return str(value).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def to_markdown(df: pd.DataFrame) -> str:
    """A GitHub-flavoured Markdown table (missing values as empty cells).

    Examples:
        >>> print(to_markdown(pd.DataFrame({"name": ["a|b", None], "n": [1, 2]})), end="")
        | name | n |
        |---|---|
        | a\\|b | 1 |
        |  | 2 |
    """
    header = "| " + " | ".join(_markdown_cell(c) for c in df.columns) + " |"
    rule = "|" + "---|" * len(df.columns)
    columns = [df[c].astype(object).tolist() for c in df.columns]
    rows = ["| " + " | ".join(_markdown_cell(v) for v in row) + " |" for row in zip(*columns, strict=True)]
    return "\n".join([header, rule, *rows]) + "\n"


def render_table(df: pd.DataFrame, fmt: str) -> str:
    """One table as CSV, JSON (a list of records) or Markdown text."""
    flat = flatten_objects(df)
    if fmt == "csv":
        return flat.to_csv(index=False, lineterminator="\n")
    if fmt == "json":
        text = flat.to_json(orient="records", date_format="iso", date_unit="s", indent=1)
        # pandas escapes "/" as "\\/"; both mean "/", and paths and images read better without.
        return text.replace("\\/", "/") + "\n"
    if fmt == "markdown":
        return to_markdown(flat)
    raise ValueError(f"cannot render a table as {fmt!r}; formats: csv, json, markdown")


def write_table(df: pd.DataFrame, path: Path, fmt: str) -> Path:
    """Write one table to `path` in the format."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if fmt == "parquet":
        flatten_objects(df).to_parquet(path, index=False, engine="pyarrow", compression="zstd")
    else:
        path.write_text(render_table(df, fmt), encoding="utf-8")
    return path


def tables_to(cluster: ModeledDump, names: Sequence[str], fmt: str, outdir: Path) -> list[Path]:
    """Write the named tables as `<outdir>/<table>.<ext>`; returns the files written."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; formats: {', '.join(FORMATS)}")
    return [write_table(cluster.tables[name], Path(outdir) / f"{name}.{EXTENSIONS[fmt]}", fmt)
            for name in names]


def write_parquet(cluster: ModeledDump, directory: Path) -> list[Path]:
    """Write every table as `<directory>/<table>.parquet`; returns the files written."""
    return tables_to(cluster, list(cluster.tables), "parquet", Path(directory))
