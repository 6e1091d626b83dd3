"""`served_by`: APIServices, admission webhooks and CRD conversion webhooks to their Service."""

from __future__ import annotations

from analyzer.graph.context import GraphContext
from analyzer.graph.relations import Relation

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
        service = (api.view.spec or {}).get("service")
        _add(ctx, ctx.node_of(api), service, "spec.service")
    for config in ctx.objects("MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"):
        for hook in config.view.webhooks or ():
            service = (hook.get("clientConfig") or {}).get("service")
            _add(ctx, ctx.node_of(config), service, f"webhook {hook.get('name', '')}")
    for crd in ctx.objects("CustomResourceDefinition"):
        webhook = ((crd.view.spec or {}).get("conversion") or {}).get("webhook") or {}
        service = (webhook.get("clientConfig") or {}).get("service")
        _add(ctx, ctx.node_of(crd), service, "conversion webhook")


def _add(ctx: GraphContext, src: str, service: object, via: str) -> None:
    if isinstance(service, dict) and service.get("name"):
        ctx.edge(src, ctx.ref("Service", service.get("namespace") or "", service["name"]), RELATION.name, via=via)
