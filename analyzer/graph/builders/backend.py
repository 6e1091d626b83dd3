"""`backend`: Gateway API routes (HTTPRoute, GRPCRoute, TCP/TLS/UDP routes) to their backend Services."""

from __future__ import annotations

from analyzer.graph.context import GraphContext
from analyzer.graph.relations import Relation

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
        for rule in (spec or {}).get("rules") or ():
            for ref in rule.get("backendRefs") or ():
                kind = ref.get("kind") or "Service"
                group = ref.get("group", "")
                ns = ref.get("namespace") or route.namespace
                ctx.edge(src, ctx.ref(kind, ns, ref.get("name", ""), group=group), RELATION.name, via="backendRefs")
