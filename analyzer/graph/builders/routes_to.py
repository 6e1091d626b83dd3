"""`routes_to`: Endpoints and EndpointSlices to the pods they list; a Service to its endpoints."""

from __future__ import annotations

from analyzer.graph.context import GraphContext
from analyzer.graph.relations import Relation
from analyzer.graph.shapes import text

RELATION = Relation(
    name="routes_to",
    source="Service, Endpoints, EndpointSlice",
    target="Endpoints/EndpointSlice (from a Service), Pod (from endpoints, by targetRef)",
    description="Service -> its Endpoints (same name) and EndpointSlices (label "
    "kubernetes.io/service-name); endpoints -> the targetRef of each address, ready or not.",
)

SERVICE_NAME_LABEL = "kubernetes.io/service-name"


def build(ctx: GraphContext) -> None:
    """Add Service -> endpoints and endpoints -> targets."""
    for ep in ctx.objects("Endpoints"):
        src = ctx.node_of(ep)
        for subset in ep.view.subsets or ():
            for addresses, ready in ((subset.addresses, True), (subset.notReadyAddresses, False)):
                for address in addresses or ():
                    _target(ctx, src, ep.namespace, address.targetRef, "ready" if ready else "not ready")
    for eps in ctx.objects("EndpointSlice"):
        src = ctx.node_of(eps)
        for endpoint in eps.view.endpoints or ():
            cond = endpoint.conditions
            ready = cond is None or cond.ready is None or cond.ready
            _target(ctx, src, eps.namespace, endpoint.targetRef, "ready" if ready else "not ready")
        service = text((eps.view.metadata.labels or {}).get(SERVICE_NAME_LABEL))
        if service:
            ctx.edge(ctx.ref("Service", eps.namespace, service), src, RELATION.name, SERVICE_NAME_LABEL)
    for svc in ctx.objects("Service"):
        spec = svc.view.spec
        # The endpoints controller keeps an Endpoints object for every Service with a selector;
        # without one, an Endpoints object exists only if someone wrote it.
        expected = bool(spec.selector) and spec.type != "ExternalName"
        exists = ctx.exists("Endpoints", svc.namespace, svc.name)
        if exists or (expected and ctx.covers("Endpoints", svc.namespace)):
            ctx.edge(ctx.node_of(svc), ctx.ref("Endpoints", svc.namespace, svc.name), RELATION.name, "same name")


def _target(ctx: GraphContext, src: str, namespace: str, ref: object, via: str) -> None:
    if ref is None or not getattr(ref, "name", None):
        return
    ns = getattr(ref, "namespace", None) or namespace
    ctx.edge(src, ctx.ref(getattr(ref, "kind", None) or "Pod", ns, ref.name), RELATION.name, via)
