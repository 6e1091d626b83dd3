"""`uses_class`: an Ingress to its IngressClass, a Gateway to its GatewayClass."""

from __future__ import annotations

from analyzer.graph.context import GraphContext
from analyzer.graph.relations import Relation
from analyzer.graph.shapes import mapping, text

RELATION = Relation(
    name="uses_class",
    source="Ingress, Gateway",
    target="IngressClass, GatewayClass (cluster-scoped)",
    description="Ingress spec.ingressClassName, Gateway spec.gatewayClassName; object -> class. "
    "The class names the controller that serves it (the legacy kubernetes.io/ingress.class "
    "annotation names a controller, not an object, and is no edge).",
)


def build(ctx: GraphContext) -> None:
    """Add Ingress -> IngressClass and Gateway -> GatewayClass."""
    for ing in ctx.objects("Ingress"):
        name = text(mapping(ing.view.spec).get("ingressClassName"))
        if name:
            ctx.edge(ctx.node_of(ing), ctx.ref("IngressClass", "", name), RELATION.name, "spec.ingressClassName")
    for gw in ctx.objects("Gateway"):
        name = text(mapping(gw.body().get("spec")).get("gatewayClassName"))
        if name:
            ctx.edge(ctx.node_of(gw), ctx.ref("GatewayClass", "", name), RELATION.name, "spec.gatewayClassName")
