"""analyzer.diff on two captures of one cluster whose controller made its pods again between them
(criticalhop/kalc examples/daemonset_eviction_small/cluster_dump at two commits)."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

import analyzer
from analyzer.cli import app
from analyzer.diff import diff

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
