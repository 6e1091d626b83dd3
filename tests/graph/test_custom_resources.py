"""Custom resources named like every built-in kind (longhorn.io's Node, Knative's Service,
Istio's Gateway, ...) are nodes of the graph but never read as that kind: the graph, the
tables, the findings and the report build over them (objects written for this test)."""

from __future__ import annotations

from pathlib import Path

import orjson

import analyzer
from analyzer.cluster.tables import table_names
from analyzer.graph.context import UNRELATED_KINDS
from analyzer.ingest.tree import MemoryTree
from analyzer.kube.kinds import BUILTIN_KINDS
from analyzer.report.cluster_report import render_cluster_report


def test_custom_resources_named_like_builtin_kinds_are_not_read_as_them(tmp_path: Path) -> None:
    # Fields of shapes no built-in kind has: a builder reading one as its kind would fail.
    odd = [{"apiVersion": "example.com/v1", "kind": kind,
            "metadata": {"name": "x", "namespace": "default"},
            "spec": "not the built-in spec", "status": 5, "data": [1], "subsets": "s"}
           for kind in sorted(BUILTIN_KINDS)]
    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "x", "namespace": "default"},
           "spec": {"nodeName": "x", "containers": [{"name": "c", "image": "nginx"}]}}
    dump = orjson.dumps({"apiVersion": "v1", "kind": "List", "items": [*odd, pod]})
    cluster = analyzer.load(MemoryTree({"cr.json": dump}, name="custom"))
    assert len(cluster.objects) == len(odd) + 1 and not cluster.ingest.rejections
    assert not any(o.notes for o in cluster.objects)  # nothing "ignored" to fit a built-in view
    assert {o.key.id for o in cluster.objects_of(*BUILTIN_KINDS)} == {"core/Pod/default/x"}

    graph = cluster.graph
    assert all(o.key.id in graph for o in cluster.objects if o.kind not in UNRELATED_KINDS)
    assert ("core/Pod/default/x", "core/Node//x") in graph.edges()  # the core Node it names
    for name in table_names():
        cluster.tables[name]
    assert cluster.tables.pods["name"].tolist() == ["x"] and cluster.tables.nodes.empty
    assert len(cluster.findings) > 0  # the checks ran (most say what they could not check)
    render_cluster_report(cluster, tmp_path, ("html",))
    assert (tmp_path / "report.html").stat().st_size > 0
