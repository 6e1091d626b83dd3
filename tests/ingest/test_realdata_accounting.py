"""On every file and every folder of shared/realdata: read = kept + duplicates + rejected, and no
file that looks like Kubernetes data is passed over (skipped as metadata or plain text).

Fixtures: the real dumps in shared/realdata (see its SOURCES.md), read one file at a time and one
folder at a time, each file as it would be given alone (no layout path to help it).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REALDATA

from analyzer.ingest import IngestResult, ingest
from analyzer.ingest.datasniff import OBJECTS, data_shape


def _paths(kind: str) -> list[Path]:
    if not REALDATA.exists():
        return []
    if kind == "folders":
        return sorted(p for p in REALDATA.rglob("*") if p.is_dir())
    return sorted(p for p in REALDATA.rglob("*") if p.is_file() and p.name != "SOURCES.md")


def _check(r: IngestResult) -> None:
    assert r.accounting_holds()
    assert r.objects_read == len(r.objects) + r.duplicates + len(r.object_rejections)
    passed_over = {s.source for s in r.skipped
                   if "metadata" in s.reason or s.reason.startswith("plain text")}
    for source in passed_over:
        path = Path(source.split("!/")[0])
        if path.is_file():
            assert data_shape(path.read_bytes()) != OBJECTS, f"{source} looks like data but was skipped"


@pytest.mark.parametrize("path", _paths("folders"), ids=lambda p: p.relative_to(REALDATA).as_posix())
def test_every_realdata_folder_accounts_for_every_object(path: Path) -> None:
    _check(ingest(path))


def test_every_realdata_file_accounts_for_every_object() -> None:
    # One test over all files (400+): a test per file would cost more in collection than reading.
    files = _paths("files")
    assert files or not REALDATA.exists()
    for path in files:
        r = ingest(path)
        try:
            _check(r)
        except AssertionError as exc:
            raise AssertionError(f"{path.relative_to(REALDATA)}: {exc}") from None
