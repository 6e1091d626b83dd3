"""The dependency graph: objects as nodes, references between them as edges with a relation.

Node ids are `ObjectKey.id` (`group/kind/namespace/name`). A reference to an object the dump
does not hold becomes a placeholder node whose `state` is `missing` when the dump collected
that kind and `not_collected` when it did not; objects of the dump are `present`.
"""

from __future__ import annotations

import gc
from typing import TYPE_CHECKING

from analyzer.graph.builders import builders, relations
from analyzer.graph.context import MISSING, NODE_ATTRIBUTES, NOT_COLLECTED, PRESENT, GraphContext
from analyzer.graph.queries import (
    Reach,
    Step,
    collapse_pods,
    dangling,
    dependencies,
    impact,
    namespace_subgraph,
    orphans,
    reach_subgraph,
    resolve_key,
)
from analyzer.graph.relations import Relation

if TYPE_CHECKING:
    import networkx as nx

    from analyzer.cluster import Cluster

__all__ = [
    "MISSING", "NODE_ATTRIBUTES", "NOT_COLLECTED", "PRESENT", "Reach", "Relation", "Step",
    "build_graph", "collapse_pods", "dangling", "dependencies", "impact", "namespace_subgraph",
    "orphans", "reach_subgraph", "relations", "resolve_key",
]


def build_graph(cluster: Cluster) -> nx.MultiDiGraph:
    """The dependency graph of a cluster: every object, every reference, one edge per relation."""
    # The graph's dicts hold no reference cycles; with a big dump in memory, the collector's
    # full passes over it would cost more than the building (as in ingestion).
    enabled = gc.isenabled()
    gc.disable()
    try:
        ctx = GraphContext(cluster)
        for builder in builders():
            builder.build(ctx)
        return ctx.to_graph()
    finally:
        if enabled:
            gc.enable()
