"""What the diagrams show, made where the graph and the findings are: the namespace's view of the
graph filled as networkx's public methods would fill it, and both that view and the findings'
tally crossing to the report's second process as bytes and coming back exactly.

Fixtures: the sample dumps (sample_dumps/, generated) and two realdata cases read as they are
(../shared/realdata: an OpenShift must-gather, whose namespaces have no kube-system, and the EKS
holmesgpt fixtures; their sources are in ../shared/realdata/SOURCES.md).
"""

from __future__ import annotations

import networkx as nx
import pytest
from conftest import REALDATA, SAMPLE_DUMPS

import analyzer
from analyzer.report import views
from analyzer.report.diagrams import figure_svg, findings_chart, tally_chart


def _same_graph(a: nx.MultiDiGraph, b: nx.MultiDiGraph) -> None:
    assert a.graph == b.graph
    assert list(a.nodes(data=True)) == list(b.nodes(data=True))
    assert list(a.edges(keys=True, data=True)) == list(b.edges(keys=True, data=True))
    for node in a:
        assert list(a.predecessors(node)) == list(b.predecessors(node))
        assert list(a.pred[node].items()) == list(b.pred[node].items())


@pytest.mark.parametrize("name", ["aks", "kubeadm", "oke", "eks"])
def test_a_namespace_subgraph_is_filled_as_the_public_methods_would(name: str) -> None:
    graph = analyzer.load(str(SAMPLE_DUMPS / name)).graph
    keep = set(list(graph)[::2]) | {n for n, k in graph.nodes(data="kind") if k == "Node"}
    fast = views._subgraph(graph, keep)
    slow = nx.MultiDiGraph()
    slow.graph.update(graph.graph)
    slow.add_nodes_from((n, graph.nodes[n]) for n in graph if n in keep)
    slow.add_edges_from((s, t, k, data) for s in list(slow) for t, keyed in graph.succ[s].items()
                        if t in keep for k, data in keyed.items())
    assert fast.number_of_edges() > 0
    assert nx.utils.graphs_equal(fast, slow)
    assert list(fast.nodes(data=True)) == list(slow.nodes(data=True))
    assert list(fast.edges(keys=True, data=True)) == list(slow.edges(keys=True, data=True))
    for node in fast:
        assert list(fast.predecessors(node)) == list(slow.predecessors(node))
    for node in fast:  # copies: the diagram never writes into the dump's graph
        assert fast.nodes[node] is not graph.nodes[node]


@pytest.mark.parametrize("name", ["aks", "kubeadm", "oke"])
def test_folding_within_a_namespace_equals_folding_its_subgraph(name: str) -> None:
    from analyzer.graph import collapse_pods

    graph = analyzer.load(str(SAMPLE_DUMPS / name)).graph
    keep = {n for n, ns in graph.nodes(data="namespace") if ns in ("kube-system", "")}
    fast, slow = collapse_pods(graph, within=keep), collapse_pods(views._subgraph(graph, keep))
    assert fast.number_of_edges() > 0 and fast.number_of_nodes() < len(keep)
    assert nx.utils.graphs_equal(fast, slow)
    assert list(fast.nodes(data=True)) == list(slow.nodes(data=True))
    assert list(fast.edges(keys=True, data=True)) == list(slow.edges(keys=True, data=True))
    for node in fast:
        assert list(fast.predecessors(node)) == list(slow.predecessors(node))


DUMPS = [SAMPLE_DUMPS / name for name in ("aks", "eks", "kubeadm", "oke")] + [
    REALDATA / "openshift" / "must-gather-clean-aws", REALDATA / "eks" / "holmesgpt-fixtures"]


@pytest.mark.parametrize("dump", DUMPS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_namespace_view_crosses_as_bytes_node_for_node(dump) -> None:  # noqa: ANN001
    if not dump.exists():
        pytest.skip(f"{dump} is not beside the repo")
    cluster = analyzer.load(str(dump))
    choice = views.system_namespace(cluster)
    assert choice.namespace is not None
    view = views.namespace_view(cluster.graph, choice.namespace)
    back = views.view_from_bytes(views.view_to_bytes(view))
    assert (back.namespace, back.objects, back.collapsed) == (view.namespace, view.objects, view.collapsed)
    assert back.graph.number_of_nodes() == view.graph.number_of_nodes() > 0
    _same_graph(back.graph, view.graph)


def test_a_folded_view_crosses_too() -> None:
    graph = analyzer.load(str(SAMPLE_DUMPS / "aks")).graph
    view = views.namespace_view(graph, "kube-system")
    from analyzer.graph import collapse_pods

    folded = views.NamespaceView("kube-system", collapse_pods(graph, within=set(view.graph)), view.objects, True)
    assert any("count" in attrs for _, attrs in folded.graph.nodes(data=True))  # a folded controller
    _same_graph(views.view_from_bytes(views.view_to_bytes(folded)).graph, folded.graph)


def test_a_view_with_an_attribute_that_would_not_come_back_is_not_sent() -> None:
    graph = nx.MultiDiGraph()
    graph.add_node("v1/Pod/ns/a", kind="Pod", labels=("a", "b"))  # a tuple comes back a list
    with pytest.raises(ValueError, match="plain value"):
        views.view_to_bytes(views.NamespaceView("ns", graph, 1, False))


def test_the_findings_chart_is_the_same_from_its_tally() -> None:
    cluster = analyzer.load(str(SAMPLE_DUMPS / "aks"))
    tally = views.tally_from_bytes(views.tally_to_bytes(views.findings_tally(cluster.findings)))
    assert tally.failed > 0 and tally.categories
    assert figure_svg(tally_chart(tally, "aks")) == figure_svg(findings_chart(cluster.findings, "aks"))
    none_failed = cluster.findings[cluster.findings["status"] != "fail"]
    empty = views.tally_from_bytes(views.tally_to_bytes(views.findings_tally(none_failed)))
    assert empty.failed == 0
    assert figure_svg(tally_chart(empty)) == figure_svg(findings_chart(none_failed))
