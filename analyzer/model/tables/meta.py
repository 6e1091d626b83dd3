"""Tables about every object whatever its kind: objects, namespaces, labels, annotations, owners."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from analyzer.ingest.records import group_of
from analyzer.model.credentials import mask_annotation
from analyzer.model.frame import cast_column, empty_columns, to_frame
from analyzer.model.normalize import controller_of, is_builtin, source_of, text_age

if TYPE_CHECKING:
    from analyzer.cluster import Cluster

LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"
MAX_ANNOTATION_CHARS = 1000


def annotation_value(key: str, value: object) -> str:
    """What the annotations table shows for one annotation.

    Examples:
        >>> annotation_value(LAST_APPLIED, '{"kind":"Secret","data":{"pw":"aHVudGVyMg=="}}')
        '<last-applied: 46 bytes>'
        >>> annotation_value("example.com/conn", "Server=x;Password=y")
        '<masked>'
        >>> len(annotation_value("example.com/long", "x" * 5000))
        1000
    """
    text = "" if value is None else value if isinstance(value, str) else str(value)
    if key == LAST_APPLIED:
        # It repeats the whole object, Secret data included: only its size is worth showing.
        return f"<last-applied: {len(text.encode())} bytes>"
    return mask_annotation(key, text)[:MAX_ANNOTATION_CHARS]


def build(cluster: Cluster) -> dict[str, pd.DataFrame]:
    """objects, namespaces, labels, annotations and owner_refs in one pass over all objects."""
    objects = empty_columns("objects")
    labels = empty_columns("labels")
    annotations = empty_columns("annotations")
    owners = empty_columns("owner_refs")
    objects_per_ns: Counter[str] = Counter()
    pods_per_ns: Counter[str] = Counter()
    listed = {}

    label_of: list[int] = []
    annotation_of: list[int] = []
    owner_of: list[int] = []
    for i, obj in enumerate(cluster.objects):
        meta = obj.view.metadata
        kind, ns, name = obj.kind, obj.namespace, obj.name
        owner = controller_of(meta)
        objects["key"].append(obj.key.id)
        objects["group"].append(obj.key.group or group_of(obj.api_version))
        objects["kind"].append(kind)
        objects["api_version"].append(obj.api_version or None)
        objects["namespace"].append(ns)
        objects["name"].append(name)
        objects["uid"].append(obj.uid)
        objects["created"].append(meta.creationTimestamp)
        objects["age"].append(text_age(obj.view))
        objects["deleting"].append(meta.deletionTimestamp is not None)
        objects["owner_kind"].append(owner.kind if owner else None)
        objects["owner_name"].append(owner.name if owner else None)
        objects["label_count"].append(len(meta.labels or ()))
        objects["format"].append(obj.provenance.format)
        objects["source"].append(source_of(obj))
        objects["duplicates"].append(obj.duplicates)

        if ns:
            objects_per_ns[ns] += 1
            if kind == "Pod" and is_builtin(obj):
                pods_per_ns[ns] += 1
        if kind == "Namespace" and is_builtin(obj):
            listed[name] = obj

        # Long form by whole-object extends (~10 labels per object); the rows point back to
        # their object by index, and kind/namespace/name are taken from the objects columns.
        if meta.labels:
            label_of.extend([i] * len(meta.labels))
            labels["key"].extend(meta.labels)
            labels["value"].extend(v if isinstance(v, str) or v is None else str(v)
                                   for v in meta.labels.values())
        if meta.annotations:
            annotation_of.extend([i] * len(meta.annotations))
            annotations["key"].extend(meta.annotations)
            annotations["value"].extend(annotation_value(k, v)
                                        for k, v in meta.annotations.items())
        for ref in meta.ownerReferences or ():
            owner_of.append(i)
            owners["owner_kind"].append(ref.kind or None)
            owners["owner_name"].append(ref.name or None)
            owners["owner_uid"].append(ref.uid)
            owners["controller"].append(ref.controller)

    namespaces = empty_columns("namespaces")
    for name in sorted(set(listed) | set(objects_per_ns)):
        obj = listed.get(name)
        view = obj.view if obj else None
        namespaces["name"].append(name)
        namespaces["uid"].append(obj.uid if obj else None)
        namespaces["created"].append(view.metadata.creationTimestamp if view else None)
        namespaces["age"].append(text_age(view) if view else None)
        namespaces["phase"].append(getattr(getattr(view, "status", None), "phase", None))
        namespaces["listed"].append(obj is not None)
        namespaces["pods"].append(pods_per_ns[name])
        namespaces["objects"].append(objects_per_ns[name])

    # Cast the identity columns once; the long tables take them by object index.
    identity = {c: cast_column(objects[c], dtype)
                for c, dtype in (("kind", "category"), ("namespace", "category"), ("name", "str"))}
    objects.update(identity)
    for table, rows_of in ((labels, label_of), (annotations, annotation_of), (owners, owner_of)):
        index = np.asarray(rows_of, dtype=np.intp)
        table.update({c: values.take(index) for c, values in identity.items()})

    capture = cluster.capture_time
    return {
        "objects": to_frame("objects", objects, capture, ["kind", "namespace", "name"]),
        "namespaces": to_frame("namespaces", namespaces, capture, ["name"]),
        "labels": to_frame("labels", labels, capture, ["kind", "namespace", "name", "key"]),
        "annotations": to_frame("annotations", annotations, capture,
                                ["kind", "namespace", "name", "key"]),
        "owner_refs": to_frame("owner_refs", owners, capture, ["kind", "namespace", "name"]),
    }
