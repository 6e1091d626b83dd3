"""Write a large, realistic `kubectl get pods,nodes,... -A -o json|yaml` dump for benchmarks.

    python benchmarks/generate_dump.py --pods 20000 --nodes 1000 --format json -o benchmarks/data/pods-20000.json

The content is deterministic for a given seed; see synthetic_cluster.py for what is in it.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from kubectl_json import write_list as write_json_list
from kubectl_yaml import KubectlYamlWriter
from synthetic_cluster import generate_objects

FORMATS = ("json", "yaml")
_BUFFER = 8 * 1024 * 1024


def default_nodes(pods: int) -> int:
    """A node count that gives ~20 pods per node, as in the benchmark clusters."""
    return max(3, pods // 20)


def write_dump(path: Path, pods: int, nodes: int | None = None, fmt: str = "json", seed: int = 1) -> int:
    """Write the dump to `path` (parents created); returns its size in bytes."""
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    path.parent.mkdir(parents=True, exist_ok=True)
    objects = generate_objects(pods, nodes if nodes is not None else default_nodes(pods), seed)
    if fmt == "json":
        with path.open("wb", buffering=_BUFFER) as stream:
            write_json_list(objects, stream)
    else:
        with path.open("w", encoding="utf-8", newline="\n", buffering=_BUFFER) as stream:
            KubectlYamlWriter().write_list(objects, stream)
    return path.stat().st_size


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pods", type=int, required=True, help="number of Pods")
    parser.add_argument("--nodes", type=int, default=None, help="number of Nodes (default: pods / 20)")
    parser.add_argument("--format", choices=FORMATS, default="json")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-o", "--output", type=Path, required=True)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    size = write_dump(args.output, args.pods, args.nodes, args.format, args.seed)
    elapsed = time.perf_counter() - started
    print(f"wrote {args.output}: {size:,} bytes ({size / 1e6:.1f} MB), {args.format}, "
          f"{args.pods} pods, in {elapsed:.1f} s ({size / 1e6 / elapsed:.1f} MB/s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
