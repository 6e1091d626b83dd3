"""`kda report` end to end, stage by stage: ingest, every table, distribution, graph, findings,
facts, render; and the whole command as a user runs it, cold, in a fresh process.

    python benchmarks/bench_stages.py                                  # the 20,000-pod baseline dump
    python benchmarks/bench_stages.py --pods 20000 --shape production  # another shape (generated if missing)
    python benchmarks/bench_stages.py --dump path/to/dump.json --no-cli
    python benchmarks/bench_stages.py --dump path/to/dump.json --no-cli --per-process  # CPU per step and waits, per process
    python benchmarks/bench_stages.py --dump path/to/dump.json --received-pods 3  # findings: pods family built or received

The budget (issue 18): the whole report within 3x of ingest. The stages run in one process, in
the order `kda report` needs them, each timed with the wall clock and the process's CPU time
(the machine may be shared: CPU time says what the stage costs, the wall what a user waits);
each stage's time is its own, as what it reads was built by the stages before it.

Tables are built on first use, as `kda report` builds them: a stage's time includes the tables
it is the first to read, and the tables line says which those were and what they cost. The
tables no stage of the report read are built afterwards and shown apart, outside the total
(`--all-tables` builds all of them first, as one stage, the way earlier runs counted). The
command (`kda report DUMP -o DIR --no-progress`) then runs in a fresh process, import and all.
"""

from __future__ import annotations

import argparse
import json
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


def stages(dump: Path, fmt: str, all_tables: bool = False) -> dict[str, tuple[float, float]]:
    """(wall, cpu) seconds of each stage of a report on `dump`, in one process."""
    import analyzer
    from analyzer.cluster import Tables
    from analyzer.cluster.tables import table_names
    from analyzer.report import render_cluster_report
    from analyzer.report.sections import cluster_facts

    timings: dict[str, tuple[float, float]] = {}
    state: dict[str, object] = {}
    # table -> (stage that first read it, wall, cpu, the table whose building read it first or
    # None): a table's family is built with it
    tables: dict[str, tuple[str, float, float, str | None]] = {}
    current = ["ingest"]
    building: list[str] = []

    class TimedTables(Tables):
        def __getitem__(self, name: str):
            if name in self._built:
                return self._built[name]
            within = building[-1] if building else None
            building.append(name)
            wall, cpu = time.perf_counter(), _cpu()
            try:
                table = super().__getitem__(name)
            finally:
                building.pop()
            tables[name] = (current[0], time.perf_counter() - wall, _cpu() - cpu, within)
            return table

    def outer_cpu(stage: str | None = None) -> float:
        # a table built while another was being built is in that one's time already (the
        # components table reads the pods family): counted once, in the outer one
        return sum(c for s, _w, c, within in tables.values() if within is None and stage in (None, s))

    def timed(label: str, fn) -> None:
        current[0] = label
        wall, cpu = time.perf_counter(), _cpu()
        state[label] = fn()
        timings[label] = (time.perf_counter() - wall, _cpu() - cpu)
        inside = [n for n, (stage, _w, _c, within) in tables.items() if stage == label and within is None]
        named = [n + (f" (which read {', '.join(m for m, t in tables.items() if t[3] == n)})"
                      if any(t[3] == n for t in tables.values()) else "") for n in inside]
        note = (f"   of which tables {outer_cpu(label):.2f} s cpu ({', '.join(named)}), the rest "
                f"{timings[label][1] - outer_cpu(label):.2f} s" if inside and label != "tables" else "")
        print(f"  {label:<14} {timings[label][0]:8.2f} s wall {timings[label][1]:8.2f} s cpu{note}", flush=True)

    timed("ingest", lambda: analyzer.load(str(dump)))
    cluster = state["ingest"]
    cluster.tables.__class__ = TimedTables
    if all_tables:
        timed("tables", lambda: [cluster.tables[name] for name in table_names()])
    timed("distribution", lambda: cluster.distribution)
    timed("graph", lambda: cluster.graph)
    timed("findings", lambda: cluster.findings)
    timed("facts", lambda: cluster_facts(cluster))
    with tempfile.TemporaryDirectory() as out:
        timed("render", lambda: render_cluster_report(cluster, out, formats=(fmt,), facts=state["facts"]))
    if not all_tables:
        read = [n for n in tables]
        cpu = outer_cpu()
        print(f"  tables the report read ({len(read)} of {len(table_names())}): {cpu:.2f} s cpu, "
              "inside the stages above")
        current[0] = "unread"
        wall, cpu = time.perf_counter(), _cpu()
        unread = [n for n in table_names() if n not in tables]
        for name in unread:
            cluster.tables[name]
        print(f"  tables it did not read ({len(unread)}): {time.perf_counter() - wall:.2f} s wall "
              f"{_cpu() - cpu:.2f} s cpu, not part of the report (nor of the total)")
    return timings


# What --per-process times in each of kda report's two processes: (module, function), each looked
# up where it is called, so that wrapping it in the module times every call.
TRACED = (("analyzer", "load"), ("analyzer.distributions", "detect_distribution"), ("analyzer.graph", "build_graph"),
          ("analyzer.findings", "run_rules"), ("analyzer.timeline", "timeline_summary"),
          *(("analyzer.report.cluster_report", name) for name in (
              "_ahead_letter", "_adopt_ahead", "_dependencies_letter", "_dependencies_from", "nodes_diagram",
              "timeline_diagram", "_findings_letter", "_findings_chart_from", "cluster_facts", "render_page")))
# Where either process waits for the other: a letter, or the second process's result. Their wall
# time less their CPU time is the time a process stood idle (on a shared machine, also the time
# it was not given a CPU).
WAITS = (("analyzer.forked", "Forked", "receive"), ("analyzer.forked", "Forked", "result"),
         ("analyzer.forked", "ChildLetters", "receive"))


def trace_calls(path: Path) -> None:
    """Wrap the TRACED functions and the WAITS methods: each call appends (process id, name, CPU
    s, wall s) to `path` as a JSON line, in whichever process it runs (the second one is forked
    from this one)."""
    import functools
    import importlib

    def timed(f, name: str):  # noqa: ANN001, ANN202
        @functools.wraps(f)
        def timed_call(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            cpu, wall = _cpu(), time.perf_counter()
            try:
                return f(*args, **kwargs)
            finally:
                with path.open("a", encoding="utf-8") as out:
                    out.write(json.dumps([os.getpid(), name, round(_cpu() - cpu, 3),
                                          round(time.perf_counter() - wall, 3)]) + "\n")
        return timed_call

    for module_name, name in TRACED:
        module = importlib.import_module(module_name)
        setattr(module, name, timed(getattr(module, name), name))
    for module_name, class_name, name in WAITS:
        owner = getattr(importlib.import_module(module_name), class_name)
        setattr(owner, name, timed(getattr(owner, name), f"{class_name}.{name}"))


def per_process(path: Path) -> dict[str, dict[str, float]]:
    """The CPU seconds of each traced step, summed, by process ("here", "second"); and the wall
    seconds each process waited for the other, less their CPU ("here waited", "second waited")."""
    here = os.getpid()
    steps: dict[str, dict[str, float]] = {"here": {}, "second": {}, "here waited": {}, "second waited": {}}
    waits = {f"{class_name}.{name}" for _module, class_name, name in WAITS}
    for line in path.read_text(encoding="utf-8").splitlines():
        pid, name, cpu, wall = json.loads(line)
        which = "here" if pid == here else "second"
        if name in waits:
            which, cpu = f"{which} waited", max(0.0, wall - cpu)
        steps[which][name] = round(steps[which].get(name, 0.0) + cpu, 3)
    return steps


def even_split(m: dict) -> str:
    """What the two processes did after their reading, and the report's time were that work
    split evenly between them (no waiting): the least any division of the same work gives, in
    CPU seconds against this process's reading (which a busy machine slows as it slows the rest)."""
    steps = m["steps"]
    if not steps["second"]:
        return "  no second process ran (a small dump): the report was made in this process alone"
    here_read, second_read = steps["here"].get("load", 0.0), steps["second"].get("load", 0.0)
    here, second = m["cpu"], m["child_cpu"] - second_read
    even = (here + second) / 2
    waited = {which: sum(steps[f"{which} waited"].values()) for which in ("here", "second")}
    return (f"  after their reading (here {here_read:.2f} s cpu, the second process {second_read:.2f} s): "
            f"here {here:.2f} s cpu, waited {waited['here']:.2f} s; the second process {second:.2f} s cpu, "
            f"waited {waited['second']:.2f} s; split evenly, {even:.2f} s each: "
            f"{(here_read + even) / here_read:.2f}x the reading at best" if here_read else "")


def as_kda_report(dump: Path, fmt: str, trace: Path | None = None) -> dict[str, float]:
    """Ingest, then the report as `kda report` makes it (analyzer/report/batch.py: on a large
    dump a second process is started first, reads the dump too, on the other core, and makes the
    timeline, diagrams and some sections while this one runs the findings): wall and CPU
    seconds, this process's and the child's (its reading of the dump included), and peak memory."""
    import gc

    import analyzer
    from analyzer.report import render_cluster_report
    from analyzer.report.cluster_report import start_second_process

    gc.disable()  # as `kda report` runs (analyzer/cli/report_cmd.py): it leaves right after
    if trace is not None:
        trace_calls(trace)
    child = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter()
    started = start_second_process(lambda: analyzer.load(str(dump)), dump.stat().st_size, (fmt,))
    cluster = analyzer.load(str(dump))
    ingest = time.perf_counter() - wall
    cpu = _cpu()
    wall = time.perf_counter()
    with tempfile.TemporaryDirectory() as out:
        render_cluster_report(cluster, out, formats=(fmt,), second_process=None, started=started)
    report = time.perf_counter() - wall
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"ingest": ingest, "report": report, "cpu": _cpu() - cpu,
            "child_cpu": (after.ru_utime - child.ru_utime) + (after.ru_stime - child.ru_stime),
            "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "child_rss_mb": after.ru_maxrss / 1024,
            **({"steps": per_process(trace)} if trace is not None else {})}


def findings_after_pods(dump: Path, received: bool) -> dict[str, float]:
    """CPU seconds of the findings in one process, the pods family built first either here or
    as the report's second process sends it (built, through tables_to_bytes and back, adopted),
    so that every memo its building fills is filled in both; the distribution and graph before
    them, the collector off, as `kda report` runs."""
    import gc

    import analyzer
    from analyzer.model.registry import _BUILT, adopt_family, family_tables
    from analyzer.model.shipping import tables_from_bytes, tables_to_bytes

    gc.disable()
    cluster = analyzer.load(str(dump))
    family = family_tables("pods", cluster)
    if received:
        data = tables_to_bytes(family)
        del _BUILT[cluster], family
        adopt_family("pods", cluster, tables_from_bytes(data))
    _made = (cluster.distribution, cluster.graph)  # made before the findings, as in kda report
    cpu = _cpu()
    _made = cluster.findings
    return {"findings": _cpu() - cpu}


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


def received_pods(dump: Path, rounds: int) -> int:
    """--received-pods: each way in a fresh process, alternated; the medians and the load."""
    import statistics

    cpu: dict[str, list[float]] = {"built": [], "received": []}
    for _ in range(rounds):
        for way in cpu:
            ran = subprocess.run([sys.executable, __file__, "--dump", str(dump), "--findings-after-pods", way],
                                 check=True, capture_output=True, text=True)
            cpu[way].append(json.loads(ran.stdout.splitlines()[-1])["findings"])
            print(f"  {way:<9} findings {cpu[way][-1]:.2f} s cpu (load average {os.getloadavg()[0]:.2f})",
                  flush=True)
    print(f"{dump.name}: findings after the pods family, medians of {rounds}: built here "
          f"{statistics.median(cpu['built']):.2f} s cpu, received {statistics.median(cpu['received']):.2f} s cpu")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dump", type=Path, help="a dump (default: the generated one of --pods and --shape)")
    parser.add_argument("--pods", type=int, default=20000)
    parser.add_argument("--shape", default="baseline")
    parser.add_argument("--format", choices=("html", "json"), default="html", help="the report's format")
    parser.add_argument("--no-cli", action="store_true", help="skip the fresh-process `kda report` run")
    parser.add_argument("--all-tables", action="store_true",
                        help="build every table first, as a stage of its own (also those the report never reads)")
    parser.add_argument("--per-process", action="store_true",
                        help="also say the CPU seconds of each step in each of the report's two processes, "
                             "how long each waited for the other, and the least an even split of their work "
                             "would give; the second process made even where no CPU looks idle (a busy machine)")
    parser.add_argument("--as-kda-report", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--received-pods", type=int, metavar="ROUNDS",
                        help="only the findings' CPU with the pods family built here against received from the "
                             "second process, fresh processes alternated, ROUNDS rounds")
    parser.add_argument("--findings-after-pods", choices=("built", "received"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    dump = args.dump or ensure_dump(args.pods, "json", args.shape)
    if args.as_kda_report:  # one run of as_kda_report, in a process of its own (below)
        if not args.per_process:
            print(json.dumps(as_kda_report(dump, args.format)))
            return 0
        from analyzer import forked

        forked._idle_cpu_beside_parent = lambda: True  # its CPU time is what is measured
        with tempfile.TemporaryDirectory() as folder:
            print(json.dumps(as_kda_report(dump, args.format, Path(folder) / "steps.jsonl")))
        return 0
    if args.findings_after_pods:
        print(json.dumps(findings_after_pods(dump, args.findings_after_pods == "received")))
        return 0
    if args.received_pods:
        return received_pods(dump, args.received_pods)
    size = dump.stat().st_size
    print(f"{dump.name}: {size / 1e6:.1f} MB; stages of a {args.format} report, one process:")
    timings = stages(dump, args.format, args.all_tables)
    ingest_wall, ingest_cpu = timings["ingest"]
    total_wall = sum(wall for wall, _ in timings.values())
    total_cpu = sum(cpu for _, cpu in timings.values())
    print(f"  {'total':<14} {total_wall:8.2f} s wall {total_cpu:8.2f} s cpu")
    print(f"whole report / ingest: {total_wall / ingest_wall:.2f}x wall, {total_cpu / ingest_cpu:.2f}x cpu (budget 3x)")
    # the stages above ran one after another; kda report overlaps some of them (fresh process,
    # the same interpreter and bytecode)
    env = {**os.environ, "PYTHONPYCACHEPREFIX": sys.pycache_prefix}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    ran = subprocess.run([sys.executable, __file__, "--dump", str(dump), "--format", args.format,
                          "--as-kda-report", *(["--per-process"] if args.per_process else [])],
                         check=True, capture_output=True, text=True, env=env)
    m = json.loads(ran.stdout.splitlines()[-1])
    whole = m["ingest"] + m["report"]
    # (the ingest there ran beside the second process's reading of the same dump: the budget is
    # also said against the ingest stage above, which ran alone)
    print(f"as kda report makes it (fresh process): ingest {m['ingest']:.2f} s wall, then the report "
          f"{m['report']:.2f} s wall ({m['cpu']:.2f} s cpu here, {m['child_cpu']:.2f} s in the second "
          f"process, its reading included); whole report / ingest: {whole / m['ingest']:.2f}x wall, "
          f"{whole / ingest_wall:.2f}x the ingest stage alone (budget 3x); peak memory "
          f"{m['rss_mb']:.0f} MB here, {m['child_rss_mb']:.0f} MB the second process")
    for which, steps in m.get("steps", {}).items():
        if not steps:
            continue
        # (a step inside another is counted in both: cluster_facts holds the sections made here)
        what = "wall s waiting" if which.endswith("waited") else "cpu s"
        print(f"  {which.removesuffix(' waited')} process, {what}: " + ", ".join(f"{n} {c:.2f}" for n, c in steps.items()))
    if "steps" in m:
        print(even_split(m))
    if not args.no_cli:
        wall, cpu = command(dump, args.format)
        print(f"kda report, fresh process: {wall:.2f} s wall, {cpu:.2f} s cpu; "
              f"{wall / ingest_wall:.2f}x the ingest stage's wall")
    return 0


if __name__ == "__main__":
    sys.exit(main())
