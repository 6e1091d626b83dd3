"""How long `analyzer.diff` takes against how long reading the two dumps takes.

    python benchmarks/bench_diff.py benchmarks/data/pods-20000.json [NEW]

Without NEW the dump is compared with itself (every object unchanged: the cheapest walk); with
NEW (for example the same dump with its resourceVersions rewritten by sed) every body differs
somewhere and is walked. Findings of both dumps are computed first: they are the findings
stage's cost, shared with every other consumer.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import analyzer  # noqa: E402


def _timed(label: str, fn, results: dict[str, float]):
    started = time.perf_counter()
    value = fn()
    results[label] = time.perf_counter() - started
    print(f"{label:<20} {results[label]:8.2f} s", flush=True)
    return value


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path, nargs="?")
    args = parser.parse_args()
    t: dict[str, float] = {}
    old = _timed("ingest old", lambda: analyzer.load(str(args.old)), t)
    new = _timed("ingest new", lambda: analyzer.load(str(args.new or args.old)), t)
    _timed("findings (both)", lambda: (old.findings, new.findings), t)
    result = _timed("diff", lambda: analyzer.diff(old, new, force=True), t)
    print(f"{len(old.objects)} objects: {len(result.changed)} changed, {result.unchanged} unchanged")
    print(f"diff / ingest of both   {t['diff'] / (t['ingest old'] + t['ingest new']):6.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
