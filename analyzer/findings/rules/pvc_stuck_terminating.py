"""PersistentVolumeClaims deleted long before the capture and still there: the pvc-protection
finalizer keeps a claim while a pod uses it."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import (
    deletion_past,
    is_terminal,
    knows_container_specs,
    pods_by_namespace,
    uses_claim,
)
from analyzer.findings.types import Finding, RuleMeta
from analyzer.ingest.records import KubeObject

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
        deletion = deletion_past(cluster, pvc, GRACE)
        if deletion is None:
            continue
        finalizers = pvc.view.metadata.finalizers
        users = _users(pvc, pods)
        finding = RULE.fail(
            pvc, deletion.evidence, lasted=deletion.lasted,
            finalizers=", ".join(finalizers) if finalizers else ("none" if finalizers is not None else "not shown"),
            held=_held_by(pvc, pods, users), users=", ".join(users))
        yield finding if deletion.stuck else finding.as_info()


def _users(pvc: KubeObject, pods: dict[str, list[KubeObject]] | None) -> list[str]:
    """The pods the dump shows using the claim: by their volumes, and a describe's `Used By`."""
    names = set(pvc.view.text.used_by or ()) if pvc.view.text is not None else set()
    for pod in (pods or {}).get(pvc.namespace, ()):
        if not is_terminal(pod) and uses_claim(pod, pvc.name):
            names.add(pod.name)
    names.discard("<none>")
    return sorted(names)


def _held_by(pvc: KubeObject, pods: dict[str, list[KubeObject]] | None, users: list[str]) -> str:
    """Why the claim is still there, as far as the dump tells (`users`: the pods using it)."""
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
