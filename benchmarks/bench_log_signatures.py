"""Benchmark: matching the log signature catalog over container logs, MB per second.

    python benchmarks/bench_log_signatures.py                  # 100,000 synthetic klog lines
    python benchmarks/bench_log_signatures.py --lines 500000 --hit-every 10

The log is klog-style lines of a healthy kube-proxy with, every `--hit-every` lines, a line
that a signature matches (an i/o timeout to the API server). Prints MB/s for a clean log and
for the log with hits; exits 1 below `--min-mb-per-s` (20) on the clean log: every signature
is one RE2 automaton, so the scan must not slow down as the catalog grows.
"""

from __future__ import annotations

import argparse
import sys
import time

from analyzer.model.logsignatures import load_signatures, match_log

CLEAN = ("I0411 12:05:26.391959       1 conntrack.go:100] Set sysctl "
         "'net/netfilter/nf_conntrack_tcp_timeout_established' to 86400\n")
HIT = 'E0411 12:05:27.000001       1 reflector.go:138] Get "https://10.96.0.1:443/api": dial tcp 10.96.0.1:443: i/o timeout\n'


def rate(text: str) -> tuple[float, int]:
    start = time.perf_counter()
    found = sum(1 for _ in match_log(text))
    seconds = time.perf_counter() - start
    return len(text.encode()) / 1e6 / max(seconds, 1e-9), found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--hit-every", type=int, default=10)
    parser.add_argument("--min-mb-per-s", type=float, default=20.0)
    args = parser.parse_args()
    load_signatures()
    clean = CLEAN * args.lines
    mixed = "".join(HIT if i % args.hit_every == 0 else CLEAN for i in range(args.lines))
    clean_rate, _ = rate(clean)
    mixed_rate, hits = rate(mixed)
    print(f"{len(load_signatures())} signatures; clean log {clean_rate:.1f} MB/s; "
          f"with a hit every {args.hit_every} lines {mixed_rate:.1f} MB/s ({hits} matches)")
    return 0 if clean_rate >= args.min_mb_per_s else 1


if __name__ == "__main__":
    sys.exit(main())
