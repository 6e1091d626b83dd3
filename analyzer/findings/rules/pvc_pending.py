"""PersistentVolumeClaims that never bound to a volume."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.events import event_ago, events_by_object
from analyzer.findings.facts import ev, is_terminal, knows_container_specs
from analyzer.findings.types import Finding, RuleMeta
from analyzer.model.tables.storage import DEFAULT_CLASS_ANNOTATIONS

if TYPE_CHECKING:
    from analyzer.ingest.records import KubeObject

RULE = RuleMeta(
    id="pvc-pending", title="PersistentVolumeClaim pending", severity="warning",
    category="workloads", requires=("PersistentVolumeClaim",),
    message="PersistentVolumeClaim {namespace}/{name} is Pending (storage class {storage_class}): {reason}",
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
                    if e.type == "Warning" or e.reason in ("WaitForFirstConsumer", "ExternalProvisioning")]
        if warnings:
            last = warnings[-1]
            evidence.append(ev(last.event, f"Event.message ({last.reason})", last.message))
            reason = f"{last.reason}: {last.message} ({event_ago(cluster, last)})"
        else:
            reason = "no event recorded" if events_collected else "events not collected"
        finding = RULE.fail(pvc, *evidence, storage_class=pvc.view.spec.storageClassName or "default", reason=reason)
        waiting = _waits_for_consumer(cluster, pvc, warnings[-1].reason if warnings else "")
        yield finding.as_info(resolved=waiting) if waiting else finding


def _waits_for_consumer(cluster: AnalyzedDump, pvc: KubeObject, last_reason: str) -> str:
    """Why a Pending claim is as it should be ('' when it is not): its class binds only for a
    pod (WaitForFirstConsumer) and no pod the dump shows uses it yet."""
    mode = "WaitForFirstConsumer" if last_reason == "WaitForFirstConsumer" else _binding_mode(cluster, pvc)
    if mode != "WaitForFirstConsumer":
        return ""
    pods = [p for p in cluster.objects_of("Pod") if p.namespace == pvc.namespace and not is_terminal(p)]
    if any(_uses_claim(p, pvc.name) for p in pods):
        return ""  # a pod waits for it: why that pod is not scheduled is the problem
    if not cluster.covers("Pod"):
        return "its class binds a claim only once a pod uses it (WaitForFirstConsumer), and the dump holds no pod"
    if any(not knows_container_specs(p) for p in pods):
        return ("its class binds a claim only once a pod uses it (WaitForFirstConsumer); no pod read whole uses it "
                "(pods pasted from a table do not show their volumes)")
    return "its class binds a claim only once a pod uses it (WaitForFirstConsumer), and no pod uses it yet"


def _binding_mode(cluster: AnalyzedDump, pvc: KubeObject) -> str | None:
    """The volumeBindingMode of the claim's class (the default class when it names none)."""
    name = pvc.view.spec.storageClassName
    for sc in cluster.objects_of("StorageClass"):
        if sc.name == name or (name is None and _is_default(sc)):
            return sc.view.volumeBindingMode
    return None


def _is_default(sc: KubeObject) -> bool:
    annotations = sc.view.metadata.annotations or {}
    text = sc.view.text
    return any(annotations.get(a) == "true" for a in DEFAULT_CLASS_ANNOTATIONS) or bool(text and text.default)


def _uses_claim(pod: KubeObject, claim: str) -> bool:
    return any((v.get("persistentVolumeClaim") or {}).get("claimName") == claim
               for v in pod.view.spec.volumes or ())
