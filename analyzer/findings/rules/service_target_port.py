"""Service targetPorts naming a port that no selected container declares (certainly broken)."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import ev
from analyzer.findings.service_ports import port_targets
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="service-target-port", title="Service targetPort names a port its pods do not have", severity="critical",
    category="networking", requires=("Service", "Pod"),
    message="Service {namespace}/{name} port {port} targets {target}, which none of its {pods} selected pod(s) declare ({declared})",
    remediation="Name a port the containers declare, or declare that port name in the pod template; a named targetPort that resolves to nothing gets no endpoints.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    for t in port_targets(cluster):
        # Numbers are service-target-port-undeclared's (containers may listen undeclared);
        # a named targetPort resolves only through declared ports, whose names a describe
        # does not print.
        if t.named and t.names_known and t.target not in t.names:
            yield RULE.fail(t.service, ev(t.service, f"spec.ports[{t.index}].targetPort", t.target, t.declared),
                            port=t.port, target=t.target, pods=t.pods, declared=t.declared)
