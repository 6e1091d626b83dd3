"""Ingress backends naming a Service the namespace does not have."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from analyzer.findings.coverage import namespace_coverage, not_listed_reason
from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import ev
from analyzer.findings.types import Finding, RuleMeta
from analyzer.model.ingressactions import action_annotation, action_services
from analyzer.model.normalize import as_dict, as_list

RULE = RuleMeta(
    id="ingress-missing-service", title="Ingress routes to a missing Service", severity="critical",
    category="networking", requires=("Ingress", "Service"),
    message="Ingress {namespace}/{name} routes {host}{path} to Service {service}, which does not exist in {namespace}",
    remediation="Create the Service or fix the backend's service name; the controller answers 503 for this path.",
)


def backends(spec: dict[str, Any], annotations: dict[str, Any] | None = None) -> Iterator[tuple[str, str, str, str]]:
    """(field path, host, path, service name) of every backend, in both API shapes; an AWS Load
    Balancer Controller action (port `use-annotation`) stands for the Services it forwards to.

    >>> list(backends({"rules": [{"host": "a", "http": {"paths": [{"path": "/", "backend": {"serviceName": "s"}}]}}]}))
    [('spec.rules[0].http.paths[0].backend', 'a', '/', 's')]
    """
    # (an Ingress's spec is untyped in its view: a hand-edited one may hold anything anywhere,
    # and only a backend that names a Service as text names one)
    spec = as_dict(spec)
    default = as_dict(spec.get("defaultBackend") or spec.get("backend"))
    for field, name in _services(default, "spec.defaultBackend", annotations):
        yield field, "*", "", name
    for i, rule in enumerate(as_list(spec.get("rules"))):
        rule = as_dict(rule)
        for j, path in enumerate(as_list(as_dict(rule.get("http")).get("paths"))):
            path = as_dict(path)
            for field, name in _services(as_dict(path.get("backend")), f"spec.rules[{i}].http.paths[{j}].backend",
                                         annotations):
                yield field, str(rule.get("host") or "*"), str(path.get("path") or "/"), name


def _services(backend: dict[str, Any], field: str, annotations: dict[str, Any] | None) -> Iterator[tuple[str, str]]:
    """(field path, Service name) of the Services a backend sends to: the one it names, or those
    of the ALB action it names when the Ingress has that action's annotation
    (kubernetes-sigs/aws-load-balancer-controller#232: `ssl-redirect:use-annotation`)."""
    name = as_dict(backend.get("service")).get("name") or backend.get("serviceName")
    if not isinstance(name, str) or not name:
        return
    port = as_dict(as_dict(backend.get("service")).get("port")).get("name") or backend.get("servicePort")
    action = action_annotation(annotations, name, port)
    if action is None:
        yield field, name
        return
    for forwarded in action_services((annotations or {})[action]):
        yield f"metadata.annotations[{action}]", forwarded


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    coverage = namespace_coverage(cluster, "Service")
    if not coverage.listed:
        yield RULE.not_applicable(not_listed_reason(coverage))
        return
    services = {(s.namespace, s.name) for s in cluster.objects_of("Service")}
    for ing in cluster.objects_of("Ingress"):
        if not coverage.covers(ing.namespace):
            continue
        for field, host, path, service in backends(ing.view.spec or {}, ing.view.metadata.annotations):
            if (ing.namespace, service) not in services:
                yield RULE.fail(ing, ev(ing, field, service, f"a Service in {ing.namespace}"),
                                host=host, path=path, service=service)
