"""analyzer.diff on two captures of one cluster whose controller made its pods again between them
(criticalhop/kalc examples/daemonset_eviction_small/cluster_dump at two commits)."""

from __future__ import annotations

from pathlib import Path

import yaml
from typer.testing import CliRunner

import analyzer
from analyzer.cli import app
from analyzer.diff import diff
from analyzer.diff.render import as_text as diff_text

REPLACED = Path(__file__).parents[1] / "data" / "diff" / "kalc-replaced-pods"


def test_a_replicasets_pod_made_again_failing_alike_is_still_open() -> None:
    """criticalhop/kalc's two captures of one GKE cluster: ReplicaSet redis-slave-unlimit-
    norequest-2-56d54b89bf's Pending pod jsjd2 was replaced by n2jz9, Pending for want of cpu alike.
    That is the finding and the incident still open, not one resolved and one new."""
    d = diff(analyzer.load(str(REPLACED / "old.yaml")), analyzer.load(str(REPLACED / "new.yaml"))).to_dict()
    assert d["findings"]["new"] == d["findings"]["resolved"] == []
    (pending,) = [f for f in d["findings"]["open"] if f["rule"] == "pod-pending"]
    assert (pending["name"], pending["replaces"], pending["owner"]) == (
        "redis-slave-unlimit-norequest-2-56d54b89bf-n2jz9", "redis-slave-unlimit-norequest-2-56d54b89bf-jsjd2",
        "ReplicaSet default/redis-slave-unlimit-norequest-2-56d54b89bf")
    assert d["incidents"]["new"] == d["incidents"]["resolved"] == [] and len(d["incidents"]["open"]) == 1
    out = CliRunner().invoke(app, ["diff", str(REPLACED / "old.yaml"), str(REPLACED / "new.yaml")]).output
    assert "(as its ReplicaSet default/redis-slave-unlimit-norequest-2-56d54b89bf's pod " \
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
