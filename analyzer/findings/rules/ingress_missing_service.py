"""Ingress backends naming a Service the namespace does not have."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from analyzer.findings.coverage import namespace_coverage, not_listed_reason
from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import ev
from analyzer.findings.types import Finding, RuleMeta
from analyzer.model.normalize import as_dict, as_list

RULE = RuleMeta(
    id="ingress-missing-service", title="Ingress routes to a missing Service", severity="critical",
    category="networking", requires=("Ingress", "Service"),
    message="Ingress {namespace}/{name} routes {host}{path} to Service {service}, which does not exist in {namespace}",
    remediation="Create the Service or fix the backend's service name; the controller answers 503 for this path.",
)


def backends(spec: dict[str, Any]) -> Iterator[tuple[str, str, str, str]]:
    """(field path, host, path, service name) of every backend, in both API shapes.

    >>> list(backends({"rules": [{"host": "a", "http": {"paths": [{"path": "/", "backend": {"serviceName": "s"}}]}}]}))
    [('spec.rules[0].http.paths[0].backend', 'a', '/', 's')]
    """
    # (an Ingress's spec is untyped in its view: a hand-edited one may hold anything anywhere,
    # and only a backend that names a Service as text names one)
    spec = as_dict(spec)
    default = as_dict(spec.get("defaultBackend") or spec.get("backend"))
    name = _service_name(default)
    if name:
        yield "spec.defaultBackend", "*", "", name
    for i, rule in enumerate(as_list(spec.get("rules"))):
        rule = as_dict(rule)
        for j, path in enumerate(as_list(as_dict(rule.get("http")).get("paths"))):
            path = as_dict(path)
            name = _service_name(as_dict(path.get("backend")))
            if name:
                yield (f"spec.rules[{i}].http.paths[{j}].backend", str(rule.get("host") or "*"),
                       str(path.get("path") or "/"), name)


def _service_name(backend: dict[str, Any]) -> str | None:
    """The Service a backend names (networking.k8s.io/v1's service.name, or the older serviceName)."""
    name = as_dict(backend.get("service")).get("name") or backend.get("serviceName")
    return name if isinstance(name, str) and name else None


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    coverage = namespace_coverage(cluster, "Service")
    if not coverage.listed:
        yield RULE.not_applicable(not_listed_reason(coverage))
        return
    services = {(s.namespace, s.name) for s in cluster.objects_of("Service")}
    for ing in cluster.objects_of("Ingress"):
        if not coverage.covers(ing.namespace):
            continue
        for field, host, path, service in backends(ing.view.spec or {}):
            if (ing.namespace, service) not in services:
                yield RULE.fail(ing, ev(ing, field, service, f"a Service in {ing.namespace}"),
                                host=host, path=path, service=service)
