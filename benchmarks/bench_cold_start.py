"""Cold start: `kda inspect` on a ~1 MB dump, each run a fresh process (budget: 0.5 s).

    python benchmarks/bench_cold_start.py
    python benchmarks/bench_cold_start.py --runs 9 --dump path/to/dump.json

Two numbers per run, medians printed: the whole command (interpreter, imports, load, summary),
and the library alone in a fresh interpreter (`import analyzer`, `analyzer.load`, the summary),
each as wall time and as CPU time (user + system: a shared machine disturbs it less). The
package loads from bytecode, as an installed one does. Also lists which of pandas, pyarrow,
networkx and numpy each imported: reading and summarising a dump needs none of them.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
HEAVY = ("pandas", "pyarrow", "networkx", "numpy")

LIBRARY = (
    "import sys, time\n"
    "started = time.perf_counter()\n"
    "import analyzer\n"
    "from analyzer.cluster.summary import summary_text\n"
    "summary_text(analyzer.load(sys.argv[1]))\n"
    f"print(' '.join(m for m in {HEAVY!r} if m in sys.modules))\n"
)


def _run(argv: list[str]) -> tuple[float, float, str]:
    """(wall, cpu, stdout) of one fresh process."""
    env = {**os.environ, "PYTHONPYCACHEPREFIX": str(DATA / "pycache")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    proc = subprocess.run(argv, capture_output=True, text=True, check=True, env=env)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), proc.stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dump", type=Path, help="a dump (default: a generated ~1 MB one)")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args(argv)
    dump = args.dump or DATA / "cold-start.json"
    if not dump.exists():
        sys.path.insert(0, str(HERE))
        from generate_dump import write_dump

        write_dump(dump, pods=18, nodes=3)
    kda = str(Path(sys.executable).with_name("kda"))
    commands = {"kda inspect": [kda, "inspect", str(dump)],
                "library only": [sys.executable, "-c", LIBRARY, str(dump)]}
    _run(commands["kda inspect"])  # writes the bytecode once
    results: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    imported = ""
    for _ in range(args.runs):  # the two in turn, so the machine's load weighs on both alike
        for name, command in commands.items():
            wall, cpu, out = _run(command)
            results[name].append((wall, cpu))
            if name == "library only":
                imported = out.strip()
    print(f"{dump.name}: {dump.stat().st_size / 1e6:.2f} MB, {args.runs} runs, medians (budget 0.5 s)")
    for name, runs in results.items():
        wall = statistics.median(w for w, _ in runs)
        cpu = statistics.median(c for _, c in runs)
        print(f"  {name:<14} {wall:6.3f} s wall {cpu:6.3f} s cpu")
    print(f"  heavy libraries the library path imported: {json.dumps(imported.split())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
