"""A pod volume as rows: its type and the object it refers to (one row per projected source)."""

from __future__ import annotations

from typing import Any, NamedTuple

from analyzer.model.normalize import as_list


class VolumeRow(NamedTuple):
    name: str
    type: str | None
    ref_kind: str | None
    ref_name: str | None
    optional: bool | None
    host_path: str | None
    read_only: bool | None
    detail: str | None


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
    """Rows for one pod volume; `mounted_read_only` says whether every mount of it is read-only.

    Examples:
        >>> volume_rows("web-0", {"name": "data", "persistentVolumeClaim": {"claimName": "d"}}, None)
        [VolumeRow(name='data', type='persistentVolumeClaim', ref_kind='PersistentVolumeClaim', ref_name='d', optional=None, host_path=None, read_only=None, detail=None)]
        >>> [r.ref_kind for r in volume_rows("p", {"name": "kube-api-access", "projected": {
        ...     "sources": [{"serviceAccountToken": {"path": "token"}},
        ...                 {"configMap": {"name": "kube-root-ca.crt"}}]}}, True)]
        ['ServiceAccount token', 'ConfigMap']
        >>> volume_rows("p", {"name": "cache", "emptyDir": {"medium": "Memory"}}, False)[0].detail
        'medium=Memory'
        >>> volume_rows("web-0", {"name": "scratch", "ephemeral": {}}, None)[0].ref_name
        'web-0-scratch'
    """
    name = volume.get("name") or ""
    kind = next((k for k in volume if k != "name"), None)
    spec = volume.get(kind) if kind else None
    spec = spec if isinstance(spec, dict) else {}
    read_only = spec.get("readOnly") if spec.get("readOnly") is not None else mounted_read_only
    if kind == "projected":
        rows = []
        for source in as_list(spec.get("sources")) or [{}]:
            src_kind = next(iter(source), None) if isinstance(source, dict) else None
            src = source.get(src_kind) if src_kind else None
            src = src if isinstance(src, dict) else {}
            rows.append(VolumeRow(
                name, kind, _PROJECTED.get(src_kind or "", src_kind) or None,
                src.get("name"), src.get("optional"), None, read_only,
                f"source={src_kind}" if src_kind else None))
        return rows
    ref_kind = ref_name = None
    if kind in _REFERENCES:
        ref_kind, field = _REFERENCES[kind]
        ref_name = spec.get(field)
    elif kind == "ephemeral":
        # A generic ephemeral volume's claim is named <pod>-<volume> by the controller.
        ref_kind, ref_name = "PersistentVolumeClaim", f"{pod_name}-{name}"
    host_path = spec.get("path") if kind == "hostPath" else None
    return [VolumeRow(name, kind, ref_kind, ref_name, spec.get("optional"), host_path,
                      read_only, _detail(kind or "", spec))]
