"""Objects referring to a PersistentVolumeClaim the dump does not hold, where the dump collected PersistentVolumeClaims (graph: state missing)."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.references import missing_references
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="ref-missing-pvc", title="Refers to a missing PersistentVolumeClaim", severity="critical",
    category="references", requires=("PersistentVolumeClaim",),
    message="{object} refers to PersistentVolumeClaim {ref_name}, which is not in the dump although PersistentVolumeClaims were collected ({where})",
    remediation="Create the PersistentVolumeClaim; the pod stays Pending until its claim exists and binds.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    yield from missing_references(cluster, RULE, "PersistentVolumeClaim")
