"""Every real dump in shared/realdata builds every table, and each table's rows match the objects
it is built from (counted here straight from the ingested objects, not from the tables)."""

from __future__ import annotations

import pandas as pd
import pytest
from conftest import REALDATA

import analyzer
from analyzer.cluster import Cluster
from analyzer.model.normalize import is_builtin

DUMPS = sorted(p for p in REALDATA.glob("*/*") if p.is_dir())
WORKLOAD_KINDS = ("Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job", "CronJob",
                  "ReplicationController")


def builtin(cluster: Cluster, *kinds: str) -> list:
    return [o for o in cluster.objects if o.kind in kinds and is_builtin(o)]


def expected_rows(cluster: Cluster) -> dict[str, int]:
    """Row counts each table must have, from the objects themselves."""
    pods = builtin(cluster, "Pod")
    metas = [o.view.metadata for o in cluster.objects]
    endpoints = 0
    for o in builtin(cluster, "Endpoints"):
        n = sum(len(s.addresses or ()) + len(s.notReadyAddresses or ())
                for s in o.view.subsets or ())
        endpoints += max(n, 1)
    for o in builtin(cluster, "EndpointSlice"):
        endpoints += max(sum(len(e.addresses or ()) for e in o.view.endpoints or ()), 1)
    return {
        "objects": len(cluster.objects),
        "nodes": len(builtin(cluster, "Node")),
        "pods": len(pods),
        "containers": sum(len(p.view.spec.containers or ()) + len(p.view.spec.initContainers or ())
                          + len(p.view.spec.ephemeralContainers or ()) for p in pods),
        "workloads": len(builtin(cluster, *WORKLOAD_KINDS)),
        "services": len(builtin(cluster, "Service")),
        "service_ports": sum(len(s.view.spec.ports or ()) for s in builtin(cluster, "Service")),
        "endpoints": endpoints,
        "configmaps": len(builtin(cluster, "ConfigMap")),
        "secrets": len(builtin(cluster, "Secret")),
        "pvcs": len(builtin(cluster, "PersistentVolumeClaim")),
        "pvs": len(builtin(cluster, "PersistentVolume")),
        "storage_classes": len(builtin(cluster, "StorageClass")),
        "rbac_bindings": sum(max(len(b.view.subjects or ()), 1)
                             for b in builtin(cluster, "RoleBinding", "ClusterRoleBinding")),
        "events": len(builtin(cluster, "Event")),
        "labels": sum(len(m.labels or ()) for m in metas),
        "annotations": sum(len(m.annotations or ()) for m in metas),
        "owner_refs": sum(len(m.ownerReferences or ()) for m in metas),
        "logs": len(cluster.logs),
        "rejections": len(cluster.ingest.rejections),
        "images": len({c.image for p in pods for group in (p.view.spec.containers,
                       p.view.spec.initContainers, p.view.spec.ephemeralContainers)
                       for c in group or () if c.image}),
    }


def test_there_are_real_dumps() -> None:
    assert len(DUMPS) >= 25


@pytest.mark.parametrize("dump", DUMPS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_row_counts_match_object_counts(dump) -> None:
    cluster = analyzer.load(dump)
    for name, rows in expected_rows(cluster).items():
        assert len(cluster.tables[name]) == rows, name
    namespaces = {o.namespace for o in cluster.objects if o.namespace}
    namespaces |= {o.name for o in builtin(cluster, "Namespace")}
    assert set(cluster.tables.namespaces["name"]) == namespaces
    pods = cluster.tables.pods
    assert pods.groupby("namespace", observed=True).size().to_dict() == {
        k: v for k, v in cluster.tables.namespaces.set_index("name")["pods"].items() if v}


@pytest.mark.parametrize("dump", DUMPS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_tables_are_deterministic(dump) -> None:
    first, second = analyzer.load(dump), analyzer.load(dump)
    for name in ("objects", "pods", "containers", "events", "labels"):
        pd.testing.assert_frame_equal(first.tables[name], second.tables[name])
