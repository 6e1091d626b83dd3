"""Running a fleet on Dask: hash every dump, skip what the manifest has, analyse the rest.

Each dump is one Dask task (`process_dump`), so the scheduler spreads them over the workers and
a failing dump fails only its own task. The driver keeps the manifest and writes the report.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from analyzer.fleet import dataset
from analyzer.fleet.identity import content_hash, dump_id, dump_name
from analyzer.fleet.progress import FleetProgress
from analyzer.fleet.task import DumpResult, failed, process_dump

# While results arrive the manifest is rewritten now and then (and always at the end), so an
# interrupted run keeps most of its work: at most every 2 s, and never more than 10% of the
# driver's time (a manifest of thousands of dumps takes a while to write).
MANIFEST_EVERY_SECONDS = 2.0
MANIFEST_TIME_SHARE = 0.1


@dataclass
class FleetResult:
    """What a fleet run did: the dumps it analysed, skipped (already done) and that failed."""

    out: Path
    processed: list[DumpResult] = field(default_factory=list)
    skipped: list[DumpResult] = field(default_factory=list)
    failed: list[DumpResult] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)  # same bytes as another input analysed now
    report: dict[str, Any] = field(default_factory=dict)
    files: list[Path] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> list[DumpResult]:
        """Dumps analysed successfully in this run."""
        return [r for r in self.processed if r.ok]

    def __repr__(self) -> str:
        return (f"<FleetResult {self.out}: {len(self.ok)} analysed, {len(self.skipped)} skipped, "
                f"{len(self.failed)} failed in {self.seconds:.1f}s>")


@contextlib.contextmanager
def connect(client: Any = None, scheduler: str | None = None,
            workers: int | None = None) -> Iterator[Any]:
    """A Dask client: the one given, one for `scheduler`'s address, or a new LocalCluster."""
    if client is not None:
        yield client
        return
    from distributed import Client, LocalCluster

    if scheduler in (None, "", "local"):
        n = workers or os.cpu_count() or 1
        # Processes, one thread each: ingestion and pandas hold the GIL most of the time.
        with LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as local:
            yield local
    else:
        with Client(scheduler) as remote:
            yield remote


def _unique_paths(paths: Sequence[str | os.PathLike[str]]) -> list[str]:
    seen: dict[str, None] = {}
    for p in paths:
        seen.setdefault(os.path.abspath(os.fspath(p)), None)
    return list(seen)


def _partitions_present(out: Path, entry: dict[str, Any]) -> bool:
    """Whether every partition a done dump wrote is still on disk."""
    return all((dataset.partition_dir(out, table, entry["dump_id"]) / dataset.PART_FILE).is_file()
               for table, n in entry.get("rows", {}).items() if n)


def _result_of(future: Any, path: str, digest: str) -> DumpResult:
    try:
        return future.result()
    except Exception as exc:  # the worker died (KilledWorker), was cancelled, or lost
        name = dump_name(path)
        return failed(path, name, exc, content_hash=digest, dump_id=dump_id(name, digest))


class _Manifest:
    """The manifest being updated as results come in, written now and then and at the end."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.data = dataset.read_manifest(out)
        self._written = time.monotonic()
        self._write_seconds = 0.0

    def done(self, digest: str) -> dict[str, Any] | None:
        return self.data["dumps"].get(digest)

    def add_path(self, digest: str, path: str) -> None:
        entry = self.data["dumps"][digest]
        entry["paths"] = sorted({*entry.get("paths", []), path})
        self.data["failures"].pop(path, None)

    def record(self, result: DumpResult) -> None:
        if result.ok and result.content_hash:
            old = self.data["dumps"].get(result.content_hash)
            if old and old.get("dump_id") != result.dump_id:
                dataset.remove_dump(self.out, old["dump_id"])
            paths = {*(old or {}).get("paths", []), result.path}
            self.data["dumps"][result.content_hash] = {**result.to_dict(), "paths": sorted(paths)}
            self.data["failures"].pop(result.path, None)
        else:
            # A failed dump is not in the dataset, whatever an earlier run left of it.
            old = self.data["dumps"].pop(result.content_hash, None) if result.content_hash else None
            for ident in {result.dump_id, (old or {}).get("dump_id")} - {None}:
                dataset.remove_dump(self.out, ident)
            self.data["failures"][result.path] = result.to_dict()
        wait = max(MANIFEST_EVERY_SECONDS, self._write_seconds / MANIFEST_TIME_SHARE)
        if time.monotonic() - self._written > wait:
            self.flush()

    def flush(self) -> None:
        start = time.monotonic()
        dataset.write_manifest(self.out, self.data)
        self._written = time.monotonic()
        self._write_seconds = self._written - start


def _hash_all(dask: Any, todo: list[str], bar: FleetProgress, result: FleetResult,
              manifest: _Manifest) -> dict[str, str]:
    """Phase 1: the content hash of every input, one task each; path -> hash."""
    from distributed import as_completed

    bar.phase("hashing", len(todo))
    futures = dask.map(content_hash, todo, pure=False)
    path_of = {f.key: p for f, p in zip(futures, todo, strict=True)}
    digest_of: dict[str, str] = {}
    for future in as_completed(futures):
        path = path_of[future.key]
        try:
            digest_of[path] = future.result()
        except Exception as exc:  # missing or unreadable input: recorded, the run goes on
            bad = failed(path, dump_name(path), exc)
            result.failed.append(bad)
            manifest.record(bad)
        bar.advance("hashing", Path(path).name, ok=path in digest_of)
    return digest_of


def _plan(todo: list[str], digest_of: dict[str, str], manifest: _Manifest, force: bool,
          result: FleetResult) -> dict[str, str]:
    """Which inputs to analyse (hash -> path): not done yet, or forced; the rest are skipped."""
    submitted: dict[str, str] = {}
    for path in todo:  # input order, so the first path of identical dumps names them
        digest = digest_of.get(path)
        if digest is None:
            continue
        entry = manifest.done(digest)
        if digest in submitted:
            result.duplicates.append(path)
        elif entry and not force and _partitions_present(manifest.out, entry):
            manifest.add_path(digest, path)
            result.skipped.append(DumpResult.from_dict({**entry, "path": path}))
        else:
            submitted[digest] = path
    return submitted


def _analyse_all(dask: Any, submitted: dict[str, str], bar: FleetProgress,
                 result: FleetResult, manifest: _Manifest) -> None:
    """Phase 2: one `process_dump` task per dump, recorded as each one completes."""
    from distributed import as_completed

    bar.phase("analysing", len(submitted))
    out = os.fspath(manifest.out)
    futures = [dask.submit(process_dump, path, out, content_hash=digest, name=dump_name(path),
                           pure=False)
               for digest, path in submitted.items()]
    job_of = {f.key: job for f, job in zip(futures, submitted.items(), strict=True)}
    for future in as_completed(futures):
        digest, path = job_of[future.key]
        done = _result_of(future, path, digest)
        future.release()
        manifest.record(done)
        (result.processed if done.ok else result.failed).append(done)
        bar.advance("analysing", done.name, ok=done.ok)


def run(paths: Sequence[str | os.PathLike[str]], out: str | os.PathLike[str], client: Any = None,
        scheduler: str | None = None, workers: int | None = None, force: bool = False,
        progress: bool = True) -> FleetResult:
    """Analyse many dumps on Dask into a Parquet dataset and a fleet report under `out`."""
    from analyzer.fleet.report import build_report, write_report

    started = time.perf_counter()
    out_dir = dataset.prepare_output(Path(out))
    manifest = _Manifest(out_dir)
    result = FleetResult(out=out_dir)
    todo = _unique_paths(paths)
    with connect(client, scheduler, workers) as dask, FleetProgress(progress) as bar:
        try:
            digest_of = _hash_all(dask, todo, bar, result, manifest)
            _analyse_all(dask, _plan(todo, digest_of, manifest, force, result), bar, result,
                         manifest)
            # Identical copies under other paths join the dump that was analysed.
            for path in result.duplicates:
                if manifest.done(digest_of[path]):
                    manifest.add_path(digest_of[path], path)
        finally:
            manifest.flush()
    for done in (result.processed, result.failed, result.skipped):
        done.sort(key=lambda r: r.path)
    result.duplicates.sort()
    result.files.append(dataset.write_dumps_table(out_dir, manifest.data["dumps"].values()))
    result.report = build_report(manifest.data)
    result.files.extend(write_report(out_dir, result.report))
    result.files.append(out_dir / dataset.MANIFEST_FILE)
    result.seconds = round(time.perf_counter() - started, 3)
    return result
