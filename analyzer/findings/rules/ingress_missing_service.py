"""Ingress backends naming a Service the namespace does not have."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.coverage import namespace_coverage, not_listed_reason
from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import ev
from analyzer.findings.types import Finding, RuleMeta
from analyzer.model.ingress_backends import backends

RULE = RuleMeta(
    id="ingress-missing-service", title="Ingress routes to a missing Service", severity="critical",
    category="networking", requires=("Ingress", "Service"),
    message="Ingress {namespace}/{name} routes {host}{path} to Service {service}, which does not exist in {namespace}",
    remediation="Create the Service or fix the backend's service name; the controller answers 503 for this path.",
)


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
