"""Hand-edited dumps whose values have another type than the API's: every stage still runs, the
object is still in its table, and the odd value is shown as text or left missing, never a
traceback. Each object is a real one, trimmed, with the one edit named beside it (the edits are
the kind a structural fuzz of `shared/realdata` found to stop a stage)."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

import analyzer
from analyzer.report import render_cluster_report

# realdata/openshift/insights-operator-archive-sample/config/clusteroperator/authentication.json,
# trimmed; edited: Degraded's status an unquoted YAML bool, Available's message a mapping and
# Upgradeable's type a number (a custom resource's conditions are untyped dicts).
CLUSTER_OPERATOR = """\
apiVersion: config.openshift.io/v1
kind: ClusterOperator
metadata:
  name: authentication
  uid: f9f2d54f-1abd-4533-9819-5386a1e7c7a6
  creationTimestamp: "2021-07-07T11:02:54Z"
status:
  conditions:
  - type: Degraded
    status: True
    lastTransitionTime: "2021-07-12T21:20:38Z"
    reason: AsExpected
  - type: Available
    status: "True"
    lastTransitionTime: "2021-07-12T21:20:44Z"
    reason: AsExpected
    message: {OAuthServerDeploymentAvailable: "availableReplicas==2"}
  - type: 3.5
    status: "False"
    lastTransitionTime: "2021-07-07T11:26:28Z"
    reason: UnsupportedConfigOverrides_UnsupportedConfigOverridesSet
"""

# realdata/kind/k9s-testdata/po_sidecar.json, trimmed; edited: the init container's restartCount
# past 64 bits, and the volume's name a mapping.
POD = {
    "apiVersion": "v1", "kind": "Pod",
    "metadata": {"name": "sleep", "namespace": "default", "creationTimestamp": "2024-08-24T01:54:32Z",
                 "uid": "35079257-0ffb-4b09-b2c1-3c0d416f2523"},
    "spec": {
        "containers": [{"name": "sleep", "image": "istio/base", "command": ["/bin/sleep", "60"],
                        "volumeMounts": [{"mountPath": "/var/run/secrets/kubernetes.io/serviceaccount",
                                          "name": "kube-api-access-mphcq", "readOnly": True}]}],
        "initContainers": [{"name": "init", "image": "istio/base", "command": ["/bin/sleep", "1"]}],
        "volumes": [{"name": {"edited": "kube-api-access-mphcq"}, "projected": {"sources": [
            {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}}]}}],
    },
    "status": {
        "phase": "Running", "startTime": "2024-08-24T01:54:32Z",
        "initContainerStatuses": [{"name": "init", "ready": True, "restartCount": 10**20, "image": "istio/base",
                                   "state": {"terminated": {"exitCode": 0, "reason": "Completed",
                                                            "startedAt": "2024-08-24T01:54:35Z",
                                                            "finishedAt": "2024-08-24T01:54:36Z"}}}],
        "containerStatuses": [{"name": "sleep", "ready": True, "restartCount": 0, "image": "istio/base",
                               "state": {"running": {"startedAt": "2024-08-24T01:54:40Z"}}}],
    },
}

# realdata/rke2/support-bundle-kit-harvester/sampleSupportBundle/yamls/cluster/v1/persistentvolumes.yaml,
# trimmed to two volumes; edited: the second one's CSI driver name a number.
VOLUMES = """\
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: PersistentVolume
  metadata:
    name: pvc-232180f3-6740-4682-ba5c-f4b57a75512b
    creationTimestamp: "2022-03-07T08:21:04Z"
  spec:
    capacity: {storage: 5Gi}
    accessModes: [ReadWriteOnce]
    csi: {driver: driver.longhorn.io, fsType: ext4, volumeHandle: pvc-232180f3-6740-4682-ba5c-f4b57a75512b}
    storageClassName: longhorn
  status: {phase: Bound}
- apiVersion: v1
  kind: PersistentVolume
  metadata:
    name: pvc-ce3fa571-6642-4018-b7fd-9eb2c1e56191
    creationTimestamp: "2022-03-07T08:22:10Z"
  spec:
    capacity: {storage: 10Gi}
    accessModes: [ReadWriteOnce]
    csi: {driver: 42, fsType: ext4, volumeHandle: pvc-ce3fa571-6642-4018-b7fd-9eb2c1e56191}
    storageClassName: longhorn
  status: {phase: Bound}
"""


def _every_stage(path: Path, out: Path) -> analyzer.Cluster:
    cluster = analyzer.load(str(path))
    built = [cluster.tables[name] for name in cluster.tables]
    built += [cluster.findings, cluster.incidents, cluster.timeline]
    assert built and cluster.graph is not None and cluster.distribution is not None
    render_cluster_report(cluster, out / "report", formats=("html", "json"), second_process=None)
    return cluster


@pytest.mark.parametrize(("file_name", "text"), [
    ("co.yaml", CLUSTER_OPERATOR),
    ("pod.json", json.dumps(POD)),
    ("volumes.yaml", VOLUMES),
])
def test_every_stage_runs_and_nothing_is_lost(tmp_path: Path, file_name: str, text: str) -> None:
    path = tmp_path / file_name
    path.write_text(text, encoding="utf-8")
    cluster = _every_stage(path, tmp_path)
    assert cluster.tables.rejections.empty
    assert len(cluster.objects) == (2 if file_name == "volumes.yaml" else 1)
    assert (tmp_path / "report" / "index.html").exists() or any((tmp_path / "report").rglob("*.html"))


def test_edited_condition_values_are_read_as_text(tmp_path: Path) -> None:
    path = tmp_path / "co.yaml"
    path.write_text(CLUSTER_OPERATOR, encoding="utf-8")
    timeline = _every_stage(path, tmp_path).timeline
    details = set(timeline.loc[timeline["kind"] == "ClusterOperator", "detail"].astype(str))
    assert "Degraded=True (AsExpected)" in details  # the YAML bool as the API would write it
    assert any(d.startswith("Available=True (AsExpected: {") for d in details)
    assert any(d.startswith("3.5=False") for d in details)


def test_edited_pod_values_are_missing_or_text(tmp_path: Path) -> None:
    path = tmp_path / "pod.json"
    path.write_text(json.dumps(POD), encoding="utf-8")
    cluster = _every_stage(path, tmp_path)
    init = cluster.tables.containers.set_index("name").loc["init"]
    assert pd.isna(init["restarts"])  # past 64 bits: not a count any table can hold
    volume = cluster.tables.volumes.iloc[0]
    assert volume["type"] == "projected" and "kube-api-access-mphcq" in str(volume["name"])


# tests/findings/cases/critical-component-missing.yaml's EKS kube-system (the EKS seed's coredns
# and aws-node), hand-edited: aws-node's desiredNumberScheduled past 64 bits.
KUBE_SYSTEM = """\
apiVersion: v1
kind: List
items:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: coredns, namespace: kube-system}
  spec: {replicas: 2, template: {spec: {containers: [{name: coredns, image: "602401143452.dkr.ecr.us-east-1.amazonaws.com/eks/coredns:v1.11.1-eksbuild.9"}]}}}
  status: {replicas: 2, readyReplicas: 2, observedGeneration: 1}
- apiVersion: apps/v1
  kind: DaemonSet
  metadata: {name: aws-node, namespace: kube-system}
  spec: {template: {spec: {containers: [{name: aws-node, image: "602401143452.dkr.ecr.us-east-1.amazonaws.com/amazon-k8s-cni:v1.18.3"}]}}}
  status: {desiredNumberScheduled: 100000000000000000000, numberReady: 2, observedGeneration: 1}
"""


def test_a_component_count_past_64_bits_is_missing(tmp_path: Path) -> None:
    path = tmp_path / "kube-system.yaml"
    path.write_text(KUBE_SYSTEM, encoding="utf-8")
    cluster = _every_stage(path, tmp_path)
    components = cluster.tables.components.set_index("name")
    assert pd.isna(components.loc["aws-node", "desired"]) and components.loc["aws-node", "ready"] == 2
    assert components.loc["coredns", "desired"] == 2
