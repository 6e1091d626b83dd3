"""analyzer.diff on two pastes of one `kubectl get pods` (kubernetes/kubernetes#100184, five
seconds apart during a graceful node shutdown): the cells both rows show are compared, the ages
that only count from each paste's own moment are not."""

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
