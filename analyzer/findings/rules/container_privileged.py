"""Privileged application containers (full access to the host), Windows HostProcess containers
among them (they run on the host itself, with its access)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from analyzer.findings.alike import replica_groups, said_for_replicas
from analyzer.findings.containers import TABLES, judged_containers, pod_containers
from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import container_path, ev
from analyzer.findings.types import Finding, RuleMeta

if TYPE_CHECKING:
    from analyzer.ingest.records import KubeObject

RULE = RuleMeta(
    id="container-privileged", title="Privileged container outside system namespaces", severity="warning",
    category="configuration", requires=("Pod",), tables=TABLES,
    message="Pod {namespace}/{name}: container {container} {how}",
    remediation="Drop privileged: true (or windowsOptions.hostProcess: true); grant only the capabilities the container needs (securityContext.capabilities.add).",
)
_SPECS = {"init": "initContainers", "container": "containers", "ephemeral": "ephemeralContainers"}


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    rows = judged_containers(cluster, types=("init", "container", "ephemeral"), finished=True)
    privileged = pod_containers(cluster, rows[rows["privileged"].fillna(False).astype(bool)])
    for pod, (kind, name), others, controller in replica_groups(cluster, privileged):
        field, how = _why(pod, kind, name)
        yield said_for_replicas(RULE.fail(pod, ev(pod, field, True, False), container=name, how=how),
                                others, controller)


def _why(pod: KubeObject, kind: str, name: str) -> tuple[str, str]:
    """The field that makes the container privileged, and how the message says it."""
    path = container_path(kind, name)
    spec = next((c for c in getattr(pod.view.spec, _SPECS.get(kind, "containers")) or () if c.name == name), None)
    sc = spec.securityContext if spec is not None else None
    if sc is not None and sc.privileged:
        return f"{path}.securityContext.privileged", "runs privileged"
    how = "runs as a Windows HostProcess container (on the host, with the host's access)"
    if sc is not None and sc.windowsOptions is not None and sc.windowsOptions.hostProcess:
        return f"{path}.securityContext.windowsOptions.hostProcess", how
    psc = pod.view.spec.securityContext
    if psc is not None and psc.windowsOptions is not None and psc.windowsOptions.hostProcess:
        return "spec.securityContext.windowsOptions.hostProcess", how
    return f"{path}.securityContext.privileged", "runs privileged"
