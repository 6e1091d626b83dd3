"""Objects referring to a ServiceAccount the dump does not hold, where the dump collected ServiceAccounts (graph: state missing)."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.references import missing_references
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="ref-missing-serviceaccount", title="Refers to a missing ServiceAccount", severity="critical",
    category="references", requires=("ServiceAccount",),
    message="{object} refers to ServiceAccount {ref_name}, which is not in the dump although ServiceAccounts were collected ({where})",
    remediation="Create the ServiceAccount in the pod's namespace; the API server rejects new pods that name a missing one.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    yield from missing_references(cluster, RULE, "ServiceAccount")
