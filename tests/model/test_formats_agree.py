"""The same objects printed as `kubectl -o json` and `-o yaml` give the same tables: the JSON
fast path (typed decode) and the YAML path (dicts converted to views) must not drift apart."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pandas as pd
from conftest import ROOT

import analyzer

GENERATOR = ROOT / "benchmarks" / "generate_dump.py"


def test_json_and_yaml_dumps_give_the_same_tables(tmp_path: Path) -> None:
    # Realistic generated dumps (benchmarks/generate_dump.py, seed 1), 60 pods on 3 nodes.
    dumps = {}
    for fmt in ("json", "yaml"):
        out = tmp_path / f"dump.{fmt}"
        subprocess.run([sys.executable, str(GENERATOR), "--pods", "60", "--nodes", "3",
                        "--format", fmt, "-o", str(out)], check=True, capture_output=True,
                       cwd=GENERATOR.parent)
        dumps[fmt] = analyzer.load(out)
    js, ym = dumps["json"], dumps["yaml"]
    assert len(js.tables.pods) >= 60
    for name in js.tables:
        if name in ("rejections", "components"):
            continue
        a, b = js.tables[name], ym.tables[name]
        # where each object was read from differs by design; everything else must not
        a = a.drop(columns=[c for c in ("format", "source") if c in a.columns])
        b = b.drop(columns=[c for c in ("format", "source") if c in b.columns])
        pd.testing.assert_frame_equal(a, b, check_categorical=False, obj=name)
