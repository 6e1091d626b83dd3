"""Each Service port's target beside the ports its selected pods declare: what the two
targetPort rules (named and numeric) both read."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from analyzer.findings.coverage import namespace_coverage
from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import knows_container_specs, pods_by_namespace, selected_pods
from analyzer.ingest.records import KubeObject
from analyzer.memo import once_per


@dataclass(frozen=True, slots=True)
class PortTarget:
    """One Service port and what the pods behind it declare."""

    service: KubeObject
    index: int  # position in spec.ports, for the evidence's field path
    port: int | None
    target: Any  # targetPort (or port): a number or a port name
    pods: int  # selected pods whose container specs the dump holds
    names: frozenset[str]
    numbers: frozenset[int]
    every_container_declares: bool
    # whether the dump holds the selected pods' port names (`kubectl describe pod` prints
    # "Ports: 80/TCP, 443/TCP", never their names)
    names_known: bool = True

    @property
    def declared(self) -> str:
        return ", ".join(sorted({*map(str, self.numbers), *self.names})) or "no ports"

    @property
    def named(self) -> bool:
        return isinstance(self.target, str) and not self.target.isdigit()


def port_targets(cluster: AnalyzedDump) -> Iterator[PortTarget]:
    """Every port of every selector Service whose namespace's pods were collected and that
    selects at least one pod with known containers (found once per cluster: two rules read them)."""
    return iter(_found_port_targets(cluster))


@once_per
def _found_port_targets(cluster: AnalyzedDump) -> tuple[PortTarget, ...]:
    return tuple(_port_targets(cluster))


def _port_targets(cluster: AnalyzedDump) -> Iterator[PortTarget]:
    coverage = namespace_coverage(cluster, "Pod")
    pods = pods_by_namespace(cluster)
    for svc in cluster.objects_of("Service"):
        spec = svc.view.spec
        if not spec.selector or spec.type == "ExternalName" or not coverage.covers(svc.namespace):
            continue
        selected = [p for p in selected_pods(svc, pods) if knows_container_specs(p)]
        if not selected:
            continue
        names: set[str] = set()
        numbers: set[int] = set()
        every_container_declares = True
        names_known = not any(p.view.text is not None and p.view.text.described for p in selected)
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
            yield PortTarget(svc, i, port.port, target, len(selected), frozenset(names),
                             frozenset(numbers), every_container_declares, names_known)
