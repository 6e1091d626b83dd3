#!/usr/bin/env python3
"""Builds the sample dumps (AKS, EKS, OKE, kubeadm) and the kubeadm test archive, byte-reproducibly.

Usage:  python sample_dumps/_generate.py [--out DIR] [--archive FILE]

The entry point README and docs call; the generator is the `synthetic` package at the repository
root (synthetic/samples.py: which cluster is written in which form).
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, only sample_dumps/ is on sys.path: the package lives one folder up.
_ROOT = str(Path(__file__).resolve().parents[1])
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

from synthetic.samples import generate, main  # noqa: E402

__all__ = ["generate", "main"]

if __name__ == "__main__":
    sys.exit(main())
