"""Pod volumes: one row per volume of each pod, with the object it refers to.

A family of its own, not built in the pods' walk: a user who asks for pods or containers does
not pay for the volumes (a pod's volumes are a fifth of its Python work on a big dump).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from analyzer.model.frame import cast_column, child_order, dense_rank, to_frame
from analyzer.model.normalize import builtin_objects
from analyzer.model.rowpool import RowPool, memo_key, take_rows
from analyzer.model.volumes import volume_rows

if TYPE_CHECKING:
    from analyzer.ingest.dump import Dump


def mounts_read_only(spec: Any) -> dict[str, bool]:
    """Volume name -> True if every mount of it is read-only, False if any is not."""
    mounts: dict[str, bool] = {}
    for group in (spec.initContainers, spec.containers, spec.ephemeralContainers):
        for c in group or ():
            for m in c.volumeMounts or ():
                name = m.name
                if not m.readOnly:
                    mounts[name] = False
                elif name not in mounts:
                    mounts[name] = True
    return mounts


def build(cluster: Dump) -> dict[str, pd.DataFrame]:
    """The volumes table, rows in the order of their pods (by namespace and name)."""
    # What the pods of one workload repeat is pooled: a volume's rows but for its name are
    # stored once per distinct (type, type's spec, read-only) and placed per pod (RowPool).
    pool = RowPool("volumes", first=3)
    groups, placed, parents = pool.groups, pool.placed, pool.parents
    names: list[str] = []
    namespaces: list[str] = []
    pod_names: list[str] = []
    for pod_index, obj in enumerate(builtin_objects(cluster, "Pod")):
        key = obj.key
        pod = key.name
        namespaces.append(key.namespace)
        pod_names.append(pod)
        spec = obj.view.spec
        volumes = spec.volumes
        if not volumes:
            continue
        # Read from JSON (or from YAML by the fast parser): equal msgpack encodings mean equal
        # values, so the groups are exact (CSafeLoader's YAML may hold dates, sets, ...).
        plain = obj.json_types
        mounts = mounts_read_only(spec)
        for volume in volumes:
            if not isinstance(volume, dict):
                continue
            name = volume.get("name") or ""
            read_only = mounts.get(name) if isinstance(name, str) else None
            # The rows of a volume but for its name follow from its type, the type's spec and
            # read_only (except an ephemeral volume's, which name the pod): pods of a workload
            # share them, even their kube-api-access-<random> projected volume.
            kind = None
            for field in volume:
                if field != "name":
                    kind = field
                    break
            encoded = (memo_key(volume[kind]) if plain and kind is not None
                       and kind != "ephemeral" else None)
            if encoded is not None:
                group_key = (kind, encoded, read_only)
                group = groups.get(group_key)
                if group is None:
                    group = groups[group_key] = pool.store(
                        [row[1:] for row in volume_rows(pod, volume, read_only)])
                placed.append(group)  # pool.place, inlined: runs per volume
                parents.append(pod_index)
            else:
                pool.add_rows([row[1:] for row in volume_rows(pod, volume, read_only)], pod_index)
            names.append(name)
    # In the pods table's order (namespace, name), stably: the pods builder's ranking.
    namespace = cast_column(namespaces, "category")
    pod_name = cast_column(pod_names, "str")
    pod_rank = dense_rank([namespace, pod_name])
    volume_ids, volume_placement = pool.layout()
    volume_pod = np.asarray(parents, dtype=np.intp)[volume_placement]
    volume_order = child_order(pod_rank, volume_pod)
    pod_of = volume_pod[volume_order]
    columns = {**take_rows(pool.distinct_columns(), volume_ids[volume_order]),
               "namespace": namespace.take(pod_of), "pod": pod_name.take(pod_of)}
    columns["name"] = cast_column(names, "str").take(volume_placement[volume_order])
    return {"volumes": to_frame("volumes", columns, cluster.capture_time)}
