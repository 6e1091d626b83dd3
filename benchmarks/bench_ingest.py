"""Ingest benchmark: MB/s and peak memory of the naive path, the parser alone, and the project.

    python benchmarks/bench_ingest.py                     # 2,000 and 20,000 pods, JSON and YAML
    python benchmarks/bench_ingest.py --pods 2000 --formats json
    python benchmarks/bench_ingest.py --pods 20000 --formats json --paths naive,project --repeat 3
    python benchmarks/bench_ingest.py --shapes all --pods 2000 --formats json --paths naive,project --repeat 3
    python benchmarks/bench_ingest.py --shapes large-cluster --pods 20000 --formats json --paths naive,project,core

`--shapes` picks shapes of pod from synthetic_catalog.yaml (`all` for every one); the table at the
end gives, per shape, the project's MB/s, its ratio to the naive path (medians of the rounds, both
paths measured in turn in the same run) and its peak memory; the headline is the slowest shape.
With the `core` path (load plus the pods, containers and nodes tables: the issue's measure)
a second table gives its MB/s and ratios.

Each measurement runs in a fresh subprocess, so its peak RSS (`resource.getrusage`) is its own;
tracemalloc would slow the parsers down several times. MB/s is the dump's size over the
wall time from reading the file to the last table built (interpreter start and imports excluded);
the table of shapes also gives it over the process's CPU time (user + system), which other work
on a shared machine disturbs less than the wall clock.
Peak memory is reported as the growth of the RSS over the process's RSS before reading, and
as that growth relative to the input size (the target for JSON is at most 1.5x). For a YAML
dump it is also given over the JSON dump of the same cluster (same shape, pods and seed,
generated if missing): the YAML target is at most 1.5x that.
Missing dumps are generated with generate_dump.py into benchmarks/data/ (git-ignored).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"

# What each path does; the worker functions below are the measured code.
PATHS: dict[str, dict[str, str]] = {
    "json": {
        "naive": "orjson.loads, GC on + pods table from dicts",
        "parser-orjson": "orjson.loads, GC paused",
        "parser-envelope": "msgspec envelope, items as raw bytes",
        "ingest": "analyzer.ingest alone (objects with typed views)",
        "project": "analyzer.load + every table",
        "core": "analyzer.load + the pods, containers and nodes tables",
    },
    "yaml": {
        "naive": "yaml CSafeLoader, GC on + pods table from dicts",
        "parser": "analyzer YAML loader (yamlfast if present), GC paused",
        "ingest": "analyzer.ingest alone (objects with typed views)",
        "project": "analyzer.load + every table",
        "core": "analyzer.load + the pods, containers and nodes tables",
    },
}
# The measure (load plus the pods, containers and nodes tables) beside every table.
CORE_TABLES = ("pods", "containers", "nodes")


def _rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _peak_rss_bytes() -> int:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux reports KiB


def _pods_table_from_dicts(doc: object):
    """What a straightforward script does: walk the dicts, one row per pod, one DataFrame."""
    import pandas as pd

    items = doc.get("items", []) if isinstance(doc, dict) else []
    rows = []
    for item in items:
        if item.get("kind") != "Pod":
            continue
        meta, spec, status = item.get("metadata", {}), item.get("spec", {}), item.get("status", {})
        statuses = status.get("containerStatuses") or []
        rows.append({
            "namespace": meta.get("namespace"), "name": meta.get("name"), "uid": meta.get("uid"),
            "node": spec.get("nodeName"), "phase": status.get("phase"),
            "pod_ip": status.get("podIP"), "created": meta.get("creationTimestamp"),
            "restarts": sum(c.get("restartCount", 0) for c in statuses),
            "containers": len(spec.get("containers") or []),
        })
    df = pd.DataFrame(rows)
    df["created"] = pd.to_datetime(df["created"], utc=True, format="ISO8601")
    return df


def _work(fmt: str, path_name: str, dump: Path) -> str:
    """Run one path on one dump; returns a one-line description of what it produced."""
    import gc

    if path_name == "ingest":
        from analyzer.ingest import ingest

        result = ingest(dump)
        return f"{len(result.objects)} objects"
    if path_name == "project":
        import analyzer
        from analyzer.cluster.tables import table_names

        cluster = analyzer.load(dump)
        rows = sum(len(cluster.tables[name]) for name in table_names())
        return f"{len(cluster.objects)} objects, {rows} table rows"
    if path_name == "core":
        import analyzer

        cluster = analyzer.load(dump)
        rows = sum(len(cluster.tables[name]) for name in CORE_TABLES)
        return f"{len(cluster.objects)} objects, {rows} rows of {', '.join(CORE_TABLES)}"
    data = dump.read_bytes()
    if fmt == "json":
        if path_name == "naive":
            import orjson

            doc = orjson.loads(data)
            return f"{len(_pods_table_from_dicts(doc))} pod rows"
        gc.disable()
        try:
            if path_name == "parser-orjson":
                import orjson

                doc = orjson.loads(data)
                return f"{len(doc.get('items', []))} items"
            from analyzer.ingest.jsondocs import ENVELOPE_DECODER

            env = ENVELOPE_DECODER.decode(data)
            return f"{len(env.list_items() or [])} raw items"
        finally:
            gc.enable()
    text = data.decode("utf-8")
    del data
    if path_name == "naive":
        import yaml

        doc = yaml.load(text, Loader=yaml.CSafeLoader)
        return f"{len(_pods_table_from_dicts(doc))} pod rows"
    from analyzer.ingest.yamldocs import parse_yaml_document

    gc.disable()
    try:
        doc = parse_yaml_document(text)
    finally:
        gc.enable()
    return f"{len(doc.get('items', []))} items"


def worker(fmt: str, path_name: str, dump: Path) -> None:
    """Measure one path in this (fresh) process; print one JSON line."""
    # Import what every path imports before the baseline, so the numbers are the work's own.
    import msgspec  # noqa: F401
    import orjson  # noqa: F401
    import pandas  # noqa: F401
    import yaml  # noqa: F401

    import analyzer.cluster  # noqa: F401
    import analyzer.ingest  # noqa: F401
    import analyzer.model  # noqa: F401

    base = _rss_bytes()
    start, cpu, children = time.perf_counter(), time.process_time(), _children_cpu()
    produced = _work(fmt, path_name, dump)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    peak = _peak_rss_bytes()
    # A child on the other CPU (a large List's later chunks, `analyzer/ingest/jsondocs.py`): its
    # CPU counts with this process's, and its peak is said beside this process's.
    children = _children_cpu() - children
    if children:
        produced += f"; a child beside it: {children:.2f} CPU s, peak {_children_peak_bytes() / 1e6:.0f} MB"
    print(json.dumps({"seconds": elapsed, "cpu": cpu + children, "peak": peak, "base": base,
                      "produced": produced}))


def _children_cpu() -> float:
    import resource

    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _children_peak_bytes() -> int:
    import resource

    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024


def _has_fast_yaml() -> bool:
    try:
        import analyzer.ingest.yamlfast  # noqa: F401
    except ImportError:
        return False
    return True


def measure(fmt: str, path_name: str, dump: Path) -> dict:
    # Modules imported while a path runs load from bytecode, as in an installed package, even
    # where the environment says not to write it (then every run would compile them again).
    env = {**os.environ, "PYTHONPYCACHEPREFIX": str(DATA / "pycache")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    proc = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--worker", fmt, path_name, str(dump)],
        capture_output=True, text=True, check=False, cwd=HERE.parent, env=env,
    )
    if proc.returncode != 0:
        return {"error": (proc.stderr.strip().splitlines() or ["failed"])[-1]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _catalog_shapes() -> list[str]:
    sys.path.insert(0, str(HERE))
    from generate_dump import shape_names

    return shape_names()


def dump_path(pods: int, fmt: str, shape: str = "baseline") -> Path:
    """Where the dump of a shape and size is kept (the baseline under its old name)."""
    return DATA / (f"pods-{pods}.{fmt}" if shape == "baseline" else f"{shape}-{pods}.{fmt}")


def ensure_dump(pods: int, fmt: str, shape: str = "baseline") -> Path:
    path = dump_path(pods, fmt, shape)
    if not path.exists():
        sys.path.insert(0, str(HERE))
        from generate_dump import write_dump

        print(f"generating {path} ...", flush=True)
        write_dump(path, pods, fmt=fmt, shape=shape)
    return path


def json_size(pods: int, shape: str, delete: bool) -> int:
    """The size of the JSON dump of the cluster a YAML dump holds (generated if missing; deleted
    again with `delete`)."""
    existed = dump_path(pods, "json", shape).exists()
    path = ensure_dump(pods, "json", shape)
    size = path.stat().st_size
    if delete and not existed:
        path.unlink()
    return size


def _over_json(row: dict, peak: str) -> str:
    """A YAML dump's peak over the JSON dump of the same cluster (rows keep it over their input)."""
    return f"{row[peak] * row['mb'] / row['json_mb']:.2f}" if row.get("json_mb") else "-"


def print_shape_table(summary: list[dict]) -> None:
    """One row per shape and dump: the project's MB/s, the ratio to the naive path, peak memory."""
    if not summary:
        return
    print()
    print(f"{'shape':<18} {'dump':<26} {'MB':>7} {'naive MB/s':>10} {'project MB/s':>12} {'ratio':>6} "
          f"{'rounds':>14} {'peak x input':>12} {'project MB/cpu-s':>16} {'cpu ratio':>9} {'peak x JSON':>11}")
    for row in summary:
        rounds = " ".join(f"{r:.1f}" for r in row["ratios"]) or "-"
        naive = f"{row['naive']:.1f}" if row["naive"] else "-"
        ratio = f"{row['ratio']:.1f}x" if row["ratio"] else "-"
        cpu_ratio = f"{row['cpu_ratio']:.1f}x" if row["cpu_ratio"] else "-"
        print(f"{row['shape']:<18} {row['dump']:<26} {row['mb']:>7.1f} {naive:>10} {row['project']:>12.1f} "
              f"{ratio:>6} {rounds:>14} {row['peak']:>12.2f} {row['project_cpu']:>16.1f} {cpu_ratio:>9} "
              f"{_over_json(row, 'peak'):>11}")
    if any("core" in row for row in summary):
        print(f"\n{'shape':<18} {'dump':<26} core (load + {', '.join(CORE_TABLES)}): "
              f"{'MB/s':>7} {'ratio':>6} {'MB/cpu-s':>9} {'cpu ratio':>9} {'peak x in':>9} {'peak x JSON':>11}")
        for row in summary:
            if "core" not in row:
                continue
            ratio = f"{row['core_ratio']:.1f}x" if row["core_ratio"] else "-"
            cpu_ratio = f"{row['core_cpu_ratio']:.1f}x" if row["core_cpu_ratio"] else "-"
            over_json = _over_json(row, "core_peak")
            print(f"{row['shape']:<18} {row['dump']:<26} {'':<37}{row['core']:>7.1f} {ratio:>6} "
                  f"{row['core_cpu']:>9.1f} {cpu_ratio:>9} {row['core_peak']:>9.2f} {over_json:>11}")
    slowest = min(summary, key=lambda row: row["project"])
    print(f"headline (the slowest shape): {slowest['shape']} {slowest['dump']}: {slowest['project']:.1f} MB/s"
          + (f", {slowest['ratio']:.1f}x the naive path" if slowest["ratio"] else "")
          + f", peak {slowest['peak']:.2f}x the input")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pods", default="2000,20000", help="comma-separated pod counts")
    parser.add_argument("--formats", default="json,yaml", help="comma-separated: json, yaml")
    parser.add_argument("--paths", default="", help="comma-separated subset of the paths (default: all)")
    parser.add_argument("--max-naive-yaml-mb", type=float, default=64.0,
                        help="skip paths that use CSafeLoader above this size (~0.5-2 MB/s, ~35x memory)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="measure each path this many times, in turn, and print the medians")
    parser.add_argument("--shapes", default="baseline",
                        help="comma-separated shapes of synthetic_catalog.yaml, or 'all' (default: baseline)")
    parser.add_argument("--delete-dumps", action="store_true",
                        help="delete each dump this run generated once it is measured (big shapes take GBs)")
    parser.add_argument("--worker", nargs=3, metavar=("FORMAT", "PATH", "DUMP"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.worker[0], args.worker[1], Path(args.worker[2]))
        return 0
    shapes = _catalog_shapes() if args.shapes == "all" else [s.strip() for s in args.shapes.split(",") if s.strip()]
    unknown = set(shapes) - set(_catalog_shapes())
    if unknown:
        parser.error(f"unknown shapes {', '.join(sorted(unknown))}; the catalog has {', '.join(_catalog_shapes())}")
    print(f"{'dump':<26} {'path':<16} {'MB':>7} {'s':>7} {'MB/s':>7} {'peak MB':>8} {'+RSS MB':>8} "
          f"{'x input':>7}  what")
    summary: list[dict] = []
    for fmt, pods, shape in ((f, int(p), s) for f in args.formats.split(",") for s in shapes
                             for p in args.pods.split(",")):
        existed = dump_path(pods, fmt, shape).exists()
        dump = ensure_dump(pods, fmt, shape)
        size = dump.stat().st_size
        json_bytes = json_size(pods, shape, args.delete_dumps) if fmt == "yaml" else None
        chosen = []
        for path_name in PATHS[fmt]:
            if args.paths and path_name not in args.paths.split(","):
                continue
            slow = path_name == "naive" or not _has_fast_yaml()
            if fmt == "yaml" and slow and size / 1e6 > args.max_naive_yaml_mb:
                print(f"{dump.name:<26} {path_name:<16} skipped: CSafeLoader on {size / 1e6:.0f} MB "
                      f"(> --max-naive-yaml-mb) would take ~{size / 1e6 / 0.5 / 60:.0f} min", flush=True)
                continue
            chosen.append(path_name)
        # Rounds of every path in turn: what else the machine does then weighs on all alike.
        runs: dict[str, list[dict]] = {name: [] for name in chosen}
        for _ in range(max(args.repeat, 1)):
            for path_name in chosen:
                runs[path_name].append(measure(fmt, path_name, dump))
        seconds: dict[str, float] = {}
        cpu_seconds: dict[str, float] = {}
        growth: dict[str, float] = {}
        for path_name in chosen:
            ok = [m for m in runs[path_name] if "error" not in m]
            if not ok:
                print(f"{dump.name:<26} {path_name:<16} error: {runs[path_name][0]['error']}")
                continue
            m = sorted(ok, key=lambda r: r["seconds"])[len(ok) // 2]  # the median run
            seconds[path_name] = m["seconds"]
            cpus = sorted(r.get("cpu", r["seconds"]) for r in ok)
            cpu_seconds[path_name] = cpus[len(cpus) // 2]
            grown = max(r["peak"] - r["base"] for r in ok)
            growth[path_name] = grown / size
            over_json = f", {grown / json_bytes:.2f}x the JSON dump" if json_bytes else ""
            print(f"{dump.name:<26} {path_name:<16} {size / 1e6:>7.1f} {m['seconds']:>7.2f} "
                  f"{size / 1e6 / m['seconds']:>7.1f} {m['peak'] / 1e6:>8.0f} {grown / 1e6:>8.0f} "
                  f"{grown / size:>7.2f}  {PATHS[fmt][path_name]} ({m['produced']}{over_json})", flush=True)
        ratios: list[float] = []
        if "naive" in seconds and "project" in seconds:
            print(f"{dump.name:<26} project is {seconds['naive'] / seconds['project']:.1f}x the naive path"
                  f"{f' (medians of {args.repeat} rounds)' if args.repeat > 1 else ''}", flush=True)
            # The naive path's time swings most with the machine (its page faults); the
            # ratio within each round shows the spread.
            ratios = [n["seconds"] / p["seconds"] for n, p in zip(runs["naive"], runs["project"], strict=True)
                      if "error" not in n and "error" not in p]
            if len(ratios) > 1:
                print(f"{dump.name:<26} per round: {' '.join(f'{r:.1f}x' for r in ratios)}", flush=True)
        if "project" in seconds:
            summary.append({
                "shape": shape, "dump": dump.name, "mb": size / 1e6, "project": size / 1e6 / seconds["project"],
                "naive": size / 1e6 / seconds["naive"] if "naive" in seconds else None,
                "ratio": seconds["naive"] / seconds["project"] if "naive" in seconds else None,
                "ratios": ratios, "peak": growth["project"], "json_mb": json_bytes / 1e6 if json_bytes else None,
                "project_cpu": size / 1e6 / cpu_seconds["project"],
                "cpu_ratio": cpu_seconds["naive"] / cpu_seconds["project"] if "naive" in cpu_seconds else None,
            })
            if "core" in seconds:
                summary[-1].update(
                    core=size / 1e6 / seconds["core"], core_cpu=size / 1e6 / cpu_seconds["core"], core_peak=growth["core"],
                    core_ratio=seconds["naive"] / seconds["core"] if "naive" in seconds else None,
                    core_cpu_ratio=cpu_seconds["naive"] / cpu_seconds["core"] if "naive" in cpu_seconds else None)
        if args.delete_dumps and not existed:
            dump.unlink()
    print_shape_table(summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
