"""`served_by`: APIServices, admission webhooks and CRD conversion webhooks to their Service."""

from __future__ import annotations

from analyzer.graph.context import GraphContext
from analyzer.graph.relations import Relation
from analyzer.graph.shapes import mapping, mappings, text

RELATION = Relation(
    name="served_by",
    source="APIService, MutatingWebhookConfiguration, ValidatingWebhookConfiguration, "
    "CustomResourceDefinition",
    target="Service",
    description="APIService spec.service, webhooks[].clientConfig.service, CRD "
    "spec.conversion.webhook.clientConfig.service; config -> service. When that Service has no "
    "ready pods, API calls through it fail cluster-wide (metrics API, admission).",
)


def build(ctx: GraphContext) -> None:
    """Add APIService/webhook configuration/CRD -> Service."""
    for api in ctx.objects("APIService"):
        service = mapping(api.view.spec).get("service")
        _add(ctx, ctx.node_of(api), service, "spec.service")
    for config in ctx.objects("MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"):
        for hook in mappings(config.view.webhooks):
            service = mapping(hook.get("clientConfig")).get("service")
            _add(ctx, ctx.node_of(config), service, f"webhook {text(hook.get('name'))}")
    for crd in ctx.objects("CustomResourceDefinition"):
        webhook = mapping(mapping(mapping(crd.view.spec).get("conversion")).get("webhook"))
        service = mapping(webhook.get("clientConfig")).get("service")
        _add(ctx, ctx.node_of(crd), service, "conversion webhook")


def _add(ctx: GraphContext, src: str, service: object, via: str) -> None:
    if isinstance(service, dict) and text(service.get("name")):
        ctx.edge(src, ctx.ref("Service", text(service.get("namespace")), service["name"]), RELATION.name, via)
