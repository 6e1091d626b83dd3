"""A report never says a dump 'did not collect Nodes' when its nodes.json was there but unreadable.

Fixture: the kubectl 1.8 tree of tests/ingest/data (cut from a real kubectl 1.9 dump), with its
nodes.json damaged here.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from analyzer.cli import app

TREE = Path(__file__).parents[1] / "ingest" / "data" / "kubectl-1.8-tree" / "cluster-info"


def test_report_says_nodes_json_was_unreadable(tmp_path: Path) -> None:
    dump = tmp_path / "cluster-info"
    shutil.copytree(TREE, dump)
    nodes = dump / "nodes.json"
    nodes.write_text(nodes.read_text().replace('"Items": [', '"Items": [[', 1))
    result = CliRunner().invoke(app, ["report", str(dump), "-o", str(tmp_path / "out"), "--no-progress"])
    assert result.exit_code == 0, result.output
    md = (tmp_path / "out" / "cluster-info" / "report.md").read_text()
    html = (tmp_path / "out" / "cluster-info" / "report.html").read_text()
    for page in (md, html):
        assert "nodes.json was present but no Node could be read" in page
        assert "did not collect Nodes" not in page
    assert "- Present but unreadable: Node" in md


def test_report_json_of_an_unreadable_dump_keeps_the_contract(tmp_path: Path) -> None:
    junk = tmp_path / "notes.txt"
    junk.write_text("we restarted the nodes on monday, see attached\n")
    result = CliRunner().invoke(app, ["report", str(junk), "-o", str(tmp_path / "out"), "--format", "json",
                                      "--no-progress"])
    assert result.exit_code == 2
    doc = json.loads((tmp_path / "out" / "notes" / "report.json").read_text())
    assert doc["objects_total"] == 0 and doc["error"].startswith("nothing could be read")
    assert [(r["source"], r["location"]) for r in doc["rejected"]] == [(str(junk), "")]
