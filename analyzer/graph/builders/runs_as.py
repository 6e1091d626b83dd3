"""`runs_as`: a pod to its ServiceAccount ("default" when the spec names none)."""

from __future__ import annotations

from analyzer.graph.context import GraphContext
from analyzer.graph.relations import Relation

RELATION = Relation(
    name="runs_as",
    source="Pod, and workloads/CronJobs through their pod template",
    target="ServiceAccount",
    description="spec.serviceAccountName (or the deprecated serviceAccount), else the "
    "namespace's `default` account, which admission assigns; pod -> account.",
)


def build(ctx: GraphContext) -> None:
    """Add holder -> ServiceAccount for every pod spec."""
    for held in ctx.pod_specs:
        name = held.spec.serviceAccountName or held.spec.serviceAccount
        via = "spec.serviceAccountName" if name else "default"
        ctx.link(held.node, "ServiceAccount", held.namespace, name or "default", RELATION.name, via)
