"""Objects referring to a PriorityClass the dump does not hold, where the dump collected PriorityClasses (graph: state missing)."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.references import missing_references
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="ref-missing-priorityclass", title="Refers to a missing PriorityClass", severity="warning",
    category="references", requires=("PriorityClass",),
    message="{object} refers to PriorityClass {ref_name}, which is not in the dump although PriorityClasses were collected ({where})",
    remediation="Create the PriorityClass; new pods naming a missing class are rejected at admission.",
)

# Built into every API server, never listed as objects in some dumps.
BUILTIN = frozenset({"system-cluster-critical", "system-node-critical"})


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    yield from missing_references(cluster, RULE, "PriorityClass", BUILTIN)
