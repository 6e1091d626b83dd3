"""The benchmark dump generator (synthetic/benchmark.py, called as benchmarks/generate_dump.py): realistic
content, the same objects in JSON and YAML, deterministic."""

from __future__ import annotations

import collections
import doctest
import importlib
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml
from conftest import ROOT

from synthetic import fields
from synthetic.emit import kubectl_json


def bench_script(name: str) -> ModuleType:
    """A script of benchmarks/ (a folder of scripts, not a package), imported as its callers do."""
    folder = str(ROOT / "benchmarks")
    if folder not in sys.path:
        sys.path.insert(0, folder)
    return importlib.import_module(name)


# The thin entry point the benchmarks and docs call, so that its re-exports are tested too.
generate_dump = bench_script("generate_dump")
LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"


@pytest.fixture(scope="module")
def dumps(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A 400-pod, 25-node cluster written in both formats (generated here, seed 3)."""
    folder = tmp_path_factory.mktemp("dumps")
    paths = {fmt: folder / f"pods-400.{fmt}" for fmt in ("json", "yaml")}
    for fmt, path in paths.items():
        generate_dump.write_dump(path, pods=400, nodes=25, fmt=fmt, seed=3)
    return paths


@pytest.fixture(scope="module")
def items(dumps: dict[str, Path]) -> list[dict[str, Any]]:
    return json.loads(dumps["json"].read_bytes())["items"]


def test_json_and_yaml_hold_the_same_objects(dumps: dict[str, Path]) -> None:
    from_json = json.loads(dumps["json"].read_bytes())
    from_yaml = yaml.load(dumps["yaml"].read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    assert from_json == from_yaml
    assert from_json["kind"] == "List" and from_json["metadata"] == {"resourceVersion": ""}


def test_every_table_has_rows(items: list[dict[str, Any]]) -> None:
    kinds = collections.Counter(item["kind"] for item in items)
    assert kinds["Pod"] == 400 and kinds["Node"] == 25
    for kind in ("Deployment", "ReplicaSet", "DaemonSet", "StatefulSet", "Service", "ConfigMap", "Event", "Namespace"):
        assert kinds[kind] > 0, kind


def test_pods_look_like_a_real_cluster(items: list[dict[str, Any]]) -> None:
    pods = [i for i in items if i["kind"] == "Pod"]
    owners = collections.Counter(p["metadata"].get("ownerReferences", [{"kind": None}])[0]["kind"] for p in pods)
    assert {"ReplicaSet", "DaemonSet", "StatefulSet", "Node"} <= set(owners)
    assert all(p["metadata"]["managedFields"] for p in pods)
    assert any(LAST_APPLIED in p["metadata"].get("annotations", {}) for p in pods)
    assert {len(p["spec"]["containers"]) for p in pods} >= {1, 2}
    statuses = [s for p in pods for s in p["status"].get("containerStatuses", [])]
    assert any(s["lastState"].get("terminated", {}).get("reason") == "OOMKilled" for s in statuses)
    assert any(s["state"].get("waiting", {}).get("reason") == "CrashLoopBackOff" for s in statuses)
    assert any(s["restartCount"] > 0 for s in statuses)
    assert {p["status"]["phase"] for p in pods} >= {"Running", "Pending"}
    volumes = {key for p in pods for v in p["spec"].get("volumes", []) for key in v if key != "name"}
    assert {"configMap", "secret", "projected", "persistentVolumeClaim", "hostPath", "emptyDir"} <= volumes
    env_sources = {key for p in pods for c in p["spec"]["containers"] for e in c.get("env", []) for key in e.get("valueFrom", {})}
    assert {"fieldRef", "secretKeyRef"} <= env_sources


def test_pods_point_at_objects_that_exist(items: list[dict[str, Any]]) -> None:
    uids = {i["metadata"]["uid"] for i in items}
    pods = [i for i in items if i["kind"] == "Pod"]
    references = [r for p in pods for r in p["metadata"].get("ownerReferences", [])]
    assert references and all(r["uid"] in uids for r in references)
    nodes = {i["metadata"]["name"] for i in items if i["kind"] == "Node"}
    assert {p["spec"]["nodeName"] for p in pods if "nodeName" in p["spec"]} <= nodes


def test_pod_size_is_that_of_real_dumps(dumps: dict[str, Path], items: list[dict[str, Any]]) -> None:
    # Real pods with managedFields are 15-35 KB as items of a 4-space `kubectl get -o json` List.
    sizes = [len(kubectl_json.dumps(i, depth=2)) for i in items if i["kind"] == "Pod"]
    assert 20_000 < sum(sizes) / len(sizes) < 36_000


def test_json_is_formatted_as_kubectl(dumps: dict[str, Path]) -> None:
    text = dumps["json"].read_text(encoding="utf-8")
    assert text.startswith('{\n    "apiVersion": "v1",\n    "items": [\n        {\n            "apiVersion": ')
    assert text.endswith('\n    "kind": "List",\n    "metadata": {\n        "resourceVersion": ""\n    }\n}\n')
    assert all((len(line) - len(line.lstrip(" "))) % 4 == 0 for line in text.splitlines())


def test_yaml_is_formatted_as_kubectl(dumps: dict[str, Path]) -> None:
    text = dumps["yaml"].read_text(encoding="utf-8")
    assert text.startswith("apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata:\n")
    assert text.endswith('kind: List\nmetadata:\n  resourceVersion: ""\n')
    assert '    creationTimestamp: "20' in text  # timestamps quoted
    assert "\n      kubectl.kubernetes.io/last-applied-configuration: |\n" in text
    assert "\n      ports:\n      - containerPort: " in text  # sequences not indented under their key


def test_same_seed_same_bytes_other_seed_other_bytes(tmp_path: Path, dumps: dict[str, Path]) -> None:
    again = tmp_path / "again.yaml"
    generate_dump.write_dump(again, pods=400, nodes=25, fmt="yaml", seed=3)
    assert again.read_bytes() == dumps["yaml"].read_bytes()
    other = tmp_path / "other.yaml"
    generate_dump.write_dump(other, pods=400, nodes=25, fmt="yaml", seed=4)
    assert other.read_bytes() != dumps["yaml"].read_bytes()


def test_command_line_prints_the_size(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "data" / "pods-20.json"
    assert generate_dump.main(["--pods", "20", "--nodes", "3", "--format", "json", "-o", str(target)]) == 0
    assert f"{target.stat().st_size:,} bytes" in capsys.readouterr().out


def test_unknown_format_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="format must be one of"):
        generate_dump.write_dump(tmp_path / "x", pods=1, fmt="xml")


def test_zero_pods_still_writes_a_valid_list(tmp_path: Path) -> None:
    path = tmp_path / "empty.yaml"
    generate_dump.write_dump(path, pods=0, nodes=1, fmt="yaml")
    document = yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    assert [i["kind"] for i in document["items"]] == ["Node", "ConfigMap", "ConfigMap", "ConfigMap", "ConfigMap",
                                                      "Namespace", "Namespace", "Namespace", "Namespace"]


def test_docstring_examples() -> None:
    for module in (fields,):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0


def test_kinds_keep_only_those_resources(tmp_path: Path) -> None:
    # Like `kubectl get pods,nodes -A -o json`, the shape parsers.md measured.
    target = tmp_path / "pods-nodes.json"
    assert generate_dump.main(["--pods", "30", "--nodes", "4", "--kinds", "pods,nodes", "-o", str(target)]) == 0
    kinds = collections.Counter(i["kind"] for i in json.loads(target.read_bytes())["items"])
    assert kinds == {"Pod": 30, "Node": 4}
    with pytest.raises(SystemExit):
        generate_dump.main(["--pods", "1", "--kinds", "pod", "-o", str(target)])


# -- shapes of pod (synthetic/clusters/scalable/catalog.yaml `shapes:`) -----------------------------------------------

def _shape_items(tmp_path: Path, shape: str, pods: int = 300, nodes: int | None = 15) -> list[dict[str, Any]]:
    path = tmp_path / f"{shape}.json"
    generate_dump.write_dump(path, pods=pods, nodes=nodes, fmt="json", seed=5, shape=shape)
    return json.loads(path.read_bytes())["items"]


def _app_pods(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [i for i in items if i["kind"] == "Pod" and i["metadata"]["namespace"].endswith(("-prod", "-staging"))
            and "app.kubernetes.io/part-of" in i["metadata"]["labels"]]


def test_env_heavy_pods_carry_10_to_40_env_vars_a_third_from_references(tmp_path: Path) -> None:
    pods = _app_pods(_shape_items(tmp_path, "env-heavy"))
    mains = [p["spec"]["containers"][0] for p in pods]
    counts = [len(c["env"]) for c in mains]
    assert min(counts) >= 10 and max(counts) <= 40 + 15  # the app's own env, then drawn up to 10-40
    env = [e for c in mains for e in c["env"]]
    assert 0.25 < sum("valueFrom" in e for e in env) / len(env) < 0.45
    values = [e["value"] for e in env if "value" in e]
    assert any(v.startswith("{") for v in values) and any("://" in v for v in values)
    assert any("Server=tcp:" in v for v in values)
    assert all(len(c["args"]) >= 11 for c in mains)


def test_env_heavy_credentials_are_flagged_by_the_tables(tmp_path: Path) -> None:
    import analyzer

    path = tmp_path / "env.json"
    generate_dump.write_dump(path, pods=1500, nodes=40, fmt="json", seed=5, shape="env-heavy")
    env = analyzer.load(path).tables.container_env
    planted = env[env["name"].str.match(r"(UPSTREAM|LEGACY_DSN|S3_ACCESS|DEPLOY)_\d+$")]
    assert len(planted) > 0 and planted["sensitive"].all()
    urls = env[env["name"].str.match(r"ENDPOINT_\d+$")]
    assert len(urls) > 0 and not urls["sensitive"].any()


def test_volumes_heavy_pods_have_5_to_20_volumes_init_containers_and_sidecars(tmp_path: Path) -> None:
    pods = _app_pods(_shape_items(tmp_path, "volumes-heavy"))
    counts = [len(p["spec"]["volumes"]) for p in pods]
    assert min(counts) >= 5 and max(counts) <= 20 + 8
    assert all(p["spec"]["initContainers"] for p in pods)
    assert all(len(p["spec"]["containers"]) >= 3 for p in pods)
    assert sum(1 for p in pods for v in p["spec"]["volumes"] if "projected" in v) > 2 * len(pods)


def test_annotations_heavy_pods_have_10_to_30_annotations_some_json(tmp_path: Path) -> None:
    pods = _app_pods(_shape_items(tmp_path, "annotations-heavy"))
    counts = [len(p["metadata"]["annotations"]) for p in pods]
    assert min(counts) >= 10 and max(counts) <= 30 + 4  # and the CNI's three per pod
    values = [v for p in pods for v in p["metadata"]["annotations"].values()]
    assert sum(v.lstrip().startswith("{") for v in values) > len(pods)
    ids = [p["metadata"]["annotations"].get("cni.projectcalico.org/containerID") for p in pods if p["status"].get("podIP")]
    assert len(set(ids)) == len(ids)  # distinct on every pod


@pytest.mark.parametrize(("shape", "proxy", "init"), [("istio", "istio-proxy", "istio-init"),
                                                      ("linkerd", "linkerd-proxy", "linkerd-init")])
def test_mesh_shapes_inject_every_app_pod(tmp_path: Path, shape: str, proxy: str, init: str) -> None:
    items = _shape_items(tmp_path, shape)
    pods = _app_pods(items)
    assert pods and all(proxy in [c["name"] for c in p["spec"]["containers"]] for p in pods)
    assert all(init in [c["name"] for c in p["spec"]["initContainers"]] for p in pods)
    # the injector changes the pods, not the Deployments' templates
    templates = [i["spec"]["template"]["spec"] for i in items if i["kind"] == "Deployment"]
    assert templates and not any(proxy in [c["name"] for c in t["containers"]] for t in templates)


def test_windows_shape_has_windows_nodes_and_pods_on_them(tmp_path: Path) -> None:
    items = _shape_items(tmp_path, "windows")
    nodes = {i["metadata"]["name"]: i for i in items if i["kind"] == "Node"}
    windows = {n for n, i in nodes.items() if i["status"]["nodeInfo"]["operatingSystem"] == "windows"}
    assert windows and all(nodes[n]["metadata"]["labels"]["kubernetes.io/os"] == "windows" for n in windows)
    pods = [i for i in items if i["kind"] == "Pod" and i["spec"].get("nodeSelector", {}).get("kubernetes.io/os") == "windows"]
    assert pods and all(p["spec"]["nodeName"] in windows for p in pods if "nodeName" in p["spec"])
    linux = [i for i in items if i["kind"] == "Pod" and i["spec"].get("nodeSelector", {}).get("kubernetes.io/os") == "linux"]
    assert all(p["spec"]["nodeName"] not in windows for p in linux if "nodeName" in p["spec"])
    assert any(p["spec"]["securityContext"].get("windowsOptions", {}).get("hostProcess") for p in pods)


def test_large_cluster_has_a_node_per_4_pods_and_20_daemonsets(tmp_path: Path) -> None:
    items = _shape_items(tmp_path, "large-cluster", pods=800, nodes=None)
    kinds = collections.Counter(i["kind"] for i in items)
    assert kinds["Node"] == 200 and kinds["DaemonSet"] == 20


def test_an_unknown_shape_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown shape"):
        generate_dump.write_dump(tmp_path / "x.json", pods=1, shape="nope")
