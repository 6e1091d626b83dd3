"""`mounts`: pod volumes (and projected sources) to the ConfigMaps, Secrets and claims they mount."""

from __future__ import annotations

from typing import Any

from analyzer.graph.context import GraphContext, Reference
from analyzer.graph.relations import Relation
from analyzer.graph.shapes import mapping, text

RELATION = Relation(
    name="mounts",
    source="Pod, and workloads/CronJobs through their pod template",
    target="ConfigMap, Secret, PersistentVolumeClaim",
    description="spec.volumes (configMap, secret, persistentVolumeClaim, projected sources, "
    "secret refs of csi/cephfs/rbd/... volumes, generic ephemeral claims); pod -> object. "
    "A StatefulSet also mounts the claims its volumeClaimTemplates made "
    "(<template>-<statefulset>-<ordinal>) that the dump holds, even while scaled to zero.",
)

# Volume source -> (kind, field holding the name). Secret references of driver volumes too:
# a missing one keeps the pod in ContainerCreating just as a missing configMap does.
VOLUME_REFERENCES: dict[str, tuple[str, str]] = {
    "configMap": ("ConfigMap", "name"),
    "secret": ("Secret", "secretName"),
    "persistentVolumeClaim": ("PersistentVolumeClaim", "claimName"),
    "azureFile": ("Secret", "secretName"),
}
SECRET_REF_VOLUMES = frozenset({"csi", "cephfs", "rbd", "flexVolume", "iscsi", "scaleIO", "storageos"})
PROJECTED_SOURCES = {"configMap": "ConfigMap", "secret": "Secret"}
REFERRING_SOURCES = frozenset({*VOLUME_REFERENCES, *SECRET_REF_VOLUMES, "projected", "ephemeral"})


def build(ctx: GraphContext) -> None:
    """Add holder -> ConfigMap/Secret/PVC for every volume reference of every pod spec."""
    relation = RELATION.name
    for held in ctx.pod_specs:
        volumes = held.spec.volumes
        if volumes:
            pod_name = held.name if held.is_pod else None
            ctx.links(held.node, held.namespace, spec_references(volumes, pod_name), relation)
    _statefulset_claims(ctx)


def spec_references(volumes: list[Any], pod_name: str | None = None) -> list[Reference]:
    """`references` of every volume of a pod spec, in order."""
    found: list[Reference] = []
    for volume in volumes:
        # Most volumes (emptyDir, hostPath, downwardAPI) refer to nothing: skip them unread.
        if isinstance(volume, dict) and not REFERRING_SOURCES.isdisjoint(volume):
            found += references(volume, pod_name)
    return found


def _statefulset_claims(ctx: GraphContext) -> None:
    # Claims by (namespace, name without its -<ordinal>): one lookup per template.
    claims: dict[tuple[str, str], list[str]] = {}
    for pvc in ctx.objects("PersistentVolumeClaim"):
        base, _, ordinal = pvc.name.rpartition("-")
        if base and ordinal.isdigit():
            claims.setdefault((pvc.namespace, base), []).append(pvc.name)
    if not claims:
        return
    for sts in ctx.objects("StatefulSet"):
        # (from the view: the body of an object read from a JSON List is found on demand)
        for template in sts.view.spec.volumeClaimTemplates or ():
            base = f"{template.metadata.name or ''}-{sts.name}"
            for name in claims.get((sts.namespace, base), ()):
                node = ctx.ref("PersistentVolumeClaim", sts.namespace, name)
                ctx.edge(ctx.node_of(sts), node, RELATION.name, "volumeClaimTemplates")


def references(volume: dict[str, Any], pod_name: str | None = None) -> list[Reference]:
    """(kind, name, optional, via) of everything one volume refers to.

    >>> references({"name": "cfg", "configMap": {"name": "settings", "optional": True}})
    [('ConfigMap', 'settings', True, 'volume cfg')]
    >>> references({"name": "tok", "projected": {"sources": [{"serviceAccountToken": {}}, {"secret": {"name": "s"}}]}})
    [('Secret', 's', False, 'projected volume tok')]
    """
    vname = volume.get("name")
    vname = vname if isinstance(vname, str) else ""
    found: list[Reference] = []
    # A volume has one source key besides its name; look only at the keys it has.
    for source, src in volume.items():
        if source == "name" or not isinstance(src, dict):
            continue
        if source in VOLUME_REFERENCES:
            kind, field = VOLUME_REFERENCES[source]
            name = src.get(field)
            if name and isinstance(name, str):
                found.append((kind, name, bool(src.get("optional")), f"volume {vname}"))
        elif source == "projected":
            sources = src.get("sources")
            for item in sources if isinstance(sources, list) else ():
                for key, ref in item.items() if isinstance(item, dict) else ():
                    kind = PROJECTED_SOURCES.get(key)
                    name = ref.get("name") if kind and isinstance(ref, dict) else None
                    if name and isinstance(name, str):
                        found.append((kind, name, bool(ref.get("optional")), f"projected volume {vname}"))
        elif source in SECRET_REF_VOLUMES:
            ref = mapping(src.get("nodePublishSecretRef") or src.get("secretRef"))
            if text(ref.get("name")):
                found.append(("Secret", ref["name"], False, f"volume {vname}"))
        elif source == "ephemeral" and pod_name:
            # A generic ephemeral volume's claim is named <pod>-<volume> (only a real pod has one).
            found.append(("PersistentVolumeClaim", f"{pod_name}-{vname}", False, f"ephemeral volume {vname}"))
    return found
