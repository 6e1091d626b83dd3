"""Privileged application containers (full access to the host)."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.containers import TABLES, container_rows, judged_containers, pod_index
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
    pods = pod_index(cluster)
    rows = judged_containers(cluster, types=("init", "container", "ephemeral"), finished=True)
    for row in container_rows(rows[rows["privileged"].fillna(False).astype(bool)]):
        pod = pods[(row.namespace, row.pod)]
        yield RULE.fail(pod, ev(pod, f"{container_path(row.container_type, row.name)}.securityContext.privileged", True, False),
                        container=row.name)
