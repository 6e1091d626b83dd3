"""The dependency graph: objects as nodes, references between them as edges with a relation.

Node ids are `ObjectKey.id` (`group/kind/namespace/name`). A reference to an object the dump
does not hold becomes a placeholder node whose `state` is `missing` when the dump collected
that kind and `not_collected` when it did not; objects of the dump are `present`.

Edges point from the object that needs to the object needed (pod -> ConfigMap), except
`owns` (owner -> owned) and `grants` (binding -> subject), where the target is the one that
depends. `impact()` walks against the dependency; `cascade` relations delete the dependent
with its dependency, `mutual` ones also degrade the owner when what it owns fails:

>>> for name, row in relation_table().iterrows():
...     print(f"{name:20} {row.dependent:7} {'cascade' if row.cascade else '':8}{'mutual' if row.mutual else ''}")
owns                 target  cascade mutual
selects              source
scheduled_on         source  cascade
mirror_of            source  cascade
mounts               source
reads                source
runs_as              source
pulls_with           source
routes_to            source
exposes              source
backend              source
attached_to          source
uses_class           source
uses_tls_secret      source
claims               source
provisioned_by       source
binds                source
grants               target
served_by            source
uses_priority_class  source
uses_runtime_class   source
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from analyzer.collector import collector_paused
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

    from analyzer.model.dump import ModeledDump

__all__ = [
    "MISSING", "NODE_ATTRIBUTES", "NOT_COLLECTED", "PRESENT", "Reach", "Relation", "Step",
    "build_graph", "collapse_pods", "dangling", "dependencies", "impact", "namespace_subgraph",
    "orphans", "reach_subgraph", "relation_table", "relations", "resolve_key",
]


def relation_table() -> pd.DataFrame:
    """Every relation, indexed by name: source and target kinds, which end depends, how loss spreads."""
    rows = [
        {"relation": r.name, "source": r.source, "target": r.target, "dependent": r.dependent,
         "cascade": r.cascade, "mutual": r.mutual, "description": r.description}
        for r in relations().values()
    ]
    return pd.DataFrame(rows).set_index("relation")


def build_graph(cluster: ModeledDump) -> nx.MultiDiGraph:
    """The dependency graph of a cluster: every object, every reference, one edge per relation."""
    # The graph's dicts hold no reference cycles; with a big dump in memory, the collector's
    # full passes over it would cost more than the building (as in ingestion).
    with collector_paused():
        graph = _built(cluster)
    return graph


def _built(cluster: ModeledDump) -> nx.MultiDiGraph:
    # (its own frame: the context's indices are freed before the collector is back on, so the
    # collection that resumes does not walk them)
    ctx = GraphContext(cluster)
    for builder in builders():
        builder.build(ctx)
    return ctx.to_graph()
