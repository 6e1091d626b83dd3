"""Ingress backends naming a Service the namespace does not have."""

from __future__ import annotations

import re
from collections.abc import Iterator

from analyzer.findings.coverage import namespace_coverage, not_listed_reason
from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import ev
from analyzer.findings.types import Finding, RuleMeta
from analyzer.model.ingress_backends import backends

RULE = RuleMeta(
    id="ingress-missing-service", title="Ingress routes to a missing Service", severity="critical",
    category="networking", requires=("Ingress",),
    message="Ingress {namespace}/{name} routes {host}{path} to Service {service}, which does not exist in {namespace}",
    remediation="Create the Service or fix the backend's service name; the controller answers 503 for this path.",
)


# What `kubectl describe ingress` prints beside a backend whose Endpoints it could not get: the
# endpoints controller keeps one for every Service with a selector, so none means no such Service
# (or one without a selector and no Endpoints of its own): the controller has nothing to send to.
_NOT_FOUND = re.compile(r'^<error: endpoints "(?P<name>[a-z0-9][a-z0-9.-]*)" not found>$')


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    coverage = namespace_coverage(cluster, "Service")
    if not coverage.listed:
        told = list(_told_by_describe(cluster, coverage))
        yield from told or [RULE.not_applicable(not_listed_reason(coverage)) if cluster.covers("Service")
                            else RULE.not_applicable("the dump did not collect Service", missing="Service")]
        return
    services = {(s.namespace, s.name) for s in cluster.objects_of("Service")}
    for ing in cluster.objects_of("Ingress"):
        if not coverage.covers(ing.namespace):
            continue
        for field, host, path, service in backends(ing.view.spec or {}, ing.view.metadata.annotations):
            if (ing.namespace, service) not in services:
                yield RULE.fail(ing, ev(ing, field, service, f"a Service in {ing.namespace}"),
                                host=host, path=path, service=service)


def _told_by_describe(cluster: AnalyzedDump, coverage) -> Iterator[Finding]:
    """Without a listing of the namespace's Services, the backends an Ingress's describe showed
    with kubectl's `<error: endpoints "NAME" not found>` (its stand-in `default-http-backend` of
    an Ingress with no default backend is none of the object's: not read as a backend)."""
    for ing in cluster.objects_of("Ingress"):
        text = ing.view.text
        shown = (text.backend_endpoints if text is not None else None) or {}
        if not shown or coverage.covers(ing.namespace):
            continue
        for field, host, path, service in backends(ing.view.spec or {}, ing.view.metadata.annotations):
            said = shown.get(service, "")
            if (m := _NOT_FOUND.match(said)) is None or m.group("name") != service:
                continue
            yield RULE.fail(ing, ev(ing, field, f"{service} ({said})", f"a Service in {ing.namespace} with endpoints"),
                            host=host, path=path, service=service)
