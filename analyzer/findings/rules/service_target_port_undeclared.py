"""Numeric Service targetPorts that no selected container declares (it may still listen there)."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import ev
from analyzer.findings.service_ports import port_targets
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="service-target-port-undeclared", title="Service targetPort not declared by its pods", severity="info",
    category="networking", requires=("Service", "Pod"),
    message="Service {namespace}/{name} port {port} targets {target}, which none of its {pods} selected pod(s) declare ({declared}); check the containers listen there",
    remediation="Declaring ports is optional, so this may be fine: confirm the container listens on the targetPort, and declare it in the pod template to make that visible.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    for t in port_targets(cluster):
        # Names are service-target-port's; a container declaring no port at all says nothing
        # about what it listens on.
        if t.named or not t.every_container_declares:
            continue
        if int(t.target) not in t.numbers:
            yield RULE.fail(t.service, ev(t.service, f"spec.ports[{t.index}].targetPort", t.target, t.declared),
                            port=t.port, target=t.target, pods=t.pods, declared=t.declared)
