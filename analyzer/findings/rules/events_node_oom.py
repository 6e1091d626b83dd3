"""Kernel OOM kills on nodes (from events), with how long before the capture they last fired."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.events import node_findings_for_reasons
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="events-node-oom", title="Kernel OOM kills on nodes", severity="warning",
    category="events", requires=("Event",),
    message="{object}: {reason} {count} time(s), {first}last {age}: {last_message}",
    remediation="The node ran out of memory: set memory requests/limits close to real use and reserve memory for the system (kubeReserved/systemReserved).",
)
REASONS = frozenset({"OOMKilling", "SystemOOM"})


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    # (one SystemOOM row quoted alone, From `kubelet, <host>`, is that node's: mdn/infra#178)
    return node_findings_for_reasons(cluster, RULE, REASONS)
