"""Objects referring to a Secret the dump does not hold, where the dump collected Secrets (graph: state missing)."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.references import missing_references
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="ref-missing-secret", title="Refers to a missing Secret", severity="critical",
    category="references", requires=("Secret",),
    message="{object} refers to Secret {ref_name}, which is not in the dump although Secrets were collected ({where})",
    remediation="Create the Secret (or mark the reference optional); pods fail with CreateContainerConfigError or cannot mount/pull without it.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    yield from missing_references(cluster, RULE, "Secret")
