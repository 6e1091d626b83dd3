"""`uses_priority_class`: a pod to the PriorityClass its spec names."""

from __future__ import annotations

from analyzer.graph.context import GraphContext
from analyzer.graph.relations import Relation

RELATION = Relation(
    name="uses_priority_class",
    source="Pod, and workloads/CronJobs through their pod template",
    target="PriorityClass (cluster-scoped)",
    description="spec.priorityClassName; pod -> class. Admission rejects new pods naming a "
    "class that does not exist.",
)


def build(ctx: GraphContext) -> None:
    """Add holder -> PriorityClass."""
    refs = (
        (held.node, "", held.spec.priorityClassName, "spec.priorityClassName")
        for held in ctx.pod_specs
        if held.spec.priorityClassName
    )
    ctx.link_each("PriorityClass", RELATION.name, refs)
