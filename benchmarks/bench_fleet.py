"""Benchmark: a fleet of small dumps, serial vs Dask LocalCluster, and Dask's cost per dump.

    python benchmarks/bench_fleet.py                      # 200 dumps: serial, 2 workers, 1 worker
    python benchmarks/bench_fleet.py --runs serial,dask   # each run also alone (10-minute shells)

The fleet is made of copies of sample_dumps/* (round robin), each made unique by one extra
ConfigMap file (as customers' dumps differ), so the content-hash cache sees 200 distinct dumps.
Measures, in wall seconds:
  serial       process_dump() in a loop in this process (no Dask): the work itself;
  dask N       analyzer.fleet.run() on a LocalCluster of N worker processes (cluster started
               beforehand and timed apart), hashing phase included, like the serial loop;
  dask 1       the same on 1 worker: (dask 1 - serial) / dumps is Dask's overhead per dump
               (scheduling, pickling the summaries, the separate hashing task, the manifest).
Each Dask run also prints its idle share: (wall x workers - time inside tasks) / dumps, the
time per dump a worker was not analysing (hashing tasks, scheduling, the tail of the run).
On a shared machine, other processes' load shows in every number: compare runs made together.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_dumps"

COPY_MARKER = """\
# Added by benchmarks/bench_fleet.py so each copy is a distinct dump.
apiVersion: v1
kind: ConfigMap
metadata:
  name: fleet-bench-copy
  namespace: default
data:
  copy: "{index}"
"""


def make_fleet(root: Path, count: int) -> list[Path]:
    """`count` distinct dumps under root: sample dump copies with one marker file each."""
    samples = sorted(p for p in SAMPLES.iterdir() if p.is_dir())
    if not samples:
        raise SystemExit(f"no sample dumps in {SAMPLES}")
    dumps = []
    for i in range(count):
        sample = samples[i % len(samples)]
        target = root / f"{sample.name}-{i:04d}"
        shutil.copytree(sample, target)
        (target / "fleet-bench-copy.yaml").write_text(COPY_MARKER.format(index=i))
        dumps.append(target)
    return dumps


def peak_rss_mb() -> float:
    """Peak resident memory of this process, MB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def warm_up() -> float:
    """Analyse one sample dump into a scratch folder: every stage imported; returns seconds.

    Stages import lazily on first use, so without this the first dump of every process would
    carry a second or two of imports; serial and Dask runs are both timed warm.
    """
    from analyzer.fleet import process_dump

    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch:
        process_dump(str(min(p for p in SAMPLES.iterdir() if p.is_dir())), scratch)
    return time.perf_counter() - start


def run_serial(dumps: list[Path], out: Path) -> tuple[float, float, int]:
    """process_dump in a loop; returns (warm-up seconds, total seconds, dumps ok)."""
    from analyzer.fleet import process_dump

    warm = warm_up()
    start = time.perf_counter()
    results = [process_dump(str(d), str(out)) for d in dumps]
    return warm, time.perf_counter() - start, sum(r.ok for r in results)


def run_dask(dumps: list[Path], out: Path, workers: int) -> dict[str, float]:
    """fleet.run on a fresh LocalCluster; cluster start-up, warm-up and the run timed apart."""
    from distributed import Client, LocalCluster

    from analyzer.fleet import run

    start = time.perf_counter()
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        started = time.perf_counter() - start
        t = time.perf_counter()
        client.run(warm_up)  # every worker, as the serial loop is warmed up
        warm = time.perf_counter() - t
        t = time.perf_counter()
        result = run([str(d) for d in dumps], out, client=client, progress=False)
        wall = time.perf_counter() - t
        worker_rss = client.run(peak_rss_mb)
    task_seconds = sum(r.seconds for r in result.processed + result.failed)
    return {"startup": started, "warm": warm, "wall": wall, "ok": len(result.ok),
            "task_seconds": task_seconds, "worker_peak_rss_mb": max(worker_rss.values())}


def _print_dask(label: str, res: dict[str, float], n: int, workers: int,
                serial: float | None) -> None:
    idle = (res["wall"] * workers - res["task_seconds"]) / n
    speed = f"; speed-up {serial / res['wall']:.2f}x" if serial else ""
    print(f"{label:<9}: {res['wall']:7.1f} s  ({res['wall'] / n * 1000:6.0f} ms/dump{speed}; "
          f"in-task {res['task_seconds'] / n * 1000:.0f} ms/dump, idle {idle * 1000:.0f} ms/dump; "
          f"cluster start {res['startup']:.1f} s + warm-up {res['warm']:.1f} s; {res['ok']:.0f} ok; "
          f"worker peak RSS {res['worker_peak_rss_mb']:.0f} MB)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dumps", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--runs", default="serial,dask,dask1",
                        help="comma-separated: serial, dask (--workers workers), dask1")
    args = parser.parse_args(argv)
    runs = set(args.runs.split(","))
    sys.path.insert(0, str(ROOT))
    work = Path(tempfile.mkdtemp(prefix="bench-fleet-"))
    try:
        dumps = make_fleet(work / "dumps", args.dumps)
        n = len(dumps)
        size = sum(f.stat().st_size for d in dumps for f in d.rglob("*") if f.is_file())
        print(f"{n} dumps, {size / 1e6:.1f} MB, {os.cpu_count()} cores, "
              f"load average {os.getloadavg()[0]:.1f}")
        serial = None
        if "serial" in runs:
            warm, serial, ok = run_serial(dumps, work / "serial")
            print(f"{'serial':<9}: {serial:7.1f} s  ({serial / n * 1000:6.0f} ms/dump; warm-up "
                  f"{warm:.1f} s; {ok} ok; peak RSS {peak_rss_mb():.0f} MB)")
        if "dask" in runs:
            res = run_dask(dumps, work / "dask", args.workers)
            _print_dask(f"dask {args.workers}", res, n, args.workers, serial)
        if "dask1" in runs:
            one = run_dask(dumps, work / "dask1", 1)
            _print_dask("dask 1", one, n, 1, serial)
            if serial:
                print(f"Dask overhead per dump (dask 1 - serial): "
                      f"{(one['wall'] - serial) / n * 1000:+.0f} ms")
        print(f"load average after: {os.getloadavg()[0]:.1f}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
