"""Storage: PersistentVolumeClaims, PersistentVolumes and StorageClasses."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from analyzer.kube.quantities import quantities
from analyzer.kube.views import PersistentVolumeView
from analyzer.model.frame import empty_columns, to_frame
from analyzer.model.normalize import builtin_objects, joined, source_of, text_age

if TYPE_CHECKING:
    from analyzer.ingest.dump import Dump

DEFAULT_CLASS_ANNOTATIONS = ("storageclass.kubernetes.io/is-default-class",
                             "storageclass.beta.kubernetes.io/is-default-class")
# PV source fields the view reads, in the order they are looked for.
VOLUME_TYPES = ("csi", "hostPath", "nfs", "local")
STORAGE = ("storage",)


def volume_type(view: PersistentVolumeView) -> str | None:
    """Which volume source a PersistentVolume uses (csi, hostPath, nfs, local)."""
    return next((t for t in VOLUME_TYPES if getattr(view.spec, t) is not None), None)


def build(cluster: Dump) -> dict[str, pd.DataFrame]:
    """pvcs, pvs and storage_classes."""
    capture = cluster.capture_time
    c = empty_columns("pvcs")
    for obj in builtin_objects(cluster, "PersistentVolumeClaim"):
        view = obj.view
        spec, status = view.spec, view.status
        requests = spec.resources.requests if spec.resources else None
        c["namespace"].append(obj.namespace)
        c["name"].append(obj.name)
        c["uid"].append(obj.uid)
        c["created"].append(view.metadata.creationTimestamp)
        c["age"].append(text_age(view))
        c["phase"].append(status.phase)
        c["storage_class"].append(spec.storageClassName)
        c["volume"].append(spec.volumeName or None)
        # Those asked for; a pasted `get pvc` row shows only those granted (its ACCESS MODES).
        c["access_modes"].append(joined(spec.accessModes or status.accessModes or ()))
        unreadable: list[str] = []
        requested, = quantities(requests, STORAGE, "requests", unreadable)
        capacity, = quantities(status.capacity, STORAGE, "capacity", unreadable)
        c["requested_bytes"].append(requested)
        c["capacity_bytes"].append(capacity)
        c["resources_raw"].append(",".join(unreadable) or None)
        c["source"].append(source_of(obj))

    v = empty_columns("pvs")
    for obj in builtin_objects(cluster, "PersistentVolume"):
        view = obj.view
        spec = view.spec
        claim = spec.claimRef
        v["name"].append(obj.name)
        v["uid"].append(obj.uid)
        v["created"].append(view.metadata.creationTimestamp)
        v["age"].append(text_age(view))
        v["phase"].append(view.status.phase)
        v["storage_class"].append(spec.storageClassName)
        unreadable = []
        capacity, = quantities(spec.capacity, STORAGE, "capacity", unreadable)
        v["capacity_bytes"].append(capacity)
        v["resources_raw"].append(",".join(unreadable) or None)
        v["claim_namespace"].append(claim.namespace if claim else None)
        v["claim_name"].append(claim.name if claim else None)
        v["reclaim_policy"].append(spec.persistentVolumeReclaimPolicy)
        v["access_modes"].append(joined(spec.accessModes or ()))
        v["csi_driver"].append((spec.csi or {}).get("driver"))
        v["volume_type"].append(volume_type(view))
        v["source"].append(source_of(obj))

    s = empty_columns("storage_classes")
    for obj in builtin_objects(cluster, "StorageClass"):
        view = obj.view
        annotations = view.metadata.annotations or {}
        default = any(str(annotations.get(a, "")).lower() == "true"
                      for a in DEFAULT_CLASS_ANNOTATIONS)
        s["name"].append(obj.name)
        s["uid"].append(obj.uid)
        s["created"].append(view.metadata.creationTimestamp)
        s["provisioner"].append(view.provisioner)
        s["reclaim_policy"].append(view.reclaimPolicy)
        s["binding_mode"].append(view.volumeBindingMode)
        s["allow_expansion"].append(view.allowVolumeExpansion)
        s["default"].append(default or bool(view.text and view.text.default))
    return {
        "pvcs": to_frame("pvcs", c, capture, ["namespace", "name"]),
        "pvs": to_frame("pvs", v, capture, ["name"]),
        "storage_classes": to_frame("storage_classes", s, capture, ["name"]),
    }
