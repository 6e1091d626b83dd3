"""NodePorts outside the default service-node-port-range (30000-32767)."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import ev
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="service-nodeport-range", title="NodePort outside the default range", severity="info",
    category="networking", requires=("Service",),
    message="Service {namespace}/{name} uses nodePort {node_port}, outside the default range {low}-{high}",
    remediation="Unless the API server runs with a custom --service-node-port-range, use a port in 30000-32767 (or let Kubernetes pick one).",
)
LOW, HIGH = 30000, 32767


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    for svc in cluster.objects_of("Service"):
        for i, port in enumerate(svc.view.spec.ports or ()):
            if port.nodePort and not LOW <= port.nodePort <= HIGH:
                yield RULE.fail(svc, ev(svc, f"spec.ports[{i}].nodePort", port.nodePort, f"{LOW}-{HIGH}"),
                                node_port=port.nodePort, low=LOW, high=HIGH)
