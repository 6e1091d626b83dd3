"""A pod volume as rows: its type and the object it refers to (one row per projected source)."""

from __future__ import annotations

from typing import Any

from analyzer.model.normalize import as_list

# What each row tuple holds: the volumes table's columns after namespace and pod. Rows are
# plain tuples because a pod has ~5 volumes and a big dump ~100,000 pods' worth of them.
VOLUME_FIELDS = ("name", "type", "ref_kind", "ref_name", "optional", "host_path", "read_only",
                 "detail")
VolumeRow = tuple[Any, ...]
_NO_SPEC: dict[str, Any] = {}


# volume type -> (referenced kind, field holding the name); types that refer to an object.
_REFERENCES: dict[str, tuple[str, str]] = {
    "configMap": ("ConfigMap", "name"),
    "secret": ("Secret", "secretName"),
    "persistentVolumeClaim": ("PersistentVolumeClaim", "claimName"),
    "azureFile": ("Secret", "secretName"),
}
# projected source type -> referenced kind
_PROJECTED: dict[str, str] = {
    "configMap": "ConfigMap", "secret": "Secret", "serviceAccountToken": "ServiceAccount token",
    "downwardAPI": "", "clusterTrustBundle": "ClusterTrustBundle",
}
# Attributes worth showing per type, in this order.
_DETAIL_FIELDS: dict[str, tuple[str, ...]] = {
    "emptyDir": ("medium", "sizeLimit"),
    "hostPath": ("type",),
    "csi": ("driver", "fsType"),
    "awsElasticBlockStore": ("volumeID", "fsType"),
    "gcePersistentDisk": ("pdName", "fsType"),
    "azureDisk": ("diskName", "kind"),
    "azureFile": ("shareName",),
    "cinder": ("volumeID",),
    "iscsi": ("targetPortal", "iqn", "lun"),
    "rbd": ("pool", "image"),
    "flexVolume": ("driver",),
}


def _detail(kind: str, spec: dict[str, Any]) -> str | None:
    if kind == "nfs":
        return f"{spec.get('server', '')}:{spec.get('path', '')}"
    fields = _DETAIL_FIELDS.get(kind, ())
    parts = [f"{f}={spec[f]}" for f in fields if spec.get(f) not in (None, "")]
    return ",".join(parts) or None


def volume_rows(pod_name: str, volume: dict[str, Any], mounted_read_only: bool | None
                ) -> list[VolumeRow]:
    """Rows (VOLUME_FIELDS) for one pod volume; `mounted_read_only` says whether every mount of
    it is read-only.

    Examples:
        >>> def show(rows):
        ...     return [{k: v for k, v in zip(VOLUME_FIELDS, r) if v is not None} for r in rows]
        >>> show(volume_rows("web-0", {"name": "data", "persistentVolumeClaim": {"claimName": "d"}}, None))
        [{'name': 'data', 'type': 'persistentVolumeClaim', 'ref_kind': 'PersistentVolumeClaim', 'ref_name': 'd'}]
        >>> show(volume_rows("p", {"name": "kube-api-access", "projected": {
        ...     "sources": [{"serviceAccountToken": {"path": "token"}},
        ...                 {"configMap": {"name": "kube-root-ca.crt"}}]}}, True))
        [{'name': 'kube-api-access', 'type': 'projected', 'ref_kind': 'ServiceAccount token', 'read_only': True, 'detail': 'source=serviceAccountToken'}, {'name': 'kube-api-access', 'type': 'projected', 'ref_kind': 'ConfigMap', 'ref_name': 'kube-root-ca.crt', 'read_only': True, 'detail': 'source=configMap'}]
        >>> show(volume_rows("p", {"name": "cache", "emptyDir": {"medium": "Memory"}}, False))
        [{'name': 'cache', 'type': 'emptyDir', 'read_only': False, 'detail': 'medium=Memory'}]
        >>> show(volume_rows("web-0", {"name": "scratch", "ephemeral": {}}, None))[0]["ref_name"]
        'web-0-scratch'
    """
    name = volume.get("name") or ""
    kind = None
    for key in volume:
        if key != "name":
            kind = key
            break
    spec = volume.get(kind) if kind is not None else None
    if not isinstance(spec, dict):
        spec = _NO_SPEC
    read_only = spec.get("readOnly")
    if read_only is None:
        read_only = mounted_read_only
    if kind == "projected":
        rows = []
        for source in as_list(spec.get("sources")) or [_NO_SPEC]:
            src_kind, src = None, _NO_SPEC
            if isinstance(source, dict) and source:
                src_kind = next(iter(source))
                src = source[src_kind] if isinstance(source[src_kind], dict) else _NO_SPEC
            rows.append((name, kind, _PROJECTED.get(src_kind, src_kind) or None, src.get("name"),
                         src.get("optional"), None, read_only,
                         f"source={src_kind}" if src_kind else None))
        return rows
    ref_kind = ref_name = None
    reference = _REFERENCES.get(kind)
    if reference is not None:
        ref_kind, field = reference
        ref_name = spec.get(field)
    elif kind == "ephemeral":
        # A generic ephemeral volume's claim is named <pod>-<volume> by the controller.
        ref_kind, ref_name = "PersistentVolumeClaim", f"{pod_name}-{name}"
    host_path = spec.get("path") if kind == "hostPath" else None
    detail = _detail(kind, spec) if spec and (kind in _DETAIL_FIELDS or kind == "nfs") else None
    return [(name, kind, ref_kind, ref_name, spec.get("optional"), host_path, read_only, detail)]
