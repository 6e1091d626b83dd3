"""Application containers without a memory limit (one leak can starve the node)."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.alike import replica_groups, said_for_replicas
from analyzer.findings.containers import TABLES, judged_containers, pod_containers
from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import container_path, ev
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="container-no-memory-limit", title="Container without a memory limit", severity="info",
    category="configuration", requires=("Pod",), tables=TABLES,
    message="Pod {namespace}/{name}: container {container} has no memory limit",
    remediation="Set a memory limit (memory is not compressible: without a limit a leaking container pushes the node into MemoryPressure).",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    rows = judged_containers(cluster)
    unlimited = pod_containers(cluster, rows[rows["memory_limit"].isna()])
    for pod, (kind, name), others, controller in replica_groups(cluster, unlimited):
        yield said_for_replicas(RULE.fail(pod, ev(pod, f"{container_path(kind, name)}.resources.limits.memory",
                                                  None, "a memory limit"), container=name), others, controller)
