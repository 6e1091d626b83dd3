"""Who owns whom, as the dependency graph's `owns` relation says (ownerReferences, or names for
objects read from pasted tables): a controller's pods, a pod's controllers."""

from __future__ import annotations

from typing import TYPE_CHECKING

from analyzer.findings.facts import objects_by_identity
from analyzer.memo import once_per

if TYPE_CHECKING:
    from analyzer.findings.dump import AnalyzedDump
    from analyzer.ingest.records import KubeObject


@once_per
def _index(cluster: AnalyzedDump) -> tuple[dict[tuple[str, str, str], str], dict[str, KubeObject]]:
    """(kind, namespace, name) -> graph node, and graph node -> object (built once per cluster)."""
    graph = cluster.graph
    objects = objects_by_identity(cluster)
    ids, back = {}, {}
    for node, attrs in graph.nodes(data=True):
        key = (attrs.get("kind"), attrs.get("namespace") or "", attrs.get("name"))
        ids[key] = node
        if key in objects:
            back[node] = objects[key]
    return ids, back


def owned_pods(cluster: AnalyzedDump, controller: KubeObject, depth: int = 2) -> list[KubeObject]:
    """The pods a controller owns, directly or through its ReplicaSets or Jobs."""
    ids, back = _index(cluster)
    node = ids.get((controller.kind, controller.namespace, controller.name))
    if node is None:
        return []
    graph, pods, frontier = cluster.graph, [], [node]
    for _ in range(depth):
        below = [t for n in frontier for _, t, rel in graph.out_edges(n, keys=True) if rel == "owns"]
        pods += [back[t] for t in below if t in back and back[t].kind == "Pod"]
        frontier = [t for t in below if t in back and back[t].kind != "Pod"]
    return pods


def owners(cluster: AnalyzedDump, obj: KubeObject, depth: int = 2) -> list[KubeObject]:
    """The object's owners upwards (its ReplicaSet, then that one's Deployment)."""
    ids, back = _index(cluster)
    node = ids.get((obj.kind, obj.namespace, obj.name))
    graph, chain = cluster.graph, []
    for _ in range(depth):
        if node is None:
            break
        node = next((s for s, _, rel in graph.in_edges(node, keys=True) if rel == "owns"), None)
        if node in back:
            chain.append(back[node])
    return chain
