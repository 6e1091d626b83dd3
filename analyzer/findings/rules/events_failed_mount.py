"""Volumes that failed to attach or mount (from events), with how long before the capture they last fired."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import replace

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.events import NOT_NAMED, findings_for_reasons, volume_wait
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="events-failed-mount", title="Volumes that failed to attach or mount", severity="warning",
    category="events", requires=("Event",),
    message="{object}: {reason} {count} time(s), {first}last {age}: {last_message}",
    remediation="Check the referenced ConfigMap/Secret/PVC exists, the CSI driver pods run on the node, and the volume is not attached to another node.",
)
REASONS = frozenset({"FailedMount", "FailedAttachVolume", "FailedMapVolume"})


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    by_object: dict[tuple[str, str, str], list[Finding]] = defaultdict(list)
    for finding in findings_for_reasons(cluster, RULE, REASONS):
        # the kubelet and the attach/detach controller record these on the pod: a describe's
        # Events pasted alone (Azure/AKS#1567) are a pod's, not "the whole dump"'s
        finding = finding if finding.kind else replace(finding, kind="Pod", name=NOT_NAMED)
        by_object[(finding.kind, finding.namespace, finding.name)].append(finding)
    for findings in by_object.values():
        yield from _waits_after_their_cause(findings)


def _waits_after_their_cause(findings: list[Finding]) -> list[Finding]:
    """One object's findings, its kubelet's bare `Unable to attach or mount volumes ... timed out`
    said after the failure that explains it (an attach refused, a mount failed) and not as a
    finding of its own, which an incident could take for the cause (Azure/AKS#1567: the
    FailedMount wait headlined, AttachDiskWhileBeingDetached 'and 1 more'). A wait still
    current beside a cause resolved since stays its own."""
    waits = [f for f in findings if f.facts.get("reason") == "FailedMount"
             and volume_wait(str(f.facts.get("last_message", "")))]
    causes = [f for f in findings if f not in waits and f.severity != "info"]
    if not waits or not causes:
        return findings
    cause = causes[-1]
    told = "; ".join(f"{volume_wait(str(w.facts['last_message']))}, {w.facts.get('count')} time(s), "
                     f"last {w.facts.get('age')}" for w in waits)
    merged = replace(cause, facts={**cause.facts, "last_message": f"{cause.facts.get('last_message')} ({told})"},
                     evidence=(*cause.evidence, *(e for w in waits for e in w.evidence)))
    return [merged if f is cause else f for f in findings if f not in waits]
