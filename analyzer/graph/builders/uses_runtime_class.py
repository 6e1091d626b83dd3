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
    refs = (
        (held.node, "", held.spec.runtimeClassName, "spec.runtimeClassName")
        for held in ctx.pod_specs
        if held.spec.runtimeClassName
    )
    ctx.link_each("RuntimeClass", RELATION.name, refs)
