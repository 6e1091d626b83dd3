"""What the report's diagrams show, as plain data made without matplotlib: the namespace a
dependency diagram draws and its view of the graph, the tally of the findings chart. The report's
second process draws them (`analyzer/report/diagrams.py`); these are made where the graph and the
findings are, and cross to it as bytes (msgpack), so that the process with the graph never
imports matplotlib.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import msgspec

if TYPE_CHECKING:
    import networkx as nx
    import pandas as pd

    from analyzer.cluster import Cluster

# Kinds that are records rather than parts of the system: left out of the picture.
SKIPPED_KINDS = frozenset({"Namespace", "Event"})
COLLAPSE_PODS_ABOVE = 40  # pods in the namespace beyond which they are folded into controllers


@dataclass(frozen=True, slots=True)
class NamespaceView:
    """A namespace's objects and the cluster-wide ones they touch, as a graph of its own (pods
    folded into their controllers when many); how many of its own objects it has."""

    namespace: str
    graph: nx.MultiDiGraph
    objects: int
    collapsed: bool


@dataclass(frozen=True, slots=True)
class NamespaceChoice:
    """The namespace that best shows a cluster's system components, and why it was chosen."""

    namespace: str | None
    why: str


def drawable_objects(graph: nx.MultiDiGraph) -> Counter[str]:
    """Objects per namespace that a dependency diagram would draw."""
    return Counter(a["namespace"] for _, a in graph.nodes(data=True)
                   if a.get("namespace") and a.get("kind") not in SKIPPED_KINDS)


def system_namespace(cluster: Cluster) -> NamespaceChoice:
    """The namespace to draw by default: kube-system when the dump has it; else the namespace
    holding the detected CNI, then DNS; else the openshift-* (then any) namespace with the most
    system components, then objects. None when no system namespace has anything to draw."""
    objects = drawable_objects(cluster.graph)
    if objects.get("kube-system"):
        return NamespaceChoice("kube-system", "the system namespace")
    try:
        comp = cluster.tables["components"]
        placed = list(zip(comp["namespace"].astype(str), comp["role"].astype(str), strict=True))
    except Exception:  # no components table: fall back on the objects alone
        placed = []
    for role, what in (("cni", "the CNI"), ("dns", "the DNS")):
        for ns in sorted({ns for ns, r in placed if r == role}):
            if objects.get(ns):
                return NamespaceChoice(ns, f"no kube-system in this dump; {ns} holds {what}")
    components = Counter(ns for ns, _ in placed if objects.get(ns))
    for label, candidates in (("openshift-*", [ns for ns in objects if ns.startswith("openshift-")]),
                              ("system", list(components))):
        if candidates:
            ns = min(candidates, key=lambda n: (-components.get(n, 0), -objects[n], n))
            return NamespaceChoice(ns, f"no kube-system in this dump; of the {label} namespaces, "
                                       f"{ns} holds the most system components and objects")
    busiest = ", ".join(ns for ns, _ in sorted(objects.items(), key=lambda kv: (-kv[1], kv[0]))[:5])
    return NamespaceChoice(None, "this dump has no kube-system and no namespace of system "
                                 "components with objects to draw" +
                           (f" (namespaces with objects: {busiest})" if busiest else ""))


def namespace_view(graph: nx.MultiDiGraph, namespace: str) -> NamespaceView:
    """The namespace's subgraph (pods folded when many), its object count, whether folded."""
    from analyzer.graph import collapse_pods

    # As graph.namespace_subgraph, but a view without Namespace/Event nodes: no copy of a big graph.
    attributes, succ, pred = graph._node, graph._succ, graph._pred
    inside = {n for n, a in attributes.items()
              if a.get("namespace") == namespace and a.get("kind") not in SKIPPED_KINDS}
    touched = {other for node in inside for adjacent in (succ[node], pred[node]) for other in adjacent
               if attributes[other].get("namespace") == ""
               and attributes[other].get("kind") not in SKIPPED_KINDS}
    keep = inside | touched
    objects = sum(1 for n in keep if attributes[n].get("namespace") == namespace)
    pods = sum(1 for n in keep if attributes[n].get("kind") == "Pod")
    if pods > COLLAPSE_PODS_ABOVE:  # folded straight from the graph: no copy of the namespace first
        return NamespaceView(namespace, collapse_pods(graph, within=keep), objects, True)
    return NamespaceView(namespace, _subgraph(graph, keep), objects, False)


def _subgraph(graph: nx.MultiDiGraph, keep: set[str]) -> nx.MultiDiGraph:
    """The objects `keep` and the edges among them, as a graph of its own. A subgraph view
    would filter every edge of every kept object on each pass over it: a Node with a
    DaemonSet's pods on it has thousands, and a 5,000-node cluster 5,000 Nodes."""
    import networkx as nx

    sub = nx.MultiDiGraph()
    sub.graph.update(graph.graph)
    # networkx's storage filled as add_nodes_from and add_edges_from fill it (attributes and
    # edge data copied; nodes in the graph's order, edges source by source), without their
    # overhead per edge: a 5,000-node cluster's kube-system has 75,000 edges.
    # tests/report/test_diagrams.py checks the result equals what the public methods build.
    attributes, old_succ = graph._node, graph._succ
    nodes, succ, pred = sub._node, sub._succ, sub._pred
    for n in attributes:
        if n in keep:
            nodes[n] = dict(attributes[n])
            succ[n] = {}
            pred[n] = {}
    for s in nodes:
        out = succ[s]
        for t, keyed in old_succ[s].items():
            if t in keep:
                out[t] = copied = {k: dict(data) for k, data in keyed.items()}
                pred[t][s] = copied
    nx._clear_cache(sub)
    return sub


# -- across processes ---------------------------------------------------------------------


class _ViewData(msgspec.Struct, array_like=True):
    namespace: str
    objects: int
    collapsed: bool
    attributes: dict[str, Any]  # the graph's own
    nodes: list[tuple[str, dict[str, Any]]]
    succ: list[tuple[str, list[tuple[str, list[tuple[Any, dict[str, Any]]]]]]]
    pred: list[tuple[str, list[str]]]  # each node's predecessors, in the graph's order


_PLAIN = (str, int, float, bool, type(None))


def view_to_bytes(view: NamespaceView) -> bytes:
    """The view as msgpack, every node, edge and attribute in the graph's order; ValueError when
    an attribute is not a plain value (it would not come back as it is)."""
    graph = view.graph
    for attrs in (graph.graph, *graph._node.values(),
                  *(d for keyed in graph._adj.values() for ks in keyed.values() for d in ks.values())):
        if not all(isinstance(v, _PLAIN) for v in attrs.values()):
            raise ValueError("a graph attribute that is not a plain value")
    data = _ViewData(
        view.namespace, view.objects, view.collapsed, dict(graph.graph), list(graph._node.items()),
        [(s, [(t, list(keyed.items())) for t, keyed in out.items()]) for s, out in graph._succ.items()],
        [(t, list(into)) for t, into in graph._pred.items()])
    return msgspec.msgpack.encode(data)


def view_from_bytes(data: bytes) -> NamespaceView:
    """The view `view_to_bytes` wrote, node for node and edge for edge."""
    import networkx as nx

    view = msgspec.msgpack.decode(data, type=_ViewData)
    graph = nx.MultiDiGraph()
    graph.graph.update(view.attributes)
    nodes, succ, pred = graph._node, graph._succ, graph._pred
    for node, attrs in view.nodes:
        nodes[node], succ[node], pred[node] = attrs, {}, {}
    for source, out in view.succ:
        for target, keyed in out:
            succ[source][target] = dict(keyed)
    for target, sources in view.pred:
        pred[target] = {s: succ[s][target] for s in sources}  # one key dict serves both directions
    nx._clear_cache(graph)
    return NamespaceView(view.namespace, graph, view.objects, view.collapsed)


class FindingsTally(msgspec.Struct, array_like=True):
    """What the findings chart counts: failed checks per (severity, category), the categories
    named, how many failed and how many rules were not applicable."""

    failed: int
    not_applicable: int
    categories: list[str]
    counts: dict[tuple[str, str], int]


def findings_tally(findings: pd.DataFrame) -> FindingsTally:
    failed = findings[findings["status"] == "fail"]
    return FindingsTally(
        failed=len(failed),
        not_applicable=int((findings["status"] == "not_applicable").sum()),
        categories=sorted({str(c) for c in failed["category"].dropna()}),
        counts=dict(Counter((str(s), str(c)) for s, c in zip(failed["severity"], failed["category"], strict=True))))


def tally_to_bytes(tally: FindingsTally) -> bytes:
    return msgspec.msgpack.encode(tally)


def tally_from_bytes(data: bytes) -> FindingsTally:
    return msgspec.msgpack.decode(data, type=FindingsTally)
