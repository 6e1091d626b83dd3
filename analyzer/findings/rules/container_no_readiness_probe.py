"""Long-running application containers without a readiness probe."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.cluster import Cluster
from analyzer.findings.containers import TABLES, judged_containers, pod_index
from analyzer.findings.facts import container_path, ev
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="container-no-readiness-probe", title="Container without a readiness probe", severity="info",
    category="configuration", requires=("Pod",), tables=TABLES,
    message="Pod {namespace}/{name}: container {container} has no readiness probe",
    remediation="Add a readinessProbe so the Service only sends traffic to containers that can answer.",
)


def check(cluster: Cluster) -> Iterator[Finding]:
    pods = pod_index(cluster)
    rows = judged_containers(cluster)
    # Run-to-completion pods (Jobs) need no probes.
    no_probe = rows["readiness_probe"].eq(False).fillna(False)
    rows = rows[no_probe & rows["owner_kind"].astype("string").ne("Job").fillna(True)]
    for row in rows.itertuples(index=False):
        pod = pods[(row.namespace, row.pod)]
        yield RULE.fail(pod, ev(pod, f"{container_path(row.container_type, row.name)}.readinessProbe", None, "a probe"),
                        container=row.name)
