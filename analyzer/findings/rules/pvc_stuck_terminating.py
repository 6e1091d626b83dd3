"""PersistentVolumeClaims deleted long before the capture and still there: the pvc-protection
finalizer keeps a claim while a pod uses it."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import (
    age_at_capture,
    age_text,
    capture_is_lower_bound,
    ev,
    is_terminal,
    knows_container_specs,
    lasted_text,
    pods_by_namespace,
    uses_claim,
)
from analyzer.findings.types import Evidence, Finding, RuleMeta
from analyzer.ingest.records import KubeObject
from analyzer.kube.time import parse_time

RULE = RuleMeta(
    id="pvc-stuck-terminating", title="PersistentVolumeClaim stuck terminating", severity="warning",
    category="workloads", requires=("PersistentVolumeClaim",),
    message="PersistentVolumeClaim {namespace}/{name} has been terminating for {lasted} (finalizers: {finalizers}): {held}",
    remediation="A claim marked for deletion goes once no pod uses it (kubernetes.io/pvc-protection): delete or "
    "scale down the pods it names (a StatefulSet recreates its pod and so its use); with no pod using it, check "
    "the kube-controller-manager's pvc-protection controller before removing the finalizer by hand.",
)
GRACE = timedelta(minutes=10)
PROTECTION = "kubernetes.io/pvc-protection"


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    pods = pods_by_namespace(cluster) if cluster.covers("Pod") else None
    for pvc in cluster.objects_of("PersistentVolumeClaim"):
        deleted = _deleted(cluster, pvc)
        if deleted is None:
            continue
        age, evidence = deleted
        lower_bound = pvc.view.metadata.deletionTimestamp is not None and capture_is_lower_bound(cluster)
        if age is not None and (age < timedelta(0) or (age <= GRACE and not lower_bound)):
            continue
        finalizers = pvc.view.metadata.finalizers
        finding = RULE.fail(
            pvc, evidence,
            lasted=("a time the dump does not show" if age is None
                    else lasted_text(cluster, age) if lower_bound else age_text(age)),
            finalizers=", ".join(finalizers) if finalizers else ("none" if finalizers is not None else "not shown"),
            held=_held_by(pvc, pods), users=", ".join(_users(pvc, pods)))
        # how long it has lasted unknown, or within its grace by a capture that is a lower bound
        yield finding if age is not None and age > GRACE else finding.as_info()


def _deleted(cluster: AnalyzedDump, pvc: KubeObject) -> tuple[timedelta | None, Evidence] | None:
    """How long before the capture the claim was marked for deletion (None: it is Terminating,
    since when not shown) with the field that says so; None when it is not being deleted."""
    meta = pvc.view.metadata
    text = pvc.view.text
    if meta.deletionTimestamp is not None:
        return (age_at_capture(cluster, parse_time(meta.deletionTimestamp), pvc),
                ev(pvc, "metadata.deletionTimestamp", meta.deletionTimestamp, f"gone within {age_text(GRACE)}"))
    if text is not None and text.deletion_ago_seconds is not None:
        age = timedelta(seconds=text.deletion_ago_seconds)
        return age, ev(pvc, "Status (kubectl describe)", f"Terminating (lasts {age_text(age)})",
                       f"gone within {age_text(GRACE)}")
    if "Terminating" in (pvc.view.status.phase, text.status if text is not None else None):
        # (a table's row, or a describe's `Terminating (lasts <invalid>)` under a skewed clock)
        field = "Status (kubectl describe)" if text is not None and text.described else "STATUS (kubectl get)"
        return None, ev(pvc, field, "Terminating", "gone")
    return None


def _users(pvc: KubeObject, pods: dict[str, list[KubeObject]] | None) -> list[str]:
    """The pods the dump shows using the claim: by their volumes, and a describe's `Used By`."""
    names = set(pvc.view.text.used_by or ()) if pvc.view.text is not None else set()
    for pod in (pods or {}).get(pvc.namespace, ()):
        if not is_terminal(pod) and uses_claim(pod, pvc.name):
            names.add(pod.name)
    names.discard("<none>")
    return sorted(names)


def _held_by(pvc: KubeObject, pods: dict[str, list[KubeObject]] | None) -> str:
    """Why the claim is still there, as far as the dump tells."""
    users = _users(pvc, pods)
    finalizers = pvc.view.metadata.finalizers or ()
    if users:
        word = "pod" if len(users) == 1 else "pods"
        holder = f"{PROTECTION} keeps it" if PROTECTION in finalizers else "kept"
        return f"{holder} while {word} {', '.join(f'{pvc.namespace}/{u}' for u in users)} use{'s' * (len(users) == 1)} it"
    if pods is None or any(not knows_container_specs(p) for p in pods.get(pvc.namespace, ())):
        return "which pods use it the dump does not show"
    if PROTECTION in finalizers:
        return f"no pod in the dump uses it, yet {PROTECTION} is not removed"
    return "no pod in the dump uses it"
