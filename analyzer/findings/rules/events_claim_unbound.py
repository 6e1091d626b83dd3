"""Claims still waiting for the volume their provisioner should make, when the dump holds their
events but not the claims (a `kubectl describe pvc`'s Events pasted alone, `kubectl get events`):
the events are then the only word on the claims."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.events import (
    NOT_NAMED,
    EventGroup,
    event_facts,
    findings_for_reasons,
    fold_events,
)
from analyzer.findings.facts import age_text
from analyzer.findings.provisioners import awaited_provisioner, provisioner_state
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="events-claim-unbound", title="PersistentVolumeClaim unbound, known only from events", severity="warning",
    category="events", requires=("Event",),
    message="{object}: {reason} {count} time(s), {first}last {age}, waiting {waited} (the dump holds no "
            "PersistentVolumeClaim to show its state): {last_message}{provisioner_text}",
    remediation="Check that the provisioner the message names runs (its controller pods, its CSIDriver) and is "
    "the one the StorageClass names (EKS Auto Mode's is ebs.csi.eks.amazonaws.com, the EBS CSI add-on's "
    "ebs.csi.aws.com), and that its identity may create volumes; `kubectl describe pvc` shows the claim now.",
)
# The volume controller's words for a claim whose volume is not made yet: ExternalProvisioning
# (Normal, repeated while the external provisioner has not answered) and ProvisioningFailed (the
# provisioner's refusal). Only claims get them, so events naming no object are a claim's.
REASONS = frozenset({"ExternalProvisioning", "ProvisioningFailed"})
# A provisioner answers within seconds; a claim waiting a minute or more is not being served.
_WAITING = timedelta(minutes=1)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    if cluster.covers("PersistentVolumeClaim"):
        yield RULE.not_applicable("the dump holds the claims: pvc-pending reads their state")
        return
    waited = {(g.kind, g.namespace, g.name, g.label): _waited(g)
              for g in fold_events([f for f in event_facts(cluster) if f.reason in REASONS])}
    for finding in findings_for_reasons(cluster, RULE, REASONS):
        if finding.kind not in ("", "PersistentVolumeClaim"):
            continue
        span = waited.get((finding.kind, finding.namespace, finding.name, finding.facts.get("reason")))
        if span is None or (finding.facts.get("reason") == "ExternalProvisioning" and span < _WAITING):
            continue  # a provisioner at work: seconds of waiting are how it goes
        provisioner = state = ""
        if finding.facts.get("reason") == "ExternalProvisioning":
            # (what the dump shows of the provisioner the volume controller waits for)
            provisioner = awaited_provisioner(None, str(finding.facts.get("last_message", "")))
            state = provisioner_state(cluster, provisioner)
        finding = replace(finding, facts={**finding.facts, "waited": age_text(span), "provisioner": provisioner,
                                          "provisioner_text": f"; {state}" if state else ""})
        if finding.kind == "":
            finding = replace(finding, kind="PersistentVolumeClaim", name=NOT_NAMED)
        yield finding


def _waited(group: EventGroup) -> timedelta | None:
    """How long the events span, first to last (None when they do not say)."""
    first, last = group.first_seen, group.last.last_seen
    if first is not None and last is not None:
        return last - first
    spans = []
    # (each row's age as kubectl printed it: its first and last, or its one age; a `kubectl get
    # events` row shows its last only, so the rows of one claim span from the oldest to the newest)
    oldest: float | None = None
    newest: float | None = None
    for fact in group.facts:
        text = fact.event.view.text
        if text is None or text.last_seen_ago_seconds is None:
            continue
        if text.first_seen_ago_seconds is not None:
            spans.append(text.first_seen_ago_seconds - text.last_seen_ago_seconds)
        first = max(text.first_seen_ago_seconds or 0.0, text.last_seen_ago_seconds)
        oldest = first if oldest is None else max(oldest, first)
        newest = text.last_seen_ago_seconds if newest is None else min(newest, text.last_seen_ago_seconds)
    if oldest is not None and newest is not None and len(group.facts) > 1:
        spans.append(oldest - newest)
    return timedelta(seconds=max(spans)) if spans else None
