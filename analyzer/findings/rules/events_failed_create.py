"""Controllers or kubelets failing to create pods (from events), with how long before the capture they last fired."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.events import NOT_NAMED, findings_for_reasons
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="events-failed-create", title="Controllers or kubelets failing to create pods", severity="warning",
    category="events", requires=("Event",),
    message="{object}: {reason} {count} time(s), {first}last {age}: {last_message}",
    remediation="Read the message: quota exceeded, an admission webhook denying, a missing ServiceAccount, or (sandbox) a broken CNI on the node.",
)
REASONS = frozenset({"FailedCreate", "FailedCreatePodSandBox"})


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    for finding in findings_for_reasons(cluster, RULE, REASONS):
        # the kubelet records FailedCreatePodSandBox on the pod: a describe's Events pasted alone
        # (Azure/AKS#122) are a pod's, not "the whole dump"'s
        sandbox = finding.facts.get("reason") == "FailedCreatePodSandBox"
        yield replace(finding, kind="Pod", name=NOT_NAMED) if sandbox and not finding.kind else finding
