"""`kda graph`: every format, the namespace and impact views, and user errors without traceback."""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import pytest
from typer.testing import CliRunner

from analyzer.cli import app

runner = CliRunner()
# An OKE kube-system in miniature; the file says where each object came from.
OKE = str(Path(__file__).resolve().parents[1] / "graph" / "data" / "oke_kube_system.yaml")


def run(*args: str):
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return result


def test_json_is_the_default_and_holds_the_whole_graph():
    result = run("graph", OKE)
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    ids = {n["id"] for n in data["nodes"]}
    assert "apps/DaemonSet/kube-system/proxymux-client" in ids
    assert {e["relation"] for e in data["edges"]} >= {"owns", "selects", "mounts", "scheduled_on"}


def test_graphml_to_a_file_opens_with_networkx(tmp_path):
    out = tmp_path / "g.graphml"
    result = run("graph", OKE, "--format", "graphml", "-o", str(out))
    assert result.exit_code == 0
    g = nx.read_graphml(out, force_multigraph=True)
    assert g.nodes["core/Node//10.0.10.2"]["role"] == "node"


@pytest.mark.parametrize(("fmt", "start"), [("dot", "digraph"), ("mermaid", "flowchart LR"), ("cypher", "//"), ("gexf", "<?xml")])
def test_text_formats(fmt, start):
    result = run("graph", OKE, "-f", fmt)
    assert result.exit_code == 0 and result.stdout.startswith(start)


def test_impact_view_holds_the_daemonset_and_its_pods_only():
    result = run("graph", OKE, "--impact", "ds/kube-system/proxymux-client")
    nodes = {n["id"] for n in json.loads(result.stdout)["nodes"]}
    assert nodes == {
        "apps/DaemonSet/kube-system/proxymux-client",
        "core/Pod/kube-system/proxymux-client-10.0.10.2",
        "core/Pod/kube-system/proxymux-client-10.0.10.3",
    }
    text = run("graph", OKE, "--impact", "ds/kube-system/proxymux-client", "-f", "text").stdout
    assert "2 objects" in text and "deleted" in text


def test_namespace_and_collapse():
    result = run("graph", OKE, "--namespace", "kube-system", "--collapse")
    data = json.loads(result.stdout)
    kinds = {n["kind"] for n in data["nodes"]}
    assert "Pod" not in kinds and "Node" in kinds  # cluster-scoped nodes the namespace touches
    deployment = next(n for n in data["nodes"] if n["id"] == "apps/Deployment/kube-system/coredns")
    assert deployment["pods"] == 2


def test_text_summary_counts_relations():
    text = run("graph", OKE, "-f", "text").stdout
    assert "references by relation:" in text and "dangling references" in text


def test_unknown_object_is_a_user_error_with_suggestions():
    result = run("graph", OKE, "--impact", "ds/kube-system/proxymux")
    assert result.exit_code == 2
    assert "proxymux-client" in result.output


def test_impact_and_dependencies_together_are_refused():
    result = run("graph", OKE, "--impact", "ds/kube-system/proxymux-client", "--dependencies", "cm/kube-system/coredns")
    assert result.exit_code == 2
