"""`python -m synthetic`: regenerate the sample dumps, write a benchmark dump, or write one sample
cluster in any form.

    python -m synthetic samples [--out DIR] [--archive FILE]      # = python sample_dumps/_generate.py
    python -m synthetic benchmark --pods N [...] -o FILE            # = python benchmarks/generate_dump.py
    python -m synthetic write CLUSTER FORM -o DIR                   # e.g. write eks must-gather -o out/
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from synthetic import benchmark, samples
from synthetic.forms import FORMS


def write(argv: list[str]) -> int:
    """Write one sample cluster in one form into a new folder."""
    parser = argparse.ArgumentParser(prog="python -m synthetic write", description=write.__doc__)
    parser.add_argument("cluster", choices=sorted(samples.CLUSTERS))
    parser.add_argument("form", choices=sorted(FORMS))
    parser.add_argument("-o", "--output", type=Path, required=True, help="folder to create")
    args = parser.parse_args(argv)
    if args.output.exists() and any(args.output.iterdir()):
        parser.error(f"{args.output} is not empty")
    FORMS[args.form](samples.CLUSTERS[args.cluster](), args.output)
    print(f"wrote {args.cluster} as {args.form} into {args.output}")
    return 0


COMMANDS = {"samples": samples.main, "benchmark": benchmark.main, "write": write}


def main(argv: list[str] | None = None) -> int:
    """Dispatch to the sub-command."""
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] not in COMMANDS:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    return COMMANDS[argv[0]](argv[1:])


if __name__ == "__main__":
    sys.exit(main())
