"""`claims`: a PersistentVolumeClaim to the PersistentVolume bound to it."""

from __future__ import annotations

from analyzer.graph.context import GraphContext
from analyzer.graph.relations import Relation

RELATION = Relation(
    name="claims",
    source="PersistentVolumeClaim",
    target="PersistentVolume (cluster-scoped)",
    description="PVC spec.volumeName, and a PV's spec.claimRef for claims that do not say; "
    "claim -> volume.",
)


def build(ctx: GraphContext) -> None:
    """Add PVC -> PV from both sides of the binding."""
    for pvc in ctx.objects("PersistentVolumeClaim"):
        if pvc.view.spec.volumeName:
            node = ctx.ref("PersistentVolume", "", pvc.view.spec.volumeName)
            ctx.edge(ctx.node_of(pvc), node, RELATION.name, "spec.volumeName")
    for pv in ctx.objects("PersistentVolume"):
        ref = pv.view.spec.claimRef
        if ref is not None and ref.name and (ref.kind or "PersistentVolumeClaim") == "PersistentVolumeClaim":
            claim = ctx.ref("PersistentVolumeClaim", ref.namespace or "", ref.name)
            ctx.edge(claim, ctx.node_of(pv), RELATION.name, "claimRef")
