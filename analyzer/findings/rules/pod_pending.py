"""Pods the scheduler could not place, with the scheduler's own reason."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta

from analyzer.findings.autoscaler import autoscaler_word
from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.events import event_ago, events_by_object
from analyzer.findings.facts import age_text, ev, known_age, text_status
from analyzer.findings.placement import pinned_volumes
from analyzer.findings.replicas import leaving_predecessor
from analyzer.findings.suspects import pod_suspects
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="pod-pending", title="Pod pending, not scheduled", severity="critical",
    category="workloads", requires=("Pod",),
    message="Pod {namespace}/{name} is Pending {placement}: {reason} ({reason_source}){autoscaler}",
    remediation="Act on the scheduler's reason: free or add capacity, relax nodeSelector/affinity, add tolerations, "
    "or bind the pending volume; where the cluster autoscaler added no node, act on its reason (a node group's "
    "maximum size, a failed scale-up).",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    events_collected = cluster.covers("Event")
    events = events_by_object(cluster) if events_collected else {}
    no_nodes = cluster.covers("Node") and next(iter(cluster.objects_of("Node")), None) is None
    unnamed = _unnamed_scheduling(cluster, events) if events else {}
    for pod in pod_suspects(cluster).of("pending", "text"):
        status = pod.view.status
        shown = text_status(pod) if status.phase is None else None
        pending = status.phase == "Pending" or shown in ("Pending", GATED)
        if not pending or pod.view.spec.nodeName or _scheduled_by_status(pod):
            continue
        if (gated := _gated(pod, shown)) is not None:
            yield gated
            continue
        evidence = [ev(pod, "status.phase", "Pending", "Running")]
        reason, source = None, None
        for cond in status.conditions or ():
            if cond.type == "PodScheduled" and cond.status == "False" and cond.message:
                reason, source = cond.message, "PodScheduled condition"
                evidence.append(ev(pod, "status.conditions[type=PodScheduled].message", cond.message))
        own = events.get(("Pod", pod.namespace, pod.name), ())
        failed = [e for e in own if e.reason == "FailedScheduling"]
        if failed:
            last = failed[-1]
            age = event_ago(cluster, last)
            evidence.append(ev(last.event, "Event.message (FailedScheduling)", last.message))
            if last.written_reason:  # Kubernetes 1.0's `failedScheduling`, kept as the event wrote it
                evidence.append(ev(last.event, "Event.reason", last.written_reason))
            if reason is None:
                reason, source = last.message, f"FailedScheduling event, {age}"
            else:
                source += f"; last FailedScheduling event {age}"
        told = own
        if reason is None and id(pod) in unnamed:
            last, why = unnamed[id(pod)]
            # the autoscaler's words in the same pasted Events are this pod's too
            told = [e for e in events.get(("", "", ""), ()) if e.event.provenance.source == last.event.provenance.source]
            evidence.append(ev(last.event, "Event.message (FailedScheduling)", last.message))
            if last.written_reason:
                evidence.append(ev(last.event, "Event.reason", last.written_reason))
            reason, source = last.message, f"FailedScheduling event pasted without its pod's name, {event_ago(cluster, last)}; {why}"
        if reason is None and no_nodes:
            reason, source = "no node is registered", "the dump lists nodes and holds none"
        if reason is None and (since := _unhelpable_since(pod)) is not None:
            evidence.append(ev(pod, f"metadata.annotations[{UNHELPABLE_SINCE}]", since))
            reason = f"GKE's cluster autoscaler found no node it could add that would take it, since {since}"
            source = f"its autoscaler's annotation; the scheduler's reason: {_no_reason(pod, events_collected)}"
        age = known_age(cluster, pod)  # "how young": unknown under a capture that is a lower bound
        setting_up = None
        if reason is None:
            reason = "no reason recorded"
            source = _no_reason(pod, events_collected)
            setting_up = _cluster_setting_up(cluster, age)
            if setting_up is not None:
                oldest, what = setting_up
                source += f"; {what} {age_text(oldest)} old: it may still be setting up"
        if "volume node affinity conflict" in reason and (pinned := pinned_volumes(cluster, pod)):
            source += f"; {pinned}"
        word = autoscaler_word(cluster, told)
        if word is not None:
            evidence.append(ev(word.fact.event, f"Event.message ({word.fact.reason})", word.fact.message))
        # the node groups the autoscaler's status agrees are why no node came (incidents join them)
        groups = {"autoscaler_groups": list(word.groups)} if word is not None and word.groups else {}
        finding = RULE.fail(pod, *evidence, reason=reason, reason_source=source,
                            placement=_placement(pod, reason), autoscaler=f"; {word.text}" if word else "", **groups)
        if word is not None and word.under_way and finding.severity == "critical":
            # a node the autoscaler set off for it minutes ago is still joining (its not-ready
            # taint, then its CNI): the pod waits for it, a warning to look at again, not an outage
            # (kubeflow/kubeflow#5260: TriggeredScaleUp 2->3 66s before, the new node still tainted)
            finding = replace(finding, severity="warning")
        if setting_up is not None:
            # minutes into a new cluster, nothing says the scheduler failed: a warning to look at
            # again, not an outage (rke2#585's helm-install pods 8m24s into an 8m30s-old node)
            finding = replace(finding, severity="warning")
        if "anti-affinity" in reason and age is not None and timedelta(0) <= age < _SETTING_UP \
                and (leaving := leaving_predecessor(cluster, pod)) is not None:
            # A rolling update of a Deployment whose pods must not share a node: the new pod
            # waits for an old revision's pod, already being deleted, to leave its node
            # (OpenShift's oauth-openshift and metrics-server on three nodes, minutes into a rollout).
            finding = finding.as_info(resolved=(
                f"created {age_text(age)} before capture in a rolling update: it waits for "
                f"{leaving.name}, of an earlier revision and being deleted, to leave its node"))
        if reason == "no reason recorded" and age is not None and timedelta(0) <= age < _STARTING:
            # Seconds old, with nothing saying the scheduler failed: it may place it yet.
            finding = finding.as_info(resolved=f"created {age_text(age)} before capture: not yet placed, "
                                               "with no scheduler failure recorded")
        yield finding


# The PodScheduled reason (and kubectl's STATUS) of a pod whose spec.schedulingGates hold it back:
# the scheduler leaves it alone until whoever set them (a queue such as Kueue) removes them.
GATED = "SchedulingGated"


def _gated(pod, shown: str | None) -> Finding | None:
    """A pod held back by its scheduling gates: waiting by design, info; None for another."""
    condition = next((c for c in pod.view.status.conditions or () if c.type == "PodScheduled"), None)
    if condition is not None and condition.reason == GATED:
        evidence = ev(pod, "status.conditions[type=PodScheduled].reason", GATED, "scheduled")
        source = "PodScheduled condition"
    elif shown == GATED:
        evidence, source = ev(pod, "STATUS column", GATED, "Running"), "STATUS column"
    else:
        return None
    finding = RULE.fail(pod, evidence, reason="held back by its scheduling gates (spec.schedulingGates)",
                        reason_source=source, placement="and not scheduled", autoscaler="")
    return finding.as_info(resolved="it waits by design until whoever set its scheduling gates (a job "
                                    "queue such as Kueue) removes them; the scheduler does not try it before")


def _no_reason(pod, events_collected: bool) -> str:
    """Why the dump holds no scheduler reason for a pending pod."""
    text = pod.view.text
    cut = text.cut_in if text is not None else None
    ends = text.ends_after if text is not None else None
    if cut and cut != "Events" and not events_collected:
        # a describe pasted down to the middle of a section: its Events were cut off with
        # the rest, not left out of the dump (ingress-nginx#9492)
        return f"its pasted describe is cut in '{cut}', before its Events"
    if ends and not events_collected:
        return f"its pasted describe ends after '{ends}', before its Events"
    return "events not collected" if not events_collected else "no scheduler condition or event"


# GKE's cluster autoscaler notes on a pending pod that no node it could add would take it, and
# until when ("Inf": still so at its last look; a time: it could help since).
UNHELPABLE_SINCE = "cloud.google.com/cluster_autoscaler_unhelpable_since"
UNHELPABLE_UNTIL = "cloud.google.com/cluster_autoscaler_unhelpable_until"


def _unhelpable_since(pod) -> str | None:
    """Since when GKE's autoscaler has found it cannot help the pod, while it still says so."""
    annotations = pod.view.metadata.annotations or {}
    since = annotations.get(UNHELPABLE_SINCE)
    return since if since and annotations.get(UNHELPABLE_UNTIL, "Inf") == "Inf" else None


# The scheduler places a pod within a second when a node fits; a minute without a recorded
# failure is still a cluster settling (nodes joining, a CNI being applied).
_STARTING = timedelta(minutes=1)
# A cluster whose oldest node joined this recently is still being set up (add-ons installing).
_SETTING_UP = timedelta(minutes=15)


def _cluster_setting_up(cluster: AnalyzedDump, age: timedelta | None) -> tuple[timedelta, str] | None:
    """How old the cluster is, and what says so, when it is still being set up: every node the
    dump lists is Ready and joined under _SETTING_UP before the capture (a dump that collected no
    Node: the oldest pod of its listing of every pod is that young), and the pod is no older than that
    (created as the cluster was set up); else None. (Nodes not Ready in a new cluster are a
    cluster failing to come up.)"""
    if age is None or age < _STARTING:
        return None
    nodes = list(cluster.objects_of("Node"))
    if not all(any(c.type == "Ready" and c.status == "True" for c in n.view.status.conditions or ()) for n in nodes):
        return None
    what = "the cluster's oldest node is"
    if not nodes and not cluster.covers("Node"):
        # a whole `get pods -A` alone (rancher/rke2#9390: a server 4 minutes old, its helm-install
        # pods not yet placed): every pod of the cluster that young says the cluster is (the rows
        # of one namespace or a filtered listing say nothing of the rest)
        nodes = [p for p in cluster.objects_of("Pod") if p.view.text is not None and p.view.text.every_pod_listed]
        what = "the dump holds no Node, and the oldest pod of its whole listing is"
        if len(nodes) < 2:
            return None
    ages = [known_age(cluster, node) for node in nodes]
    if not ages or any(a is None for a in ages):
        return None
    oldest = max(ages)
    return (oldest, what) if timedelta(0) <= oldest < _SETTING_UP and age <= oldest + _STARTING else None


def _scheduled_by_status(pod) -> bool:
    """Whether the pod's status says it is on a node, where its spec (cut from a paste) does not:
    PodScheduled=True, or a hostIP (a write-up's `get pod -o yaml` without its spec, the pod
    ContainerCreating on its node)."""
    status = pod.view.status
    return bool(status.hostIP) or any(c.type == "PodScheduled" and c.status == "True"
                                      for c in status.conditions or ())


def _placement(pod, reason: str) -> str:
    """ "and not scheduled", unless all the dump has is a table row without a NODE column: a Pending
    pod may be bound and waiting for its kubelet (eks-cdk-blueprints#561), the row cannot say."""
    text = pod.view.text
    columns = text.columns if text is not None else None
    if reason == "no reason recorded" and columns is not None and "NODE" not in columns:
        return "(its table has no NODE column to say whether it is scheduled)"
    return "and not scheduled"


# The random tail a DaemonSet, Job or ReplicaSet gives its pods' names (`datadog-8tvs7`).
_POD_TAIL = re.compile(r"-[a-z0-9]{5}$")


def _stem(pod) -> str:
    """The controller a pod's ownerReferences or name say made it (`datadog-xxxxx` for datadog-8tvs7)."""
    refs = pod.view.metadata.ownerReferences or ()
    ref = next((r for r in refs if r.controller), None) or (refs[0] if len(refs) == 1 else None)
    if ref is not None and ref.name and ref.kind != "Node":
        return f"{ref.kind} {ref.name}"
    return f"{_POD_TAIL.sub('', pod.name)}-xxxxx" if _POD_TAIL.search(pod.name) else pod.name


def _unnamed_scheduling(cluster: AnalyzedDump, events: dict) -> dict[int, tuple]:
    """id(pod) -> (the last FailedScheduling event, why it is that pod's) for Pending pods with no
    scheduling reason of their own, from a paste's Events that name no object (a describe's
    Events pasted without its head: DataDog/helm-charts#182): every such pod of the same paste
    when they are all made by one controller (their events differ only in the node each one
    targets) or there is only one. (The schedulers of today do not name the pod in the message.)"""
    loose = [e for e in events.get(("", "", ""), ()) if e.reason == "FailedScheduling"]
    if not loose:
        return {}
    tied: dict[int, tuple] = {}
    by_source: dict[str, list] = {}
    for pod in pod_suspects(cluster).of("pending", "text"):
        status = pod.view.status
        if pod.view.spec.nodeName or not (status.phase == "Pending" or (status.phase is None and text_status(pod) == "Pending")):
            continue
        if any(c.type == "PodScheduled" and c.status == "False" and c.message for c in status.conditions or ()):
            continue
        if any(e.reason == "FailedScheduling" for e in events.get(("Pod", pod.namespace, pod.name), ())):
            continue
        by_source.setdefault(pod.provenance.source, []).append(pod)
    for source, pods in by_source.items():
        mine = [e for e in loose if e.event.provenance.source == source]
        if not mine:
            continue
        stems = {_stem(p) for p in pods}
        if len(stems) == 1:
            why = ("the one Pending pod of the paste" if len(pods) == 1 else
                   f"the {len(pods)} Pending pods of the paste are all of one controller ({stems.pop()})")
            for pod in pods:
                tied[id(pod)] = (mine[-1], why)
    return tied
