"""`pulls_with`: image pull secrets of pods and of ServiceAccounts."""

from __future__ import annotations

from analyzer.graph.context import GraphContext
from analyzer.graph.relations import Relation

RELATION = Relation(
    name="pulls_with",
    source="Pod (and pod templates), ServiceAccount",
    target="Secret",
    description="spec.imagePullSecrets of a pod, imagePullSecrets of a ServiceAccount "
    "(added to every pod that runs as it); holder -> secret. Without it, pulls from a private "
    "registry fail (ImagePullBackOff).",
)


def build(ctx: GraphContext) -> None:
    """Add holder -> Secret for each image pull secret."""
    refs = (
        (held.node, held.namespace, ref.name, "spec.imagePullSecrets")
        for held in ctx.pod_specs
        for ref in held.spec.imagePullSecrets or ()
    )
    ctx.link_each("Secret", RELATION.name, refs)
    for sa in ctx.objects("ServiceAccount"):
        for ref in sa.view.imagePullSecrets or ():
            if ref.name:
                node = ctx.ref("Secret", sa.namespace, ref.name)
                ctx.edge(ctx.node_of(sa), node, RELATION.name, "imagePullSecrets")
