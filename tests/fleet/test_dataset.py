"""The dataset's files: fixed column types per table, atomic partitions, the manifest."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pytest

from analyzer.fleet import dataset
from analyzer.fleet.dataset import FleetOutputError


def _frame(names: list[str], created: list[str], unit: str) -> pd.DataFrame:
    # Hand-made frames shaped like the model's `nodes` table (schema.py dtypes), differing
    # the way two dumps do: categories, datetime resolution, missing values.
    return pd.DataFrame({
        "name": pd.array(names, dtype="string"),
        "zone": pd.Series(names, dtype="category"),
        "created": pd.to_datetime(created, utc=True).as_unit(unit),
        "age": pd.to_timedelta([1] * len(names), unit="D").as_unit(unit),
        "pods_capacity": pd.array([110] + [None] * (len(names) - 1), dtype="Int64"),
        "ready": pd.array([True] * len(names), dtype="boolean"),
        "taints": pd.Series([[{"key": "k"}]] + [None] * (len(names) - 1), dtype=object),
    })


def test_every_dump_gets_the_same_arrow_schema() -> None:
    one = dataset.to_arrow(_frame(["a"], ["2024-01-01T00:00:00Z"], "s"), "nodes", "aks")
    many = dataset.to_arrow(_frame([f"n{i}" for i in range(300)],
                                   ["2024-01-01T00:00:00.123456789Z"] * 300, "ns"), "nodes", "eks")
    assert one.schema == many.schema
    assert one.schema.field("zone").type == pa.string()
    assert one.schema.field("created").type == pa.timestamp("us", tz="UTC")
    assert one.column("taints").to_pylist() == ['[{"key": "k"}]']


def test_partitions_read_back_as_one_table_with_dump_id(tmp_path: Path) -> None:
    dataset.write_partition(tmp_path, "nodes", "a-1", dataset.to_arrow(
        _frame(["a"], ["2024-01-01T00:00:00Z"], "s"), "nodes", "aks"))
    dataset.write_partition(tmp_path, "nodes", "b-2", dataset.to_arrow(
        _frame(["x", "y"], ["2024-01-01T00:00:00Z"] * 2, "ns"), "nodes", "eks"))
    df = pd.read_parquet(tmp_path / "tables" / "nodes")
    assert sorted(zip(df["dump_id"].astype(str), df["distribution"], df["name"], strict=True)) == [
        ("a-1", "aks", "a"), ("b-2", "eks", "x"), ("b-2", "eks", "y")]
    assert not list((tmp_path / "tables" / "nodes").rglob(".tmp-*"))


def test_remove_dump_removes_all_its_partitions(tmp_path: Path) -> None:
    frame = dataset.to_arrow(_frame(["a"], ["2024-01-01T00:00:00Z"], "s"), "nodes", "aks")
    for table in ("nodes", "pods", "findings"):
        dataset.write_partition(tmp_path, table, "a-1", frame)
        dataset.write_partition(tmp_path, table, "b-2", frame)
    dataset.remove_dump(tmp_path, "a-1")
    left = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.parquet"))
    assert left == ["findings/dump_id=b-2/part-0.parquet", "tables/nodes/dump_id=b-2/part-0.parquet",
                    "tables/pods/dump_id=b-2/part-0.parquet"]


def test_a_table_with_the_tag_columns_is_refused() -> None:
    with pytest.raises(ValueError, match="distribution"):
        dataset.to_arrow(pd.DataFrame({"distribution": ["x"]}), "t", "aks")


def test_manifest_round_trip_and_sorted_bytes(tmp_path: Path) -> None:
    assert dataset.read_manifest(tmp_path)["dumps"] == {}
    data = {"format": dataset.MANIFEST_FORMAT, "failures": {}, "dumps": {"b": {"z": 1, "a": 2}}}
    dataset.write_manifest(tmp_path, data)
    assert dataset.read_manifest(tmp_path) == data
    assert (tmp_path / "manifest.json").read_text().index('"a"') < \
        (tmp_path / "manifest.json").read_text().index('"z"')


@pytest.mark.parametrize("text", ["{not json", json.dumps({"format": "other"})])
def test_a_foreign_manifest_is_a_user_error(tmp_path: Path, text: str) -> None:
    (tmp_path / "manifest.json").write_text(text)
    with pytest.raises(FleetOutputError, match="manifest.json"):
        dataset.read_manifest(tmp_path)


def test_output_that_is_a_file_is_a_user_error(tmp_path: Path) -> None:
    (tmp_path / "out").write_text("")
    with pytest.raises(FleetOutputError, match="not a folder"):
        dataset.prepare_output(tmp_path / "out")
