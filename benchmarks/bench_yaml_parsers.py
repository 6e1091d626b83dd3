"""Parse throughput of YAML readers on a large `kubectl get -o yaml` dump, garbage collector paused.

    python benchmarks/bench_yaml_parsers.py                # 20,000 pods (generated if missing)
    python benchmarks/bench_yaml_parsers.py --pods 2000    # a quick run

Each reader runs in its own fresh process (so peak memory is its own), on the same text, with
`gc.disable()` around the parse. The digest column hashes every parsed List item, so readers
that return the same objects show the same digest. The machine is shared and noisy: compare the
ratios within one run, not absolute numbers across runs.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import multiprocessing
import resource
import sys
import time
from pathlib import Path
from typing import Any

import orjson
from generate_dump import write_dump

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).resolve().parent / "data"


def _parse_ryaml(text: str) -> Any:
    import ryaml

    return ryaml.loads(text)


def _parse_yaml_rs(text: str) -> Any:
    import yaml_rs

    # parse_datetime=False: otherwise every quoted kubectl timestamp becomes a datetime.
    return yaml_rs.loads(text, parse_datetime=False)


def _parse_csafe(text: str) -> Any:
    import yaml

    return yaml.load(text, Loader=yaml.CSafeLoader)


def _parse_ours(text: str) -> Any:
    sys.path.insert(0, str(ROOT))
    from analyzer.ingest.yamlfast import load_yaml_documents

    (document,) = load_yaml_documents(text)
    return document


def _scan_only(text: str) -> Any:
    sys.path.insert(0, str(ROOT))
    from analyzer.ingest import yamlfast

    return {"items": [], "needs_safe_loader": yamlfast._needs_safe_loader(text)}


READERS = {
    "ryaml 0.5 (libyaml via serde_yaml)": _parse_ryaml,
    "yaml_rs 0.1 (saphyr)": _parse_yaml_rs,
    "PyYAML CSafeLoader (reference)": _parse_csafe,
    "analyzer yamlfast.load_yaml_documents": _parse_ours,
    "  of which: the scan alone": _scan_only,
}


def _digest(document: Any) -> str:
    digest = hashlib.sha256()
    items = document.get("items", []) if isinstance(document, dict) else []
    for item in items:
        digest.update(orjson.dumps(item, option=orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME, default=repr))
    return f"{len(items)} items, {digest.hexdigest()[:12]}"


def _run(name: str, path: str, queue: multiprocessing.Queue) -> None:
    text = Path(path).read_text(encoding="utf-8")
    reader = READERS[name]
    gc.disable()
    try:
        started = time.perf_counter()
        document = reader(text)
        elapsed = time.perf_counter() - started
    except ImportError as exc:  # ryaml is compared only when the `bench` extra is installed
        queue.put(exc.name)
        return
    finally:
        gc.enable()
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    queue.put((elapsed, peak_mb, _digest(document)))


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pods", type=int, default=20_000)
    parser.add_argument("--dump", type=Path, default=None, help="YAML dump to read (default: generated)")
    args = parser.parse_args(argv)
    path = args.dump or DATA / f"pods-{args.pods}.yaml"
    if not path.exists():
        print(f"generating {path} ...", flush=True)
        write_dump(path, pods=args.pods, fmt="yaml")
    size_mb = path.stat().st_size / 1e6
    print(f"{path.name}: {size_mb:.1f} MB; garbage collector paused during each parse\n")
    print(f"{'reader':40} {'seconds':>8} {'MB/s':>7} {'peak RSS MB':>12}  result")
    context = multiprocessing.get_context("spawn")
    for name in READERS:
        queue: multiprocessing.Queue = context.Queue()
        process = context.Process(target=_run, args=(name, str(path), queue))
        process.start()
        result = queue.get()
        process.join()
        if isinstance(result, str):
            print(f"{name:40} not installed ({result}: pip install -e '.[bench]')", flush=True)
            continue
        elapsed, peak_mb, digest = result
        print(f"{name:40} {elapsed:8.1f} {size_mb / elapsed:7.1f} {peak_mb:12.0f}  {digest}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
