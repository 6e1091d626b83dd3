"""Diagrams: legible at 10,000 pods, deterministic SVG, dump text never read as markup or math."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import networkx as nx
import pytest
from conftest import REALDATA, SAMPLE_DUMPS, TEST_DATA
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.text import Text

import analyzer
from analyzer.report import cluster_diagrams, diagrams, render_cluster_report
from analyzer.report.diagrams import (
    LAYERS,
    MAX_PER_LAYER,
    NothingToDraw,
    component_matrix,
    dependency_diagram,
    figure_png,
    figure_svg,
    findings_by_severity,
    graph_diagram,
    node_distribution,
    system_namespace,
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
    fig = graph_diagram(graph, "big", "synthetic")
    svg = figure_svg(fig)
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
    assert len(svg) < 500_000  # issue 22: no SVG over 500 KB (its time: benchmarks/bench_report.py)


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


def test_labels_are_svg_text_in_dejavu_then_any_sans_serif_with_spaces_kept() -> None:
    # Text, not glyph outlines: a reader without DejaVu Sans gets their sans-serif (narrower:
    # Arial, Helvetica, Liberation Sans), and a dump's name stays escaped text in the markup.
    g = nx.MultiDiGraph()
    dep = _node(g, "Deployment", "ns", "<script>x</script>")
    gone = "core/ConfigMap/ns/settings"
    g.add_node(gone, kind="ConfigMap", group="core", namespace="ns", name="settings",
               state="missing", uid="", created="", phase="", role="", type="")
    g.add_edge(dep, gone, key="mounts", relation="mounts", via="volumes", optional=False)
    svg = figure_svg(graph_diagram(g, "ns"))
    assert "<script>" not in svg
    assert ">Deployment &lt;script&gt;x&lt;/script&gt;</text>" in svg
    fonts = set(re.findall(r"font-family: ([^;\"]+)", svg))
    assert fonts == {"'DejaVu Sans', sans-serif"}
    assert 'xlink:href="#DejaVuSans-' not in svg  # no glyph defined as a path
    # "settings  [missing]" keeps its two spaces on screen, as it was laid out.
    assert ">ConfigMap settings  [missing]</text>" in svg
    assert "text {white-space: pre}" in svg


@pytest.mark.parametrize("draw", [dependency_diagram, node_distribution, findings_by_severity])
@pytest.mark.parametrize("name", ["aks", "kubeadm"])
def test_a_figure_written_at_its_own_size_holds_everything_it_draws(draw, name: str) -> None:
    # These are written without the tight bounding box: nothing may reach past their edges
    # (a legend below the picture, a label, a title), and the legend stays clear of the boxes.
    fig = draw(analyzer.load(str(SAMPLE_DUMPS / name)))
    assert fig.__dict__.get("_kda_laid_out")
    renderer = FigureCanvasAgg(fig).get_renderer()
    outside = fig.get_tightbbox(renderer)  # inches; Agg sets text a little wider than the SVG
    width, height = fig.get_size_inches()
    assert outside.x0 >= -0.02 and outside.y0 >= -0.02, (outside, width, height)
    assert outside.x1 <= width + 0.02 and outside.y1 <= height + 0.02, (outside, width, height)
    if draw is dependency_diagram:
        (legend,) = fig.legends
        lowest = min(b.get_window_extent(renderer).y0 for b in _boxes(fig))
        assert legend.get_window_extent(renderer).y1 < lowest


def test_a_figure_not_laid_out_is_cropped_to_what_it_draws() -> None:
    fig = Figure(figsize=(4, 3))
    fig.add_subplot().set_title("a chart that did not lay itself out")
    assert 'width="288pt"' not in figure_svg(fig)  # 4 inches: cropped, so narrower
    assert 'width="288pt"' in figure_svg(diagrams.laid_out(fig))


def test_an_empty_namespace_is_not_drawn() -> None:
    cluster = analyzer.load(str(SAMPLE_DUMPS / "eks"))
    with pytest.raises(NothingToDraw, match="namespace no-such-namespace has no objects"):
        dependency_diagram(cluster, "no-such-namespace")


def test_the_default_namespace_is_kube_system_when_the_dump_has_it() -> None:
    cluster = analyzer.load(str(SAMPLE_DUMPS / "oke"))
    assert system_namespace(cluster).namespace == "kube-system"


def test_without_kube_system_the_cni_namespace_is_drawn() -> None:
    # Written for this test: calico's operator layout (calico-system, tigera-operator), no kube-system.
    text = """apiVersion: v1
kind: List
items:
- apiVersion: apps/v1
  kind: DaemonSet
  metadata: {name: calico-node, namespace: calico-system}
  spec: {selector: {matchLabels: {k8s-app: calico-node}}, template: {metadata: {labels: {k8s-app: calico-node}}, spec: {containers: [{name: calico-node, image: "docker.io/calico/node:v3.27.3"}]}}}
  status: {desiredNumberScheduled: 1, numberReady: 1}
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web, namespace: shop}
  spec: {replicas: 3, selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}, spec: {containers: [{name: web, image: nginx}]}}}
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: a, namespace: shop}
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: b, namespace: shop}
"""
    cluster = analyzer.load(text)
    choice = system_namespace(cluster)
    assert choice.namespace == "calico-system", choice
    assert "CNI" in choice.why
    labels = [t.get_text() for t in dependency_diagram(cluster).axes[0].texts]
    assert "DaemonSet calico-node" in labels


@pytest.mark.skipif(not (REALDATA / "openshift").exists(), reason="shared/realdata not present")
def test_an_openshift_must_gather_draws_an_openshift_namespace(tmp_path) -> None:
    # A real must-gather: no kube-system; its system components live in openshift-* namespaces.
    cluster = analyzer.load(str(REALDATA / "openshift" / "must-gather-clean-aws"))
    choice = system_namespace(cluster)
    assert choice.namespace is not None and choice.namespace.startswith("openshift-")
    fig = dependency_diagram(cluster)
    assert f"namespace {choice.namespace}" in fig.texts[0].get_text()


def test_a_dump_with_no_system_namespace_draws_nothing(tmp_path) -> None:
    # One ConfigMap in an application namespace (written here): nothing of the system to draw.
    cluster = analyzer.load("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: shop}\n")
    choice = system_namespace(cluster)
    assert choice.namespace is None and "namespaces with objects: shop" in choice.why
    with pytest.raises(NothingToDraw):
        dependency_diagram(cluster)
    drawn = cluster_diagrams(cluster)
    assert drawn[0].svg == "" and "no kube-system" in drawn[0].reason
    report = render_cluster_report(cluster, tmp_path)
    assert not list(tmp_path.glob("dependencies*.svg"))
    page = report.html.read_text(encoding="utf-8")
    assert "Dependencies of the system components: not available (this dump has no kube-system" in page


def test_long_labels_fit_their_boxes_and_keep_the_full_name_as_title() -> None:
    g = nx.MultiDiGraph()
    long_name = "a-very-long-deployment-name-that-goes-on-and-on-and-on-for-ever-" + "x" * 30
    dep = _node(g, "Deployment", "ns", long_name)
    for i in range(3):
        pod = _node(g, "Pod", "ns", f"{long_name}-5d4f8b7c9-{i:05d}", "core")
        g.add_edge(dep, pod, key="owns", relation="owns", via="controller", optional=False)
    cm = _node(g, "ConfigMap", "ns", "config-" + "y" * 80, "core")
    g.add_edge(dep, cm, key="mounts", relation="mounts", via="volumes", optional=False)
    fig = graph_diagram(g, "ns")
    svg = figure_svg(fig)
    ax = fig.axes[0]
    renderer = FigureCanvasAgg(fig).get_renderer()
    boxes = {(round(b.get_x(), 3), round(b.get_y() + b.get_height() / 2, 3)): b for b in _boxes(fig)}
    labels = [t for t in ax.texts if t.get_gid() and t.get_gid().startswith("kda-label-")]
    assert len(labels) == 5
    for text in labels:
        x, y = text.get_position()
        box = boxes[(round(x - 0.08, 3), round(y, 3))]
        right = ax.transData.transform((box.get_x() + box.get_width(), y))[0]
        assert text.get_window_extent(renderer).x1 <= right, text.get_text()
        assert "…" in text.get_text()
    # Shortened on screen, whole in the SVG: the label's group carries its full text as <title>.
    assert f"<title>Deployment {long_name}</title>" in svg
    assert f"<title>Pod {long_name}-5d4f8b7c9-00002</title>" in svg
    # The distinguishing end of a pod's name survives the shortening.
    assert any(t.get_text().endswith("-00002") for t in labels)


def test_kda_diagram_writes_nothing_and_exits_2_when_there_is_nothing_to_draw(tmp_path) -> None:
    from typer.testing import CliRunner

    from analyzer.cli import app

    out = tmp_path / "d.svg"
    result = CliRunner().invoke(app, ["diagram", str(SAMPLE_DUMPS / "eks"), "-n", "nope", "-o", str(out)])
    assert result.exit_code == 2 and not out.exists()
    assert "nothing to draw: namespace nope has no objects" in result.output
    result = CliRunner().invoke(app, ["diagram", str(SAMPLE_DUMPS / "eks"), "-o", str(out)])
    assert result.exit_code == 0 and out.read_text(encoding="utf-8").startswith("<?xml")


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


# kubernetes-sigs/sig-windows-tools#378's `k get nodes -o wide` (trimmed): four Ubuntu nodes and two
# Windows Server 2022 workers, all on kubelet v1.31.1 and containerd 1.7.22, were one bar.
MIXED_OS_NODES = """\
NAME                      STATUS   ROLES           AGE   VERSION   INTERNAL-IP    EXTERNAL-IP    OS-IMAGE                       KERNEL-VERSION      CONTAINER-RUNTIME
clippy-md-0-2kt4j-4wthh   Ready    <none>          43h   v1.31.1   10.13.18.42    10.13.18.42    Ubuntu 20.04.6 LTS             5.4.0-195-generic   containerd://1.7.22
clippy-nn78j              Ready    control-plane   43h   v1.31.1   10.13.18.8     10.13.18.8     Ubuntu 20.04.6 LTS             5.4.0-195-generic   containerd://1.7.22
cw2-ptmtr-nwbvs           Ready    <none>          25h   v1.31.1   10.12.12.157   10.12.12.157   Windows Server 2022 Standard   10.0.20348.2700     containerd://1.7.22
"""


def test_a_windows_pool_is_a_bar_of_its_own(tmp_path) -> None:
    path = tmp_path / "nodes.txt"
    path.write_text(MIXED_OS_NODES, encoding="utf-8")
    right = node_distribution(analyzer.load(path)).axes[1]
    assert [t.get_text() for t in right.get_yticklabels()] == ["v1.31.1 / containerd / linux",
                                                               "v1.31.1 / containerd / windows"]
    assert right.get_title() == "Nodes by kubelet / runtime / OS (3 nodes)"
    # one OS: the bars and title as before
    assert node_distribution(analyzer.load(str(SAMPLE_DUMPS / "oke"))).axes[1].get_title().startswith(
        "Nodes by kubelet / runtime (")


def test_no_pyplot_state_is_touched() -> None:
    import sys

    assert diagrams.Figure is Figure
    before = "matplotlib.pyplot" in sys.modules
    node_distribution(analyzer.load(str(SAMPLE_DUMPS / "oke")))
    assert ("matplotlib.pyplot" in sys.modules) == before


def test_a_diagram_whose_svg_would_be_too_big_is_a_png(monkeypatch, tmp_path) -> None:
    from analyzer.report import render

    cluster = analyzer.load(str(SAMPLE_DUMPS / "oke"))
    small = render.draw("nodes", "Nodes", lambda: node_distribution(cluster))
    assert small.svg and small.data_uri.startswith("data:image/svg+xml;base64,")
    monkeypatch.setattr(render, "MAX_SVG_BYTES", len(small.svg) - 1)
    big = render.draw("nodes", "Nodes", lambda: node_distribution(cluster))
    assert big.svg == "" and big.png.startswith(b"\x89PNG") and big.file == "nodes.png"
    assert big.data_uri.startswith("data:image/png;base64,") and (big.width, big.height) == (small.width, small.height)
    assert render.write_diagrams([big], tmp_path) == [tmp_path / "nodes.png"]




# `kubectl get nodes` and `get pods --all-namespaces` without -o wide, as pasted in
# labring/sealos#670 ("执行完init后有三个pod无法启动"), trimmed to the two listings (in
# tests/data/pastes/): the six Running pods are on a node the paste does not print, only the
# three Pending ones are unscheduled.
_NO_NODE_COLUMN = (TEST_DATA / "pastes" / "sealos-670-get-pods.txt").read_text(encoding="utf-8")


def test_pods_whose_node_a_paste_does_not_print_are_not_called_unscheduled() -> None:
    fig = node_distribution(analyzer.load(_NO_NODE_COLUMN))
    left = fig.axes[0]
    assert left.get_title() == "Pods per node (3 not scheduled, 6 with no node named)"
    assert [t.get_text() for t in left.texts] == ["no pod's node is named in this dump"]
    assert not left.axison and left.get_legend() is None  # no empty axes, no legend of nothing


@pytest.mark.skipif(not _SEEDED_DUMP.exists(), reason="shared/realdata not present")
def test_pending_pods_without_a_node_are_counted_not_scheduled() -> None:
    # the cka dump's two coredns pods are Pending on NotReady nodes, PodScheduled False
    title = node_distribution(analyzer.load(str(_SEEDED_DUMP))).axes[0].get_title()
    assert title == "Pods per node (2 not scheduled)"


def test_pods_of_unknown_readiness_are_drawn_apart_from_not_ready() -> None:
    # As a describe node's 'Non-terminated Pods' gives them (realdata eks/holmesgpt-fixtures:
    # 17 pods with no status, once one red 'not ready' bar while the card said '17 unknown'):
    # two pods with a node and no status beside one Running and ready.
    text = """\
apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: Pod, metadata: {name: a, namespace: shop}, spec: {nodeName: n1, containers: [{name: c, image: x}]}}
- {apiVersion: v1, kind: Pod, metadata: {name: b, namespace: shop}, spec: {nodeName: n1, containers: [{name: c, image: x}]}}
- apiVersion: v1
  kind: Pod
  metadata: {name: c, namespace: shop}
  spec: {nodeName: n1, containers: [{name: c, image: x}]}
  status:
    phase: Running
    conditions: [{type: Ready, status: "True"}]
    containerStatuses: [{name: c, ready: true, restartCount: 0, image: x, imageID: "", state: {running: {}}}]
"""
    left = node_distribution(analyzer.load(text)).axes[0]
    widths = {bars.get_label(): [bar.get_width() for bar in bars] for bars in left.containers}
    assert widths == {"ready": [1], "not ready": [0], "readiness unknown": [2]}
    assert [t.get_text() for t in left.get_legend().get_texts()] == ["ready", "not ready", "readiness unknown"]


# The report's charts set their titles at the top of their axes (`title_at_top`) instead of
# letting matplotlib search, on each draw, for what rises over the axes: the same picture only
# while nothing does. Drawn both ways and compared. Fixtures: the sample dumps, and realdata
# cases with their own node, findings and timeline shapes (../shared/realdata/SOURCES.md: a
# kurl support bundle, an OpenShift must-gather, a k3s cluster-info dump).
TITLED_DUMPS = [SAMPLE_DUMPS / name for name in ("aks", "eks", "kubeadm", "oke")] + [
    REALDATA / "kubeadm" / "sbctl-kurl-supportbundle", REALDATA / "openshift" / "must-gather-clean-aws",
    REALDATA / "k3s" / "udacity-nd064-cluster-info-dump"]


def _searched(fig: Figure) -> str:
    """The figure's SVG with matplotlib's search for its titles' place turned back on."""
    for ax in fig.axes:
        ax._autotitlepos = True
    return figure_svg(fig)


@pytest.mark.parametrize("dump", TITLED_DUMPS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_title_at_the_top_is_where_matplotlib_would_place_it(dump) -> None:  # noqa: ANN001
    from analyzer.report.timeline import timeline_picture

    if not dump.exists():
        pytest.skip(f"{dump} is not beside the repo")
    cluster = analyzer.load(str(dump))
    titled = 0
    for draw in (node_distribution, findings_by_severity, timeline_picture):
        fig = draw(cluster)
        titled += sum(1 for ax in fig.axes if ax.get_title() and not ax._autotitlepos)
        assert figure_svg(fig) == _searched(fig), draw.__name__
    assert titled >= 2  # (a chart with nothing to show is a message, titled as before)


def test_a_title_over_ticks_on_top_would_move_so_is_not_set_at_the_top() -> None:
    """What the comparison above would catch: x tick labels on top (the component matrix's)."""
    with diagrams._style():
        fig = Figure(figsize=(4, 2))
        ax = fig.add_subplot()
        ax.set_xticks([0, 1], ["cluster-a\n(aks)", "cluster-b\n(eks)"])
        ax.xaxis.tick_top()
        diagrams.title_at_top(ax, "Components by role")
        fig.tight_layout()
        assert figure_svg(fig) != _searched(fig)
