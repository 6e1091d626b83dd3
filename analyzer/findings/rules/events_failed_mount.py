"""Volumes that failed to attach or mount (from events), with how long before the capture they last fired."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.events import NOT_NAMED, findings_for_reasons
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="events-failed-mount", title="Volumes that failed to attach or mount", severity="warning",
    category="events", requires=("Event",),
    message="{object}: {reason} {count} time(s), {first}last {age}: {last_message}",
    remediation="Check the referenced ConfigMap/Secret/PVC exists, the CSI driver pods run on the node, and the volume is not attached to another node.",
)
REASONS = frozenset({"FailedMount", "FailedAttachVolume", "FailedMapVolume"})


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    for finding in findings_for_reasons(cluster, RULE, REASONS):
        # the kubelet and the attach/detach controller record these on the pod: a describe's
        # Events pasted alone (Azure/AKS#1567) are a pod's, not "the whole dump"'s
        yield finding if finding.kind else replace(finding, kind="Pod", name=NOT_NAMED)
