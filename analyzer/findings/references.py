"""What a pod refers to by name (ConfigMaps, Secrets, claims, its ServiceAccount, its priority),
and whether the dump can say such an object is missing."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from analyzer.findings.coverage import namespace_coverage
from analyzer.findings.facts import ev
from analyzer.findings.types import Finding, RuleMeta

if TYPE_CHECKING:
    from analyzer.cluster import Cluster
    from analyzer.ingest.records import KubeObject


@dataclass(frozen=True, slots=True)
class Reference:
    kind: str
    name: str
    field: str
    optional: bool = False


def pod_references(pod: KubeObject) -> Iterator[Reference]:
    """Every named reference of a pod: volumes (projected too), env, envFrom, pull secrets, SA."""
    spec = pod.view.spec
    for i, vol in enumerate(spec.volumes or ()):
        base = f"spec.volumes[{i}]"
        if (cm := vol.get("configMap")) and cm.get("name"):
            yield Reference("ConfigMap", cm["name"], f"{base}.configMap.name", bool(cm.get("optional")))
        if (sec := vol.get("secret")) and sec.get("secretName"):
            yield Reference("Secret", sec["secretName"], f"{base}.secret.secretName", bool(sec.get("optional")))
        if (pvc := vol.get("persistentVolumeClaim")) and pvc.get("claimName"):
            yield Reference("PersistentVolumeClaim", pvc["claimName"], f"{base}.persistentVolumeClaim.claimName")
        for j, src in enumerate((vol.get("projected") or {}).get("sources") or ()):
            for key, kind in (("configMap", "ConfigMap"), ("secret", "Secret")):
                if (ref := src.get(key)) and ref.get("name"):
                    yield Reference(kind, ref["name"], f"{base}.projected.sources[{j}].{key}.name",
                                    bool(ref.get("optional")))
    groups = (("initContainers", spec.initContainers), ("containers", spec.containers))
    for group, containers in groups:
        for c in containers or ():
            base = f"spec.{group}[name={c.name}]"
            for e in c.env or ():
                src = e.valueFrom
                if src and src.configMapKeyRef and src.configMapKeyRef.name:
                    yield Reference("ConfigMap", src.configMapKeyRef.name,
                                    f"{base}.env[name={e.name}].valueFrom.configMapKeyRef.name",
                                    bool(src.configMapKeyRef.optional))
                if src and src.secretKeyRef and src.secretKeyRef.name:
                    yield Reference("Secret", src.secretKeyRef.name,
                                    f"{base}.env[name={e.name}].valueFrom.secretKeyRef.name",
                                    bool(src.secretKeyRef.optional))
            for k, ef in enumerate(c.envFrom or ()):
                if ef.configMapRef and ef.configMapRef.name:
                    yield Reference("ConfigMap", ef.configMapRef.name, f"{base}.envFrom[{k}].configMapRef.name",
                                    bool(ef.configMapRef.optional))
                if ef.secretRef and ef.secretRef.name:
                    yield Reference("Secret", ef.secretRef.name, f"{base}.envFrom[{k}].secretRef.name",
                                    bool(ef.secretRef.optional))
    for i, ps in enumerate(spec.imagePullSecrets or ()):
        if ps.name:
            yield Reference("Secret", ps.name, f"spec.imagePullSecrets[{i}].name")
    sa = spec.serviceAccountName or spec.serviceAccount
    if sa:
        yield Reference("ServiceAccount", sa, "spec.serviceAccountName")
    if spec.priorityClassName:
        yield Reference("PriorityClass", spec.priorityClassName, "spec.priorityClassName")


def missing_references(cluster: Cluster, rule: RuleMeta, kind: str,
                       builtin: frozenset[str] = frozenset()) -> Iterator[Finding]:
    """Findings for pods referring (not optionally) to a `kind` object the dump lacks, only in
    namespaces where the dump collected that kind; pods whose namespace it did not, are skipped."""
    from analyzer.ingest.records import CLUSTER_SCOPED_KINDS

    scoped = kind in CLUSTER_SCOPED_KINDS
    coverage = namespace_coverage(cluster, kind)
    present = {(o.namespace, o.name) for o in cluster.objects_of(kind)}
    for pod in cluster.objects_of("Pod"):
        namespace = "" if scoped else pod.namespace
        if not scoped and not coverage.covers(namespace):
            continue
        seen: set[str] = set()
        refs = [r for r in pod_references(pod) if r.kind == kind and not r.optional
                and r.name not in builtin and (namespace, r.name) not in present]
        for ref in refs:
            if ref.name in seen:
                continue
            seen.add(ref.name)
            fields = [r.field for r in refs if r.name == ref.name]
            yield rule.fail(pod, *(ev(pod, f, ref.name, f"an existing {kind}") for f in fields),
                            ref_kind=kind, ref_name=ref.name, where=", ".join(fields))
