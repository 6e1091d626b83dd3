"""`backend`: Gateway API routes (HTTPRoute, GRPCRoute, TCP/TLS/UDP routes) to their backend Services."""

from __future__ import annotations

from analyzer.graph.context import GraphContext
from analyzer.graph.relations import Relation
from analyzer.graph.shapes import mapping, mappings, text

RELATION = Relation(
    name="backend",
    source="HTTPRoute, GRPCRoute, TCPRoute, TLSRoute, UDPRoute",
    target="Service (backendRefs; another namespace when the ref names one)",
    description="spec.rules[].backendRefs[] (kind defaults to Service); route -> backend.",
)

ROUTE_KINDS = ("HTTPRoute", "GRPCRoute", "TCPRoute", "TLSRoute", "UDPRoute")


def build(ctx: GraphContext) -> None:
    """Add route -> backend for every backendRef."""
    for route in ctx.objects(*ROUTE_KINDS):
        spec = getattr(route.view, "spec", None)
        if spec is None:  # kinds without a view of their own: read the full body
            spec = route.body().get("spec")
        src = ctx.node_of(route)
        for rule in mappings(mapping(spec).get("rules")):
            for ref in mappings(rule.get("backendRefs")):
                kind = text(ref.get("kind")) or "Service"
                ns = text(ref.get("namespace")) or route.namespace
                node = ctx.ref(kind, ns, text(ref.get("name")), group=text(ref.get("group")))
                ctx.edge(src, node, RELATION.name, "backendRefs")
