"""Tables about every object whatever its kind: objects, namespaces, labels, annotations, owners."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from analyzer.ingest.records import group_of
from analyzer.model.credentials import mask_annotation
from analyzer.model.frame import (
    cast_column,
    child_order,
    columns_from_rows,
    dense_rank,
    empty_columns,
    in_order,
    sort_key,
    to_frame,
)
from analyzer.model.normalize import controller_of, is_builtin, source_of, text_age
from analyzer.model.rowpool import RowPool, memo_key, take_rows

if TYPE_CHECKING:
    from analyzer.cluster import Cluster

LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"
MAX_ANNOTATION_CHARS = 1000


def annotation_value(key: str, value: object, show_sensitive: bool = False) -> str:
    """What the annotations table shows for one annotation (credentials masked unless asked).

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
    shown = text if show_sensitive else mask_annotation(key, text)
    return shown[:MAX_ANNOTATION_CHARS]


def _label_rows(labels: dict[str, object]) -> list[tuple[str, str | None]]:
    return [(k, v if isinstance(v, str) or v is None else str(v)) for k, v in labels.items()]


def _annotation_rows(annotations: dict[str, object], shown: dict[tuple[str, str], str],
                     show_sensitive: bool = False) -> list[tuple[str, str]]:
    rows = []
    for k, v in annotations.items():
        if type(v) is str:
            text = shown.get((k, v))
            if text is None:
                text = shown[(k, v)] = annotation_value(k, v, show_sensitive)
        else:
            text = annotation_value(k, v, show_sensitive)
        rows.append((k, text))
    return rows


def build(cluster: Cluster) -> dict[str, pd.DataFrame]:
    """objects, namespaces, labels, annotations and owner_refs in one pass over all objects."""
    object_rows: list[tuple[object, ...]] = []
    # Labels and annotations are pooled: a group repeated by the pods of one workload is
    # stored once (keyed by its msgpack encoding, for objects read from JSON).
    label_pool = RowPool("labels", first=3)
    annotation_pool = RowPool("annotations", first=3)
    owner_rows: list[tuple[object, ...]] = []  # owner_refs' columns after kind/namespace/name
    owner_of: list[int] = []
    objects_per_ns: Counter[str] = Counter()
    pods_per_ns: Counter[str] = Counter()
    listed = {}
    # (key, value) -> annotation_value: the pods of one workload repeat their annotations.
    shown: dict[tuple[str, str], str] = {}
    show_sensitive = getattr(cluster, "show_sensitive", False)

    for i, obj in enumerate(cluster.objects):
        meta = obj.view.metadata
        key = obj.key
        kind, ns, name = key.kind, key.namespace, key.name
        owner = controller_of(meta)
        meta_labels = meta.labels
        # One row tuple: the objects table's columns in declared order.
        object_rows.append((
            key.id, key.group or group_of(obj.api_version), kind, obj.api_version or None,
            ns, name, obj.uid, meta.creationTimestamp, text_age(obj.view),
            meta.deletionTimestamp is not None,
            owner.kind if owner else None, owner.name if owner else None,
            len(meta_labels or ()), obj.provenance.format, source_of(obj), obj.duplicates,
        ))

        if ns:
            objects_per_ns[ns] += 1
            if kind == "Pod" and is_builtin(obj):
                pods_per_ns[ns] += 1
        if kind == "Namespace" and is_builtin(obj):
            listed[name] = obj

        # Long form by whole groups (~10 labels per object); the rows point back to their
        # object by index, and kind/namespace/name are taken from the objects columns.
        plain = isinstance(obj.raw, bytes | memoryview)
        if meta_labels:
            group = memo_key(meta_labels) if plain else None
            if group is not None:
                label_pool.add_group(group, lambda m=meta_labels: _label_rows(m), i)
            else:
                label_pool.add_rows(_label_rows(meta_labels), i)
        if meta.annotations:
            notes = meta.annotations
            group = memo_key(notes) if plain else None
            if group is not None:
                annotation_pool.add_group(
                    group, lambda m=notes: _annotation_rows(m, shown, show_sensitive), i)
            else:
                annotation_pool.add_rows(_annotation_rows(notes, shown, show_sensitive), i)
        if meta.ownerReferences:
            for ref in meta.ownerReferences:
                owner_of.append(i)
                owner_rows.append((ref.kind or None, ref.name or None, ref.uid, ref.controller))

    # The identity columns are cast once: the objects are ranked by them, and the long tables
    # take them by object index and are sorted by their object's rank, so no string is
    # compared twice. Every table is put in order before it is framed (no sort there).
    identity_columns = (("kind", 2, "category"), ("namespace", 4, "category"), ("name", 5, "str"))
    identity = {c: cast_column([row[at] for row in object_rows], dtype)
                for c, at, dtype in identity_columns}
    object_rank = dense_rank(list(identity.values()))
    object_order = np.argsort(object_rank, kind="stable")
    objects = columns_from_rows("objects", in_order(object_rows, object_order))
    objects.update(take_rows(identity, object_order))

    def with_identity(columns: dict[str, Any], object_of: np.ndarray) -> dict[str, Any]:
        return {**columns, **take_rows(identity, object_of)}

    long_tables = {}
    for table_name, pool in (("labels", label_pool), ("annotations", annotation_pool)):
        ids, placement = pool.layout()
        object_of = np.asarray(pool.parents, dtype=np.intp)[placement]
        distinct = pool.distinct_columns()
        order = child_order(object_rank, object_of, sort_key(distinct["key"])[ids])
        long_tables[table_name] = with_identity(take_rows(distinct, ids[order]),
                                                object_of[order])
    owner_of_array = np.asarray(owner_of, dtype=np.intp)
    order = child_order(object_rank, owner_of_array)
    long_tables["owner_refs"] = with_identity(
        columns_from_rows("owner_refs", in_order(owner_rows, order), first=3),
        owner_of_array[order])

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

    capture = cluster.capture_time
    # Sorted above: objects, owner_refs by kind/namespace/name, labels and annotations then
    # by key.
    return {
        "objects": to_frame("objects", objects, capture),
        "namespaces": to_frame("namespaces", namespaces, capture, ["name"]),
        **{name: to_frame(name, columns, capture) for name, columns in long_tables.items()},
    }
