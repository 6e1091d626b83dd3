"""Service targetPorts naming a port that no selected container declares (certainly broken)."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.cluster import Cluster
from analyzer.findings.coverage import namespace_coverage
from analyzer.findings.facts import ev, knows_container_specs, pods_by_namespace, selected_pods
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="service-target-port", title="Service targetPort names a port its pods do not have", severity="critical",
    category="networking", requires=("Service", "Pod"),
    message="Service {namespace}/{name} port {port} targets {target}, which none of its {pods} selected pod(s) declare ({declared})",
    remediation="Name a port the containers declare, or declare that port name in the pod template; a named targetPort that resolves to nothing gets no endpoints.",
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
        names, numbers = set(), set()
        for pod in selected:
            for c in pod.view.spec.containers or ():
                for p in c.ports or ():
                    numbers.add(p.containerPort)
                    if p.name:
                        names.add(p.name)
        for i, port in enumerate(spec.ports or ()):
            target = port.targetPort if port.targetPort is not None else port.port
            if not isinstance(target, str) or target.isdigit():
                continue  # numbers: service-target-port-undeclared (containers may listen undeclared)
            exposed = target in names  # a named targetPort resolves only through declared ports
            if not exposed:
                declared = ", ".join(sorted({*map(str, numbers), *names})) or "no ports"
                yield RULE.fail(svc, ev(svc, f"spec.ports[{i}].targetPort", target, declared),
                                port=port.port, target=target, pods=len(selected), declared=declared)
