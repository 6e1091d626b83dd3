"""`exposes`: an Ingress to the Services its rules and default backend send traffic to."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from analyzer.graph.context import GraphContext
from analyzer.graph.relations import Relation
from analyzer.graph.shapes import mapping, mappings, text

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
        for service, via in ingress_backends(mapping(ing.view.spec)):
            ctx.edge(src, ctx.ref("Service", ing.namespace, service), RELATION.name, via)


def ingress_backends(spec: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """(service name, where) of every backend of an Ingress spec.

    >>> list(ingress_backends({"rules": [{"host": "a", "http": {"paths": [{"path": "/", "backend": {"serviceName": "web"}}]}}]}))
    [('web', 'rule a /')]
    """
    default = mapping(spec.get("defaultBackend") or spec.get("backend"))
    if _service(default):
        yield _service(default), "default backend"
    for rule in mappings(spec.get("rules")):
        host = text(rule.get("host")) or "*"
        for path in mappings(mapping(rule.get("http")).get("paths")):
            name = _service(mapping(path.get("backend")))
            if name:
                yield name, f"rule {host} {text(path.get('path')) or '/'}"


def _service(backend: dict[str, Any]) -> str:
    service = backend.get("service")
    if isinstance(service, dict):
        return text(service.get("name"))
    return text(backend.get("serviceName"))
