"""Application containers without a memory limit (one leak can starve the node)."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.containers import TABLES, container_rows, judged_containers, pod_index
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
    pods = pod_index(cluster)
    rows = judged_containers(cluster)
    for row in container_rows(rows[rows["memory_limit"].isna()]):
        pod = pods[(row.namespace, row.pod)]
        yield RULE.fail(pod, ev(pod, f"{container_path(row.container_type, row.name)}.resources.limits.memory",
                                None, "a memory limit"), container=row.name)
