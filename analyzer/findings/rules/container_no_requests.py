"""Application containers without CPU or memory requests (the scheduler places them blind)."""

from __future__ import annotations

from collections.abc import Iterator

import pandas as pd

from analyzer.findings.containers import TABLES, container_rows, judged_containers, pod_index
from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import container_path, ev
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="container-no-requests", title="Container without resource requests", severity="warning",
    category="configuration", requires=("Pod",), tables=TABLES,
    message="Pod {namespace}/{name}: container {container} has no {missing} request",
    remediation="Set cpu and memory requests close to the container's real usage; without them the pod is BestEffort/Burstable and the first to be evicted.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    pods = pod_index(cluster)
    rows = judged_containers(cluster)
    # Only rows missing a request and its limit of one resource can fail (most set both).
    unset = ((rows["cpu_request"].isna() & rows["cpu_limit"].isna())
             | (rows["memory_request"].isna() & rows["memory_limit"].isna()))
    for row in container_rows(rows[unset], "cpu_request", "cpu_limit", "memory_request", "memory_limit"):
        # A limit without a request defaults the request to the limit.
        missing = [r for r, req, lim in (("cpu", row.cpu_request, row.cpu_limit),
                                          ("memory", row.memory_request, row.memory_limit))
                   if pd.isna(req) and pd.isna(lim)]
        if missing:
            pod = pods[(row.namespace, row.pod)]
            yield RULE.fail(pod, ev(pod, f"{container_path(row.container_type, row.name)}.resources.requests",
                                    None, "cpu and memory"),
                            container=row.name, missing=" and ".join(missing))
