"""The edge builders, one module per relation, registered here and checked when loaded.

Each module defines `RELATION` (an `analyzer.graph.relations.Relation`) and
`build(ctx: GraphContext) -> None`; adding a relation adds a module and its name below.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from analyzer.graph.relations import Relation

if TYPE_CHECKING:
    from analyzer.graph.context import GraphContext

# Build order matters only for readability of debugging output: edges are sorted at the end.
BUILDER_MODULES = (
    "owns", "selects", "scheduled_on", "mirror_of", "mounts", "reads", "runs_as",
    "pulls_with", "routes_to", "exposes", "backend", "attached_to", "uses_class",
    "uses_tls_secret", "claims", "provisioned_by", "binds", "grants", "served_by",
    "uses_priority_class", "uses_runtime_class",
)


@dataclass(frozen=True, slots=True)
class Builder:
    """A relation and the function that adds its edges."""

    relation: Relation
    build: Callable[[GraphContext], None]


@cache
def builders() -> tuple[Builder, ...]:
    """Every registered builder, validated: one module per relation, names unique and matching."""
    loaded: list[Builder] = []
    seen: set[str] = set()
    for module_name in BUILDER_MODULES:
        module = importlib.import_module(f"{__name__}.{module_name}")
        relation = getattr(module, "RELATION", None)
        build = getattr(module, "build", None)
        if not isinstance(relation, Relation) or not callable(build):
            raise TypeError(f"graph builder {module_name}: needs RELATION and build(ctx)")
        if relation.name != module_name:
            raise ValueError(f"graph builder {module_name}: declares relation {relation.name!r}")
        if relation.name in seen:
            raise ValueError(f"graph relation {relation.name!r} registered twice")
        seen.add(relation.name)
        loaded.append(Builder(relation, build))
    return tuple(loaded)


def relations() -> dict[str, Relation]:
    """Relation name -> Relation, for every registered builder."""
    return {b.relation.name: b.relation for b in builders()}
