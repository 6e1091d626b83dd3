"""Write a large, realistic `kubectl get pods,nodes,... -A -o json|yaml` dump for benchmarks.

    python benchmarks/generate_dump.py --pods 20000 --nodes 1000 --format json -o benchmarks/data/pods-20000.json

The entry point the benchmarks and docs call; the generator is the `synthetic` package at the
repository root (synthetic/benchmark.py, the cluster in synthetic/clusters/scalable/).
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, only benchmarks/ is on sys.path: the package lives one folder up.
_ROOT = str(Path(__file__).resolve().parents[1])
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

from synthetic.benchmark import (  # noqa: E402
    FORMATS,
    RESOURCE_KINDS,
    default_nodes,
    main,
    shape_names,
    write_dump,
)

__all__ = ["FORMATS", "RESOURCE_KINDS", "default_nodes", "main", "shape_names", "write_dump"]

if __name__ == "__main__":
    sys.exit(main())
