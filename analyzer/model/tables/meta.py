"""Tables about every object whatever its kind: objects, namespaces, labels, annotations, owners."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from pandas.arrays import ArrowStringArray

from analyzer.kube.kinds import group_of, is_builtin_group
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
from analyzer.model.managed import managed_index
from analyzer.model.normalize import builtin_objects, controller_of, source_of, text_age
from analyzer.model.rowpool import RowPool, memo_key, take_rows
from analyzer.sensitive.masking import mask_annotation

if TYPE_CHECKING:
    from analyzer.ingest.dump import Dump

LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"
MAX_ANNOTATION_CHARS = 1000


def annotation_value(key: str, value: object, show_sensitive: bool = False) -> str:
    """What the annotations table shows for one annotation (credentials masked unless asked).

    Examples:
        >>> annotation_value(LAST_APPLIED, '{"kind":"Secret","data":{"pw":"aHVudGVyMg=="}}')
        '<last-applied: 46 bytes>'
        >>> annotation_value("example.com/conn", "Server=x;Password=y")
        'Server=x;Password=<redacted>'
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


class _AnnotationRows:
    """The annotations table's rows, each distinct (key, value) stored once as a row of its own
    and placed for every object that has it; an object's whole set, when its encoding was seen
    before, placed in one step. Pods whose annotations differ in a few (a CNI's per-pod address
    and container id) still share the rest, and each distinct annotation is masked once."""

    def __init__(self, pool: RowPool, show_sensitive: bool) -> None:
        self.pool = pool
        self.show_sensitive = show_sensitive
        self.row_of: dict[tuple[str, str], int] = {}  # (key, value) -> its stored row (group)
        self.rows_of: dict[bytes, list[int]] = {}  # an annotations dict's encoding -> its rows

    def add(self, annotations: dict[str, object], key: bytes | None, parent: int) -> None:
        rows = self.rows_of.get(key) if key is not None else None
        if rows is None:
            rows = self.rows(annotations)
            if key is not None:
                self.rows_of[key] = rows
        pool = self.pool
        pool.placed.extend(rows)
        pool.parents.extend([parent] * len(rows))

    def rows(self, annotations: dict[str, object]) -> list[int]:
        row_of, store, show_sensitive = self.row_of, self.pool.store, self.show_sensitive
        rows = []
        for pair in annotations.items():
            k, v = pair
            if type(v) is str:
                row = row_of.get(pair)
                if row is None:
                    row = row_of[pair] = store([(k, annotation_value(k, v, show_sensitive))])
            else:
                row = store([(k, annotation_value(k, v, show_sensitive))])
            rows.append(row)
        return rows


def _object_ids(groups: Sequence[str | None], kind: pd.Categorical, namespace: pd.Categorical,
                name: ArrowStringArray) -> Any:
    """ObjectKey.id of each object, `{group or 'core'}/{kind}/{namespace}/{name}`, from its
    cast columns (one Arrow join instead of a Python f-string per object)."""
    parts = [pa.array(values).cast(pa.large_string()) for values in (kind, namespace, name)]
    try:
        group = pc.fill_null(pa.array(groups, type=pa.large_string()), "")
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        group = None
    if group is None or any(part.null_count for part in parts):
        # Not all text (a hand-made key): the f-string's own rendering.
        return [f"{g or 'core'}/{k}/{ns}/{n}" for g, k, ns, n
                in zip(groups, kind, namespace, name, strict=True)]
    group = pc.if_else(pc.equal(group, ""), pa.scalar("core", pa.large_string()), group)
    joined = pc.binary_join_element_wise(group, *parts, pa.scalar("/", pa.large_string()))
    return ArrowStringArray(joined)


def _per_namespace(namespace: pd.Categorical, rows: np.ndarray | None = None) -> np.ndarray:
    """How many of the objects (all, or those where `rows` is True) are in each namespace
    category."""
    codes = namespace.codes if rows is None else namespace.codes[rows]
    return np.bincount(codes[codes >= 0], minlength=len(namespace.categories))


def _builtin_pods(kind: pd.Categorical, key_group: pd.Categorical) -> np.ndarray:
    """Per object, whether it is a built-in Pod (what `builtin_objects(cluster, "Pod")`
    yields: a Pod whose key's group serves Pods), from the cast columns: no object is read
    again."""
    pod = kind.categories.get_indexer(["Pod"])[0]
    if pod < 0:
        return np.zeros(len(kind), dtype=bool)
    # Per group category (and a last entry for a missing group): whether it serves Pods.
    serves = np.array([is_builtin_group("Pod", g) for g in key_group.categories] + [False])
    return (kind.codes == pod) & serves[key_group.codes]


def _namespace_columns(cluster: Dump, namespace: pd.Categorical, pods: np.ndarray
                       ) -> dict[str, list[Any]]:
    """The namespaces table: those listed and those any object names, with their counts
    (`pods` says which objects are built-in Pods)."""
    listed = {obj.name: obj for obj in builtin_objects(cluster, "Namespace")}
    objects_per_ns = {ns: int(n) for ns, n
                      in zip(namespace.categories, _per_namespace(namespace), strict=True)
                      if ns and n}
    pods_per_ns = {ns: int(n) for ns, n
                   in zip(namespace.categories, _per_namespace(namespace, pods), strict=True)}
    columns = empty_columns("namespaces")
    for name in sorted(set(listed) | set(objects_per_ns)):
        obj = listed.get(name)
        view = obj.view if obj else None
        columns["name"].append(name)
        columns["uid"].append(obj.uid if obj else None)
        columns["created"].append(view.metadata.creationTimestamp if view else None)
        columns["age"].append(text_age(view) if view else None)
        columns["phase"].append(getattr(getattr(view, "status", None), "phase", None))
        columns["listed"].append(obj is not None)
        columns["pods"].append(pods_per_ns.get(name, 0))
        columns["objects"].append(objects_per_ns.get(name, 0))
    return columns


def build(cluster: Dump) -> dict[str, pd.DataFrame]:
    """objects, namespaces, labels, annotations and owner_refs in one pass over all objects."""
    object_rows: list[tuple[object, ...]] = []
    # Labels and annotations are pooled: a group repeated by the pods of one workload is
    # stored once (keyed by its msgpack encoding, for objects read from JSON).
    label_pool = RowPool("labels", first=3)
    annotation_pool = RowPool("annotations", first=3)
    owner_rows: list[tuple[object, ...]] = []  # owner_refs' columns after kind/namespace/name
    owner_of: list[int] = []
    annotation_rows = _AnnotationRows(annotation_pool, getattr(cluster, "show_sensitive", False))

    managed = managed_index(cluster)
    provenance = source = None
    for i, obj in enumerate(cluster.objects):
        meta = obj.view.metadata
        key = obj.key
        owner = controller_of(meta)
        meta_labels = meta.labels
        if obj.provenance is not provenance:  # the objects of one document share theirs
            provenance, source = obj.provenance, source_of(obj)
        # One row tuple: the objects table's columns in declared order, but for the key
        # column's: it holds key.group, the ids are joined after the walk (`_object_ids`).
        object_rows.append((
            key.group, key.group or group_of(obj.api_version), key.kind, obj.api_version or None,
            key.namespace, key.name, obj.uid, meta.creationTimestamp, text_age(obj.view),
            meta.deletionTimestamp is not None,
            owner.kind if owner else None, owner.name if owner else None,
            len(meta_labels or ()), provenance.format, source, obj.duplicates,
            managed.of(key.namespace, meta_labels, meta.annotations,
                       (owner.kind, owner.name) if owner else None) or None,
        ))

        # Long form by whole groups (~10 labels per object); the rows point back to their
        # object by index, and kind/namespace/name are taken from the objects columns.
        plain = obj.json_types
        if meta_labels:
            label_pool.add_group(memo_key(meta_labels) if plain else None,
                                 _label_rows, meta_labels, i)
        if meta.annotations:
            notes = meta.annotations
            annotation_rows.add(notes, memo_key(notes) if plain else None, i)
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
    objects["key"] = _object_ids(objects["key"], objects["kind"], objects["namespace"],
                                 objects["name"])

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

    key_group = cast_column([row[0] for row in object_rows], "category")
    namespaces = _namespace_columns(cluster, identity["namespace"],
                                    _builtin_pods(identity["kind"], key_group))

    capture = cluster.capture_time
    # Sorted above: objects, owner_refs by kind/namespace/name, labels and annotations then
    # by key.
    return {
        "objects": to_frame("objects", objects, capture),
        "namespaces": to_frame("namespaces", namespaces, capture, ["name"]),
        **{name: to_frame(name, columns, capture) for name, columns in long_tables.items()},
    }
