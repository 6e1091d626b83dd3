"""`kda diff`: formats, output folder, exit 2 for different clusters, and the HTML page in real
headless Chromium (self-contained, every dump value escaped)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml
from browser import launched, needs_chromium, open_guarded
from conftest import SAMPLE_DUMPS
from pairs import AKS, build_after
from typer.testing import CliRunner

from analyzer.cli import app

runner = CliRunner()
HOSTILE = '<script>window.__pwned = 1</script> | col | <img src=x onerror="window.__pwned = 2">'


@pytest.fixture(scope="module")
def after(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_after(tmp_path_factory.mktemp("pair"))


def test_json_contract(after: Path) -> None:
    result = runner.invoke(app, ["diff", str(AKS), str(after), "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert {"same_cluster", "added", "removed", "changed", "not_comparable", "findings"} <= set(data)
    assert set(data["same_cluster"]) >= {"verdict", "confidence", "evidence"}
    assert set(data["findings"]) >= {"new", "resolved", "open"}
    assert set(data["incidents"]) == {"new", "resolved", "open"}
    for item in data["added"] + data["removed"] + data["changed"]:
        assert {"kind", "namespace", "name"} <= set(item)
    for item in data["changed"]:
        assert item["fields"] and all(set(f) == {"path", "old", "new"} for f in item["fields"])


@pytest.mark.parametrize(("fmt", "suffix"), [("text", "txt"), ("markdown", "md"), ("html", "html"),
                                             ("json", "json")])
def test_every_format_to_a_folder(after: Path, tmp_path: Path, fmt: str, suffix: str) -> None:
    out = tmp_path / "out"
    result = runner.invoke(app, ["diff", str(AKS), str(after), "-f", fmt, "-o", str(out)])
    assert result.exit_code == 0, result.output
    text = (out / f"diff.{suffix}").read_text(encoding="utf-8")
    assert "frontend" in text and "2.5.0" in text and "not comparable" in text.lower().replace("_", " ")


def test_different_clusters_exit_2_unless_forced() -> None:
    refused = runner.invoke(app, ["diff", str(AKS), str(SAMPLE_DUMPS / "eks")])
    assert refused.exit_code == 2
    assert "different clusters" in refused.output and "--force" in refused.output
    forced = runner.invoke(app, ["diff", str(AKS), str(SAMPLE_DUMPS / "eks"), "--force"])
    assert forced.exit_code == 0 and "same cluster: different" in forced.stdout


def test_unreadable_input_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    result = runner.invoke(app, ["diff", str(AKS), str(tmp_path / "missing")])
    assert result.exit_code == 2 and "Traceback" not in result.output


def _hostile_pair(tmp_path: Path, after: Path) -> Path:
    """The pair again, with markup planted in a changed label value and an added object's name
    annotation: what a dump can hold must never become markup in the page."""
    hostile = tmp_path / "hostile"
    shutil.copytree(after, hostile)
    workloads = yaml.safe_load((hostile / "workloads.yaml").read_text(encoding="utf-8"))
    for w in workloads["items"]:
        if w["metadata"]["name"] == "frontend" and w["kind"] == "Deployment":
            w["metadata"].setdefault("annotations", {})["note"] = HOSTILE
    (hostile / "workloads.yaml").write_text(yaml.safe_dump(workloads), encoding="utf-8")
    return hostile


def test_markdown_and_text_keep_dump_values_inert(after: Path, tmp_path: Path) -> None:
    hostile = _hostile_pair(tmp_path, after)
    md = runner.invoke(app, ["diff", str(AKS), str(hostile), "-f", "markdown"])
    assert md.exit_code == 0
    line = next(x for x in md.stdout.splitlines() if "annotations" in x and "note" in x)
    assert "<script>" not in line and "&lt;script&gt;" in line
    assert line.count(" | ") == 3  # the value's own characters never open another column
    text = runner.invoke(app, ["diff", str(AKS), str(hostile)])
    assert HOSTILE in text.stdout  # plain text shows it exactly, for a terminal


@needs_chromium
def test_html_in_chromium(after: Path, tmp_path: Path) -> None:
    out = tmp_path / "html"
    result = runner.invoke(app, ["diff", str(AKS), str(_hostile_pair(tmp_path, after)), "-f", "html",
                                 "-o", str(out)])
    assert result.exit_code == 0, result.output
    page_file = out / "diff.html"
    html = page_file.read_text(encoding="utf-8")
    assert HOSTILE not in html and "&lt;script&gt;" in html
    with launched() as browser:
        page, errors, attempted = open_guarded(browser, page_file.as_uri())
        assert errors == [] and attempted == []
        assert page.evaluate("window.__pwned") is None
        assert page.eval_on_selector_all("script", "els => els.length") == 0
        body = page.inner_text("body")
        for heading in ("Same cluster?", "Added", "Removed", "Changed", "Versions",
                        "Capacity and allocatable", "Restarts gained", "Incidents", "Findings",
                        "Left out of the comparison"):
            assert heading in body
        assert HOSTILE in body  # shown as text, exactly as the dump holds it
        assert "frontend:2.5.0" in body and "ConfigMap" in body


def test_new_captured_before_old_is_said(tmp_path: Path) -> None:
    def dump(name: str, heartbeat: str) -> Path:
        node = {"apiVersion": "v1", "kind": "Node",
                "metadata": {"name": "n1", "creationTimestamp": "2024-05-01T00:00:00Z"},
                "spec": {"providerID": "aws:///us-east-1a/i-0abc"},
                "status": {"conditions": [{"type": "Ready", "status": "True",
                                           "lastHeartbeatTime": heartbeat,
                                           "lastTransitionTime": "2024-05-01T00:01:00Z"}]}}
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(node, indent=1), encoding="utf-8")
        return path

    later, earlier = dump("later", "2024-05-20T10:00:00Z"), dump("earlier", "2024-05-20T09:00:00Z")
    swapped = runner.invoke(app, ["diff", str(later), str(earlier)])
    assert swapped.exit_code == 0 and "NEW was captured (2024-05-20T09:00:00Z) before OLD" in swapped.output
    in_order = runner.invoke(app, ["diff", str(earlier), str(later)])
    assert in_order.exit_code == 0 and "before OLD" not in in_order.output
