"""The same objects printed as `kubectl -o json` and `-o yaml` give the same tables: the JSON
fast path (typed decode, memos keyed by encoding) and the YAML path (dicts converted to views)
must not drift apart, on every shape of pod the benchmarks generate, to the last cell."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import analyzer
from synthetic import benchmark as generate_dump
from synthetic.clusters.scalable import cluster as synthetic_cluster

# Nodes enough for workers of every pool (Windows pools, DaemonSets on a share of the nodes).
NODES = {"large-cluster": 15}


@pytest.mark.parametrize("shape", synthetic_cluster.shape_names())
def test_json_and_yaml_dumps_give_the_same_tables(tmp_path: Path, shape: str) -> None:
    # Realistic generated dumps (synthetic/benchmark.py, as benchmarks/generate_dump.py writes them, seed 1), 60 pods of each shape.
    dumps = {}
    for fmt in ("json", "yaml"):
        out = tmp_path / f"dump.{fmt}"
        generate_dump.write_dump(out, pods=60, nodes=NODES.get(shape, 8), fmt=fmt, seed=1, shape=shape)
        dumps[fmt] = analyzer.load(out)
    js, ym = dumps["json"], dumps["yaml"]
    assert len(js.tables.pods) >= 60
    assert len(js.tables.rejections) == 0
    for name in js.tables:
        if name in ("rejections", "components"):
            continue
        a, b = js.tables[name], ym.tables[name]
        # where each object was read from differs by design; everything else must not
        a = a.drop(columns=[c for c in ("format", "source") if c in a.columns])
        b = b.drop(columns=[c for c in ("format", "source") if c in b.columns])
        pd.testing.assert_frame_equal(a, b, check_categorical=False, obj=name)
