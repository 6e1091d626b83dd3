"""Velero backups: an object a file, under resources/<resource>[.<group>]/.

The layout is that of a real backup's listing (scaleoutsean/scaleoutsean.github.io,
docs/2021/02/08/use-velero-with-netapp-solidfire-and-trident-csi.html: `tar fzvx
nginx-backup-data.tar.gz` of a Velero 1.5.3 backup): metadata/version, then each object twice,
resources/<res>/namespaces/<ns>/<name>.json (resources/<res>/cluster/<name>.json for a
cluster-scoped one) and the same under v1-preferredversion/, a group named after the resource
(replicasets.apps). The objects, trimmed: the k3s bundle's nginx pod, its ReplicaSet and the
default namespace (realdata k3s/troubleshoot-testdata-supportbundle, from replicatedhq/troubleshoot
testdata/supportbundle/support-bundle.tar.gz @ 5bf008f), as Velero writes them: whole, with their
kind and apiVersion.
"""

from __future__ import annotations

import json
import tarfile
from pathlib import Path

from analyzer.ingest import ingest

POD = {"apiVersion": "v1", "kind": "Pod",
       "metadata": {"name": "nginx-deployment-7986654d4-ztx2g", "namespace": "default",
                    "uid": "3d988608-89f9-4858-84c7-1bbdf7c85bea", "creationTimestamp": "2022-12-01T14:01:21Z",
                    "labels": {"app": "nginx", "pod-template-hash": "7986654d4"},
                    "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "nginx-deployment-7986654d4",
                                         "uid": "c12bbbc6-e64b-4ac2-bada-50004f753883", "controller": True}]},
       "spec": {"containers": [{"name": "nginx", "image": "nginx:latest"}], "nodeName": "k3d-mycluster-server-0"},
       "status": {"phase": "Running", "conditions": [
           {"type": "Ready", "status": "True", "lastProbeTime": None, "lastTransitionTime": "2022-12-21T09:42:43Z"}]}}
REPLICASET = {"apiVersion": "apps/v1", "kind": "ReplicaSet",
              "metadata": {"name": "nginx-deployment-7986654d4", "namespace": "default",
                           "uid": "c12bbbc6-e64b-4ac2-bada-50004f753883"},
              "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "nginx", "pod-template-hash": "7986654d4"}}},
              "status": {"replicas": 1}}
NAMESPACE = {"apiVersion": "v1", "kind": "Namespace",
             "metadata": {"name": "default", "uid": "9baf2047-d26b-4a81-902b-95bb1d352b2a",
                          "creationTimestamp": "2022-09-23T13:46:05Z"},
             "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": "Active"}}


def _backup() -> dict[str, bytes]:
    files = {"metadata/version": b"1.1.0"}
    for res, where, obj in (("pods", "namespaces/default", POD),
                            ("replicasets.apps", "namespaces/default", REPLICASET),
                            ("namespaces", "cluster", NAMESPACE)):
        for version in ("", "v1-preferredversion/"):
            files[f"resources/{res}/{version}{where}/{obj['metadata']['name']}.json"] = json.dumps(obj).encode()
    return files


def _check(r) -> None:
    assert sorted(o.key.id for o in r.objects) == [
        "apps/ReplicaSet/default/nginx-deployment-7986654d4",
        "core/Namespace//default",
        "core/Pod/default/nginx-deployment-7986654d4-ztx2g",
    ]
    assert r.objects_read == 6 and r.accounting_holds()
    assert {f.format for f in r.files if f.format != "ignored"} == {"velero"}
    assert [s.reason for s in r.skipped] == [
        "the Velero backup's format version (metadata/version), not Kubernetes objects"]
    assert not r.rejections


def test_a_velero_backup_folder_is_read_by_its_layout() -> None:
    _check(ingest({f"nginx-backup/{path}": data for path, data in _backup().items()}))


def test_a_velero_backup_tarball_is_read_by_its_layout(tmp_path: Path) -> None:
    for path, data in _backup().items():
        (tmp_path / "backup" / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "backup" / path).write_bytes(data)
    with tarfile.open(tmp_path / "nginx-backup-data.tar.gz", "w:gz") as tar:
        tar.add(tmp_path / "backup", arcname=".")
    _check(ingest(str(tmp_path / "nginx-backup-data.tar.gz")))
