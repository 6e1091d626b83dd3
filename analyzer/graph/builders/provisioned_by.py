"""`provisioned_by`: volumes and claims to their StorageClass."""

from __future__ import annotations

from analyzer.graph.context import GraphContext
from analyzer.graph.relations import Relation
from analyzer.graph.shapes import text

RELATION = Relation(
    name="provisioned_by",
    source="PersistentVolume, PersistentVolumeClaim",
    target="StorageClass (cluster-scoped)",
    description="spec.storageClassName or the older volume.beta.kubernetes.io/storage-class "
    "annotation; \"\" means no class and is no edge; volume/claim -> class.",
)

BETA_ANNOTATION = "volume.beta.kubernetes.io/storage-class"


def build(ctx: GraphContext) -> None:
    """Add PV/PVC -> StorageClass."""
    for obj in ctx.objects("PersistentVolume", "PersistentVolumeClaim"):
        name = obj.view.spec.storageClassName
        via = "spec.storageClassName"
        if name is None:
            name = text((obj.view.metadata.annotations or {}).get(BETA_ANNOTATION))
            via = BETA_ANNOTATION
        if name:
            ctx.edge(ctx.node_of(obj), ctx.ref("StorageClass", "", name), RELATION.name, via)
