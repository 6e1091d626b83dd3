"""How long a report takes against how long ingestion takes, on a large generated dump.

    python benchmarks/bench_report.py benchmarks/data/pods-20000.json

The budget (issue 8): the report renders in at most 2x the dump's ingest time. Three numbers:
ingest; the analyses the report reads (tables, distribution, graph, findings, timeline: other
stages' cost, computed once per cluster and shared with every other consumer); and the rendering itself
(facts, diagrams, HTML, Markdown, JSON). Generate the dump first with generate_dump.py.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import analyzer  # noqa: E402
from analyzer.report import render_cluster_report  # noqa: E402

ANALYSES = ("nodes", "pods", "workloads", "services", "components")


def _timed(label: str, fn, results: dict[str, float]):
    started = time.perf_counter()
    value = fn()
    results[label] = time.perf_counter() - started
    print(f"{label:<28} {results[label]:8.2f} s", flush=True)
    return value


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dump", type=Path, help="a dump, e.g. benchmarks/data/pods-20000.json")
    args = parser.parse_args()
    if not args.dump.exists():
        parser.error(f"{args.dump} does not exist: generate it with benchmarks/generate_dump.py")
    t: dict[str, float] = {}
    cluster = _timed("ingest", lambda: analyzer.load(str(args.dump)), t)
    _timed("tables", lambda: [cluster.tables[n] for n in ANALYSES], t)
    _timed("distribution", lambda: cluster.distribution, t)
    _timed("graph", lambda: cluster.graph, t)
    _timed("findings", lambda: cluster.findings, t)
    _timed("timeline", lambda: cluster.timeline, t)
    with tempfile.TemporaryDirectory() as out:
        files = _timed("render (html+md+json)",
                       lambda: render_cluster_report(cluster, out, formats=("html", "json")), t)
        size = sum(p.stat().st_size for p in files.files)
    analyses = t["tables"] + t["distribution"] + t["graph"] + t["findings"] + t["timeline"]
    print(f"{len(cluster.objects)} objects; report files {size / 1e6:.1f} MB")
    print(f"render / ingest                {t['render (html+md+json)'] / t['ingest']:6.2f}x (budget 2x)")
    print(f"(analyses + render) / ingest   {(analyses + t['render (html+md+json)']) / t['ingest']:6.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
