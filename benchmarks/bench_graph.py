"""Benchmark: building the dependency graph takes at most half the time of parsing the dump.

    python benchmarks/bench_graph.py --pods 20000            # generates the dump if missing
    python benchmarks/bench_graph.py --dump path/to/dump.json

Prints parse time, graph build time per builder, node/edge counts and the ratio; exits 1 when
the graph takes more than `--max-ratio` (0.5) of the parse time.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # generate_dump imports its sibling modules by name


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pods", type=int, default=20000, help="pods of the generated dump")
    parser.add_argument("--dump", type=Path, default=None, help="an existing dump instead")
    parser.add_argument("--max-ratio", type=float, default=0.5)
    args = parser.parse_args(argv)

    import analyzer
    from analyzer.graph.builders import builders
    from analyzer.graph.context import GraphContext

    path = args.dump or HERE / "data" / f"pods-{args.pods}.json"
    if not path.exists():
        from generate_dump import write_dump

        print(f"generating {path} ...", flush=True)
        write_dump(path, args.pods, fmt="json")
    size = path.stat().st_size

    gc.collect()
    started = time.perf_counter()
    cluster = analyzer.load(path)
    parse = time.perf_counter() - started
    kinds = Counter(o.kind for o in cluster.objects)
    print(f"{path.name}: {size / 1e6:.0f} MB, {len(cluster.objects):,} objects "
          f"({kinds['Pod']:,} pods), parsed in {parse:.2f} s")

    # The same steps as analyzer.graph.build_graph (collector paused too), timed one by one.
    gc.collect()
    gc.disable()
    started = time.perf_counter()
    timings: list[tuple[str, float]] = []
    t = time.perf_counter()
    ctx = GraphContext(cluster)
    timings.append(("index", time.perf_counter() - t))
    for builder in builders():
        t = time.perf_counter()
        builder.build(ctx)
        timings.append((builder.relation.name, time.perf_counter() - t))
    t = time.perf_counter()
    graph = ctx.to_graph()
    timings.append(("networkx graph", time.perf_counter() - t))
    build = time.perf_counter() - started
    gc.enable()

    for name, seconds in timings:
        print(f"  {name:22} {seconds:7.3f} s")
    ratio = build / parse
    print(f"graph: {graph.number_of_nodes():,} nodes, {graph.number_of_edges():,} edges, "
          f"built in {build:.2f} s = {ratio:.2f} x parse time (limit {args.max_ratio})")
    return 0 if ratio <= args.max_ratio else 1


if __name__ == "__main__":
    sys.exit(main())
