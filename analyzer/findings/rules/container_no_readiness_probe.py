"""Long-running application containers without a readiness probe."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.containers import TABLES, containers_without_probe
from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="container-no-readiness-probe", title="Container without a readiness probe", severity="info",
    category="configuration", requires=("Pod",), tables=TABLES,
    message="Pod {namespace}/{name}: container {container} has no readiness probe",
    remediation="Add a readinessProbe so the Service only sends traffic to containers that can answer.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    return containers_without_probe(cluster, RULE, "readiness_probe", "readinessProbe")
