"""LoadBalancer Services the cloud has not given an address (EXTERNAL-IP <pending>)."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import ev
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="service-lb-pending", title="LoadBalancer without an ingress address", severity="warning",
    category="networking", requires=("Service",),
    message="Service {namespace}/{name} is type LoadBalancer but has no load balancer address",
    remediation="Read the Service's events (SyncLoadBalancerFailed): cloud quota, subnet/annotation errors, or no cloud controller (bare metal needs MetalLB or similar).",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    for svc in cluster.objects_of("Service"):
        if svc.view.spec.type != "LoadBalancer":
            continue
        if svc.view.text is not None:  # a pasted table: the EXTERNAL-IP column
            external = str((svc.view.text.columns or {}).get("EXTERNAL-IP", ""))
            if external == "<pending>":
                yield RULE.fail(svc, ev(svc, "EXTERNAL-IP column", external, "an address"))
            continue
        lb = svc.view.status.loadBalancer
        if not (lb and lb.ingress):
            yield RULE.fail(svc, ev(svc, "status.loadBalancer.ingress", None, "an IP or hostname"))
