"""Start-up of the first-minute commands: `kda --help`, `--version`, and the quick looks
`get`, `describe`, `logs` on a small dump, each a fresh process as a user runs it.

    python benchmarks/bench_startup.py                 # 7 runs each, on sample_dumps/aks
    python benchmarks/bench_startup.py --runs 15 --dump path/to/small/dump

Target: under 0.3 s each (issue 23). `logs` reads a small cluster-info dump written for the run. Prints the best and median wall time and the peak RSS, and
which heavy libraries (pandas, networkx, matplotlib) each command imported: none should.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("pandas", "networkx", "matplotlib")
# the compiled bytecode is read, as in an installed kda (see compile_package)
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

# Runs one kda command in this process and reports which heavy modules it imported.
_PROBE = """
import sys, runpy, json
sys.argv = ["kda", *json.loads(sys.argv[1])]
try:
    runpy.run_module("analyzer", run_name="__main__")
except SystemExit:
    pass
sys.stderr.write("\\nHEAVY=" + json.dumps(sorted(m for m in _NAMES_ if m in sys.modules)) + "\\n")
""".replace("_NAMES_", repr(HEAVY))


def commands(dump: Path, logs_dump: Path | None) -> dict[str, list[str]]:
    import analyzer

    cluster = analyzer.load(str(dump))
    node = next(o.name for o in cluster.objects_of("Node"))
    out = {
        "kda --help": ["--help"],
        "kda --version": ["--version"],
        "kda get pods -A -o wide": ["get", "pods", str(dump), "-A", "-o", "wide"],
        "kda get nodes": ["get", "nodes", str(dump)],
        "kda describe node": ["describe", "node", node, str(dump)],
    }
    if logs_dump is not None and logs_dump.exists():
        log = analyzer.load(str(logs_dump)).logs[0]
        out["kda logs"] = ["logs", str(logs_dump), log.pod, "-n", log.namespace, "-c", log.container]
    return out


def measure(args: list[str], runs: int) -> tuple[list[float], list[float], int, list[str]]:
    times, cpu, rss = [], [], 0
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(["/usr/bin/time", "-f", "RSS=%M CPU=%U+%S", sys.executable, "-m", "analyzer", *args],
                              capture_output=True, text=True, env=ENV)
        times.append(time.perf_counter() - start)
        for line in done.stderr.splitlines():
            if line.startswith("RSS="):
                size, used = line.split()
                rss = max(rss, int(size[4:]))
                user, system = used[4:].split("+")
                cpu.append(float(user) + float(system))
    probe = subprocess.run([sys.executable, "-c", _PROBE, json.dumps(args)], capture_output=True, text=True)
    heavy = next((json.loads(line[6:]) for line in probe.stderr.splitlines() if line.startswith("HEAVY=")), ["?"])
    return times, cpu, rss, heavy


def small_logs_dump(folder: Path) -> Path:
    """A small `kubectl cluster-info dump` (three pods, a 300-line log each), as the sample dumps
    hold no logs."""
    pods = [{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": f"web-{i}", "namespace": "shop",
                                                             "creationTimestamp": "2024-09-15T10:00:00Z"},
             "spec": {"containers": [{"name": "web", "image": "nginx:1.27"}], "nodeName": "node-1"},
             "status": {"phase": "Running"}} for i in range(3)]
    text = json.dumps({"kind": "PodList", "apiVersion": "v1", "items": pods}, indent=4) + "\n"
    for i in range(3):
        text += f"==== START logs for container web of pod shop/web-{i} ====\n"
        text += "".join(f"2024-09-15T11:{n // 60:02d}:{n % 60:02d}Z GET /healthz 200 {n}\n" for n in range(300))
    path = folder / "cluster-info-dump.txt"
    path.write_text(text, encoding="utf-8")
    return path


def compile_package() -> None:
    """Byte-compile the package first, as `pip install` does: a process that must compile every
    module it imports (PYTHONDONTWRITEBYTECODE set, a fresh checkout) measures the compiler."""
    import compileall

    compileall.compile_dir(str(ROOT / "analyzer"), quiet=1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--dump", type=Path, default=ROOT / "sample_dumps" / "aks")
    parser.add_argument("--logs-dump", type=Path, default=None,
                        help="a dump with container logs (default: a small cluster-info dump written here)")
    opts = parser.parse_args(argv)
    if opts.logs_dump is None:
        opts.logs_dump = small_logs_dump(Path(tempfile.mkdtemp(prefix="bench-startup-")))
    compile_package()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; CPU = user + system seconds "
          "(on a shared machine the wall time also counts waiting for a core)")
    print(f"{'command':28} {'best':>7} {'median':>7} {'CPU':>7} {'peak RSS':>9}  heavy imports")
    # the floor on this machine right now: an interpreter that imports nothing
    bare = []
    for _ in range(opts.runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], env=ENV, check=True)
        bare.append(time.perf_counter() - start)
    print(f"{'python -c pass (floor)':28} {min(bare):6.3f}s {statistics.median(bare):6.3f}s")
    for label, args in commands(opts.dump, opts.logs_dump).items():
        times, cpu, rss, heavy = measure(args, opts.runs)
        print(f"{label:28} {min(times):6.3f}s {statistics.median(times):6.3f}s {min(cpu):6.2f}s "
              f"{rss / 1024:7.1f}MB  {', '.join(heavy) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
