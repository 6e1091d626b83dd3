"""analyzer.diff on two captures of one cluster whose controller made its pods again between them
(criticalhop/kalc examples/daemonset_eviction_small/cluster_dump at two commits), and rolled out to
a new ReplicaSet (the same cluster's dump in kalc's tests/test-deployment/dump)."""

from __future__ import annotations

from pathlib import Path

import yaml
from typer.testing import CliRunner

import analyzer
from analyzer.cli import app
from analyzer.diff import diff
from analyzer.diff.render import as_text as diff_text

REPLACED = Path(__file__).parents[1] / "data" / "diff" / "kalc-replaced-pods"
ROLLOUT = Path(__file__).parents[1] / "data" / "diff" / "kalc-rollout"


def test_a_replicasets_pod_made_again_failing_alike_is_still_open() -> None:
    """criticalhop/kalc's two captures of one GKE cluster: ReplicaSet redis-slave-unlimit-
    norequest-2-56d54b89bf's Pending pod jsjd2 was replaced by n2jz9, Pending for want of cpu alike.
    That is the finding and the incident still open, not one resolved and one new."""
    d = diff(analyzer.load(str(REPLACED / "old.yaml")), analyzer.load(str(REPLACED / "new.yaml"))).to_dict()
    assert d["findings"]["new"] == d["findings"]["resolved"] == []
    (pending,) = [f for f in d["findings"]["open"] if f["rule"] == "pod-pending"]
    assert (pending["name"], pending["replaces"], pending["owner"]) == (
        "redis-slave-unlimit-norequest-2-56d54b89bf-n2jz9", "redis-slave-unlimit-norequest-2-56d54b89bf-jsjd2",
        "Deployment default/redis-slave-unlimit-norequest-2")
    assert d["incidents"]["new"] == d["incidents"]["resolved"] == [] and len(d["incidents"]["open"]) == 1
    out = CliRunner().invoke(app, ["diff", str(REPLACED / "old.yaml"), str(REPLACED / "new.yaml")]).output
    assert "(as its Deployment default/redis-slave-unlimit-norequest-2's pod " \
           "redis-slave-unlimit-norequest-2-56d54b89bf-jsjd2 was)" in out


def test_a_controllers_pods_made_again_are_replaced_not_removed_and_added() -> None:
    """The same two captures: the Deployment's ReplicaSet made both its pods again between them
    (jsjd2 Pending and wc7bg on node n5cj, then 46mz6 on node 562n and n2jz9 Pending). The
    support engineer reads one line, the controller's pods before and after and the nodes they
    ran on, not two pods removed and two others added."""
    d = diff(analyzer.load(str(REPLACED / "old.yaml")), analyzer.load(str(REPLACED / "new.yaml"))).to_dict()
    assert d["added"] == d["removed"] == []
    (made_again,) = d["replaced"]
    prefix = "redis-slave-unlimit-norequest-2-56d54b89bf-"
    assert made_again == {
        "kind": "Pod", "namespace": "default", "controller": "Deployment default/redis-slave-unlimit-norequest-2",
        "old": [prefix + "jsjd2", prefix + "wc7bg"], "new": [prefix + "46mz6", prefix + "n2jz9"],
        "fields": [{"path": "nodes", "old": ["gke-testspace-default-pool-72d9c2b5-n5cj"],
                    "new": ["gke-testspace-default-pool-72d9c2b5-562n"]}]}
    out = CliRunner().invoke(app, ["diff", str(REPLACED / "old.yaml"), str(REPLACED / "new.yaml")]).output
    assert "objects: 0 added, 0 removed, 2 pods made again by their controllers, 0 changed" in out
    assert (f"  Deployment default/redis-slave-unlimit-norequest-2: {prefix}jsjd2, {prefix}wc7bg -> "
            f"{prefix}46mz6, {prefix}n2jz9") in out
    for fmt in ("markdown", "html"):
        page = CliRunner().invoke(app, ["diff", str(REPLACED / "old.yaml"), str(REPLACED / "new.yaml"),
                                        "--format", fmt]).output
        assert "Pods made again by their controllers (2 pods)" in page and f"{prefix}n2jz9" in page


def test_pods_only_gone_or_only_come_stay_removed_or_added(tmp_path: Path) -> None:
    """Written changes of the same captures (labelled so): the new one without 46mz6, then
    without both its pods, each with a Job's pod. Two pods made again as one says 2 -> 1; a
    controller whose pods went and none came was scaled down (its pods removed); a Job's pod is
    a run of its own, added."""
    docs = list(yaml.safe_load_all((REPLACED / "new.yaml").read_text(encoding="utf-8")))
    job_pod = {"apiVersion": "v1", "kind": "Pod",
               "metadata": {"name": "backup-28001-x7k2p", "namespace": "default", "uid": "j1",
                            "ownerReferences": [{"apiVersion": "batch/v1", "kind": "Job", "name": "backup-28001",
                                                 "controller": True, "uid": "j0"}]},
               "spec": {"containers": [{"name": "backup", "image": "busybox:1.36"}]}}
    old = analyzer.load(str(REPLACED / "old.yaml"))
    prefix = "redis-slave-unlimit-norequest-2-56d54b89bf-"

    def without(*gone: str) -> dict:
        path = tmp_path / f"new-{len(gone)}.yaml"
        items = [o for doc in docs if doc for o in doc.get("items", [doc])
                 if o.get("kind") != "Pod" or o["metadata"]["name"] not in gone]
        path.write_text(yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": [*items, job_pod]}),
                        encoding="utf-8")
        return diff(old, analyzer.load(str(path))).to_dict()

    d = without(prefix + "46mz6")
    assert [(r["old"], r["new"]) for r in d["replaced"]] == [([prefix + "jsjd2", prefix + "wc7bg"], [prefix + "n2jz9"])]
    assert [i["name"] for i in d["added"]] == ["backup-28001-x7k2p"] and d["removed"] == []
    assert "objects: 1 added, 0 removed, 2 -> 1 pods made again by their controllers" in diff_text(d)
    d = without(prefix + "46mz6", prefix + "n2jz9")
    assert d["replaced"] == [] and [i["name"] for i in d["removed"]] == [prefix + "jsjd2", prefix + "wc7bg"]
    assert [i["name"] for i in d["added"]] == ["backup-28001-x7k2p"]


def test_findings_on_a_rolled_out_deployments_pods_are_open_or_resolved_by_the_deployment() -> None:
    """criticalhop/kalc's cluster 'testspace' on 2019-09-20 and 2019-09-25: Deployment
    redis-master rolled out to a new ReplicaSet (7f86d8599d, with a memory limit the old
    85dc7c69bf's pods lacked) and scaled from 1 pod to 3. The missing memory limit is resolved;
    the probes still missing are open (the one old pod stands for the three), not three new
    findings and one resolved per probe."""
    d = diff(analyzer.load(str(ROLLOUT / "old.yaml")), analyzer.load(str(ROLLOUT / "new.yaml"))).to_dict()
    assert [(r["controller"], len(r["old"]), len(r["new"])) for r in d["replaced"]] == [
        ("Deployment default/redis-master", 1, 3)]
    # what the rollout changed, read off the pods alone (neither dump holds the ReplicaSets)
    resources = next(f for f in d["replaced"][0]["fields"] if f["path"] == "resources")
    assert (resources["old"], resources["new"]) == (["master: requests cpu=100m, memory=500Mi; limits none"],
                                                    ["master: requests cpu=100m, memory=500Mi; limits memory=500Mi"])
    assert d["findings"]["new"] == []
    assert [(f["rule"], f["name"]) for f in d["findings"]["resolved"]] == [
        ("container-no-memory-limit", "redis-master-85dc7c69bf-nltd9")]
    # each said once, as each dump's findings say it: for the new ReplicaSet's three pods
    still = sorted((f["rule"], f["name"], f["replaces"], f["owner"]) for f in d["findings"]["open"])
    assert still == [(rule, "redis-master-7f86d8599d-8fhqm", "redis-master-85dc7c69bf-nltd9",
                      "Deployment default/redis-master")
                     for rule in ("container-no-liveness-probe", "container-no-readiness-probe")]
    assert "findings: 0 new, 1 resolved, 2 still open" in diff_text(d)


def test_a_pod_added_to_a_controller_failing_alike_is_no_new_finding(tmp_path: Path) -> None:
    """A written change of the kalc captures (labelled so): the first one with the later one's
    n2jz9 added, as if the ReplicaSet had scaled from 2 pods to 3. Its hygiene findings, said
    once for the ReplicaSet's pods in each dump, are still open, not new for n2jz9; n2jz9 Pending
    is a pod Pending of its own, new."""
    docs = [d for d in yaml.safe_load_all((REPLACED / "old.yaml").read_text(encoding="utf-8")) if d]
    later = [d for d in yaml.safe_load_all((REPLACED / "new.yaml").read_text(encoding="utf-8")) if d]
    added = [o for d in later for o in d.get("items", [d]) if o["metadata"]["name"].endswith("n2jz9")]
    items = [o for d in docs for o in d.get("items", [d])] + added
    (tmp_path / "new.yaml").write_text(yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": items}),
                                       encoding="utf-8")
    d = diff(analyzer.load(str(REPLACED / "old.yaml")), analyzer.load(str(tmp_path / "new.yaml"))).to_dict()
    assert [(f["rule"], f["name"][-5:]) for f in d["findings"]["new"]] == [("pod-pending", "n2jz9")]
    assert d["findings"]["resolved"] == []
    hygiene = [f for f in d["findings"]["open"] if f["rule"].startswith("container-")]
    assert len(hygiene) == len({f["rule"] for f in hygiene}) == 4  # one each, as the findings say them


def test_a_controller_scaled_down_while_failing_alike_is_still_open(tmp_path: Path) -> None:
    """The rollout the other way round (a written change of the same dumps, labelled so: the
    new dump taken as the old one): three pods without probes, then one. The Deployment still
    has no probes: the one pod left stands for the three, none of their findings resolved."""
    d = diff(analyzer.load(str(ROLLOUT / "new.yaml")), analyzer.load(str(ROLLOUT / "old.yaml"))).to_dict()
    assert [(f["rule"], f["name"]) for f in d["findings"]["new"]] == [
        ("container-no-memory-limit", "redis-master-85dc7c69bf-nltd9")]
    assert d["findings"]["resolved"] == []
    probes = {f["rule"]: f["replaces"] for f in d["findings"]["open"]}
    assert probes == dict.fromkeys(("container-no-liveness-probe", "container-no-readiness-probe"),
                                   "redis-master-7f86d8599d-8fhqm, redis-master-7f86d8599d-s5j4n, "
                                   "redis-master-7f86d8599d-z9fp5")
    out = CliRunner().invoke(app, ["diff", str(ROLLOUT / "new.yaml"), str(ROLLOUT / "old.yaml")]).output
    assert "(as its Deployment default/redis-master's pods redis-master-7f86d8599d-8fhqm, " in out
