"""The fleet's Parquet dataset on disk: one Hive partition per dump, and the manifest.

Layout (`OUT` is the output folder)::

    OUT/tables/<table>/dump_id=<id>/part-0.parquet   every `kda tables` table, all dumps
    OUT/findings/dump_id=<id>/part-0.parquet         the findings of every dump
    OUT/dumps.parquet                                one row per dump (status, distribution, ...)
    OUT/manifest.json                                content hash -> what was done (the cache)

Every row carries a `distribution` column; `dump_id` is the partition key, so readers that know
Hive partitioning (pandas/pyarrow, Dask, DuckDB with `hive_partitioning=true`) add it as a column.
Columns have one Arrow type per table whatever the dump, so partitions always read together.
"""

from __future__ import annotations

import json
import os
import shutil
import uuid
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from analyzer.errors import AnalyzerError

TABLES_DIR = "tables"
FINDINGS_DIR = "findings"
DUMPS_FILE = "dumps.parquet"
MANIFEST_FILE = "manifest.json"
MANIFEST_FORMAT = "kda-fleet-manifest/1"
PART_FILE = "part-0.parquet"
PARTITION_KEY = "dump_id"
TAG_COLUMN = "distribution"

# Schema dtype (analyzer/model/schema.py) -> the one Arrow type every partition uses.
# Categories become plain strings (Parquet dictionary-encodes them anyway): a dictionary's
# index width depends on how many values a dump has, and mixed widths would not read together.
ARROW_TYPES: dict[str, pa.DataType] = {
    "str": pa.string(), "category": pa.string(), "object": pa.string(),
    "int": pa.int64(), "float": pa.float64(), "bool": pa.bool_(),
    "datetime": pa.timestamp("us", tz="UTC"), "timedelta": pa.duration("us"),
}


class FleetOutputError(AnalyzerError):
    """The output folder cannot hold a fleet dataset (a file, or a manifest we cannot read)."""


def table_dir(out: Path, table: str) -> Path:
    """Folder of one table's partitions (`findings` has its own top-level folder)."""
    return out / FINDINGS_DIR if table == FINDINGS_DIR else out / TABLES_DIR / table


def partition_dir(out: Path, table: str, dump: str) -> Path:
    """Folder of one dump's partition of one table."""
    return table_dir(out, table) / f"{PARTITION_KEY}={dump}"


def _schema_dtype(series: pd.Series, declared: str | None) -> str:
    if declared is not None:
        return declared
    dtype = series.dtype
    if isinstance(dtype, pd.CategoricalDtype) or pd.api.types.is_string_dtype(dtype):
        return "str"
    if pd.api.types.is_bool_dtype(dtype):
        return "bool"
    if pd.api.types.is_integer_dtype(dtype):
        return "int"
    if pd.api.types.is_float_dtype(dtype):
        return "float"
    if pd.api.types.is_datetime64_any_dtype(dtype):
        return "datetime"
    if pd.api.types.is_timedelta64_dtype(dtype):
        return "timedelta"
    return "object"


def _declared_dtypes(table: str) -> dict[str, str]:
    from analyzer.model.schema import TABLE_SPECS

    spec = TABLE_SPECS.get(table)
    return {c.name: c.dtype for c in spec.columns} if spec is not None else {}


def _json_text(value: Any) -> str | None:
    if value is None or value is pd.NA or (isinstance(value, float) and value != value):
        return None
    if isinstance(value, str):
        return value
    return json.dumps(value, sort_keys=True, default=str)


def _arrow_column(series: pd.Series, kind: str) -> pa.Array:
    target = ARROW_TYPES[kind]
    if kind == "object" or (kind in ("str", "category") and series.dtype == object):
        return pa.array([_json_text(v) for v in series], type=pa.string())
    if kind == "datetime":
        values = pd.to_datetime(series, utc=True)
        return pa.array(values, from_pandas=True).cast(target, safe=False)
    array = pa.array(series, from_pandas=True)
    if pa.types.is_dictionary(array.type):
        array = array.dictionary_decode()
    return array.cast(target, safe=False)


def to_arrow(df: pd.DataFrame, table: str, distribution: str) -> pa.Table:
    """The table as Arrow with the fleet's fixed column types, tagged with `distribution`.

    Examples:
        >>> df = pd.DataFrame({"name": pd.Series(["a"], dtype="category"), "n": [1]})
        >>> t = to_arrow(df, "no-such-table", "aks")
        >>> t.schema.names, str(t.schema.field("name").type), t.column("distribution").to_pylist()
        (['name', 'n', 'distribution'], 'string', ['aks'])
    """
    clash = {PARTITION_KEY, TAG_COLUMN} & set(map(str, df.columns))
    if clash:
        raise ValueError(f"table {table} already has column(s) {sorted(clash)}; "
                         "the fleet dataset adds them")
    declared = _declared_dtypes(table)
    columns = {str(c): _arrow_column(s, _schema_dtype(s, declared.get(str(c))))
               for c, s in df.items()}
    columns[TAG_COLUMN] = pa.array([distribution] * len(df), type=pa.string())
    return pa.table(columns)


def _atomic_write(write: Any, target: Path) -> None:
    """Write through a temporary file in the same folder, then rename: readers never see half."""
    target.parent.mkdir(parents=True, exist_ok=True)
    # A unique name, created by the writer itself so the umask applies (mkstemp would make the
    # dataset readable by its owner only); the dot keeps readers from picking it up.
    tmp = str(target.parent / f".tmp-{os.getpid()}-{uuid.uuid4().hex}")
    try:
        write(tmp)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_partition(out: Path, table: str, dump: str, data: pa.Table) -> Path:
    """Write one dump's rows of one table as its partition file; returns the file."""
    target = partition_dir(out, table, dump) / PART_FILE
    _atomic_write(lambda tmp: pq.write_table(data, tmp, compression="zstd"), target)
    return target


def remove_dump(out: Path, dump: str) -> None:
    """Remove every partition of a dump (before it is written again, or after it failed)."""
    roots = [out / FINDINGS_DIR]
    tables = out / TABLES_DIR
    if tables.is_dir():
        roots.extend(sorted(p for p in tables.iterdir() if p.is_dir()))
    for root in roots:
        shutil.rmtree(root / f"{PARTITION_KEY}={dump}", ignore_errors=True)


def prepare_output(out: Path) -> Path:
    """Create the output folder; refuse a path that is a file."""
    if out.exists() and not out.is_dir():
        raise FleetOutputError(f"{out}: exists and is not a folder")
    out.mkdir(parents=True, exist_ok=True)
    return out


def read_manifest(out: Path) -> dict[str, Any]:
    """The manifest of the dataset in `out` (empty if there is none yet)."""
    path = out / MANIFEST_FILE
    empty: dict[str, Any] = {"format": MANIFEST_FORMAT, "dumps": {}, "failures": {}}
    if not path.exists():
        return empty
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise FleetOutputError(f"{path}: unreadable manifest ({exc}); remove it or use "
                               "another output folder") from None
    if not isinstance(data, dict) or data.get("format") != MANIFEST_FORMAT:
        raise FleetOutputError(f"{path}: not a {MANIFEST_FORMAT} manifest")
    return {**empty, **data}


def write_manifest(out: Path, manifest: Mapping[str, Any]) -> Path:
    """Write the manifest atomically, keys sorted (same content, same bytes)."""
    target = out / MANIFEST_FILE
    text = json.dumps(manifest, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    _atomic_write(lambda tmp: Path(tmp).write_text(text, encoding="utf-8"), target)
    return target


DUMP_COLUMNS: tuple[tuple[str, pa.DataType], ...] = (
    ("dump_id", pa.string()), ("name", pa.string()), ("paths", pa.string()),
    ("content_hash", pa.string()), ("distribution", pa.string()), ("confidence", pa.float64()),
    ("kubernetes_version", pa.string()), ("objects", pa.int64()), ("rejected", pa.int64()),
    ("logs", pa.int64()), ("findings_failed", pa.int64()), ("analyzer_version", pa.string()),
)


def write_dumps_table(out: Path, entries: Iterable[Mapping[str, Any]]) -> Path:
    """`OUT/dumps.parquet`: one row per dump in the dataset, sorted by dump_id."""
    rows = sorted(entries, key=lambda e: e["dump_id"])
    data = {name: pa.array([_dump_cell(e, name) for e in rows], type=typ)
            for name, typ in DUMP_COLUMNS}
    target = out / DUMPS_FILE
    _atomic_write(lambda tmp: pq.write_table(pa.table(data), tmp, compression="zstd"), target)
    return target


def _dump_cell(entry: Mapping[str, Any], name: str) -> Any:
    if name == "paths":
        return "\n".join(entry.get("paths", []))
    if name == "findings_failed":
        return sum(f["count"] for f in entry.get("findings", []))
    return entry.get(name)
