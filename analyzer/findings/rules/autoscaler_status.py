"""What the cluster autoscaler's own status ConfigMap says is wrong: the autoscaler Unhealthy
(it then neither adds nor removes nodes), a node group backing off after a failed scale-up,
Unhealthy, or with nodes launched that never registered; each since when, and whether it was
still so at the capture or the status is stale (the autoscaler stopped writing it)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from analyzer.findings.autoscaler_status import (
    AutoscalerStatus,
    Condition,
    Group,
    managed_by,
    stale_since,
    status_configmap,
    status_data,
)
from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import age_at_capture, age_text, ago, ev, when_text
from analyzer.findings.types import Finding, RuleMeta
from analyzer.ingest.records import KubeObject

RULE = RuleMeta(
    id="autoscaler-status", title="Cluster autoscaler reports a problem", severity="warning",
    category="nodes", requires=("ConfigMap",),
    message="The cluster autoscaler's status says {subject} {problem}{timing}",
    remediation="A node group backing off or with nodes that never registered: act on the cloud's reason (its "
    "quota, instance capacity, the instance type, subnet or bootstrap of the group; the YAML status's backoffInfo "
    "or the autoscaler's log 'Disabling scale-up for node group' names it). The autoscaler Unhealthy: bring back "
    "the unready nodes it counts. A stale status: the autoscaler is not running or not writing it.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    found = status_configmap(cluster)
    if found is None:
        return
    obj, status = found
    stale = stale_since(cluster, obj, status)
    managed = managed_by(cluster, status)
    if stale is not None:
        finding = RULE.fail(obj, ev(obj, "data.status (last probe)", stale, "written every 10s"),
                            subject="it", problem=f"was last written {stale}"
                            + (f", {status.state}" if status.state != "Running" else ""),
                            timing=": the autoscaler has not written it since (not running, or not this "
                                   "cluster's any more); what it says is of then, not of the capture",
                            node_group="")
        yield _managed(finding, managed)
    health = status.cluster.get("Health")
    if health is not None and health.status in status_data()["unhealthy"]:
        finding = RULE.fail(obj, ev(obj, "data.status (Cluster-wide Health)", _said(health), "Healthy"),
                            subject="the cluster", problem=f"is {health.status} ({_counts(health)}){_since(cluster, obj, status, health)}: "
                            "it neither adds nor removes nodes while too many nodes are unready or unregistered",
                            timing=_timing(cluster, obj, status, health, stale), node_group="")
        yield finding if stale else _severe(finding)
    named_long = False
    for group in status.groups:
        problems = list(_group_problems(cluster, obj, status, group))
        named_long |= any(c.counts.get("longUnregistered") for c in group.conditions.values())
        if not problems:
            continue
        first = problems[0][1]
        yield RULE.fail(obj, *(ev(obj, f"data.status (node group {group.name} {kind})", _said(c), expected)
                               for kind, c, _, expected in problems),
                        subject=f"node group {group.name}", problem="; ".join(text for _, _, text, _ in problems),
                        timing=_timing(cluster, obj, status, first, stale), node_group=group.name,
                        backoff=any(kind == "ScaleUp" for kind, *_ in problems))
    if health is not None and not named_long and (n := health.counts.get("longUnregistered")):
        # a status cut before its NodeGroups: the cluster's count says it alone
        yield RULE.fail(obj, ev(obj, "data.status (Cluster-wide Health)", _said(health), "longUnregistered=0"),
                        subject="the cluster", problem=f"has {n} node(s) long unregistered: launched by the cloud "
                        "and never joined", timing=_timing(cluster, obj, status, health, stale), node_group="")


def _group_problems(cluster: AnalyzedDump, obj: KubeObject, status: AutoscalerStatus, group: Group) -> Iterator[tuple[str, Condition, str, str]]:
    """(condition, it, what it says is wrong, what was expected) of a node group."""
    data = status_data()
    health, scale_up = group.conditions.get("Health"), group.conditions.get("ScaleUp")
    if scale_up is not None and scale_up.status in data["backoff"]:
        why = f" ({scale_up.error.rstrip('.')})" if scale_up.error else ""
        yield ("ScaleUp", scale_up, f"is in {scale_up.status} after a failed scale-up{why}{_since(cluster, obj, status, scale_up)}: the autoscaler adds no "
               "node to it for now (5 minutes at first, up to 30)", "NoActivity or InProgress")
    if health is not None and health.status in data["unhealthy"]:
        yield ("Health", health, f"is {health.status} ({_counts(health)}){_since(cluster, obj, status, health)}: the autoscaler adds no node to it",
               "Healthy")
    if health is not None and (n := health.counts.get("longUnregistered")):
        yield ("Health", health, f"has {n} node(s) long unregistered: instances the cloud launched that never "
               "joined the cluster (their bootstrap, network or credentials)", "longUnregistered=0")


def _since(cluster: AnalyzedDump, obj: KubeObject, status: AutoscalerStatus, condition: Condition) -> str:
    """ ", since <time>, <how long> before capture" where the condition says when it began (before
    its last probe, where the capture time is unknown)."""
    if condition.since is None:
        return ""
    if age_at_capture(cluster, condition.since, obj) is not None:
        return f", since {condition.since:%Y-%m-%d %H:%M:%S}Z, {ago(cluster, condition.since, obj)}"
    probed = condition.probed or status.written
    held = f", {age_text(probed - condition.since)} before its last probe" \
        if probed is not None and probed >= condition.since else ""
    return f", since {condition.since:%Y-%m-%d %H:%M:%S}Z{held}"


def _timing(cluster: AnalyzedDump, obj: KubeObject, status: AutoscalerStatus, condition: Condition, stale: str | None) -> str:
    """Whether the condition's last probe is of the capture: still so at it, a stale status, or a
    capture of unknown time."""
    probed = condition.probed or status.written
    if probed is None:
        return ""
    if stale is not None:
        return f"; as of {probed:%Y-%m-%d %H:%M:%S}Z: a stale status, not of the capture"
    if age_at_capture(cluster, probed, obj) is None:
        return f"; last probed {probed:%Y-%m-%d %H:%M:%S}Z (the capture time unknown: current or not, the dump cannot say)"
    return f"; still so at its last probe, {when_text(cluster, probed, obj)}"


def _said(condition: Condition) -> str:
    """The condition as the text form prints it: "Backoff (ready=1 cloudProviderTarget=3)"."""
    return f"{condition.status} ({_counts(condition)})" if condition.counts else condition.status


def _counts(condition: Condition) -> str:
    said = " ".join(f"{k}={v}" for k, v in condition.counts.items())
    if condition.max_size is not None:
        said += f" (minSize={condition.min_size}, maxSize={condition.max_size})"
    return said


def _severe(finding: Finding) -> Finding:
    """The autoscaler halted, current: critical (no node comes or goes)."""
    return replace(finding, severity="critical")


def _managed(finding: Finding, managed: str) -> Finding:
    """The finding on the autoscaler itself, where a provider runs it, marked as theirs."""
    return replace(finding, managed=managed) if managed else finding
