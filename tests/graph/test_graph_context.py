"""The builder context: its fast graph assembly equals networkx's own, and lookups by group."""

from __future__ import annotations

from pathlib import Path

import networkx as nx

import analyzer
from analyzer.graph.builders import builders
from analyzer.graph.context import NODE_ATTRIBUTES, GraphContext

# An OKE kube-system in miniature; the file says where each object came from.
OKE = Path(__file__).parent / "data" / "oke_kube_system.yaml"


def _context() -> GraphContext:
    ctx = GraphContext(analyzer.load(OKE))
    for builder in builders():
        builder.build(ctx)
    return ctx


def test_fast_assembly_equals_the_public_networkx_methods():
    ctx = _context()
    fast = ctx.to_graph()
    slow = nx.MultiDiGraph()
    slow.graph.update(fast.graph)
    slow.add_nodes_from(sorted(ctx.nodes.items()))
    slow.add_edges_from((s, t, rel, attrs) for (s, t, rel), attrs in ctx.edges.items())
    assert nx.utils.graphs_equal(fast, slow)
    assert list(fast.edges(keys=True, data=True)) == list(slow.edges(keys=True, data=True))
    assert list(fast.nodes(data=True)) == list(slow.nodes(data=True))
    for node in fast:
        assert set(fast.successors(node)) == set(slow.successors(node))
        assert set(fast.predecessors(node)) == set(slow.predecessors(node))
    # and it stays an ordinary graph afterwards
    fast.add_edge("x", "y", key="k")
    fast.remove_node("core/Node//10.0.10.2")
    assert fast.has_edge("x", "y") and "core/Node//10.0.10.2" not in fast


def test_every_node_has_every_attribute_as_a_string():
    graph = _context().to_graph()
    for _, attrs in graph.nodes(data=True):
        assert tuple(attrs) == NODE_ATTRIBUTES
        assert all(isinstance(v, str) for v in attrs.values())


def test_a_reference_prefers_the_object_of_the_group_it_names():
    # Longhorn's namespaced custom resource kind `Node` beside core Nodes (as in the kURL
    # support bundle of shared/realdata); written for this test.
    dump = analyzer.load({"n.yaml": """apiVersion: v1
kind: List
items:
- {apiVersion: longhorn.io/v1beta1, kind: Node, metadata: {name: n1, namespace: longhorn-system}}
- {apiVersion: v1, kind: Node, metadata: {name: n1}}
"""})
    ctx = GraphContext(dump)
    assert ctx.ref("Node", "", "n1") == "core/Node//n1"
    assert ctx.ref("Node", "longhorn-system", "n1") == "core/Node//n1"  # core Nodes have no namespace
    # Longhorn's Node keeps its namespace: a reference to it says its group and namespace.
    assert ctx.ref("Node", "longhorn-system", "n1", api_version="longhorn.io/v1beta1") == (
        "longhorn.io/Node/longhorn-system/n1")


def test_namespaces_named_by_file_paths_were_collected_even_when_their_list_is_empty():
    # A support bundle (troubleshoot layout) that collected ConfigMaps of `app` only, and that
    # list is empty; written for this test after cluster-resources/ in shared/realdata.
    pod = """{"apiVersion": "v1", "kind": "PodList", "items": [
      {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "%s", "namespace": "%s"},
       "spec": {"containers": [{"name": "c"}], "volumes": [{"name": "v", "configMap": {"name": "settings"}}]}}]}"""
    bundle = {
        "bundle/cluster-resources/configmaps/app.json": '{"apiVersion": "v1", "kind": "ConfigMapList", "items": []}',
        "bundle/cluster-resources/pods/app.json": pod % ("web", "app"),
        "bundle/cluster-resources/pods/other.json": pod % ("api", "other"),
    }
    graph = analyzer.load(bundle).graph
    assert graph.nodes["core/ConfigMap/app/settings"]["state"] == "missing"
    assert graph.nodes["core/ConfigMap/other/settings"]["state"] == "not_collected"
