"""`uses_tls_secret`: an Ingress or a Gateway listener to the Secret holding its certificate."""

from __future__ import annotations

from analyzer.graph.context import GraphContext
from analyzer.graph.relations import Relation
from analyzer.graph.shapes import mapping, mappings, text

RELATION = Relation(
    name="uses_tls_secret",
    source="Ingress, Gateway",
    target="Secret",
    description="Ingress spec.tls[].secretName, Gateway spec.listeners[].tls.certificateRefs[]; "
    "holder -> secret. Without it the controller serves a default certificate or drops the host.",
)


def build(ctx: GraphContext) -> None:
    """Add Ingress/Gateway -> Secret for every TLS certificate reference."""
    for ing in ctx.objects("Ingress"):
        for tls in mappings(mapping(ing.view.spec).get("tls")):
            if text(tls.get("secretName")):
                node = ctx.ref("Secret", ing.namespace, tls["secretName"])
                ctx.edge(ctx.node_of(ing), node, RELATION.name, "spec.tls")
    for gw in ctx.objects("Gateway"):
        for listener in mappings(mapping(gw.body().get("spec")).get("listeners")):
            for ref in mappings(mapping(listener.get("tls")).get("certificateRefs")):
                ns = text(ref.get("namespace")) or gw.namespace
                node = ctx.ref(text(ref.get("kind")) or "Secret", ns, text(ref.get("name")), group=text(ref.get("group")))
                ctx.edge(ctx.node_of(gw), node, RELATION.name, f"listener {text(listener.get('name'))}")
