"""`kda report`'s second process, forked after ingest (it shares the dump copy-on-write) against
started before it (it reads the dump itself, on the CPU the first process's reading leaves idle):
what each costs the command's process before its findings, and the child after its reading.

    python benchmarks/bench_second_process.py                       # the 20,000-pod baseline dump
    python benchmarks/bench_second_process.py --dump path/to/dump.json --rounds 3

Each way runs in a fresh process, alternated for `--rounds`. The child makes the parts a report
makes beside (`parts_beside`, no letters); the command's process meanwhile builds the
distribution, the graph, the pods tables and the findings, each timed (wall; user and system CPU;
minor page faults, which count the pages copied on first write). The child's CPU and faults are
counted from the end of its reading, and when it ends, from the end of the parent's.
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

from bench_ingest import ensure_dump  # noqa: E402

WAYS = ("forked-after", "started-before")


def _usage() -> tuple[float, float, int]:
    u = resource.getrusage(resource.RUSAGE_SELF)
    return u.ru_utime, u.ru_stime, u.ru_minflt


def one_run(dump: Path, way: str) -> dict[str, object]:
    """One report's two processes, `way` one of WAYS (in this process and a child it forks)."""
    import gc

    import analyzer
    import analyzer.graph  # noqa: F401 - imported before the fork either way, as kda report has
    from analyzer.report.cluster_report import parts_beside

    gc.disable()  # as kda report runs
    child_file = Path(tempfile.mkstemp(suffix=".json")[1])

    def child(cluster_of) -> None:  # noqa: ANN001
        try:
            cluster = cluster_of()
            before = _usage()
            parts_beside(cluster, True, True)
            after = _usage()
            child_file.write_text(json.dumps({
                "user": after[0] - before[0], "sys": after[1] - before[1], "faults": after[2] - before[2]}))
        finally:
            os._exit(0)

    start = time.perf_counter()
    pid = os.fork() if way == "started-before" else -1
    if pid == 0:
        child(lambda: analyzer.load(str(dump)))
    cluster = analyzer.load(str(dump))
    loaded = time.perf_counter()
    if way == "forked-after":
        pid = os.fork()
        if pid == 0:
            child(lambda: cluster)
    stages: dict[str, object] = {"ingest": round(loaded - start, 3)}
    for name, make in (("distribution", lambda: cluster.distribution), ("graph", lambda: cluster.graph),
                       ("pods tables", lambda: cluster.tables["pods"]), ("findings", lambda: cluster.findings)):
        before, wall = _usage(), time.perf_counter()
        make()
        after = _usage()
        stages[name] = {"wall": round(time.perf_counter() - wall, 3), "user": round(after[0] - before[0], 3),
                        "sys": round(after[1] - before[1], 3), "faults": after[2] - before[2]}
    os.waitpid(pid, 0)
    stages["child done"] = round(time.perf_counter() - loaded, 3)
    stages["child"] = json.loads(child_file.read_text())
    child_file.unlink()
    return stages


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dump", type=Path, help="a dump (default: the generated one of --pods and --shape)")
    parser.add_argument("--pods", type=int, default=20000)
    parser.add_argument("--shape", default="baseline")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--way", choices=WAYS, help=argparse.SUPPRESS)  # one run, in a process of its own
    args = parser.parse_args(argv)
    dump = args.dump or ensure_dump(args.pods, "json", args.shape)
    if args.way:
        print(json.dumps(one_run(dump, args.way)))
        return 0
    print(f"{dump.name}: {dump.stat().st_size / 1e6:.1f} MB")
    for round_ in range(1, args.rounds + 1):
        for way in WAYS:
            ran = subprocess.run([sys.executable, __file__, "--dump", str(dump), "--way", way],
                                 check=True, capture_output=True, text=True)
            m = json.loads(ran.stdout.splitlines()[-1])
            parts = ", ".join(f"{k} {v['wall']:.2f} s ({v['user']:.2f} user, {v['sys']:.2f} sys, {v['faults']} faults)"
                              for k, v in m.items() if isinstance(v, dict) and k != "child")
            c = m["child"]
            print(f"round {round_}, {way}: ingest {m['ingest']:.2f} s; {parts}; the child after its reading "
                  f"{c['user']:.2f} user, {c['sys']:.2f} sys, {c['faults']} faults, done {m['child done']:.2f} s "
                  "after this process's reading")
    return 0


if __name__ == "__main__":
    sys.exit(main())
