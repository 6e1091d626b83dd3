"""Objects referring to a ConfigMap the dump does not hold, where the dump collected ConfigMaps (graph: state missing)."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.references import missing_references
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="ref-missing-configmap", title="Refers to a missing ConfigMap", severity="critical",
    category="references", requires=("ConfigMap",),
    message="{object} refers to ConfigMap {ref_name}, which is not in the dump although ConfigMaps were collected ({where})",
    remediation="Create the ConfigMap (or mark the reference optional); the pod cannot start while a required ConfigMap is missing.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    yield from missing_references(cluster, RULE, "ConfigMap")
