"""One dump's task, run in this process: its summary, its partitions, and how it fails."""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd
import pytest
from conftest import SAMPLE_DUMPS

import analyzer
from analyzer.fleet import dataset, process_dump
from analyzer.fleet.runner import _Manifest, _result_of
from analyzer.fleet.task import DumpResult, component_summary, findings_summary


@pytest.fixture(scope="module")
def sample() -> Path:
    dumps = sorted(p for p in SAMPLE_DUMPS.iterdir() if p.is_dir())
    if not dumps:
        pytest.skip("no sample dumps yet")
    return dumps[0]


def test_summary_matches_the_cluster(sample: Path, tmp_path: Path) -> None:
    result = process_dump(str(sample), str(tmp_path))
    alone = analyzer.load(sample)
    assert result.ok, result.error
    assert result.distribution == alone.distribution.name
    assert result.rows["pods"] == len(alone.tables["pods"])
    assert result.findings == findings_summary(alone.findings)
    assert result.components == component_summary(alone.tables["components"])
    assert DumpResult.from_dict(result.to_dict()) == result
    written = {p.parent.parent.name for p in tmp_path.rglob(dataset.PART_FILE)}
    assert written == {t for t, n in result.rows.items() if n}  # empty tables write no file


def test_a_failure_while_writing_leaves_no_partition(sample: Path, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real_write = dataset.write_partition

    def write_then_fail(*args):  # the disk fills up after the first file
        if calls:
            raise OSError(28, "No space left on device")
        calls.append(args)
        return real_write(*args)

    monkeypatch.setattr(dataset, "write_partition", write_then_fail)
    result = process_dump(str(sample), str(tmp_path))
    assert (result.status, result.error_type) == ("failed", "OSError")
    assert "No space left" in result.error
    assert calls and not list(tmp_path.rglob("*.parquet"))


def test_a_missing_path_fails_with_its_name(tmp_path: Path) -> None:
    result = process_dump(str(tmp_path / "gone"), str(tmp_path / "out"))
    assert (result.status, result.error_type) == ("failed", "FileNotFoundError")
    assert "gone" in result.error


def test_component_and_findings_summaries() -> None:
    # Hand-made rows in the shape of the `components` table and of cluster.findings.
    comps = pd.DataFrame({"component": ["csi", "csi", "dns", None],
                          "role": ["csi", "csi", None, "x"],
                          "version": ["v2", "v1", None, "v9"]})
    assert component_summary(comps) == [
        {"component": "csi", "role": "csi", "versions": ["v1", "v2"]},
        {"component": "dns", "role": None, "versions": []}]
    finds = pd.DataFrame({"rule": ["b", "a", "b", "c"], "severity": ["info"] * 3 + ["warning"],
                          "status": ["fail", "fail", "fail", "not_applicable"]})
    assert findings_summary(finds) == [{"rule": "a", "severity": "info", "count": 1},
                                       {"rule": "b", "severity": "info", "count": 2}]


def test_a_dump_that_fails_later_leaves_the_dataset(sample: Path, tmp_path: Path) -> None:
    copy = shutil.copytree(sample, tmp_path / "dump")
    out = tmp_path / "out"
    manifest = _Manifest(dataset.prepare_output(out))
    good = process_dump(str(copy), str(out))
    manifest.record(good)
    assert list(out.rglob("*.parquet"))

    class DeadWorker:  # what a future of a task whose worker was killed gives back
        def result(self):
            raise RuntimeError("KilledWorker: worker exceeded its memory budget")

    bad = _result_of(DeadWorker(), str(copy), good.content_hash)
    assert (bad.status, bad.dump_id) == ("failed", good.dump_id)
    manifest.record(bad)
    manifest.flush()
    assert dataset.read_manifest(out)["dumps"] == {}
    assert list(dataset.read_manifest(out)["failures"]) == [str(copy)]
    assert not list(out.rglob("*.parquet"))
