"""`uses_runtime_class`: a pod to the RuntimeClass its spec names."""

from __future__ import annotations

from analyzer.graph.context import GraphContext
from analyzer.graph.relations import Relation

RELATION = Relation(
    name="uses_runtime_class",
    source="Pod, and workloads/CronJobs through their pod template",
    target="RuntimeClass (cluster-scoped)",
    description="spec.runtimeClassName; pod -> class (gVisor, Kata, Windows handlers...).",
)


def build(ctx: GraphContext) -> None:
    """Add holder -> RuntimeClass."""
    for held in ctx.pod_specs:
        name = held.spec.runtimeClassName
        if name:
            ctx.link(held.node, "RuntimeClass", "", name, RELATION.name, "spec.runtimeClassName")
