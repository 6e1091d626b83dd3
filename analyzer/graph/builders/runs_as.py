"""`runs_as`: a pod to its ServiceAccount ("default" when the spec names none)."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.graph.context import GraphContext, PodSpecOf
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
    ctx.link_each("ServiceAccount", RELATION.name, _accounts(ctx.pod_specs))


def _accounts(specs: list[PodSpecOf]) -> Iterator[tuple[str, str, str, str]]:
    for held in specs:
        name = held.spec.serviceAccountName or held.spec.serviceAccount
        if name:
            yield held.node, held.namespace, name, "spec.serviceAccountName"
        else:
            yield held.node, held.namespace, "default", "default"
