"""PersistentVolumeClaims that never bound to a volume."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from analyzer.findings.coverage import listed_whole
from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.events import (
    EventFact,
    before_capture,
    event_ago,
    events_by_object,
    first_seen_ago,
)
from analyzer.findings.facts import (
    age_text,
    ev,
    is_terminal,
    knows_container_specs,
    lasted_text,
    uses_claim,
)
from analyzer.findings.provisioners import awaited_provisioner, provisioner_state
from analyzer.findings.storageclasses import default_classes
from analyzer.findings.types import Finding, RuleMeta

if TYPE_CHECKING:
    from analyzer.ingest.records import KubeObject

RULE = RuleMeta(
    id="pvc-pending", title="PersistentVolumeClaim pending", severity="warning",
    category="workloads", requires=("PersistentVolumeClaim",),
    message="PersistentVolumeClaim {namespace}/{name} is Pending ({storage_class_text}): {reason}",
    remediation="Check the storage class exists and its provisioner runs; with WaitForFirstConsumer the claim binds only once a pod uses it.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    events_collected = cluster.covers("Event")
    events = events_by_object(cluster) if events_collected else {}
    for pvc in cluster.objects_of("PersistentVolumeClaim"):
        if pvc.view.status.phase != "Pending":
            continue
        evidence = [ev(pvc, "status.phase", "Pending", "Bound")]
        warnings = [e for e in events.get(("PersistentVolumeClaim", pvc.namespace, pvc.name), ())
                    if e.type == "Warning" or e.reason in _NORMAL_REASONS_THAT_EXPLAIN]
        if warnings:
            last = warnings[-1]
            evidence.append(ev(last.event, f"Event.message ({last.reason})", last.message))
            reason = f"{last.reason}: {last.message} ({_repeats(cluster, last)}{event_ago(cluster, last)})"
        elif _events_cut(pvc):
            reason = "its describe's Events are cut off in the paste (an event there may say why)"
        else:
            reason = "no event recorded" if events_collected else "events not collected"
        storage_class = pvc.view.spec.storageClassName or ""
        last_reason = warnings[-1].reason if warnings else ""
        waiting = _waits_for_consumer(cluster, pvc, last_reason, events)
        provisioner = state = ""
        if not waiting and last_reason in ("", "ExternalProvisioning"):
            # (a provisioner's refusal, ProvisioningFailed, says it runs: its words are the reason)
            provisioner = awaited_provisioner(pvc, warnings[-1].message if warnings else "")
            if provisioner and (state := provisioner_state(cluster, provisioner, _class_provisioner(cluster, pvc))):
                reason = f"{reason}; {state}"
        finding = RULE.fail(pvc, *evidence, storage_class=storage_class,
                            storage_class_text=_class_text(cluster, storage_class), reason=reason,
                            provisioner=provisioner, provisioner_state=state)
        yield finding.as_info(resolved=waiting) if waiting else finding


# Normal events of the volume controller that still say why a claim is not bound: FailedBinding is
# Normal ("no persistent volumes available for this claim and no storage class is set").
_NORMAL_REASONS_THAT_EXPLAIN = ("WaitForFirstConsumer", "ExternalProvisioning", "FailedBinding")


def _repeats(cluster: AnalyzedDump, fact: EventFact) -> str:
    """'2222 times, first 9h before capture, last ' for an event repeated since a time the dump
    shows (a claim waiting 9h is said as such, not by its last repeat 2m before), '' for one
    fired once."""
    if fact.count <= 1:
        return ""
    first, last = first_seen_ago(cluster, fact), before_capture(cluster, fact)
    if first is None or last is None or first <= last:
        return f"{fact.count} times, last "
    pasted = fact.event.view.text is not None and fact.event.view.text.first_seen_ago_seconds is not None
    # (a pasted age is the paste's own; one from a timestamp is at least that where the capture is a lower bound)
    return f"{fact.count} times, first {age_text(first) if pasted else lasted_text(cluster, first)} before capture, last "


def _events_cut(pvc: KubeObject) -> bool:
    """Whether the claim's pasted describe ends inside its Events table (k8s#81714: the last row
    cut at `Warning  ProvisioningFai`)."""
    text = pvc.view.text
    return bool(text and text.events_cut)


def _class_text(cluster: AnalyzedDump, name: str) -> str:
    """The claim's class as a reader needs it. A claim naming none is not "default": the API server
    writes the default class into a claim when it is created, so a claim without one had no default
    class then (kubectl describe prints an empty StorageClass:); a manifest never applied may still
    get the dump's default class."""
    if name:
        classes = sorted(sc.name for sc in cluster.objects_of("StorageClass"))
        if classes and name not in classes and listed_whole(cluster, "StorageClass", ""):
            # (the dump listed the classes and this one is not among them: the cluster lacks it,
            # where a dump without classes says nothing of it)
            return f"storage class {name}, which the dump's StorageClasses ({', '.join(classes)}) do not include"
        return f"storage class {name}"
    if defaults := default_classes(cluster):
        return f"no storage class named; the dump's default class is {defaults[0].name}"
    return "no storage class set"


def _waits_for_consumer(cluster: AnalyzedDump, pvc: KubeObject, last_reason: str,
                        events: dict[tuple[str, str, str], list[EventFact]]) -> str:
    """Why a Pending claim is as it should be ('' when it is not): its class binds only for a
    pod (WaitForFirstConsumer) and no pod the dump shows uses it yet, or the pods that use it are
    not scheduled for a reason of their own."""
    mode = "WaitForFirstConsumer" if last_reason == "WaitForFirstConsumer" else _binding_mode(cluster, pvc)
    if mode != "WaitForFirstConsumer":
        return ""
    pods = [p for p in cluster.objects_of("Pod") if p.namespace == pvc.namespace and not is_terminal(p)]
    if users := [p for p in pods if uses_claim(p, pvc.name)]:
        # a node picked for it (the scheduler's selected-node), or its provisioner's refusal: the
        # claim's own trouble, whatever its pod waits for
        picked = SELECTED_NODE in (pvc.view.metadata.annotations or {})
        return "" if picked or last_reason not in ("", "WaitForFirstConsumer") else _users_held_elsewhere(users, events)
    if not cluster.covers("Pod"):
        return "its class binds a claim only once a pod uses it (WaitForFirstConsumer), and the dump holds no pod"
    if any(not knows_container_specs(p) for p in pods):
        return ("its class binds a claim only once a pod uses it (WaitForFirstConsumer); no pod read whole uses it "
                "(pods pasted from a table do not show their volumes)")
    return "its class binds a claim only once a pod uses it (WaitForFirstConsumer), and no pod uses it yet"


SELECTED_NODE = "volume.kubernetes.io/selected-node"
# Words of the scheduler's reasons that are about a pod's volumes (unbound immediate claims, no
# persistent volume to bind, volume node affinity, not enough free storage, a volume zone, the
# attach limit): a pod not scheduled for one of these may wait for this claim.
_VOLUME_REASON = re.compile(r"volume|claim|pvc|free storage", re.IGNORECASE)


def _users_held_elsewhere(users: list[KubeObject], events: dict[tuple[str, str, str], list[EventFact]]) -> str:
    """Why a WaitForFirstConsumer claim is not the problem ('' when it may be): it binds once the
    scheduler picks a node for a pod that uses it, and every such pod is not scheduled for a reason
    the scheduler gives that is not about volumes (kubernetes/kubernetes#86942's `3 Insufficient
    memory`): that pod's pod-pending says the cause, the claim only waits for it."""
    reasons = []
    for pod in users:
        if pod.view.spec.nodeName or pod.view.status.phase != "Pending":
            return ""  # a pod on a node: the claim should have bound for it
        reason = _scheduler_reason(pod, events)
        if not reason or _VOLUME_REASON.search(reason):
            return ""
        reasons.append(reason.strip())
    names = ", ".join(f"{pod.namespace}/{pod.name}" for pod in users)
    pods = f"Pod {names} is not" if len(users) == 1 else f"Pods {names} are not"
    return (f"its class binds a claim only once a pod that uses it is scheduled (WaitForFirstConsumer), and {pods}, "
            f"for a reason of its own that pod-pending says: {reasons[-1]}")


def _scheduler_reason(pod: KubeObject, events: dict[tuple[str, str, str], list[EventFact]]) -> str:
    """The scheduler's last word on a pod it did not place: its PodScheduled condition's message,
    else its last FailedScheduling event's ('' when neither is in the dump)."""
    for cond in pod.view.status.conditions or ():
        if cond.type == "PodScheduled" and cond.status == "False" and cond.message:
            return cond.message
    failed = [e for e in events.get(("Pod", pod.namespace, pod.name), ()) if e.reason == "FailedScheduling"]
    return failed[-1].message if failed else ""


def _binding_mode(cluster: AnalyzedDump, pvc: KubeObject) -> str | None:
    """The volumeBindingMode of the claim's class (the default class when it names none)."""
    sc = _claim_class(cluster, pvc)
    return sc.view.volumeBindingMode if sc is not None else None


def _class_provisioner(cluster: AnalyzedDump, pvc: KubeObject) -> str:
    """The provisioner the claim's class names ('' when the dump does not hold the class)."""
    sc = _claim_class(cluster, pvc)
    return (sc.view.provisioner or "") if sc is not None else ""


def _claim_class(cluster: AnalyzedDump, pvc: KubeObject) -> KubeObject | None:
    """The claim's StorageClass in the dump (the default class when it names none)."""
    name = pvc.view.spec.storageClassName
    for sc in cluster.objects_of("StorageClass"):
        if sc.name == name:
            return sc
    defaults = default_classes(cluster) if name is None else []
    return defaults[0] if defaults else None

