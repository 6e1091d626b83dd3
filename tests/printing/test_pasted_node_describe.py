"""A node's pasted `kubectl describe` printed again by `kda describe node` as the paste printed it:
its lease, its Non-terminated Pods' requests, limits and ages, and its `Events: <none>`, which no
other object states."""

from __future__ import annotations

from pathlib import Path

import analyzer
from analyzer.printing.describe import describe
from analyzer.printing.store import DumpStore

FIXTURE = Path(__file__).parents[1] / "data" / "describe" / "oke-node-vcn-native.txt"


def test_a_pasted_node_describe_is_printed_as_pasted() -> None:
    pasted = [line.rstrip() for line in FIXTURE.read_text(encoding="utf-8").splitlines()
              if not line.startswith(("#", "$"))]
    store = DumpStore.from_cluster(analyzer.load(FIXTURE))
    res = store.catalog.resolve("node")
    node = store.find(res, "", "10.140.50.107")
    printed = [line.rstrip() for line in describe(store, res, store.body(res, node)).splitlines()]
    assert printed == pasted
    assert "kube-system                 coredns-68fd89b4f6-7xfzk" in "\n".join(printed)
