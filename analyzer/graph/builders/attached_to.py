"""`attached_to`: Gateway API routes to the Gateways (parentRefs) they attach to."""

from __future__ import annotations

from analyzer.graph.builders.backend import ROUTE_KINDS
from analyzer.graph.context import GraphContext
from analyzer.graph.relations import Relation
from analyzer.graph.shapes import mapping, mappings, text

RELATION = Relation(
    name="attached_to",
    source="HTTPRoute, GRPCRoute, TCPRoute, TLSRoute, UDPRoute",
    target="Gateway (another namespace when the ref names one)",
    description="spec.parentRefs[] (kind defaults to Gateway); route -> gateway. A route whose "
    "gateway is gone receives no traffic.",
)


def build(ctx: GraphContext) -> None:
    """Add route -> parent Gateway for every parentRef."""
    for route in ctx.objects(*ROUTE_KINDS):
        spec = getattr(route.view, "spec", None)
        if spec is None:  # kinds without a view of their own: read the full body
            spec = route.body().get("spec")
        for ref in mappings(mapping(spec).get("parentRefs")):
            kind = text(ref.get("kind")) or "Gateway"
            group = text(ref.get("group")) or "gateway.networking.k8s.io"
            ns = text(ref.get("namespace")) or route.namespace
            node = ctx.ref(kind, ns, text(ref.get("name")), group=group)
            ctx.edge(ctx.node_of(route), node, RELATION.name, "parentRefs")
