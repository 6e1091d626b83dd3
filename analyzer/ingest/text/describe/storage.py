"""`kubectl describe pvc` and `pv`: phase, class, volume or claim, and what the claim's pods or
the volume's source are."""

from __future__ import annotations

from typing import Any

from analyzer.ingest.text.describe.context import DescribeContext
from analyzer.ingest.text.describe.pod import being_deleted
from analyzer.ingest.text.describe.tree import Entry
from analyzer.ingest.text.types import TextObject
from analyzer.ingest.text.values import cell, csv, set_path

# kubectl prints access modes short (`RWO,RWX`).
ACCESS_MODES = {"RWO": "ReadWriteOnce", "RWX": "ReadWriteMany", "ROX": "ReadOnlyMany",
                "RWOP": "ReadWriteOncePod"}


def read_claim(root: Entry, body: dict[str, Any], facts: dict[str, Any],
               ctx: DescribeContext) -> list[TextObject]:
    """Fill a PersistentVolumeClaim from its describe."""
    status = cell(root.child_value("Status"))
    if status and not being_deleted(status, facts):  # (the phase is not printed then)
        set_path(body, "status.phase", status)
    for key, path in (("StorageClass", "spec.storageClassName"),
                      ("Volume", "spec.volumeName"), ("VolumeMode", "spec.volumeMode"),
                      ("Capacity", "status.capacity.storage")):
        if value := cell(root.child_value(key)):
            set_path(body, path, value)
    if modes := [ACCESS_MODES.get(m, m) for m in csv(root.child_value("Access Modes"))]:
        set_path(body, "spec.accessModes", modes)
    # `Used By:` (kubectl 1.20 on), `Mounted By:` before: the pods that mount the claim
    users = root.child("Used By") or root.child("Mounted By")
    if used_by := [name for value in (users.values if users else ()) for name in csv(value)
                   if cell(name) is not None]:
        facts["used_by"] = used_by
    return []


# A volume's `Source:` by its `Type:` (k8s.io/kubectl describe.go's print*VolumeSource): the
# spec field it fills, and its lines by the fields they fill.
_SOURCES: dict[str, tuple[str, dict[str, str]]] = {
    "CSI": ("csi", {"Driver": "driver", "VolumeHandle": "volumeHandle", "FSType": "fsType"}),
    "HostPath": ("hostPath", {"Path": "path", "HostPathType": "type"}),
    "NFS": ("nfs", {"Server": "server", "Path": "path"}),
    "LocalVolume": ("local", {"Path": "path"}),
}


def read_volume(root: Entry, body: dict[str, Any], facts: dict[str, Any],
                ctx: DescribeContext) -> list[TextObject]:
    """Fill a PersistentVolume from its describe: its phase, claim, class, reclaim policy, access
    modes, capacity and source (what `kubectl get pv` and the storage rules read)."""
    status = cell(root.child_value("Status"))
    if status and not being_deleted(status, facts):
        set_path(body, "status.phase", status)
    for key, path in (("StorageClass", "spec.storageClassName"), ("Reclaim Policy", "spec.persistentVolumeReclaimPolicy"),
                      ("VolumeMode", "spec.volumeMode"), ("Capacity", "spec.capacity.storage"),
                      ("Message", "status.message")):
        if value := cell(root.child_value(key)):
            set_path(body, path, value)
    namespace, _, name = (cell(root.child_value("Claim")) or "").rpartition("/")
    if namespace and name:
        set_path(body, "spec.claimRef", {"kind": "PersistentVolumeClaim", "namespace": namespace, "name": name})
    if modes := [ACCESS_MODES.get(m, m) for m in csv(root.child_value("Access Modes"))]:
        set_path(body, "spec.accessModes", modes)
    if (source := root.child("Source")) is not None:
        kind = (cell(source.child_value("Type")) or "").partition(" ")[0]
        field, lines = _SOURCES.get(kind, ("", {}))
        read = {target: value for key, target in lines.items() if (value := cell(source.child_value(key)))}
        if field and read:
            set_path(body, f"spec.{field}", read)
    return []


READERS = {"PersistentVolumeClaim": read_claim, "PersistentVolume": read_volume}
