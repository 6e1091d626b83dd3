"""analyzer.diff on two pastes of one table (kubernetes/kubernetes#100184: `get pods` five seconds
apart during a graceful node shutdown; kubernetes-sigs/kubespray#1344: `get nodes` before and
after an upgrade): the cells both rows show are compared, the ages that only count from each
paste's own moment are not."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

import analyzer
from analyzer.cli import app
from analyzer.diff import diff

DATA = Path(__file__).parents[1] / "data" / "diff"
BEFORE, AFTER = DATA / "graceful-shutdown-before.txt", DATA / "graceful-shutdown-after.txt"


def test_two_pastes_say_which_pods_changed_status() -> None:
    d = diff(analyzer.load(str(BEFORE)), analyzer.load(str(AFTER))).to_dict()
    assert d["added"] == d["removed"] == [] and d["not_comparable"] == []
    changed = {c["name"]: c["fields"] for c in d["changed"]}
    assert changed == {
        name: [{"path": "column STATUS", "old": "Pending", "new": "ContainerCreating"}]
        for name in ("shutdown-test-deploy-69cff7d9b7-blspc", "shutdown-test-deploy-69cff7d9b7-mv7bd")}
    # the three pods whose rows differ only in AGE (3s -> 8s, 102s -> 107s): no change seen
    assert d["compared_by_identity_only"] == 3
    json.dumps(d)


def test_a_paste_against_itself_changes_nothing() -> None:
    d = diff(analyzer.load(str(AFTER)), analyzer.load(str(AFTER))).to_dict()
    assert d["changed"] == [] and d["compared_by_identity_only"] == 5


def test_kda_diff_prints_the_changed_cells() -> None:
    out = CliRunner().invoke(app, ["diff", str(BEFORE), str(AFTER)]).output
    assert "2 changed" in out and "3 pasted, alike as far as the paste shows" in out
    assert "column STATUS: Pending -> ContainerCreating" in out
    assert "column AGE" not in out


def test_node_tables_before_and_after_an_upgrade() -> None:
    """kubernetes-sigs/kubespray#1344: `get nodes -o wide` before, `get nodes` after. The columns
    only -o wide prints (OS-IMAGE, KERNEL-VERSION) say nothing; AGE 22h -> 23h is no change."""
    d = diff(analyzer.load(str(DATA / "kubespray-upgrade-before.txt")),
             analyzer.load(str(DATA / "kubespray-upgrade-after.txt"))).to_dict()
    version = {"path": "column VERSION", "old": "v1.6.2+coreos.0", "new": "v1.6.4+coreos.0"}
    cordoned = {"path": "column STATUS", "old": "Ready", "new": "Ready,SchedulingDisabled"}
    assert {c["name"]: c["fields"] for c in d["changed"]} == {
        "k9s-01": [cordoned, version], "k9s-02": [cordoned, version], "k9s-03": [version]}
    # k9s-04 is only in the second paste: a paste may show some rows, so it is not 'added'
    assert d["added"] == [] and [n["objects"] for n in d["not_comparable"]] == [1]



def test_a_diff_in_a_notebook_shows_its_headline_and_listing() -> None:
    before = analyzer.load(str(DATA / "kubespray-upgrade-before.txt"))
    after = analyzer.load(str(DATA / "kubespray-upgrade-after.txt"))
    d = diff(before, after)
    head = repr(d).splitlines()
    assert head[0] == "<DumpDiff kubespray-upgrade-before -> kubespray-upgrade-after: same cluster same (confidence 0.53)>"
    assert head[1] == "  objects: 0 added, 0 removed, 3 changed, 0 unchanged"
    assert "column VERSION" not in repr(d)  # the listing is .text()'s, what kda diff prints
    out = CliRunner().invoke(app, ["diff", str(DATA / "kubespray-upgrade-before.txt"),
                                   str(DATA / "kubespray-upgrade-after.txt")]).output
    assert d.text().splitlines()[2:] == out.splitlines()[2:len(d.text().splitlines())]
    assert "column VERSION: v1.6.2+coreos.0 -&gt; v1.6.4+coreos.0" in d._repr_html_()
