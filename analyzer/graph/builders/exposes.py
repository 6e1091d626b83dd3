"""`exposes`: an Ingress to the Services its rules and default backend send traffic to."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from analyzer.graph.context import GraphContext
from analyzer.graph.relations import Relation
from analyzer.graph.shapes import mapping, mappings, text
from analyzer.model.ingressactions import action_annotation, action_services

RELATION = Relation(
    name="exposes",
    source="Ingress",
    target="Service (same namespace)",
    description="spec.defaultBackend/backend and spec.rules[].http.paths[].backend, in both "
    "API shapes (networking.k8s.io/v1 service.name, extensions/v1beta1 serviceName); ingress -> service.",
)


def build(ctx: GraphContext) -> None:
    """Add ingress -> Service for every backend."""
    for ing in ctx.objects("Ingress"):
        src = ctx.node_of(ing)
        for service, via in ingress_backends(mapping(ing.view.spec), ing.view.metadata.annotations):
            ctx.edge(src, ctx.ref("Service", ing.namespace, service), RELATION.name, via)


def ingress_backends(spec: dict[str, Any], annotations: dict[str, Any] | None = None) -> Iterator[tuple[str, str]]:
    """(service name, where) of every backend of an Ingress spec; an AWS Load Balancer
    Controller action (port `use-annotation`) stands for the Services it forwards to.

    >>> list(ingress_backends({"rules": [{"host": "a", "http": {"paths": [{"path": "/", "backend": {"serviceName": "web"}}]}}]}))
    [('web', 'rule a /')]
    """
    for name in _services(mapping(spec.get("defaultBackend") or spec.get("backend")), annotations):
        yield name, "default backend"
    for rule in mappings(spec.get("rules")):
        host = text(rule.get("host")) or "*"
        for path in mappings(mapping(rule.get("http")).get("paths")):
            for name in _services(mapping(path.get("backend")), annotations):
                yield name, f"rule {host} {text(path.get('path')) or '/'}"


def _services(backend: dict[str, Any], annotations: dict[str, Any] | None) -> list[str]:
    """The Services a backend sends to: the one it names, or those its ALB action forwards to."""
    service = backend.get("service")
    if isinstance(service, dict):
        name, port = text(service.get("name")), mapping(service.get("port")).get("name")
    else:
        name, port = text(backend.get("serviceName")), backend.get("servicePort")
    if not name:
        return []
    action = action_annotation(annotations, name, port)
    return [name] if action is None else action_services((annotations or {})[action])
