"""`kda report` end to end, stage by stage: ingest, every table, distribution, graph, findings,
facts, render; and the whole command as a user runs it, cold, in a fresh process.

    python benchmarks/bench_stages.py                                  # the 20,000-pod baseline dump
    python benchmarks/bench_stages.py --pods 20000 --shape production  # another shape (generated if missing)
    python benchmarks/bench_stages.py --dump path/to/dump.json --no-cli

The budget (issue 18): the whole report within 3x of ingest. The stages run in one process, in
the order `kda report` needs them, each timed with the wall clock and the process's CPU time
(the machine may be shared: CPU time says what the stage costs, the wall what a user waits);
each stage's time is its own, as what it reads was built by the stages before it. The command
(`kda report DUMP -o DIR --no-progress`) then runs in a fresh process, import and all.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from bench_ingest import DATA, ensure_dump  # noqa: E402

# What is imported loads from bytecode, as in an installed package, even where the environment
# says not to write it (else each stage's first import would compile its modules again).
sys.dont_write_bytecode = False
sys.pycache_prefix = str(DATA / "pycache")


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def stages(dump: Path, fmt: str) -> dict[str, tuple[float, float]]:
    """(wall, cpu) seconds of each stage of a report on `dump`, in one process."""
    import analyzer
    from analyzer.cluster.tables import table_names
    from analyzer.report import render_cluster_report
    from analyzer.report.sections import cluster_facts

    timings: dict[str, tuple[float, float]] = {}
    state: dict[str, object] = {}

    def timed(label: str, fn) -> None:
        wall, cpu = time.perf_counter(), _cpu()
        state[label] = fn()
        timings[label] = (time.perf_counter() - wall, _cpu() - cpu)
        print(f"  {label:<14} {timings[label][0]:8.2f} s wall {timings[label][1]:8.2f} s cpu", flush=True)

    timed("ingest", lambda: analyzer.load(str(dump)))
    cluster = state["ingest"]
    timed("tables", lambda: [cluster.tables[name] for name in table_names()])
    timed("distribution", lambda: cluster.distribution)
    timed("graph", lambda: cluster.graph)
    timed("findings", lambda: cluster.findings)
    timed("facts", lambda: cluster_facts(cluster))
    with tempfile.TemporaryDirectory() as out:
        timed("render", lambda: render_cluster_report(cluster, out, formats=(fmt,), facts=state["facts"]))
    return timings


def command(dump: Path, fmt: str) -> tuple[float, float]:
    """(wall, cpu) seconds of `kda report` on `dump` in a fresh process."""
    kda = Path(sys.executable).with_name("kda")
    with tempfile.TemporaryDirectory() as out:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        env = {**os.environ, "PYTHONPYCACHEPREFIX": sys.pycache_prefix}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        subprocess.run([str(kda), "report", str(dump), "-o", out, "--format", fmt, "--no-progress"],
                       check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dump", type=Path, help="a dump (default: the generated one of --pods and --shape)")
    parser.add_argument("--pods", type=int, default=20000)
    parser.add_argument("--shape", default="baseline")
    parser.add_argument("--format", choices=("html", "json"), default="html", help="the report's format")
    parser.add_argument("--no-cli", action="store_true", help="skip the fresh-process `kda report` run")
    args = parser.parse_args(argv)
    dump = args.dump or ensure_dump(args.pods, "json", args.shape)
    size = dump.stat().st_size
    print(f"{dump.name}: {size / 1e6:.1f} MB; stages of a {args.format} report, one process:")
    timings = stages(dump, args.format)
    ingest_wall, ingest_cpu = timings["ingest"]
    total_wall = sum(wall for wall, _ in timings.values())
    total_cpu = sum(cpu for _, cpu in timings.values())
    print(f"  {'total':<14} {total_wall:8.2f} s wall {total_cpu:8.2f} s cpu")
    print(f"whole report / ingest: {total_wall / ingest_wall:.2f}x wall, {total_cpu / ingest_cpu:.2f}x cpu (budget 3x)")
    if not args.no_cli:
        wall, cpu = command(dump, args.format)
        print(f"kda report, fresh process: {wall:.2f} s wall, {cpu:.2f} s cpu; "
              f"{wall / ingest_wall:.2f}x the ingest stage's wall")
    return 0


if __name__ == "__main__":
    sys.exit(main())
