"""Typed Lists as a Go client's List call returns them, in Go struct field order."""

from __future__ import annotations

import copy

from synthetic.emit.go_order import go_order_list
from synthetic.emit.sources import ObjectSource
from synthetic.objects import Obj

LIST_KINDS = {
    "Node": ("NodeList", "v1"), "Namespace": ("NamespaceList", "v1"), "Pod": ("PodList", "v1"),
    "Service": ("ServiceList", "v1"), "Endpoints": ("EndpointsList", "v1"), "Event": ("EventList", "v1"),
    "ConfigMap": ("ConfigMapList", "v1"), "ReplicationController": ("ReplicationControllerList", "v1"),
    "PersistentVolumeClaim": ("PersistentVolumeClaimList", "v1"),
    "PersistentVolume": ("PersistentVolumeList", "v1"),
    "StorageClass": ("StorageClassList", "storage.k8s.io/v1"),
    "Deployment": ("DeploymentList", "apps/v1"), "DaemonSet": ("DaemonSetList", "apps/v1"),
    "ReplicaSet": ("ReplicaSetList", "apps/v1"), "StatefulSet": ("StatefulSetList", "apps/v1"),
    "Job": ("JobList", "batch/v1"),
}


def typed_list(cluster: ObjectSource, kind: str, namespace: str | None, keep_item_type_meta: bool,
               managed_fields: bool) -> Obj:
    """What a typed client's List call returns, in Go field order."""
    list_kind, api_version = LIST_KINDS[kind]
    items = cluster.of_kind(kind, namespace)
    if not managed_fields:
        # kubectl >= 1.21 prints through OmitManagedFieldsPrinter unless --show-managed-fields
        items = [without_managed_fields(o) for o in items]
    return go_order_list({"kind": list_kind, "apiVersion": api_version,
                          "metadata": {"resourceVersion": cluster.list_rv}, "items": items}, keep_item_type_meta)


def without_managed_fields(obj: Obj) -> Obj:
    """A copy of `obj` without metadata.managedFields."""
    out = copy.deepcopy(obj)
    out["metadata"].pop("managedFields", None)
    return out
