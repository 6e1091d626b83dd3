"""Shared test locations: the repo root, and the read-only shared material beside the repo."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# CI clones the repo with shared/ beside it; tests read real dumps and seeds from there.
SHARED = ROOT.parent / "shared"
REALDATA = SHARED / "realdata"
SEEDS = SHARED / "seeds"
SAMPLE_DUMPS = ROOT / "sample_dumps"
