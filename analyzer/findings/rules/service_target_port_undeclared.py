"""Numeric Service targetPorts that no selected container declares (it may still listen there)."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.cluster import Cluster
from analyzer.findings.coverage import namespace_coverage
from analyzer.findings.facts import ev, knows_container_specs, pods_by_namespace, selected_pods
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="service-target-port-undeclared", title="Service targetPort not declared by its pods", severity="info",
    category="networking", requires=("Service", "Pod"),
    message="Service {namespace}/{name} port {port} targets {target}, which none of its {pods} selected pod(s) declare ({declared}); check the containers listen there",
    remediation="Declaring ports is optional, so this may be fine: confirm the container listens on the targetPort, and declare it in the pod template to make that visible.",
)


def check(cluster: Cluster) -> Iterator[Finding]:
    coverage = namespace_coverage(cluster, "Pod")
    pods = pods_by_namespace(cluster)
    for svc in cluster.objects_of("Service"):
        spec = svc.view.spec
        if not spec.selector or spec.type == "ExternalName" or not coverage.covers(svc.namespace):
            continue
        selected = [p for p in selected_pods(svc, pods) if knows_container_specs(p)]
        if not selected:
            continue
        names, numbers, every_container_declares = set(), set(), True
        for pod in selected:
            for c in pod.view.spec.containers or ():
                if not c.ports:
                    every_container_declares = False
                for p in c.ports or ():
                    numbers.add(p.containerPort)
                    if p.name:
                        names.add(p.name)
        for i, port in enumerate(spec.ports or ()):
            target = port.targetPort if port.targetPort is not None else port.port
            if isinstance(target, str) and not target.isdigit():
                continue  # names: service-target-port
            if not every_container_declares:
                continue  # a container declaring no port at all says nothing about what it listens on
            exposed = int(target) in numbers
            if not exposed:
                declared = ", ".join(sorted({*map(str, numbers), *names})) or "no ports"
                yield RULE.fail(svc, ev(svc, f"spec.ports[{i}].targetPort", target, declared),
                                port=port.port, target=target, pods=len(selected), declared=declared)
