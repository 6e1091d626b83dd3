"""What a pod refers to by name (ConfigMaps, Secrets, claims, its ServiceAccount, its priority),
and whether the dump can say such an object is missing."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from analyzer.findings.coverage import namespace_coverage, not_listed_reason
from analyzer.findings.facts import ev, objects_by_id
from analyzer.findings.types import Finding, RuleMeta
from analyzer.memo import once_per
from analyzer.model.normalize import as_dict, as_list

if TYPE_CHECKING:
    import networkx as nx

    from analyzer.findings.dump import AnalyzedDump
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
    # Volumes are untyped in the view: a hand-edited one may hold anything where the API has a
    # mapping or a name, and only a name that is text refers to anything.
    for i, vol in enumerate(spec.volumes or ()):
        vol = as_dict(vol)
        base = f"spec.volumes[{i}]"
        if isinstance(name := (cm := as_dict(vol.get("configMap"))).get("name"), str) and name:
            yield Reference("ConfigMap", name, f"{base}.configMap.name", bool(cm.get("optional")))
        if isinstance(name := (sec := as_dict(vol.get("secret"))).get("secretName"), str) and name:
            yield Reference("Secret", name, f"{base}.secret.secretName", bool(sec.get("optional")))
        if isinstance(name := as_dict(vol.get("persistentVolumeClaim")).get("claimName"), str) and name:
            yield Reference("PersistentVolumeClaim", name, f"{base}.persistentVolumeClaim.claimName")
        for j, src in enumerate(as_list(as_dict(vol.get("projected")).get("sources"))):
            for key, kind in (("configMap", "ConfigMap"), ("secret", "Secret")):
                if isinstance(name := (ref := as_dict(as_dict(src).get(key))).get("name"), str) and name:
                    yield Reference(kind, name, f"{base}.projected.sources[{j}].{key}.name",
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


# The graph relations through which an object refers to each kind.
RELATIONS: dict[str, tuple[str, ...]] = {
    "ConfigMap": ("mounts", "reads"),
    "Secret": ("mounts", "reads", "pulls_with", "uses_tls_secret"),
    "PersistentVolumeClaim": ("mounts",),
    "ServiceAccount": ("runs_as",),
    "PriorityClass": ("uses_priority_class",),
}


def missing_references(cluster: AnalyzedDump, rule: RuleMeta, kind: str,
                       builtin: frozenset[str] = frozenset()) -> Iterator[Finding]:
    """Findings for objects whose required reference to a `kind` is a `missing` graph node.

    The graph marks a reference `missing` only where the dump collected that kind (in that
    namespace) and `not_collected` elsewhere, so nothing is said about what was not collected.
    A pod is not reported when its controller already is, for the same missing object.
    """
    coverage = namespace_coverage(cluster, kind)
    if not coverage.listed:
        yield rule.not_applicable(not_listed_reason(coverage))
        return
    graph = cluster.graph
    by_source = _missing_targets(graph).get(kind, {})
    if builtin:
        by_source = {source: kept for source, targets in by_source.items()
                     if (kept := {t: v for t, v in targets.items() if graph.nodes[t].get("name") not in builtin})}
    objects = objects_by_id(cluster)
    for source in sorted(by_source):
        obj = objects.get(source)
        if obj is None:
            continue
        owners = {u for u, keyed in graph._pred[source].items() for d in keyed.values() if d.get("relation") == "owns"}
        for target, vias in sorted(by_source[source].items()):
            if any(target in by_source.get(o, {}) for o in owners):
                continue  # the controller's template carries the same reference: reported there
            name = graph.nodes[target]["name"]
            fields = [r.field for r in pod_references(obj) if r.kind == kind and r.name == name] \
                if obj.kind == "Pod" else []
            evidence = [ev(obj, f, name, f"an existing {kind}") for f in fields] or \
                [ev(obj, via, name, f"an existing {kind}") for via in vias]
            finding = rule.fail(obj, *evidence, ref_kind=kind, ref_name=name,
                                where=", ".join(e.field for e in evidence))
            retired = _retired_revision(graph, source, obj, kind, objects)
            yield finding.as_info(resolved=retired) if retired else finding


# Controllers a Deployment or DeploymentConfig leaves behind, one per old revision, scaled to 0.
_REVISION_KINDS = frozenset({"ReplicaSet", "ReplicationController"})


def _retired_revision(graph: nx.MultiDiGraph, source: str, obj: KubeObject, kind: str,
                      objects: dict[str, KubeObject]) -> str:
    """Why a controller's template reference fails no pod now: scaled to 0 with no pod left, or
    only pods already being deleted (an old revision mid-rollout, whose Secret the operator has
    since rotated away: a running pod keeps what it mounted); "" otherwise."""
    if obj.kind not in _REVISION_KINDS or obj.view.spec.replicas != 0 or obj.view.status.replicas:
        return ""
    owned = [target for target, keyed in graph._succ[source].items()
             if any(d.get("relation") == "owns" for d in keyed.values())]
    if any(not _terminating(objects.get(target)) for target in owned):
        return ""
    owner = next((f"{ref.kind} {ref.name}" for ref in obj.view.metadata.ownerReferences or ()
                  if ref.controller and ref.kind and ref.name), "")
    revision = f"an old revision of {owner}, " if owner else ""
    if owned:
        return f"{revision}scaled to 0, its last {len(owned)} pod(s) being deleted: no pod will start from it to need the {kind}"
    return f"{revision}scaled to 0 with no pod left: no pod refers to the {kind} now"


def _terminating(pod: KubeObject | None) -> bool:
    """A pod the API server is deleting (its deletionTimestamp set: Terminating)."""
    return pod is not None and bool(pod.view.metadata.deletionTimestamp)


@once_per
def _missing_targets(graph: nx.MultiDiGraph) -> dict[str, dict[str, dict[str, list[str]]]]:
    """Every required reference to a `missing` node, by the kind referred to (kind -> source ->
    missing target -> its references, "relation: via", in edge order): one pass over the missing
    nodes' in-edges shared by the five missing-reference rules (each walked every edge of the graph)."""
    found: dict[str, dict[str, dict[str, list[str]]]] = {}
    # The graph's own in-adjacency, read directly (what in_edges walks, in its order, without
    # a view per missing node: thousands on 20,000 pods).
    pred = graph._pred
    for target, node in graph.nodes(data=True):
        kind = node.get("kind")
        if node.get("state") != "missing" or kind not in RELATIONS:
            continue
        relations = RELATIONS[kind]
        # A (source, target) pair's parallel edges come in the same order as in a walk over
        # graph.edges() (one key dict serves both directions); sources and targets are sorted
        # by the caller.
        for source, keyed in pred[target].items():
            for data in keyed.values():
                if data.get("relation") in relations and not data.get("optional"):
                    found.setdefault(kind, {}).setdefault(source, {}).setdefault(target, []).append(
                        f"{data.get('relation')}: {data.get('via') or kind}")
    return found
