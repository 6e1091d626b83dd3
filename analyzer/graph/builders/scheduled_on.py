"""`scheduled_on`: a pod to the node it was bound to."""

from __future__ import annotations

from analyzer.graph.context import GraphContext
from analyzer.graph.relations import Relation

RELATION = Relation(
    name="scheduled_on",
    source="Pod",
    target="Node",
    description="spec.nodeName; pod -> node. Pods bound to a node that is deleted are "
    "garbage-collected (PodGC), so the pod goes with its node.",
    cascade=True,
)


def build(ctx: GraphContext) -> None:
    """Add pod -> node for every pod with a nodeName."""
    refs = ((node, "", pod.view.spec.nodeName, "spec.nodeName") for node, pod in ctx.with_nodes("Pod"))
    ctx.link_each("Node", RELATION.name, refs)
