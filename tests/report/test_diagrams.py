"""Diagrams: legible at 10,000 pods, deterministic SVG, dump text never read as markup or math."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import networkx as nx
import pytest
from conftest import REALDATA, SAMPLE_DUMPS
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.text import Text

import analyzer
from analyzer.report import diagrams
from analyzer.report.diagrams import (
    LAYERS,
    MAX_PER_LAYER,
    component_matrix,
    dependency_diagram,
    figure_png,
    figure_svg,
    findings_by_severity,
    graph_diagram,
    node_distribution,
)


def _node(g: nx.MultiDiGraph, kind: str, ns: str, name: str, group: str = "apps") -> str:
    key = f"{group}/{kind}/{ns}/{name}"
    g.add_node(key, kind=kind, group=group, namespace=ns, name=name, state="present", uid="",
               created="", phase="", role="", type="")
    return key


def big_namespace(pods: int = 10_000, deployments: int = 400, nodes: int = 500) -> nx.MultiDiGraph:
    """A synthetic graph shaped like build_graph's: Deployment -> ReplicaSet -> Pod (owns),
    Pod -> Node (runs on), Service -> Pod (selects), Pod -> ConfigMap (mounts)."""
    g = nx.MultiDiGraph()
    node_keys = [_node(g, "Node", "", f"node-{i:04d}", "core") for i in range(nodes)]
    for d in range(deployments):
        dep = _node(g, "Deployment", "big", f"app-{d:03d}")
        rs = _node(g, "ReplicaSet", "big", f"app-{d:03d}-5d4f")
        svc = _node(g, "Service", "big", f"app-{d:03d}", "core")
        cm = _node(g, "ConfigMap", "big", f"app-{d:03d}-config", "core")
        g.add_edge(dep, rs, key="owns", relation="owns", via="controller", optional=False)
        for p in range(pods // deployments):
            pod = _node(g, "Pod", "big", f"app-{d:03d}-5d4f-{p:03d}", "core")
            g.add_edge(rs, pod, key="owns", relation="owns", via="controller", optional=False)
            g.add_edge(pod, node_keys[(d * 31 + p) % nodes], key="runs_on", relation="runs_on",
                       via="spec.nodeName", optional=False)
            g.add_edge(svc, pod, key="selects", relation="selects", via="spec.selector", optional=False)
            g.add_edge(pod, cm, key="mounts", relation="mounts", via="volumes", optional=False)
    return g


def _boxes(fig: Figure) -> list[Rectangle]:
    ax = fig.axes[0]
    return [p for p in ax.patches if isinstance(p, Rectangle)]


def test_ten_thousand_pods_still_give_a_legible_picture() -> None:
    graph = big_namespace()
    assert sum(1 for _, k in graph.nodes(data="kind") if k == "Pod") == 10_000
    started = time.perf_counter()
    fig = graph_diagram(graph, "big", "synthetic")
    svg = figure_svg(fig)
    elapsed = time.perf_counter() - started
    boxes = _boxes(fig)
    # Pods folded into their Deployments; every column capped with one "+N more" box.
    assert len(boxes) <= MAX_PER_LAYER * len(LAYERS)
    labels = [t.get_text() for t in fig.axes[0].texts]
    assert not any(label.startswith("Pod ") for label in labels)
    assert any(label.startswith("+ 377 Deployment more") for label in labels), labels
    assert any("(25 pods)" in label for label in labels)
    assert "pods folded into their controllers" in fig.texts[0].get_text()
    width, height = fig.get_size_inches()
    assert width <= 20 and height <= 10
    assert len(svg) < 3_000_000 and elapsed < 60


def test_small_namespaces_show_every_pod_and_their_nodes() -> None:
    cluster = analyzer.load(str(SAMPLE_DUMPS / "oke"))
    fig = dependency_diagram(cluster)
    labels = [t.get_text() for t in fig.axes[0].texts]
    assert sum(label.startswith("Pod proxymux-client-") for label in labels) == 3
    assert {"Node 10.0.10.10", "Node 10.0.10.11", "Node 10.0.10.12"} <= set(labels)
    assert "DaemonSet proxymux-client" in labels
    assert "pods folded" not in fig.texts[0].get_text()


def test_svg_is_deterministic_and_undated() -> None:
    cluster = analyzer.load(str(SAMPLE_DUMPS / "kubeadm"))
    again = analyzer.load(str(SAMPLE_DUMPS / "kubeadm"))
    for draw in (dependency_diagram, node_distribution, findings_by_severity):
        a, b = figure_svg(draw(cluster)), figure_svg(draw(again))
        assert a == b
        assert "<dc:date>" not in a
    assert figure_png(node_distribution(cluster)) == figure_png(node_distribution(again))


# A real cluster-info dump whose kube-system diagram once came out differently from run to run
# (a subgraph lists its nodes in set order, which depends on the string hash seed).
_SEEDED_DUMP = REALDATA / "kubeadm" / "cka-3c97-cluster-info-dump"
_DRAW = ("import sys, analyzer; from analyzer.report.diagrams import dependency_diagram, figure_svg; "
         "sys.stdout.write(figure_svg(dependency_diagram(analyzer.load(sys.argv[1]))))")


@pytest.mark.skipif(not _SEEDED_DUMP.exists(), reason="shared/realdata not present")
def test_svg_is_the_same_whatever_the_hash_seed() -> None:
    svgs = {
        subprocess.run([sys.executable, "-c", _DRAW, str(_SEEDED_DUMP)], capture_output=True, text=True,
                       check=True, env={**os.environ, "PYTHONHASHSEED": seed}).stdout
        for seed in ("1", "2", "3")
    }
    assert len(svgs) == 1 and "<svg" in svgs.pop()


def test_dollar_signs_and_markup_in_names_stay_plain_text() -> None:
    g = nx.MultiDiGraph()
    dep = _node(g, "Deployment", "ns", "price-$x$-<b>bold</b>")
    pod = _node(g, "Pod", "ns", "p-$\\alpha$", "core")
    g.add_edge(dep, pod, key="owns", relation="owns", via="controller", optional=False)
    fig = graph_diagram(g, "ns")
    figure_svg(fig)  # math text would fail or turn $\alpha$ into a glyph
    labels = [t.get_text() for t in fig.axes[0].texts if isinstance(t, Text)]
    assert "Deployment price-$x$-<b>bold</b>" in labels
    assert all(not t.get_parse_math() for t in fig.axes[0].texts)


def test_an_empty_namespace_says_so() -> None:
    cluster = analyzer.load(str(SAMPLE_DUMPS / "eks"))
    fig = dependency_diagram(cluster, "no-such-namespace")
    assert "no objects in namespace no-such-namespace" in [t.get_text() for t in fig.axes[0].texts]


def test_component_matrix_has_one_row_per_component_and_a_column_per_cluster() -> None:
    clusters = [analyzer.load(str(SAMPLE_DUMPS / n)) for n in ("aks", "oke")]
    fig = component_matrix(clusters)
    ax = fig.axes[0]
    rows = [t.get_text() for t in ax.get_yticklabels()]
    assert "api-tunnel: proxymux-client" in rows and "api-tunnel: konnectivity-agent" in rows
    assert [t.get_text().split("\n")[0] for t in ax.get_xticklabels()] == ["aks", "oke"]
    assert len(ax.patches) == 2 * len(rows)


@pytest.mark.parametrize("name", ["aks", "eks"])
def test_charts_count_what_the_tables_hold(name: str) -> None:
    cluster = analyzer.load(str(SAMPLE_DUMPS / name))
    fig = findings_by_severity(cluster)
    failed = cluster.findings[cluster.findings["status"] == "fail"]
    totals = [t.get_text() for t in fig.axes[0].texts]
    expected = [str(int((failed["severity"] == s).sum())) for s in ("critical", "warning", "info")]
    assert totals == expected
    nodes = node_distribution(cluster)
    assert len(nodes.axes[0].patches) == 2 * len(cluster.tables["nodes"])


def test_no_pyplot_state_is_touched() -> None:
    import sys

    assert diagrams.Figure is Figure
    before = "matplotlib.pyplot" in sys.modules
    node_distribution(analyzer.load(str(SAMPLE_DUMPS / "oke")))
    assert ("matplotlib.pyplot" in sys.modules) == before
