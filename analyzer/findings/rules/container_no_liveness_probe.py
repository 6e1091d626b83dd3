"""Long-running application containers without a liveness probe."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.cluster import Cluster
from analyzer.findings.containers import TABLES, judged_containers, pod_index
from analyzer.findings.facts import container_path, ev
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="container-no-liveness-probe", title="Container without a liveness probe", severity="info",
    category="configuration", requires=("Pod",), tables=TABLES,
    message="Pod {namespace}/{name}: container {container} has no liveness probe",
    remediation="Add a livenessProbe so the kubelet restarts the container when it hangs (keep it cheap and independent of dependencies).",
)


def check(cluster: Cluster) -> Iterator[Finding]:
    pods = pod_index(cluster)
    rows = judged_containers(cluster)
    # Run-to-completion pods (Jobs) need no probes.
    no_probe = rows["liveness_probe"].eq(False).fillna(False)
    rows = rows[no_probe & rows["owner_kind"].astype("string").ne("Job").fillna(True)]
    for row in rows.itertuples(index=False):
        pod = pods[(row.namespace, row.pod)]
        yield RULE.fail(pod, ev(pod, f"{container_path(row.container_type, row.name)}.livenessProbe", None, "a probe"),
                        container=row.name)
