"""Controllers or kubelets failing to create pods (from events), with how long before the capture they last fired."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.events import findings_for_reasons
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="events-failed-create", title="Controllers or kubelets failing to create pods", severity="warning",
    category="events", requires=("Event",),
    message="{object}: {reason} {count} time(s), {first}last {age}: {last_message}",
    remediation="Read the message: quota exceeded, an admission webhook denying, a missing ServiceAccount, or (sandbox) a broken CNI on the node.",
)
REASONS = frozenset({"FailedCreate", "FailedCreatePodSandBox"})


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    return findings_for_reasons(cluster, RULE, REASONS)
