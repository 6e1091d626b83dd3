"""Privileged application containers (full access to the host)."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.alike import replica_groups, said_for_replicas
from analyzer.findings.containers import TABLES, judged_containers, pod_containers
from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import container_path, ev
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="container-privileged", title="Privileged container outside system namespaces", severity="warning",
    category="configuration", requires=("Pod",), tables=TABLES,
    message="Pod {namespace}/{name}: container {container} runs privileged",
    remediation="Drop privileged: true; grant only the capabilities the container needs (securityContext.capabilities.add).",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    rows = judged_containers(cluster, types=("init", "container", "ephemeral"), finished=True)
    privileged = pod_containers(cluster, rows[rows["privileged"].fillna(False).astype(bool)])
    for pod, (kind, name), others, controller in replica_groups(cluster, privileged):
        yield said_for_replicas(RULE.fail(pod, ev(pod, f"{container_path(kind, name)}.securityContext.privileged", True, False),
                                          container=name), others, controller)
