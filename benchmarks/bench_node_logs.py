"""Benchmark: reading a node's container log files (a `kind export logs` tree), then the findings.

    python benchmarks/bench_node_logs.py                           # 3 nodes x 40 pods x 2,500 lines
    python benchmarks/bench_node_logs.py --pods 100 --lines 5000 --partial-every 0

Writes <node>/pods/<ns>_<pod>_<uid>/<container>/0.log files in the containerd (CRI) format under
benchmarks/data/node-logs/ (klog, JSON and CoreDNS lines; every `--partial-every`-th line split
into a `P` piece and its `F` rest, 0 for none), then prints the best of `--repeat` runs of the
ingest (which reads each file as `kubectl logs` prints it: ingest/runtimelog.py) and of the
findings (the log signatures over the container's text), with the MB read.
"""

from __future__ import annotations

import argparse
import random
import shutil
import time
from pathlib import Path

import analyzer
from analyzer.ingest import ingest

LINES = ("I0526 01:55:38.201513       1 reflector.go:138] Watch close - *v1.Pod total 9 items received",
         "E0526 01:55:38.412122       1 reflector.go:138] failed to list *v1.Node: dial tcp 10.96.0.1:443: i/o timeout",
         '{"level":"info","ts":"2021-05-26T01:55:24.096Z","caller":"etcdserver/server.go:2036","msg":"published local member"}',
         '[INFO] 10.244.0.1:53211 - 4411 "A IN kubernetes.default.svc.cluster.local. udp 54 false 512" NOERROR qr,aa,rd 106 0.000123s')


def write_tree(root: Path, nodes: int, pods: int, lines: int, partial_every: int) -> int:
    """The tree's files; returns its size in bytes."""
    rng = random.Random(1)
    size = 0
    for n in range(nodes):
        for p in range(pods):
            folder = root / f"kind-worker{n}/pods/default_app-{n}-{p}_{p:08x}-0000-4000-8000-{rng.getrandbits(48):012x}/app"
            folder.mkdir(parents=True, exist_ok=True)
            out = []
            for i in range(lines):
                stamp = f"2021-05-26T0{1 + i // 1000 % 9}:{i // 60 % 60:02d}:{i % 60:02d}.{rng.getrandbits(29):09d}Z"
                said = LINES[i % len(LINES)]
                if partial_every and i % partial_every == 7:
                    out += [f"{stamp} stdout P {said[:40]}", f"{stamp} stdout F {said[40:]}"]
                else:
                    out.append(f"{stamp} {'stderr' if i % 3 else 'stdout'} F {said}")
            data = ("\n".join(out) + "\n").encode()
            (folder / "0.log").write_bytes(data)
            size += len(data)
    return size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--nodes", type=int, default=3)
    parser.add_argument("--pods", type=int, default=40, help="pods per node")
    parser.add_argument("--lines", type=int, default=2500, help="lines per container log")
    parser.add_argument("--partial-every", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    root = Path(__file__).parent / "data" / "node-logs"
    shutil.rmtree(root, ignore_errors=True)
    size = write_tree(root, args.nodes, args.pods, args.lines, args.partial_every)
    best_ingest = best_findings = float("inf")
    for _ in range(args.repeat):
        start = time.perf_counter()
        result = ingest(str(root))
        best_ingest = min(best_ingest, time.perf_counter() - start)
        cluster = analyzer.load(str(root))
        start = time.perf_counter()
        found = cluster.findings
        best_findings = min(best_findings, time.perf_counter() - start)
    print(f"{len(result.logs)} logs, {size / 1e6:.1f} MB: ingest {best_ingest:.2f} s, findings {best_findings:.2f} s "
          f"({len(found)} rows), best of {args.repeat}")


if __name__ == "__main__":
    main()
