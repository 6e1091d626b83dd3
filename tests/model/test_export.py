"""Exports: Parquet for every table (deterministic, typed), CSV/JSON/Markdown, and the docs file."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from conftest import REALDATA, ROOT
from typer.testing import CliRunner

import analyzer
from analyzer.cli import app
from analyzer.cluster.tables import render_docs
from analyzer.model.export import render_table, tables_to

KURL = REALDATA / "kubeadm" / "sbctl-kurl-supportbundle"


@pytest.fixture(scope="module")
def kurl() -> analyzer.Cluster:
    return analyzer.load(KURL)


def test_parquet_round_trip_is_typed_and_deterministic(kurl, tmp_path: Path) -> None:
    first = kurl.to_parquet(tmp_path / "a")
    second = analyzer.load(KURL).to_parquet(tmp_path / "b")
    assert [p.name for p in first] == [f"{n}.parquet" for n in kurl.tables]
    for a, b in zip(first, second, strict=True):
        assert a.read_bytes() == b.read_bytes(), a.name
    pods = pd.read_parquet(tmp_path / "a" / "pods.parquet")
    pd.testing.assert_frame_equal(pods, kurl.tables.pods, check_categorical=False)


def test_text_formats(kurl) -> None:
    nodes = kurl.tables.nodes
    records = json.loads(render_table(nodes, "json"))
    assert [r["name"] for r in records] == nodes["name"].tolist()
    assert records[0]["created"] == "2022-04-11T22:50:01Z"
    assert records[0]["container_runtime"] == "docker://20.10.5"
    csv = render_table(nodes, "csv")
    assert csv.splitlines()[0].split(",")[:3] == ["name", "uid", "created"]
    md = render_table(kurl.tables.services, "markdown").splitlines()
    assert md[0].startswith("| namespace | name |") and len(md) == 2 + len(kurl.tables.services)


def test_tables_to_writes_one_file_per_table(kurl, tmp_path: Path) -> None:
    written = tables_to(kurl, ["pods", "nodes"], "markdown", tmp_path)
    assert [p.name for p in written] == ["pods.md", "nodes.md"]
    with pytest.raises(ValueError, match="unknown format"):
        tables_to(kurl, ["pods"], "xlsx", tmp_path)


def test_docs_file_is_current() -> None:
    committed = (ROOT / "docs" / "tables.md").read_text(encoding="utf-8")
    assert committed == render_docs(), "run: kda tables --docs > docs/tables.md"


runner = CliRunner()


def test_cli_one_table_to_stdout() -> None:
    result = runner.invoke(app, ["tables", str(KURL), "--table", "nodes", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert {r["name"] for r in json.loads(result.stdout)} == {
        "troubleshoot-demo-001", "troubleshoot-demo-002", "troubleshoot-demo-003"}


def test_cli_all_tables_to_a_directory(tmp_path: Path) -> None:
    result = runner.invoke(app, ["tables", str(KURL), "-t", "all", "-f", "parquet",
                                 "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "containers.parquet").exists() and (tmp_path / "rejections.parquet").exists()


def test_cli_overview_and_errors() -> None:
    overview = runner.invoke(app, ["tables", str(KURL)])
    assert overview.exit_code == 0 and "pods" in overview.stdout
    unknown = runner.invoke(app, ["tables", str(KURL), "-t", "podz"])
    assert unknown.exit_code == 2 and "no table 'podz'" in unknown.output
    no_dir = runner.invoke(app, ["tables", str(KURL), "-t", "all"])
    assert no_dir.exit_code == 2 and "-o DIRECTORY" in no_dir.output
    docs = runner.invoke(app, ["tables", "--docs"])
    assert docs.exit_code == 0 and docs.stdout.startswith("# Tables")
