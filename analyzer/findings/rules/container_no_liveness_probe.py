"""Long-running application containers without a liveness probe."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.containers import TABLES, containers_without_probe
from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="container-no-liveness-probe", title="Container without a liveness probe", severity="info",
    category="configuration", requires=("Pod",), tables=TABLES,
    message="Pod {namespace}/{name}: container {container} has no liveness probe",
    remediation="Add a livenessProbe so the kubelet restarts the container when it hangs (keep it cheap and independent of dependencies).",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    return containers_without_probe(cluster, RULE, "liveness_probe", "livenessProbe")
