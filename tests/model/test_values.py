"""Values of the tables checked against real objects (each expected value read from the file)."""

from __future__ import annotations

import math

import pandas as pd
import pytest
from conftest import REALDATA

import analyzer
from analyzer.cluster import Cluster


def row(df, **where):
    """The one row matching all column=value conditions, as a dict."""
    mask = None
    for column, value in where.items():
        m = df[column] == value
        mask = m if mask is None else mask & m
    found = df[mask.fillna(False)]
    assert len(found) == 1, (where, len(found))
    return found.iloc[0].to_dict()


@pytest.fixture(scope="module")
def kurl() -> Cluster:
    # kURL support bundle, 3 GCP VMs, k8s v1.23.5 (SOURCES.md: replicatedhq/sbctl testdata)
    return analyzer.load(REALDATA / "kubeadm" / "sbctl-kurl-supportbundle")


def test_kurl_nodes(kurl: Cluster) -> None:
    # cluster-resources/nodes.json: status.nodeInfo and status.capacity of troubleshoot-demo-001
    node = row(kurl.tables.nodes, name="troubleshoot-demo-001")
    assert node["kubelet_version"] == "v1.23.5"
    assert node["container_runtime"] == "docker://20.10.5"
    assert node["runtime_name"] == "docker"
    assert node["os_image"] == "Ubuntu 18.04.6 LTS"
    assert node["cpu_capacity"] == 4.0
    assert node["memory_capacity"] == 16390204 * 1024  # "16390204Ki"
    assert node["pods_capacity"] == 110
    assert node["roles"] == "control-plane,master" and node["control_plane"]
    assert node["ready"] == "True" and not node["memory_pressure"]
    assert pd.isna(node["provider_id"])  # kURL on plain VMs has no cloud provider
    # the longhorn.io Node custom resources of the same name are not nodes
    assert len(kurl.tables.nodes) == 3


def test_kurl_coredns_containers_and_workload(kurl: Cluster) -> None:
    # cluster-resources/pods/kube-system.json: coredns-64897985d-2wvxr resources and ports
    c = row(kurl.tables.containers, pod="coredns-64897985d-2wvxr", name="coredns")
    assert c["cpu_request"] == 0.1  # "100m"
    assert c["memory_request"] == 70 * 2**20  # "70Mi"
    assert c["memory_limit"] == 170 * 2**20  # "170Mi"
    assert math.isnan(c["cpu_limit"])
    assert c["registry"] == "k8s.gcr.io" and c["repository"] == "coredns/coredns"
    assert c["tag"] == "v1.8.6"
    assert c["ports"] == "dns:53/UDP,dns-tcp:53/TCP,metrics:9153/TCP"
    assert c["capabilities_add"] == "NET_BIND_SERVICE" and c["read_only_root_fs"]
    pod = row(kurl.tables.pods, name="coredns-64897985d-2wvxr")
    assert (pod["owner_kind"], pod["owner_name"]) == ("ReplicaSet", "coredns-64897985d")
    assert (pod["workload_kind"], pod["workload_name"]) == ("Deployment", "coredns")
    assert pod["qos_class"] == "Burstable" and pod["priority"] == 2000000000


def test_kurl_crashlooping_velero(kurl: Cluster) -> None:
    # velero-6996dd565b-xl44t: waiting CrashLoopBackOff, lastState terminated Error exit 1
    pod = row(kurl.tables.pods, name="velero-6996dd565b-xl44t")
    assert pod["status"] == "CrashLoopBackOff" and pod["restarts"] == 3 and not pod["ready"]
    c = row(kurl.tables.containers, pod="velero-6996dd565b-xl44t", name="velero")
    assert (c["state"], c["state_reason"]) == ("waiting", "CrashLoopBackOff")
    assert (c["last_state_reason"], c["last_exit_code"]) == ("Error", 1)
    logs = kurl.tables.logs
    assert sorted(logs["previous"].tolist()) == [False, True]
    assert set(logs["lines"]) == {3}
    # the Job's pod ran to completion
    assert row(kurl.tables.pods, name="contour-certgen-v1.20.1-9xczt")["status"] == "Completed"


def test_kurl_storage(kurl: Cluster) -> None:
    # cluster-resources/pvcs/minio.json, pvs.json, storage-classes.json
    pvc = row(kurl.tables.pvcs, name="minio-pv-claim")
    assert pvc["requested_bytes"] == 10 * 2**30 and pvc["phase"] == "Bound"
    pv = row(kurl.tables.pvs, claim_name="minio-pv-claim")
    assert pv["csi_driver"] == "driver.longhorn.io" and pv["volume_type"] == "csi"
    sc = row(kurl.tables.storage_classes, name="longhorn")
    assert sc["default"] and sc["allow_expansion"]


def test_kurl_events_and_ages(kurl: Cluster) -> None:
    # cluster-resources/events/velero.json: a BackOff event seen 94 times
    e = row(kurl.tables.events, name="velero-6996dd565b-mddj2.16e4ff081c113b00")
    assert (e["type"], e["reason"], e["count"]) == ("Warning", "BackOff", 94)
    assert e["object_kind"] == "Pod" and e["field_path"] == "spec.containers{velero}"
    assert e["age"] == kurl.capture_time - e["last_seen"]
    node = row(kurl.tables.nodes, name="troubleshoot-demo-001")
    assert node["age"] == kurl.capture_time - node["created"]


def test_provider_ids_and_placement() -> None:
    # unknown/troubleshoot-analyze-files/nodes.json: a DigitalOcean DOKS node
    nodes = analyzer.load(REALDATA / "unknown" / "troubleshoot-analyze-files").tables.nodes
    do = row(nodes, name="biggernode-3i745")
    assert do["provider_id"] == "digitalocean://219734582"
    assert do["instance_type"] == "g-8vcpu-32gb" and do["region"] == "sfo2"


def test_eks_describe_node() -> None:
    # eks/holmesgpt-fixtures kubectl_describe.txt: ProviderID and Allocatable cpu 1930m
    nodes = analyzer.load(REALDATA / "eks" / "holmesgpt-fixtures").tables.nodes
    n = row(nodes, name="ip-172-31-40-111.us-east-2.compute.internal")
    assert n["provider_id"] == "aws:///us-east-2c/i-0e6de6538ed7dd6a1"
    assert n["cpu_allocatable"] == pytest.approx(1.93)
    assert n["kubelet_version"] == "v1.30.4-eks-a737599"


def test_k3s_rbac_and_default_class() -> None:
    # k3s/troubleshoot-testdata-supportbundle: clusterRoleBindings.json, storage-classes.json
    k3s = analyzer.load(REALDATA / "k3s" / "troubleshoot-testdata-supportbundle")
    b = row(k3s.tables.rbac_bindings, name="cluster-admin")
    assert (b["role_kind"], b["subject_kind"], b["subject_name"]) == (
        "ClusterRole", "Group", "system:masters")
    assert row(k3s.tables.storage_classes, name="local-path")["default"]


def test_openshift_endpoints_have_target_pods() -> None:
    # openshift/must-gather-clean-aws: openshift-ingress endpoints and endpointslices
    eps = analyzer.load(REALDATA / "openshift" / "must-gather-clean-aws").tables.endpoints
    r = row(eps, kind="Endpoints", name="router-default", ip="10.128.2.7")
    assert r["target_kind"] == "Pod" and r["target_name"] == "router-default-6dd4c95495-vcnb6"
    assert r["ready"] and r["service"] == "router-default"
    assert set(eps[eps["kind"] == "EndpointSlice"]["service"]) == {
        "router-default", "router-internal-default"}


def test_legacy_kubectl_1_9_nodes() -> None:
    # vanilla/...cluster-info-dump.json: internal-struct serialisation (Capacity, KubeletVersion)
    nodes = analyzer.load(REALDATA / "vanilla" / "kubernetes-vagrant-centos-cluster-info-dump"
                          ).tables.nodes
    assert set(nodes["kubelet_version"]) == {"v1.9.1"}
    assert (nodes["cpu_capacity"] > 0).all() and (nodes["memory_capacity"] > 1e9).all()
