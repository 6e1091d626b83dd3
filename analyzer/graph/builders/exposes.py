"""`exposes`: an Ingress to the Services its rules and default backend send traffic to."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from analyzer.graph.context import GraphContext
from analyzer.graph.relations import Relation
from analyzer.graph.shapes import mapping
from analyzer.model.ingress_backends import backends

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
    """(service name, where) of every backend of an Ingress spec (`model.ingress_backends`).

    >>> list(ingress_backends({"rules": [{"host": "a", "http": {"paths": [{"path": "/", "backend": {"serviceName": "web"}}]}}]}))
    [('web', 'rule a /')]
    """
    for _field, host, path, service in backends(spec, annotations):
        yield service, "default backend" if not path else f"rule {host} {path}"
