"""Write a large, realistic `kubectl get pods,nodes,... -A -o json|yaml` dump for benchmarks.

    python benchmarks/generate_dump.py --pods 20000 --nodes 1000 --format json -o benchmarks/data/pods-20000.json

The content is deterministic for a given seed; see synthetic/clusters/scalable/ for what is in it.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Collection
from pathlib import Path

from synthetic.clusters.scalable.cluster import KIND_ORDER, generate_objects, shape_names
from synthetic.clusters.scalable.cluster import default_nodes as shape_default_nodes
from synthetic.emit.kubectl_json import write_list as write_json_list
from synthetic.emit.kubectl_yaml import KubectlYamlWriter

FORMATS = ("json", "yaml")
_BUFFER = 8 * 1024 * 1024
# kubectl's plural resource names for the kinds the generator writes.
RESOURCE_KINDS = {kind.lower() + ("es" if kind.endswith("s") else "s"): kind for kind in KIND_ORDER}


def default_nodes(pods: int, shape: str = "baseline") -> int:
    """A node count that gives ~20 pods per node, as in the benchmark clusters (a shape may say otherwise)."""
    return shape_default_nodes(pods, shape)


def write_dump(path: Path, pods: int, nodes: int | None = None, fmt: str = "json", seed: int = 1,
               kinds: Collection[str] | None = None, shape: str = "baseline") -> int:
    """Write the dump to `path` (parents created); returns its size in bytes.

    `kinds` (e.g. {"Pod", "Node"}) keeps only those kinds, like `kubectl get pods,nodes`;
    `shape` is one of the catalog's shapes (`shapes:` in synthetic/clusters/scalable/catalog.yaml).
    """
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    unknown = set(kinds or ()) - set(KIND_ORDER)
    if unknown:
        raise ValueError(f"unknown kinds {sorted(unknown)}; the generator writes {', '.join(KIND_ORDER)}")
    path.parent.mkdir(parents=True, exist_ok=True)
    objects = generate_objects(pods, nodes if nodes is not None else default_nodes(pods, shape), seed, shape)
    if kinds:
        objects = (obj for obj in objects if obj["kind"] in kinds)
    if fmt == "json":
        with path.open("wb", buffering=_BUFFER) as stream:
            write_json_list(objects, stream)
    else:
        with path.open("w", encoding="utf-8", newline="\n", buffering=_BUFFER) as stream:
            KubectlYamlWriter().write_list(objects, stream)
    return path.stat().st_size


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(prog="generate_dump.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--pods", type=int, required=True, help="number of Pods")
    parser.add_argument("--nodes", type=int, default=None, help="number of Nodes (default: pods / 20)")
    parser.add_argument("--format", choices=FORMATS, default="json")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kinds", default="", help="only these resources, e.g. pods,nodes (default: all of "
                        + ",".join(RESOURCE_KINDS) + ")")
    parser.add_argument("--shape", choices=shape_names(), default="baseline",
                        help="the shape of pod (synthetic/clusters/scalable/catalog.yaml `shapes:`; default: baseline)")
    parser.add_argument("-o", "--output", type=Path, required=True)
    args = parser.parse_args(argv)
    names = [name.strip().lower() for name in args.kinds.split(",") if name.strip()]
    unknown = [name for name in names if name not in RESOURCE_KINDS]
    if unknown:
        parser.error(f"unknown resources {', '.join(unknown)}; choose from {', '.join(RESOURCE_KINDS)}")
    started = time.perf_counter()
    size = write_dump(args.output, args.pods, args.nodes, args.format, args.seed, {RESOURCE_KINDS[n] for n in names} or None,
                      args.shape)
    elapsed = time.perf_counter() - started
    print(f"wrote {args.output}: {size:,} bytes ({size / 1e6:.1f} MB), {args.format}, "
          f"{args.pods} pods, shape {args.shape}, in {elapsed:.1f} s ({size / 1e6 / elapsed:.1f} MB/s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
