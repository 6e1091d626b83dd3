"""Questions asked of the graph: impact, dependencies, orphans, dangling references, and views."""

from __future__ import annotations

import difflib
import html
from collections import defaultdict, deque
from collections.abc import Iterator
from dataclasses import dataclass
from fnmatch import fnmatchcase
from functools import cache
from importlib import resources
from typing import Literal, NamedTuple

import networkx as nx
import pandas as pd

from analyzer.errors import UnknownObjectError
from analyzer.graph.builders import relations
from analyzer.graph.context import MISSING, PRESENT
from analyzer.graph.relations import Relation
from analyzer.safeyaml import load_yaml

DELETED, DEGRADED, REQUIRED, OPTIONAL = "deleted", "degraded", "required", "optional"

# An edge whose relation this version does not know (a graph read back from a file written
# by another version) is read as "source depends on target", the common case.
_UNKNOWN = Relation(name="unknown", source="", target="", description="unknown relation")

# Short names kubectl accepts, so `--impact cm/kube-system/coredns` works.
KIND_ALIASES = {
    "po": "pod", "svc": "service", "deploy": "deployment", "ds": "daemonset",
    "sts": "statefulset", "rs": "replicaset", "rc": "replicationcontroller", "cj": "cronjob",
    "cm": "configmap", "sa": "serviceaccount", "pvc": "persistentvolumeclaim",
    "pv": "persistentvolume", "sc": "storageclass", "ns": "namespace", "no": "node",
    "ep": "endpoints", "ing": "ingress", "hpa": "horizontalpodautoscaler",
    "pdb": "poddisruptionbudget", "netpol": "networkpolicy", "crd": "customresourcedefinition",
    "pc": "priorityclass",
}

DEFAULT_ORPHAN_KINDS = ("ConfigMap", "Secret", "ServiceAccount", "PersistentVolumeClaim")

# Kinds folded into their top controller by collapse_pods.
COLLAPSED_KINDS = frozenset({"Pod", "ReplicaSet", "Job", "ControllerRevision"})


class Step(NamedTuple):
    """One step of a path: the node reached, the relation of the edge, whether it was followed
    in its own direction (False: against it, e.g. from a ConfigMap back to the pod mounting it)."""

    node: str
    relation: str
    forward: bool


@dataclass(frozen=True, slots=True)
class Affected:
    """One node a query reached, what happens to it, and one shortest path from the start."""

    node: str
    kind: str
    namespace: str
    name: str
    state: str
    effect: str
    path: tuple[Step, ...]

    @property
    def depth(self) -> int:
        return len(self.path) - 1


REPR_LINES = 20  # nodes a Reach's plain repr lists; its HTML and to_frame() have them all


@dataclass(frozen=True, slots=True)
class Reach:
    """The answer to impact() or dependencies(): the nodes reached from `root`, nearest first."""

    root: str
    query: Literal["impact", "dependencies"]
    affected: tuple[Affected, ...]

    def __iter__(self) -> Iterator[Affected]:
        return iter(self.affected)

    def __len__(self) -> int:
        return len(self.affected)

    def __contains__(self, node: object) -> bool:
        return any(a.node == node for a in self.affected)

    @property
    def nodes(self) -> list[str]:
        return [a.node for a in self.affected]

    def to_frame(self) -> pd.DataFrame:
        """One row per node reached: node, kind, namespace, name, state, effect, depth, path."""
        rows = [
            {
                "node": a.node, "kind": a.kind, "namespace": a.namespace, "name": a.name,
                "state": a.state, "effect": a.effect, "depth": a.depth, "path": format_path(a.path),
            }
            for a in self.affected
        ]
        columns = ["node", "kind", "namespace", "name", "state", "effect", "depth", "path"]
        return pd.DataFrame(rows, columns=columns)

    def text(self) -> str:
        """A readable listing, one line per node with the path that reaches it."""
        lines = [self._title()]
        lines += [f"  {a.effect:9} {format_path(a.path)}" for a in self.affected]
        return "\n".join(lines)

    def _title(self) -> str:
        title = "impact of" if self.query == "impact" else "dependencies of"
        return f"{title} {self.root}: {len(self)} objects"

    # What a notebook shows of cluster.impact(...): the listing, not the dataclass's nested
    # Affected and Step records (a page of them for one DaemonSet).
    def __repr__(self) -> str:
        lines = self.text().splitlines()
        if len(lines) > REPR_LINES + 1:
            more = len(lines) - 1 - REPR_LINES
            lines = [*lines[:REPR_LINES + 1], f"  ... {more} more (.text() or .to_frame() has all)"]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        frame = self.to_frame().drop(columns="node")
        return f"<p><b>{html.escape(self._title())}</b></p>{frame.to_html(index=False, escape=True)}"


def format_path(path: tuple[Step, ...]) -> str:
    """`a -rel-> b <-rel- c`: arrows point the way each edge points in the graph."""
    parts = [path[0].node] if path else []
    for step in path[1:]:
        arrow = f" -{step.relation}-> " if step.forward else f" <-{step.relation}- "
        parts.append(arrow + step.node)
    return "".join(parts)


# -- keys ------------------------------------------------------------------------------


def resolve_key(graph: nx.MultiDiGraph, key: str) -> str:
    """The node id for `group/kind/ns/name`, `KIND/NS/NAME` or `KIND/NAME` (kind case-insensitive).

    Raises UnknownObjectError, naming the closest ids, when no node matches.
    """
    if key in graph:
        return key
    parts = key.strip().strip("/").split("/")
    if len(parts) == 4:
        full = "/".join(["core" if parts[0] in ("", "v1") else parts[0], *parts[1:]])
        if full in graph:
            return full
        parts = parts[1:]
    candidates: list[str] = []
    if len(parts) in (2, 3):
        kind = _kind_word(KIND_ALIASES.get(parts[0].lower(), parts[0]))
        name = parts[-1]
        namespace = parts[1] if len(parts) == 3 else None
        for node, attrs in graph.nodes(data=True):
            if attrs.get("name") != name or _kind_word(str(attrs.get("kind", ""))) != kind:
                continue
            if namespace is None or attrs.get("namespace") == namespace:
                candidates.append(node)
        # KIND/NAME means cluster-scoped, or a namespaced object whose name is unique.
        if namespace is None and len(candidates) > 1:
            scoped = [n for n in candidates if graph.nodes[n].get("namespace") == ""]
            candidates = scoped or candidates
    if len(candidates) == 1:
        return candidates[0]
    if len(candidates) > 1:
        raise UnknownObjectError(f"{key!r} is ambiguous: it matches {', '.join(sorted(candidates))}")
    raise UnknownObjectError(_unknown_message(graph, key))


def _kind_word(kind: str) -> str:
    """A kind as users type it, normalised: "Pods", "pod" and "Pod" are the same word."""
    return kind.lower().removesuffix("s")


def _short(node: str, attrs: dict) -> str:
    ns = attrs.get("namespace", "")
    return f"{attrs.get('kind')}/{ns}/{attrs.get('name')}" if ns else f"{attrs.get('kind')}/{attrs.get('name')}"


def _unknown_message(graph: nx.MultiDiGraph, key: str) -> str:
    shorts = {_short(n, a): n for n, a in graph.nodes(data=True)}
    kinds = {_kind_word(str(a.get("kind", ""))): str(a.get("kind", "")) for _, a in graph.nodes(data=True)}
    parts = key.strip("/").split("/")
    if len(parts) == 4:
        parts = parts[1:]
    # Spell the kind as the graph does ("ds" -> "DaemonSet") before comparing strings.
    kind = kinds.get(_kind_word(KIND_ALIASES.get(parts[0].lower(), parts[0])), parts[0])
    wanted = "/".join([kind, *parts[1:]])
    same_kind = [s for s in shorts if s.startswith(kind + "/")]
    close = difflib.get_close_matches(wanted, same_kind, n=5, cutoff=0.3) or difflib.get_close_matches(wanted, list(shorts), n=5, cutoff=0.5)
    hint = f"; closest: {', '.join(close)}" if close else ""
    return f"no object {key!r} in the graph (want KIND/NAMESPACE/NAME or KIND/NAME){hint}"


# -- traversals ------------------------------------------------------------------------


class _Edge(NamedTuple):
    other: str  # the node at the other end
    name: str  # the relation's name
    relation: Relation
    outgoing: bool  # the edge leaves the node asked about
    optional: bool  # the reference is marked optional in the API (optional: true)


def _edges(graph: nx.MultiDiGraph, node: str) -> Iterator[_Edge]:
    """Every edge of the node, seen from the node."""
    specs = relations()
    for _, target, data in graph.out_edges(node, data=True):
        rel = data.get("relation", "")
        yield _Edge(target, rel, specs.get(rel, _UNKNOWN), True, bool(data.get("optional", False)))
    for source, _, data in graph.in_edges(node, data=True):
        rel = data.get("relation", "")
        yield _Edge(source, rel, specs.get(rel, _UNKNOWN), False, bool(data.get("optional", False)))


def impact(graph: nx.MultiDiGraph, key: str) -> Reach:
    """What breaks if `key` goes: everything that depends on it, transitively, with one path each.

    The object itself is deleted; what is garbage-collected with it (owned objects, pods of a
    deleted node) is `deleted` too, everything depending on a deleted or degraded object is
    `degraded` (pods mounting a ConfigMap, then their controllers, Services selecting them...).
    """
    root = resolve_key(graph, key)
    effect = {root: DELETED}
    paths: dict[str, tuple[Step, ...]] = {root: (Step(root, "", True),)}
    queue = deque([root])
    while queue:
        node = queue.popleft()
        gone = effect[node] == DELETED
        for other, name, rel, outgoing, optional in _edges(graph, node):
            other_depends = (rel.dependent == "target") == outgoing
            if other_depends and optional:
                continue  # an optional reference: its holder works without the object
            if other_depends and rel.cascade:
                # Only a deleted object takes its owned objects (or its node's pods) with it; a
                # degraded ReplicaSet does not harm its other pods.
                if not gone:
                    continue
                new = DELETED
            elif other_depends:
                new = DEGRADED
            elif rel.mutual:
                new = DEGRADED  # the owner of a failing object is degraded
            else:
                continue
            known = effect.get(other)
            if known is None or (known == DEGRADED and new == DELETED):
                effect[other] = new
                paths[other] = (*paths[node], Step(other, name, outgoing))
                queue.append(other)
    return _reach(graph, root, "impact", effect, paths)


def dependencies(graph: nx.MultiDiGraph, key: str) -> Reach:
    """What `key` needs, transitively, with one path each: what it references and their needs,
    its owners up to the top (not what they need besides), and for a controller what it owns."""
    root = resolve_key(graph, key)
    descend = {root: True}
    effect = {root: REQUIRED}
    paths: dict[str, tuple[Step, ...]] = {root: (Step(root, "", True),)}
    queue = deque([root])
    while queue:
        node = queue.popleft()
        for other, name, rel, outgoing, optional in _edges(graph, node):
            node_depends = (rel.dependent == "source") == outgoing
            if not descend[node] and not (node_depends and rel.mutual):
                continue  # above the start, only further owners: not the owner's other needs
            if node_depends:
                may = descend[node] and not rel.mutual  # up to an owner ends the way down
            elif rel.mutual:
                may = True  # a controller needs what it owns
            else:
                continue
            known = descend.get(other)
            if known is None or (not known and may):
                descend[other] = may
                effect[other] = OPTIONAL if optional or effect[node] == OPTIONAL else REQUIRED
                paths[other] = (*paths[node], Step(other, name, outgoing))
                queue.append(other)
    return _reach(graph, root, "dependencies", effect, paths)


def _reach(graph: nx.MultiDiGraph, root: str, query: Literal["impact", "dependencies"],
           effect: dict[str, str], paths: dict[str, tuple[Step, ...]]) -> Reach:
    affected = []
    for node, path in paths.items():
        if node == root:
            continue
        a = graph.nodes[node]
        affected.append(Affected(node, str(a.get("kind", "")), str(a.get("namespace", "")),
                                 str(a.get("name", "")), str(a.get("state", "")), effect[node], path))
    affected.sort(key=lambda a: (a.depth, a.node))
    return Reach(root, query, tuple(affected))


# -- orphans and dangling references ---------------------------------------------------


@cache
def _expected_unused() -> tuple[list[dict[str, str]], frozenset[str]]:
    text = resources.files("analyzer.graph").joinpath("orphans.yaml").read_text(encoding="utf-8")
    data = load_yaml(text)
    return data["names"], frozenset(data["secret_types"])


def _expected(attrs: dict) -> bool:
    names, secret_types = _expected_unused()
    if attrs.get("kind") == "Secret" and attrs.get("type") in secret_types:
        return True
    for entry in names:
        if entry["kind"] != attrs.get("kind"):
            continue
        if "namespace" in entry and entry["namespace"] != attrs.get("namespace"):
            continue
        if fnmatchcase(str(attrs.get("name", "")), entry["name"]):
            return True
    return False


def _used(graph: nx.MultiDiGraph, node: str) -> bool:
    """Whether some edge makes another object depend on this one."""
    return any((e.relation.dependent == "target") == e.outgoing for e in _edges(graph, node))


def orphans(graph: nx.MultiDiGraph, kinds: str | tuple[str, ...] = DEFAULT_ORPHAN_KINDS) -> pd.DataFrame:
    """Objects of `kinds` that nothing uses (skipping ones unused by design, see orphans.yaml).

    Empty when the dump did not collect Pods: without them nothing can be called unused.
    """
    columns = ["node", "kind", "namespace", "name", "created"]
    collected = set(str(graph.graph.get("collected_kinds", "")).split(","))
    if "Pod" not in collected:
        return pd.DataFrame([], columns=columns)
    wanted = {kinds} if isinstance(kinds, str) else set(kinds)
    rows = [
        {c: (node if c == "node" else attrs.get(c, "")) for c in columns}
        for node, attrs in graph.nodes(data=True)
        if attrs.get("kind") in wanted and attrs.get("state") == PRESENT
        and not _expected(attrs) and not _used(graph, node)
    ]
    return pd.DataFrame(sorted(rows, key=lambda r: r["node"]), columns=columns)


def dangling(graph: nx.MultiDiGraph) -> pd.DataFrame:
    """References to objects that the dump should hold (their kind was collected) but does not.

    One row per reference: referrer, relation, via, optional, and the missing object.
    References to kinds the dump never collected (`not_collected`) are not dangling.
    """
    columns = ["referrer", "relation", "via", "optional", "missing", "kind", "namespace", "name"]
    rows = []
    for node, attrs in graph.nodes(data=True):
        if attrs.get("state") != MISSING:
            continue
        for source, target, data in [*graph.in_edges(node, data=True), *graph.out_edges(node, data=True)]:
            rows.append({
                "referrer": source if target == node else target,
                "relation": data.get("relation", ""), "via": data.get("via", ""),
                "optional": bool(data.get("optional", False)), "missing": node,
                "kind": attrs.get("kind", ""), "namespace": attrs.get("namespace", ""),
                "name": attrs.get("name", ""),
            })
    rows.sort(key=lambda r: (r["missing"], r["referrer"], r["relation"]))
    return pd.DataFrame(rows, columns=columns)


# -- views -----------------------------------------------------------------------------


def collapse_pods(graph: nx.MultiDiGraph, within: set[str] | None = None) -> nx.MultiDiGraph:
    """A smaller graph for diagrams: pods, ReplicaSets, Jobs and ControllerRevisions folded into
    their top controller (pod -> ReplicaSet -> Deployment), with a `count` of what was folded
    (`pods` of them pods) on nodes and a `count` of merged edges on edges.

    With `within`, of the subgraph of those nodes (and the edges among them) without making it:
    the same graph as collapsing that subgraph."""
    # The edges read once (a subgraph view filters every lookup), and who owns what from them:
    # following in-edges pod by pod would cost a pass over the view per pod.
    # (From networkx's storage, in the order edges(data=True) gives: its views cost a call per edge.)
    all_nodes, succ_of = graph._node, graph._succ
    node_attrs = all_nodes if within is None else {n: a for n, a in all_nodes.items() if n in within}
    if within is None:
        edges = [(source, target, data) for source, targets in succ_of.items()
                 for target, keyed in targets.items() for data in keyed.values()]
    else:
        edges = [(source, target, data) for source in node_attrs
                 for target, keyed in succ_of[source].items() if target in within
                 for data in keyed.values()]
    owners: dict[str, list[tuple[bool, str]]] = defaultdict(list)
    for source, target, data in edges:
        if data.get("relation") == "owns":
            owners[target].append((data.get("via") != "controller", source))
    into = {node: _top_owner(owners, node) for node, attrs in node_attrs.items()
            if attrs.get("kind") in COLLAPSED_KINDS}
    collapsed = nx.MultiDiGraph()
    collapsed.graph.update(graph.graph)
    # networkx's storage filled as add_node and add_edges_from fill it, without their overhead
    # per call (a 5,000-node cluster's kube-system folds into 5,000 nodes and 12,000 edges);
    # tests/graph/test_graph_queries.py checks the result equals what they build.
    nodes, succ, pred = collapsed._node, collapsed._succ, collapsed._pred
    for node, attrs in node_attrs.items():
        if into.get(node, node) == node:
            nodes[node] = {**attrs, "count": 1, "pods": int(attrs.get("kind") == "Pod")}
            succ[node] = {}
            pred[node] = {}
    for node, top in into.items():
        if top != node:
            nodes[top]["count"] += 1
            nodes[top]["pods"] += int(all_nodes[node].get("kind") == "Pod")
    merged: dict[tuple[str, str, str], dict] = {}
    for source, target, data in edges:
        s, t = into.get(source, source), into.get(target, target)
        if s == t:
            continue
        rel = data.get("relation", "")
        key = (s, t, rel)
        found = merged.get(key)
        if found is not None:
            found["count"] += 1
            found["optional"] = found["optional"] and bool(data.get("optional", False))
        else:
            merged[key] = {"relation": rel, "via": data.get("via", ""),
                           "optional": bool(data.get("optional", False)), "count": 1}
    for (s, t, rel), attrs in sorted(merged.items()):
        keyed = succ[s].get(t)
        if keyed is None:
            keyed = succ[s][t] = pred[t][s] = {}
        keyed[rel] = attrs
    nx._clear_cache(collapsed)
    return collapsed


def _top_owner(owners: dict[str, list[tuple[bool, str]]], node: str) -> str:
    """The top of a node's owner chain: a controller owner before any other, then by name."""
    seen = {node}
    current = node
    while True:
        candidates = owners.get(current)
        if not candidates:
            return current
        first = min(candidates)[1]
        if first in seen:
            return current
        current = first
        seen.add(current)


def namespace_subgraph(graph: nx.MultiDiGraph, namespace: str) -> nx.MultiDiGraph:
    """The objects of one namespace, plus the cluster-scoped objects they touch."""
    inside = {n for n, ns in graph.nodes(data="namespace") if ns == namespace}
    touched = {
        other
        for node in inside
        for other in (*graph.successors(node), *graph.predecessors(node))
        if graph.nodes[other].get("namespace") == ""
    }
    return graph.subgraph(inside | touched).copy()


def reach_subgraph(graph: nx.MultiDiGraph, reach: Reach) -> nx.MultiDiGraph:
    """The subgraph of a query's answer: its root, the nodes reached, and the edges among them.

    Nodes also carry `effect` (deleted/degraded, required/optional; `start` for the root) and
    `depth` (steps from the root), so a diagram can colour what a loss does.
    """
    sub = graph.subgraph({reach.root, *reach.nodes}).copy()
    sub.nodes[reach.root].update(effect="start", depth=0)
    for a in reach:
        sub.nodes[a.node].update(effect=a.effect, depth=a.depth)
    return sub
