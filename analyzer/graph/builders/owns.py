"""`owns`: ownerReferences, from the owner to the object it owns (deleted with it)."""

from __future__ import annotations

from analyzer.graph.context import GraphContext
from analyzer.graph.relations import Relation

RELATION = Relation(
    name="owns",
    source="any owner (Deployment, ReplicaSet, DaemonSet, Job, CronJob, Service, custom resources)",
    target="the owned object",
    description="metadata.ownerReferences; owner -> owned. The owned object is garbage-collected "
    "with its owner, and the owner is degraded when what it owns fails.",
    dependent="target",
    cascade=True,
    mutual=True,
)


def build(ctx: GraphContext) -> None:
    """Add owner -> owned for every ownerReference (a pod's Node owner is `mirror_of`)."""
    for owned, obj in ctx.all_with_nodes():
        refs = obj.view.metadata.ownerReferences
        if not refs:
            continue
        is_pod = obj.key.kind == "Pod"
        for ref in refs:
            if is_pod and ref.kind == "Node":
                continue
            owner = ctx.by_uid(ref.uid) or ctx.ref(ref.kind, obj.namespace, ref.name, ref.apiVersion)
            ctx.edge(owner, owned, RELATION.name, "controller" if ref.controller else "owner")
