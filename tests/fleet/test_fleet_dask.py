"""A fleet run on a real Dask LocalCluster (2 worker processes) over sample and real dumps.

The dataset must hold exactly what each dump gives on its own (`analyzer.load(p).tables[t]`),
a corrupt dump must fail alone, and re-runs must skip what is done unless forced.
"""

from __future__ import annotations

import gzip
import io
import os
import shutil
import tarfile
from collections.abc import Iterator
from pathlib import Path

import distributed
import pandas as pd
import pytest
from conftest import REALDATA, SAMPLE_DUMPS
from typer.testing import CliRunner

import analyzer
from analyzer.cli import app
from analyzer.cluster.tables import table_names
from analyzer.fleet import dataset, dump_name, run

# Real dumps (see ../shared/realdata/SOURCES.md): a kubeadm cluster-info dump, a k3s support
# bundle, and a minikube cluster-info dump; read in place (hashing and reading never write).
REAL = [REALDATA / "kubeadm" / "cka-3c97-cluster-info-dump",
        REALDATA / "k3s" / "troubleshoot-testdata-supportbundle",
        REALDATA / "minikube" / "multi-k8s-cluster-info-dump"]


@pytest.fixture(scope="module")
def client() -> Iterator[distributed.Client]:
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as c:
        yield c


@pytest.fixture(scope="module")
def dumps(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Copies of the sample dumps, the real dumps, an identical copy, and a corrupt archive."""
    root = tmp_path_factory.mktemp("dumps")
    found: dict[str, Path] = {}
    for sample in sorted(p for p in SAMPLE_DUMPS.iterdir() if p.is_dir()):
        found[sample.name] = Path(shutil.copytree(sample, root / sample.name))
    for real in REAL:
        if real.is_dir():
            found[real.name] = real
    if len(found) < 3:
        pytest.skip("sample dumps and real dumps are not there")
    first = next(iter(found))
    # Same bytes under another name: the same dump, analysed once.
    shutil.copytree(found[first], root / "copies" / f"{first}-again")
    # A corrupt archive: a real .tar.gz of the first sample, cut in half.
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        tar.add(found[first], arcname=first)
    data = buf.getvalue()
    assert gzip.decompress(data)  # the whole archive is fine; its first half is not
    (root / "corrupt.tar.gz").write_bytes(data[: len(data) // 2])
    return found


def _paths(dumps: dict[str, Path]) -> list[Path]:
    root = next(iter(dumps.values())).parent
    return [*dumps.values(), root / "copies" / f"{next(iter(dumps))}-again",
            root / "corrupt.tar.gz"]


def _rows_per_dump(out: Path, table: str) -> dict[str, int]:
    folder = dataset.table_dir(out, table)
    if not folder.is_dir():
        return {}
    df = pd.read_parquet(folder, columns=["dump_id", "distribution"])
    return {str(k): int(v) for k, v in df.groupby("dump_id", observed=True).size().items()}


def _partition_times(out: Path) -> dict[str, int]:
    return {p.relative_to(out).as_posix(): p.stat().st_mtime_ns for p in out.rglob("*.parquet")
            if p.name == dataset.PART_FILE}


@pytest.fixture(scope="module")
def first_run(client: distributed.Client, dumps: dict[str, Path],
              tmp_path_factory: pytest.TempPathFactory):
    out = tmp_path_factory.mktemp("fleet")
    return out, run(_paths(dumps), out, client=client, progress=False)


def test_workers_are_processes(client: distributed.Client) -> None:
    pids = set(client.run(os.getpid).values())
    assert len(pids) == 2 and os.getpid() not in pids


def test_dataset_rows_equal_single_dump_results(first_run, dumps: dict[str, Path]) -> None:
    out, result = first_run
    ids = {r.path: r.dump_id for r in result.processed}
    assert sorted(ids) == sorted(os.path.abspath(p) for p in dumps.values())
    for name, path in dumps.items():
        alone = analyzer.load(path, name=dump_name(path))
        dump = ids[os.path.abspath(path)]
        for table in table_names():
            assert _rows_per_dump(out, table).get(dump, 0) == len(alone.tables[table]), (name, table)
        assert _rows_per_dump(out, "findings").get(dump, 0) == len(alone.findings), name
        pods = pd.read_parquet(dataset.table_dir(out, "objects"), filters=[("dump_id", "==", dump)])
        assert set(pods["distribution"]) == {alone.distribution.name}, name


def test_the_corrupt_dump_fails_alone(first_run) -> None:
    out, result = first_run
    assert [(Path(r.path).name, r.error_type) for r in result.failed] == [
        ("corrupt.tar.gz", "InputError")]
    assert "corrupt gzip" in result.failed[0].error
    report = result.report
    assert [f["name"] for f in report["failures"]] == ["corrupt"]
    assert report["dumps"] == len(result.processed)
    assert "corrupt" in (out / "fleet.html").read_text()
    assert not any("corrupt" in p for p in _partition_times(out))


def test_identical_copies_are_one_dump(first_run, dumps: dict[str, Path]) -> None:
    out, result = first_run
    first = next(iter(dumps))
    entry = next(e for e in dataset.read_manifest(out)["dumps"].values() if e["name"] == first)
    assert [Path(p).name for p in entry["paths"]] == [first, f"{first}-again"]
    assert [Path(p).name for p in result.duplicates] == [f"{first}-again"]
    assert pd.read_parquet(out / "dumps.parquet")["dump_id"].is_unique


def test_dask_dataframe_reads_the_dataset(first_run) -> None:
    import dask.dataframe as dd

    out, result = first_run
    pods = dd.read_parquet(dataset.table_dir(out, "pods")).compute()
    assert len(pods) == sum(r.rows["pods"] for r in result.processed)
    assert {"dump_id", "distribution", "namespace", "name"} <= set(pods.columns)


def test_rerun_skips_done_dumps_and_force_redoes_them(first_run, client, dumps) -> None:
    out, first = first_run
    before = _partition_times(out)
    again = run(_paths(dumps), out, client=client, progress=False)
    # Every input whose content is in the dataset is skipped, the identical copy included.
    assert again.processed == [] and len(again.skipped) == len(first.processed) + 1
    assert [Path(r.path).name for r in again.failed] == ["corrupt.tar.gz"]  # retried, still bad
    assert _partition_times(out) == before

    # A partition removed behind the manifest's back: that dump alone is analysed again.
    victim = first.processed[0]
    (dataset.partition_dir(out, "objects", victim.dump_id) / dataset.PART_FILE).unlink()
    repaired = run(_paths(dumps), out, client=client, progress=False)
    assert [r.dump_id for r in repaired.processed] == [victim.dump_id]

    forced = run(_paths(dumps), out, client=client, force=True, progress=False)
    assert sorted(r.dump_id for r in forced.processed) == sorted(r.dump_id for r in first.processed)
    assert forced.skipped == []
    for table in ("objects", "pods", "findings"):  # rewritten, not appended
        assert _rows_per_dump(out, table) == {r.dump_id: r.rows[table] for r in first.processed
                                              if r.rows[table]}


def test_cli_on_an_existing_scheduler(client, dumps, tmp_path: Path) -> None:
    first = next(iter(dumps.values()))
    corrupt = first.parent / "corrupt.tar.gz"
    args = ["fleet", str(first), str(corrupt), "-o", str(tmp_path / "o"),
            "--scheduler", client.scheduler.address, "-q"]
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 1, res.output  # 1: some dump failed
    assert "1 analysed, 0 skipped" in res.output and "corrupt.tar.gz" in res.output
    assert {p.name for p in (tmp_path / "o").iterdir()} >= {
        "tables", "findings", "dumps.parquet", "manifest.json", "fleet.json", "fleet.html"}
    assert "0 analysed, 1 skipped" in CliRunner().invoke(app, args[:2] + args[3:]).output
    res = CliRunner().invoke(app, [*args[:2], *args[3:], "--force"])
    assert res.exit_code == 0 and "1 analysed, 0 skipped" in res.output, res.output


def test_cli_usage_errors(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    res = CliRunner().invoke(app, ["fleet", "x", "-o", str(tmp_path / "file"), "-q"])
    assert res.exit_code == 2 and "not a folder" in res.output
    res = CliRunner().invoke(app, ["fleet", "x", "-o", str(tmp_path / "o"), "--workers", "2",
                                   "--scheduler", "tcp://127.0.0.1:1"])
    assert res.exit_code == 2 and "--workers" in res.output
