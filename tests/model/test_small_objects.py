"""Tables from tiny objects: kubectl's STATUS, resources, env and secret hygiene, volumes,
ingress rules and pasted `kubectl get` tables (fixtures in tests/model/data say their origin)."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest

import analyzer
from analyzer.cluster import Cluster

DATA = Path(__file__).parent / "data"


def by(df: pd.DataFrame, **where) -> dict:
    mask = pd.Series(True, index=df.index)
    for column, value in where.items():
        mask &= (df[column] == value).fillna(False)
    found = df[mask]
    assert len(found) == 1, (where, len(found))
    return found.iloc[0].to_dict()


@pytest.fixture(scope="module")
def shop() -> Cluster:
    return analyzer.load(DATA / "pods.yaml")


@pytest.mark.parametrize(("pod", "status", "restarts"), [
    ("web-1", "CrashLoopBackOff", 5),
    ("init-1", "Init:1/2", 2),
    ("evicted-1", "Evicted", 0),
    ("going-1", "Terminating", 0),
    ("pending-1", "Pending", 0),
])
def test_pod_status_is_what_kubectl_shows(shop: Cluster, pod: str, status: str,
                                           restarts: int) -> None:
    row = by(shop.tables.pods, name=pod)
    assert (row["status"], row["restarts"]) == (status, restarts)


def test_pod_fields(shop: Cluster) -> None:
    web = by(shop.tables.pods, name="web-1")
    assert not web["ready"] and web["scheduled"] and web["node"] == "node-a"
    assert web["last_restart"] == pd.Timestamp("2024-05-01T11:00:00Z")
    pending = by(shop.tables.pods, name="pending-1")
    assert pending["unschedulable_message"] == "0/3 nodes are available: 3 Insufficient cpu."
    assert by(shop.tables.pods, name="going-1")["deleting"]


def test_container_resources_and_unreadable_quantities(shop: Cluster) -> None:
    app = by(shop.tables.containers, pod="web-1", name="app")
    assert app["cpu_request"] == 0.25 and app["cpu_limit"] == 2.0
    assert app["memory_request"] == 1.5 * 2**30
    assert app["ephemeral_storage_request"] == 1e9
    assert math.isnan(app["memory_limit"])
    assert app["resources_raw"] == "limits.memory=12Kb"  # kept visible, not dropped
    assert (app["registry"], app["repository"], app["tag"], app["digest"]) == (
        "registry.example.com:5000", "shop/web", "2.1", "sha256:abc123")
    assert app["run_as_user"] == 1000  # from the pod's securityContext
    assert (app["last_state_reason"], app["last_exit_code"]) == ("OOMKilled", 137)
    assert app["env_count"] == 5
    init = shop.tables.containers.query("pod == 'init-1'")
    assert init["container_type"].tolist() == ["init", "init", "container"]


def test_env_keeps_sources_never_values(shop: Cluster) -> None:
    env = shop.tables.container_env
    assert by(env, name="DB_PASSWORD")["sensitive"]
    assert not by(env, name="LOG_LEVEL")["sensitive"]
    token = by(env, name="API_TOKEN")
    assert (token["source"], token["ref_name"], token["ref_key"], token["optional"]) == (
        "secretKeyRef", "api", "token", True)
    assert by(env, name="NODE")["ref_key"] == "spec.nodeName"
    assert by(env, source="configMapRef")["ref_name"] == "web-config"


def test_no_secret_value_in_any_table(shop: Cluster) -> None:
    secrets = ("hunter2", "supersecret-token", "c3VwZXJzZWNyZXQtdG9rZW4=")
    for name in shop.tables:
        text = shop.tables[name].astype(str).to_csv()
        for value in secrets:
            assert value not in text, (name, value)
    sec = by(shop.tables.secrets, name="api")
    assert (sec["type"], sec["keys"], sec["key_count"]) == ("Opaque", "password,token", 2)


def test_annotations_masked_and_summarised(shop: Cluster) -> None:
    ann = shop.tables.annotations
    assert by(ann, key="example.com/db")["value"] == "postgres://app:<redacted>@db:5432/app"
    assert by(ann, key="kubectl.kubernetes.io/last-applied-configuration")["value"] == (
        "<last-applied: 14 bytes>")


def test_configmap_sizes(shop: Cluster) -> None:
    cm = by(shop.tables.configmaps, name="web-config")
    assert cm["keys"] == "LOG_LEVEL,app.conf,logo.png"
    assert cm["bytes"] == len("debug") + len("listen 80;\n") + len("hello")


def test_volumes(shop: Cluster) -> None:
    vols = shop.tables.volumes.query("pod == 'web-1'")
    data = by(vols, name="data")
    assert (data["type"], data["ref_kind"], data["ref_name"], data["read_only"]) == (
        "persistentVolumeClaim", "PersistentVolumeClaim", "web-data", False)
    config = by(vols, name="config")
    assert config["optional"] and config["read_only"]
    host = by(vols, name="host")
    assert (host["host_path"], host["detail"], host["read_only"]) == ("/var/log", "type=Directory",
                                                                      None)


def test_images_counted_by_pod(shop: Cluster) -> None:
    nginx = by(shop.tables.images, image="nginx:1.25")
    assert (nginx["containers"], nginx["pods"], nginx["namespaces"]) == (3, 3, "shop")
    assert by(shop.tables.images, image="nginx")["repository"] == "library/nginx"


def test_ingress_rows() -> None:
    ing = analyzer.load(DATA / "ingresses.yaml").tables.ingresses
    bar = by(ing, ingress="ingress-wildcard-host", path="/bar")
    assert (bar["host"], bar["service"], bar["service_port"], bar["path_type"]) == (
        "foo.bar.com", "service1", "80", "Prefix")
    assert not bar["tls"] and bar["load_balancer"] == "203.0.113.10"
    foo = by(ing, ingress="ingress-wildcard-host", path="/foo")
    assert foo["tls"] and foo["tls_secret"] == "foo-wildcard-tls" and foo["service_port"] == "http"
    legacy = ing[ing["ingress"] == "legacy"]
    assert legacy["service"].tolist() == ["default-http", "cart"]
    assert legacy["service_port"].tolist() == ["8080", "web"]
    assert set(legacy["ingress_class"]) == {"traefik"}
    empty = by(ing, ingress="empty")
    assert pd.isna(empty["host"]) and pd.isna(empty["service"])


def test_pasted_kubectl_get_pods() -> None:
    # A `kubectl get pods -A` table as people paste it (hand-written, kubectl 1.28 columns).
    text = (
        "NAMESPACE     NAME                       READY   STATUS             RESTARTS       AGE\n"
        "kube-system   coredns-5d78c9869d-abcde   1/1     Running            0              3d\n"
        "default       web-7f9c6b8d4-xyz12        0/2     CrashLoopBackOff   9 (104s ago)   2h\n"
    )
    pods = analyzer.load(text).tables.pods
    web = by(pods, name="web-7f9c6b8d4-xyz12")
    assert (web["status"], web["restarts"], web["ready"]) == ("CrashLoopBackOff", 9, False)
    assert (web["containers"], web["containers_ready"]) == (2, 0)
    assert web["age"] == pd.Timedelta(hours=2)
    assert pd.isna(web["uid"]) and pd.isna(web["created"])
    assert by(pods, name="coredns-5d78c9869d-abcde")["age"] == pd.Timedelta(days=3)


def test_node_quantities_stay_visible_when_unreadable() -> None:
    # Hand-written Node in the API shape; "lots" is not a quantity, "3800m" and "15Gi" are.
    node = by(analyzer.load(
        "apiVersion: v1\nkind: Node\nmetadata: {name: n1, labels: {kubernetes.io/role: agent}}\n"
        "spec: {providerID: 'azure:///subscriptions/x/virtualMachineScaleSets/vmss/virtualMachines/0',"
        " taints: [{key: dedicated, value: gpu, effect: NoSchedule}]}\n"
        "status: {capacity: {cpu: '4', memory: lots, pods: '110'},"
        " allocatable: {cpu: 3800m, memory: 15Gi}}\n").tables.nodes, name="n1")
    assert (node["cpu_capacity"], node["cpu_allocatable"]) == (4.0, 3.8)
    assert math.isnan(node["memory_capacity"]) and node["memory_allocatable"] == 15 * 2**30
    assert node["resources_raw"] == "capacity.memory=lots"
    assert node["roles"] == "agent" and node["taints"] == "dedicated=gpu:NoSchedule"


def test_malformed_free_form_fields_do_not_break_tables() -> None:
    cluster = analyzer.load(DATA / "malformed.yaml")
    for name in cluster.tables:
        cluster.tables[name]  # noqa: B018 - building is the test
    ing = cluster.tables.ingresses
    assert by(ing, ingress="broken")["service"] == "web"
    assert pd.isna(by(ing, ingress="broken-rules", host="a.example.com")["service"])
    cron = by(cluster.tables.workloads, name="cj")
    assert cron["current"] == 2 and pd.isna(cron["images"])
    assert by(cluster.tables.workloads, name="d")["selector"] == "just-text,k in ()"
    assert by(cluster.tables.containers, pod="p")["resources_raw"] == "requests.cpu=lots"
    assert set(cluster.tables.volumes["name"]) == {"v", "w", "e"}
