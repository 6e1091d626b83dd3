"""`exposes`: an Ingress to the Services its rules and default backend send traffic to."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from analyzer.graph.context import GraphContext
from analyzer.graph.relations import Relation

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
        for service, via in ingress_backends(ing.view.spec or {}):
            ctx.edge(src, ctx.ref("Service", ing.namespace, service), RELATION.name, via=via)


def ingress_backends(spec: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """(service name, where) of every backend of an Ingress spec.

    >>> list(ingress_backends({"rules": [{"host": "a", "http": {"paths": [{"path": "/", "backend": {"serviceName": "web"}}]}}]}))
    [('web', 'rule a /')]
    """
    default = spec.get("defaultBackend") or spec.get("backend")
    if isinstance(default, dict) and _service(default):
        yield _service(default), "default backend"
    for rule in spec.get("rules") or ():
        host = rule.get("host") or "*"
        for path in (rule.get("http") or {}).get("paths") or ():
            name = _service(path.get("backend") or {})
            if name:
                yield name, f"rule {host} {path.get('path') or '/'}"


def _service(backend: dict[str, Any]) -> str:
    service = backend.get("service")
    if isinstance(service, dict):
        return service.get("name") or ""
    return backend.get("serviceName") or ""
