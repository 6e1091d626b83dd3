"""Hygiene findings said once per pod template (`analyzer.findings.alike`): the pods of one
controller that a rule fails alike are one finding, which names the others; pods that differ,
problems, static pods and bare pods stay one finding each."""

from __future__ import annotations

import importlib
import json
import pkgutil
from collections import Counter
from copy import deepcopy
from pathlib import Path
from typing import Any

import pytest
from conftest import REALDATA, SAMPLE_DUMPS
from typer.testing import CliRunner

import analyzer
import analyzer.findings.containers as containers
import analyzer.findings.rules as rules
from analyzer.cli import app
from analyzer.diff import compare_findings
from analyzer.findings import collect_findings
from synthetic import benchmark as generate_dump

# Trimmed from realdata vanilla/kubernetes-vagrant-centos-cluster-info-dump (cluster-info-dump.json,
# the default namespace's nginx pods): two replicas of ReplicaSet nginx-5fc794bbf8, nginx:1.9
# without requests, limits or probes.
OWNER = {"apiVersion": "extensions/v1beta1", "kind": "ReplicaSet", "name": "nginx-5fc794bbf8",
         "uid": "b8e7fbf0-1924-11e8-927b-525400ad3b43", "controller": True, "blockOwnerDeletion": True}
NGINX_POD = {
    "apiVersion": "v1", "kind": "Pod",
    "metadata": {"name": "nginx-5fc794bbf8-9jjxd", "namespace": "default",
                 "creationTimestamp": "2018-02-24T05:36:54Z",
                 "labels": {"pod-template-hash": "1973506694", "run": "load-balancer-example"},
                 "ownerReferences": [OWNER]},
    "spec": {"nodeName": "node1", "containers": [{
        "name": "nginx", "image": "nginx:1.9", "ports": [{"containerPort": 80, "protocol": "TCP"}],
        "resources": {"limits": None, "requests": None}, "livenessProbe": None, "readinessProbe": None,
        "imagePullPolicy": "IfNotPresent"}]},
    "status": {"phase": "Running", "startTime": "2018-02-24T05:36:54Z", "containerStatuses": [{
        "name": "nginx", "ready": True, "restartCount": 0, "image": "nginx:1.9",
        "state": {"running": {"startedAt": "2018-02-24T05:37:40Z"}}}],
        "conditions": [{"type": "Ready", "status": "True", "lastTransitionTime": "2018-02-24T05:37:41Z"}]},
}


def _pod(name: str, **changes: Any) -> dict[str, Any]:
    pod = deepcopy(NGINX_POD)
    pod["metadata"]["name"] = name
    for path, value in changes.items():
        *parents, last = path.split("__")
        here = pod
        for key in parents:
            here = here[int(key)] if isinstance(here, list) else here[key]
        here[last] = value
    return pod


def _load(*pods: dict[str, Any]) -> analyzer.Cluster:
    return analyzer.load({"pods.json": json.dumps({"apiVersion": "v1", "kind": "List", "items": list(pods)})})


def _failing(cluster: analyzer.Cluster, rule: str) -> list[Any]:
    return [f for f in collect_findings(cluster) if f.rule == rule and f.status == "fail"]


def test_replicas_failing_alike_are_one_finding_naming_the_others() -> None:
    cluster = _load(_pod("nginx-5fc794bbf8-pfscn"), _pod("nginx-5fc794bbf8-9jjxd"), _pod("nginx-5fc794bbf8-x2b7k"))
    found = _failing(cluster, "container-no-memory-limit")
    assert len(found) == 1
    one = found[0]
    # the first by name speaks for the others
    assert (one.name, one.alike) == ("nginx-5fc794bbf8-9jjxd", ("nginx-5fc794bbf8-pfscn", "nginx-5fc794bbf8-x2b7k"))
    frame = cluster.findings
    row = frame[frame["rule"] == "container-no-memory-limit"].iloc[0]
    assert row["message"] == ("Pod default/nginx-5fc794bbf8-9jjxd: container nginx has no memory limit "
                              "(as do 2 more pods of ReplicaSet nginx-5fc794bbf8)")
    assert row["alike"] == "nginx-5fc794bbf8-pfscn, nginx-5fc794bbf8-x2b7k"
    # every hygiene rule the template fails is said once
    hygiene = Counter(f.rule for f in collect_findings(cluster) if f.status == "fail" and f.category == "configuration")
    assert hygiene and set(hygiene.values()) == {1}, hygiene


def test_a_replica_whose_spec_differs_stays_apart() -> None:
    # (as a vertical pod autoscaler writes each pod's resources: one replica got a memory limit)
    limited = _pod("nginx-5fc794bbf8-zzzzz", spec__containers__0__resources={"limits": {"memory": "128Mi"}})
    cluster = _load(_pod("nginx-5fc794bbf8-9jjxd"), _pod("nginx-5fc794bbf8-pfscn"), limited)
    assert [(f.name, f.alike) for f in _failing(cluster, "container-no-memory-limit")] == [
        ("nginx-5fc794bbf8-9jjxd", ("nginx-5fc794bbf8-pfscn",))]
    # its probes are as the others': still one finding for all three
    assert [len(f.alike) for f in _failing(cluster, "container-no-readiness-probe")] == [2]


def test_problems_stay_one_finding_per_pod() -> None:
    crashing = {"name": "nginx", "ready": False, "restartCount": 12, "image": "nginx:1.9",
                "state": {"waiting": {"reason": "CrashLoopBackOff"}},
                "lastState": {"terminated": {"exitCode": 1, "reason": "Error",
                                             "finishedAt": "2018-02-24T06:00:00Z"}}}
    cluster = _load(*(_pod(name, status__containerStatuses=[crashing], status__conditions=[])
                      for name in ("nginx-5fc794bbf8-9jjxd", "nginx-5fc794bbf8-pfscn")))
    crashloops = _failing(cluster, "pod-crashloop")
    assert sorted(f.name for f in crashloops) == ["nginx-5fc794bbf8-9jjxd", "nginx-5fc794bbf8-pfscn"]
    assert all(not f.alike for f in crashloops)


def test_bare_and_static_pods_are_their_own_template() -> None:
    static = {"apiVersion": "v1", "kind": "Node", "name": "node1", "uid": "u1", "controller": True}
    cluster = _load(_pod("web-a", metadata__ownerReferences=None), _pod("web-b", metadata__ownerReferences=None),
                    _pod("etcd-node1", metadata__ownerReferences=[static]),
                    _pod("etcd-node2", metadata__ownerReferences=[{**static, "name": "node2"}]))
    found = _failing(cluster, "container-no-memory-limit")
    assert sorted(f.name for f in found) == ["etcd-node1", "etcd-node2", "web-a", "web-b"]
    assert all(not f.alike for f in found)


def test_a_diff_still_follows_each_pod() -> None:
    before = _load(_pod("nginx-5fc794bbf8-9jjxd"), _pod("nginx-5fc794bbf8-pfscn"))
    # the pod that spoke for the other is gone; the other still fails, alone: the ReplicaSet's
    # pods lack the limit still, so the finding is open (said by the pod left), not resolved
    after = _load(_pod("nginx-5fc794bbf8-pfscn"))
    changed = compare_findings(before, after)
    gone = {(f["rule"], f["name"]) for f in changed["resolved"]}
    still = {(f["rule"], f["name"]) for f in changed["open"]}
    assert ("container-no-memory-limit", "nginx-5fc794bbf8-9jjxd") not in gone
    assert ("container-no-memory-limit", "nginx-5fc794bbf8-pfscn") in still
    assert not changed["new"]
    # and the other way round: a pod come to a ReplicaSet failing alike is no new finding
    changed = compare_findings(after, before)
    assert not changed["new"] and not changed["resolved"]
    assert ("container-no-memory-limit", "nginx-5fc794bbf8-pfscn") in {(f["rule"], f["name"]) for f in changed["open"]}


def test_json_and_sarif_name_the_pods_a_finding_stands_for(tmp_path: Path) -> None:
    dump = tmp_path / "pods.json"
    dump.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": [
        _pod("nginx-5fc794bbf8-9jjxd"), _pod("nginx-5fc794bbf8-pfscn")]}), encoding="utf-8")
    runner = CliRunner()
    records = json.loads(runner.invoke(app, ["findings", str(dump), "--format", "json"]).output)
    limit = next(r for r in records if r["rule"] == "container-no-memory-limit" and r["status"] == "fail")
    assert (limit["object"]["name"], limit["alike"]) == ("nginx-5fc794bbf8-9jjxd", ["nginx-5fc794bbf8-pfscn"])
    sarif = json.loads(runner.invoke(app, ["findings", str(dump), "--format", "sarif"]).output)
    result = next(r for r in sarif["runs"][0]["results"] if r["ruleId"] == "container-no-memory-limit")
    assert result["properties"]["alike"] == ["nginx-5fc794bbf8-pfscn"]


def test_the_text_summary_counts_the_pods_a_finding_speaks_for(tmp_path: Path) -> None:
    # (realdata docker-desktop/multi-k8s-ciobotaru: 'Image uses :latest or no tag: 6' was read as
    # 6 pods; 10 pods run untagged images, 3 + 3 of them replicas said once)
    dump = tmp_path / "pods.json"
    dump.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": [
        _pod("nginx-5fc794bbf8-9jjxd"), _pod("nginx-5fc794bbf8-pfscn"), _pod("nginx-5fc794bbf8-x2b7k"),
        _pod("web", metadata__ownerReferences=None)]}), encoding="utf-8")
    text = CliRunner().invoke(app, ["findings", str(dump)]).output
    line = next(x for x in text.splitlines() if x.startswith("  [container-no-memory-limit] "))
    assert ": 4 objects, in 2 findings (Pod default/nginx-5fc794bbf8-9jjxd, Pod default/web, +2 more)" in line


def _per_pod(cluster: Any, judged: Any) -> list[tuple[Any, Any, tuple[str, ...], None]]:
    """`replica_groups` without groups: each pod its own finding, for fold_replicas to fold."""
    return [(pod, payload, (), None) for pod, payload in judged]


def _grouping_rules() -> list[Any]:
    modules = [importlib.import_module(f"analyzer.findings.rules.{m.name}") for m in pkgutil.iter_modules(rules.__path__)]
    return [m for m in (containers, *modules) if hasattr(m, "replica_groups")]


@pytest.mark.parametrize("source", [
    # realistic generated dumps (synthetic/benchmark.py, seed 1): DaemonSets on every node
    # (large-cluster), sidecars and meshes (production)
    "large-cluster", "production", "baseline",
    # real dumps: replicas of Deployments and DaemonSets, bare and static pods
    "realdata:kubeadm/sbctl-kurl-supportbundle", "realdata:vanilla/kubernetes-vagrant-centos-cluster-info-dump",
    "sample:aks", "sample:eks",
])
def test_said_once_per_template_is_what_folding_every_pod_gives(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                source: str) -> None:
    # Rules that judge each pod but say it once per group (`replica_groups`) must give exactly
    # the findings that judging and saying it per pod, then folding, gives.
    if source.startswith("realdata:"):
        path = REALDATA / source.partition(":")[2]
    elif source.startswith("sample:"):
        path = SAMPLE_DUMPS / source.partition(":")[2]
    else:
        path = tmp_path / "dump.json"
        generate_dump.write_dump(path, pods=200, nodes=40, fmt="json", seed=1, shape=source)
    grouped = collect_findings(analyzer.load(path))
    modules = _grouping_rules()
    assert len(modules) >= 4
    for module in modules:
        monkeypatch.setattr(module, "replica_groups", _per_pod)
    per_pod = collect_findings(analyzer.load(path))
    assert grouped == per_pod
    assert any(f.alike for f in grouped) or source.startswith(("realdata", "sample"))
