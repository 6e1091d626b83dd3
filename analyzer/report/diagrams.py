"""Report diagrams as matplotlib Figures (no pyplot state), and their deterministic SVG/PNG bytes.

Every diagram takes dump strings as plain text: math parsing is off, so a `$` in a name stays a `$`.
"""

from __future__ import annotations

import html
import io
import re
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from typing import TYPE_CHECKING, Any

import matplotlib
from matplotlib.collections import LineCollection
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.patches import Patch, Rectangle
from matplotlib.textpath import TextToPath
from matplotlib.ticker import MaxNLocator

from analyzer.report.views import (
    FindingsTally,
    NamespaceView,
    findings_tally,
    namespace_view,
    system_namespace,
)

if TYPE_CHECKING:
    import networkx as nx
    import pandas as pd

    from analyzer.cluster import Cluster

# Fixed fonts and no math text, so the same dump draws the same picture on every machine.
# Text is laid out with DejaVu Sans (matplotlib's own) and written as SVG text naming it, then
# the reader's sans-serif: writing each glyph as a path cost a third of the SVG's time and
# two thirds of its bytes. Where DejaVu Sans is not installed, the sans-serif that stands in
# (Arial, Helvetica, Liberation Sans) is narrower, so a label fitted to its box still fits.
STYLE = {
    "font.family": ["DejaVu Sans", "sans-serif"],
    "font.sans-serif": ["DejaVu Sans"],
    "font.size": 9,
    "text.parse_math": False,
    "svg.hashsalt": "kube-dump-analyzer",
    "svg.fonttype": "none",
    "axes.titlesize": 11,
    "axes.titleweight": "bold",
}

# Columns of the dependency diagram, left to right: what runs where, what controls it, what it uses.
LAYERS: tuple[tuple[str, frozenset[str]], ...] = (
    ("Nodes", frozenset({"Node"})),
    ("Pods", frozenset({"Pod"})),
    ("ReplicaSets and Jobs", frozenset({"ReplicaSet", "Job", "ControllerRevision"})),
    ("Controllers", frozenset({"Deployment", "DaemonSet", "StatefulSet", "CronJob",
                               "ReplicationController", "HorizontalPodAutoscaler",
                               "PodDisruptionBudget"})),
    ("Services and network", frozenset({"Service", "Endpoints", "EndpointSlice", "Ingress",
                                        "IngressClass", "NetworkPolicy", "HTTPRoute",
                                        "Gateway", "APIService"})),
    ("Configuration, storage, identity", frozenset()),  # everything else
)

KIND_COLOURS = {
    "Node": "#7f7f7f", "Pod": "#4c78a8", "ReplicaSet": "#9ecae9", "Job": "#9ecae9",
    "ControllerRevision": "#9ecae9", "Deployment": "#54a24b", "DaemonSet": "#88d27a",
    "StatefulSet": "#2f7d32", "CronJob": "#b5e3a8", "ReplicationController": "#54a24b",
    "Service": "#f58518", "Endpoints": "#ffbf79", "EndpointSlice": "#ffbf79", "Ingress": "#e45756",
    "ConfigMap": "#b279a2", "Secret": "#d6a5c9", "ServiceAccount": "#72b7b2",
    "PersistentVolumeClaim": "#9d755d", "PersistentVolume": "#bcaa99", "StorageClass": "#d8c8b8",
    "PriorityClass": "#eeca3b",
}
OTHER_COLOUR = "#bab0ac"
STATE_EDGE = {"present": "#333333", "missing": "#d62728", "not_collected": "#999999"}
SEVERITY_COLOURS = {"critical": "#d62728", "warning": "#ff9f1c", "info": "#4c78a8"}

MAX_PER_LAYER = 24  # beyond this a column shows its busiest objects and one "+N more" box
LABEL_CHARS = 40


@contextmanager
def _style() -> Iterator[None]:
    with matplotlib.rc_context(STYLE):
        yield


def _short(text: str, limit: int = LABEL_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


class NothingToDraw(ValueError):
    """A diagram was asked of something with nothing in it (a namespace without objects)."""


@cache
def _text_width(text: str, size: float) -> float:
    """Width in points of `text` set in the diagrams' font at `size` points."""
    prop = FontProperties(family=STYLE["font.family"], size=size)
    return TextToPath().get_text_width_height_descent(text, prop, ismath=False)[0]


def fit_label(head: str, name: str, tail: str, width: float, size: float = 8) -> str:
    """`head + name + tail` in at most `width` points: the name shortened in its middle (its
    start and its distinguishing end kept, joined by '…') when the whole does not fit.

    >>> fit_label("Pod ", "coredns-5d78c9869d-abcde", "", 400)
    'Pod coredns-5d78c9869d-abcde'
    >>> fit_label("Pod ", "calico-kube-controllers-5d78c9869d-abcde", "", 120)
    'Pod calico-kube…869d-abcde'
    """
    if _text_width(head + name + tail, size) <= width:
        return head + name + tail
    low, high = 0, len(name) - 1  # characters of the name kept around the ellipsis
    while low < high:
        keep = (low + high + 1) // 2
        if _text_width(head + _middle(name, keep) + tail, size) <= width:
            low = keep
        else:
            high = keep - 1
    return head + _middle(name, low) + tail


def _middle(name: str, keep: int) -> str:
    front = (keep + 1) // 2
    return name[:front] + "…" + (name[len(name) - (keep - front):] if keep - front else "")


def set_title(text: Any, full: str) -> None:
    """Give a drawn label the full text it stands for: the SVG carries it as the label's <title>."""
    fig = text.get_figure()
    titles = fig.__dict__.setdefault("_kda_titles", {})
    gid = f"kda-label-{len(titles)}"
    text.set_gid(gid)
    titles[gid] = full


_ROOT_TAG = re.compile(r"<svg ([^>]*)>")


def laid_out(fig: Figure) -> Figure:
    """Mark a figure that placed every artist inside itself (a chart after tight_layout, the
    dependency diagram): it is written at its own size. Others are cropped to their tight
    bounding box, which costs a second layout of all their text when written."""
    fig.__dict__["_kda_laid_out"] = True
    return fig


def _extent(fig: Figure) -> str | None:
    return None if fig.__dict__.get("_kda_laid_out") else "tight"


def figure_svg(fig: Figure) -> str:
    """The figure as SVG text, byte-identical for the same figure (no date, fixed id salt).
    A shortened label's full text is its group's <title> (a tooltip in a browser)."""
    buf = io.StringIO()
    with _style():
        fig.savefig(buf, format="svg", metadata={"Date": None}, bbox_inches=_extent(fig))
    # Text is SVG text: its spaces kept as laid out ("name  [missing]"), not collapsed to one
    # (xml:space for older readers; Chromium reads the style).
    svg = _ROOT_TAG.sub(r'<svg xml:space="preserve" \1>\n <style type="text/css">text {white-space: pre}'
                        r'</style>', buf.getvalue(), count=1)
    titles: dict[str, str] = fig.__dict__.get("_kda_titles", {})
    if titles:
        svg = re.sub(r'<g id="(kda-label-\d+)">',
                     lambda m: f'{m.group(0)}<title>{html.escape(titles[m.group(1)])}</title>'
                     if m.group(1) in titles else m.group(0), svg)
    return svg


def figure_png(fig: Figure, dpi: int = 110) -> bytes:
    """The figure as PNG bytes (no software/date metadata)."""
    buf = io.BytesIO()
    with _style():
        fig.savefig(buf, format="png", dpi=dpi, metadata={"Software": None},
                    bbox_inches=_extent(fig))
    return buf.getvalue()


def title_at_top(ax: Any, text: str) -> None:
    """A chart's title where matplotlib puts it by default, at the top of its axes (y=1.0), but
    without its search, on every draw, for what rises over the axes: tick labels or an axis
    label on top, the y axis's offset text (a "1e6"). That search lays out every y tick label
    again (a sixth to a third of a chart's time on a large dump); the report's charts have none
    of those (ticks at the bottom, y labels that are categories or fixed text), so the title
    stays where the search would leave it: the same picture, byte for byte. Not for a chart
    with ticks on top (the component matrix)."""
    ax.set_title(text, y=1.0)


def _message_figure(title: str, message: str) -> Figure:
    fig = Figure(figsize=(6, 1.4))
    ax = fig.add_subplot()
    ax.set_axis_off()
    ax.set_title(title)
    ax.text(0.5, 0.4, message, ha="center", va="center", color="#555555")
    return fig


# -- dependency diagram --------------------------------------------------------------------


def _layer_of(kind: str) -> int:
    for i, (_, kinds) in enumerate(LAYERS):
        if kind in kinds:
            return i
    return len(LAYERS) - 1


def _label_parts(attrs: dict[str, Any]) -> tuple[str, str, str]:
    """A box's label as (kind and space, name, suffix): only the name is ever shortened."""
    kind, name = attrs.get("kind", ""), str(attrs.get("name", ""))
    tail = ""
    pods = attrs.get("pods", 0)
    if attrs.get("count", 1) > 1 and pods:
        tail += f"  ({pods} pod{'s' if pods != 1 else ''})"
    if attrs.get("state") in ("missing", "not_collected"):
        tail += f"  [{attrs['state'].replace('_', ' ')}]"
    return f"{kind} ", name, tail


def _label(attrs: dict[str, Any]) -> str:
    head, name, tail = _label_parts(attrs)
    return head + name + tail


def _order_layers(sub: nx.MultiDiGraph) -> list[list[str]]:
    """Objects per column, ordered so that linked objects sit at similar heights."""
    layers: list[list[str]] = [[] for _ in LAYERS]
    # Node by node in id order, and neighbours' heights summed in sorted order: a subgraph
    # view lists its nodes in the order of a set (which differs from run to run), and a
    # different order of ties or of a float sum would move boxes between two runs.
    for node in sorted(sub.nodes):
        layers[_layer_of(sub.nodes[node].get("kind"))].append(node)
    neighbours: dict[str, set[str]] = defaultdict(set)
    for s, t in sub.edges():
        neighbours[s].add(t)
        neighbours[t].add(s)
    position: dict[str, float] = {}
    # Controllers first (by kind and name), then each other column by the mean height of the
    # neighbours already placed: a one-pass barycentre ordering, cheap and stable.
    anchor = 3
    order = [anchor, 2, 1, 0, 4, 5]
    for idx in order:
        col = layers[idx]

        def key(node: str) -> tuple[float, str, str]:
            placed = sorted(position[n] for n in neighbours[node] if n in position)
            centre = sum(placed) / len(placed) if placed else float("inf")
            return (centre, sub.nodes[node].get("kind", ""), sub.nodes[node].get("name", ""))

        col.sort(key=key if idx != anchor else (lambda n: ("", sub.nodes[n].get("kind", ""),
                                                           sub.nodes[n].get("name", ""))))
        for i, node in enumerate(col):
            position[node] = i / max(len(col) - 1, 1)
    return layers


def _fold(col: list[str], sub: nx.MultiDiGraph, column: int) -> tuple[list[str], dict[str, str]]:
    """Keep the busiest MAX_PER_LAYER-1 objects of a long column; the rest map to one box."""
    if len(col) <= MAX_PER_LAYER:
        return col, {}
    ranked = sorted(col, key=lambda n: (-sub.degree(n), -sub.nodes[n].get("count", 1), n))
    kept = set(ranked[: MAX_PER_LAYER - 1])
    more = f"__more__{column}"
    folded = {n: more for n in col if n not in kept}
    return [n for n in col if n in kept] + [more], folded


def dependency_diagram(cluster: Cluster, namespace: str | None = None) -> Figure:
    """A layered picture of a namespace: nodes -> pods -> controllers -> services/configs.
    Without a namespace, the one `system_namespace` picks; NothingToDraw when it is empty."""
    if namespace is None:
        choice = system_namespace(cluster)
        if choice.namespace is None:
            raise NothingToDraw(choice.why)
        namespace = choice.namespace
    with _style():
        return _dependency_figure(namespace_view(cluster.graph, namespace), cluster.name)


def graph_diagram(graph: nx.MultiDiGraph, namespace: str, title: str = "") -> Figure:
    """The dependency diagram of a namespace drawn from a graph (for graphs built elsewhere)."""
    with _style():
        return _dependency_figure(namespace_view(graph, namespace), title)


def view_diagram(view: NamespaceView, title: str = "") -> Figure:
    """The dependency diagram of a namespace drawn from its view (made where the graph is)."""
    with _style():
        return _dependency_figure(view, title)


def _dependency_figure(view: NamespaceView, title: str) -> Figure:
    namespace, sub, objects, collapsed = view.namespace, view.graph, view.objects, view.collapsed
    heading = f"{title + ': ' if title else ''}namespace {namespace}"
    if not objects:
        raise NothingToDraw(f"namespace {namespace} has no objects to draw in this dump")
    layers = _order_layers(sub)
    boxes: list[list[str]] = []
    folded: dict[str, str] = {}
    more_counts: dict[str, Counter[str]] = {}
    for i, col in enumerate(layers):
        kept, fold = _fold(col, sub, i)
        boxes.append(kept)
        folded.update(fold)
        if fold:
            more_counts[f"__more__{i}"] = Counter(sub.nodes[n]["kind"] for n in fold)
    rows = max(max(len(c) for c in boxes), 4)
    shown = [i for i, col in enumerate(boxes) if col]  # empty columns (all pods folded) left out
    legend_kinds = sorted({sub.nodes[n].get("kind", "") for c in boxes for n in c if n in sub.nodes})
    legend_columns = min(len(legend_kinds) + 1, 8)  # (+ "referenced but missing")
    col_width, row_height = 3.2, 0.30
    # The picture, and below it a band for the legend's rows (~0.16 inch each, reaching a
    # little into the picture's empty margin under its last row, ~0.25 inch): every artist
    # inside the figure, so that it is written at its own size, without the tight bounding
    # box (a second layout of all its text).
    picture = row_height * rows + 1.6
    band = 0.2 * -(-(len(legend_kinds) + 1) // legend_columns) - 0.1
    height = picture + band
    fig = Figure(figsize=(max(col_width * len(shown), 8), height))
    ax = fig.add_axes((0.0, band / height, 1.0, 0.92 * picture / height))
    ax.set_xlim(-0.1, max(len(shown) * col_width, 8))
    ax.set_ylim(rows + 0.3, -1.0)
    ax.set_axis_off()
    note = "; pods folded into their controllers" if collapsed else ""
    fig.suptitle(f"{heading} ({objects} objects{note})", fontsize=11, fontweight="bold",
                 y=1 - 0.015 * picture / height)

    box_w = col_width * 0.92
    # Room for a label inside its box, in points: the box (data units drawn a little under an inch
    # each) less the text's inset and a margin; and 6% kept for the raster renderer's hinting,
    # which sets text a little wider than its outline measures.
    inch_per_unit = fig.get_size_inches()[0] / (ax.get_xlim()[1] - ax.get_xlim()[0])
    label_room = ((box_w - 0.08) * inch_per_unit * 72 - 6) * 0.94
    where: dict[str, tuple[float, float]] = {}
    for column, i in enumerate(shown):
        col = boxes[i]
        x = column * col_width + 0.05
        ax.text(x, -0.55, LAYERS[i][0], fontweight="bold", fontsize=9, va="center")
        offset = (rows - len(col)) / 2
        for j, node in enumerate(col):
            y = offset + j
            where[node] = (x, y)
            if node in more_counts:
                kinds = ", ".join(f"{n} {k}" for k, n in sorted(more_counts[node].items()))
                ax.add_patch(Rectangle((x, y - 0.38), box_w, 0.76, facecolor="#f0f0f0",
                                       edgecolor="#999999", linestyle="--", linewidth=0.8))
                full = f"+ {kinds} more"
                label = ax.text(x + 0.08, y, fit_label("", full, "", label_room), va="center",
                                fontsize=8, color="#333333")
                set_title(label, full)
                continue
            attrs = sub.nodes[node]
            state = attrs.get("state", "present")
            ax.add_patch(Rectangle(
                (x, y - 0.38), box_w, 0.76,
                facecolor=KIND_COLOURS.get(attrs.get("kind", ""), OTHER_COLOUR),
                edgecolor=STATE_EDGE.get(state, "#333333"),
                linewidth=1.6 if state == "missing" else 0.6,
                linestyle="-" if state == "present" else "--",
                alpha=0.9 if state == "present" else 0.35,
            ))
            head, name, tail = _label_parts(attrs)
            label = ax.text(x + 0.08, y, fit_label(head, name, tail, label_room), va="center",
                            fontsize=8, color="#111111")
            set_title(label, head + name + tail)

    segments: set[tuple[tuple[float, float], tuple[float, float]]] = set()
    for s, t in sub.edges():
        s, t = folded.get(s, s), folded.get(t, t)
        if s == t or s not in where or t not in where:
            continue
        (xs, ys), (xt, yt) = where[s], where[t]
        if xs > xt:  # draw every edge left to right, from a box's right side to the other's left
            (xs, ys), (xt, yt) = (xt, yt), (xs, ys)
        if xs == xt:
            continue  # same column (Service -> Endpoints): the boxes sit side by side already
        segments.add(((xs + box_w, ys), (xt, yt)))
    ax.add_collection(LineCollection(sorted(segments), colors="#555555", linewidths=0.5,
                                     alpha=0.45, zorder=0))

    handles = [Patch(facecolor=KIND_COLOURS.get(k, OTHER_COLOUR), edgecolor="#333333", label=k)
               for k in legend_kinds]
    handles.append(Patch(facecolor="white", edgecolor=STATE_EDGE["missing"], linestyle="--",
                         label="referenced but missing"))
    fig.legend(handles=handles, loc="lower center", ncol=legend_columns, fontsize=7.5,
               frameon=False, bbox_to_anchor=(0.5, 0.0))
    return laid_out(fig)


# -- charts --------------------------------------------------------------------------------


def _without_node(pods: pd.DataFrame) -> tuple[int, int]:
    """Pods the dump names no node for: (not scheduled, scheduled or past Pending but on a node
    the dump does not name). Not scheduled: PodScheduled False, or, without that condition, Pending."""
    no_node = pods["node"].isna()
    scheduled = pods["scheduled"].astype("boolean")
    pending = pods["phase"].astype("string").eq("Pending").fillna(False)
    unscheduled = no_node & (scheduled.eq(False).fillna(False) | (scheduled.isna() & pending))
    return int(unscheduled.sum()), int((no_node & ~unscheduled).sum())


def node_distribution(cluster: Cluster, top: int = 30) -> Figure:
    """Pods per node (ready / not ready), and nodes per kubelet version and runtime."""
    with _style():
        nodes, pods = cluster.tables["nodes"], cluster.tables["pods"]
        if nodes.empty and pods.empty:
            return _message_figure("Nodes and pods", "no nodes or pods in this dump")
        placed = pods[pods["node"].notna()]
        # A pod the dump gives no readiness of (a describe node's pod list, a manifest) is neither
        # ready nor not ready: the pods' card counts it unknown, and so does the bar.
        state = placed["ready"].astype("boolean")
        per_node = (placed.assign(is_ready=state.eq(True).fillna(False).to_numpy(dtype=bool),
                                  not_ready=state.eq(False).fillna(False).to_numpy(dtype=bool))
                    .groupby("node", observed=True)
                    .agg(sum=("is_ready", "sum"), bad=("not_ready", "sum"), count=("is_ready", "size")))
        # Busiest first, then by name: ties must not depend on the groupby's order.
        counts, names = per_node["count"].tolist(), list(per_node.index)
        per_node = per_node.iloc[sorted(range(len(names)), key=lambda i: (-counts[i], names[i]))]
        shown = per_node.head(top)
        fig = Figure(figsize=(11, 1.4 + 0.24 * max(len(shown), 4)))
        left, right = fig.subplots(1, 2, gridspec_kw={"width_ratios": [3, 2]})
        labels = [_short(str(n), 28) for n in shown.index]
        ys = range(len(shown))
        left.barh(ys, shown["sum"], color="#54a24b", label="ready")
        left.barh(ys, shown["bad"], left=shown["sum"], color="#e45756", label="not ready")
        unknown = shown["count"] - shown["sum"] - shown["bad"]
        if unknown.any():
            left.barh(ys, unknown, left=shown["sum"] + shown["bad"], color="#bab0ac",
                      label="readiness unknown")
        left.set_yticks(list(ys), labels, fontsize=7)
        left.invert_yaxis()
        unscheduled, unnamed = _without_node(pods)
        parts = [f"{unscheduled} not scheduled"] if unscheduled or not unnamed else []
        if unnamed:  # a pasted `get pods` without -o wide: running pods, their node not printed
            parts.append(f"{unnamed} with no node named")
        if len(per_node) > top:
            parts.append(f"{len(per_node) - top} more nodes")
        title_at_top(left, f"Pods per node ({', '.join(parts)})")
        if len(shown):  # under the axis, where no bar can hide it
            left.legend(loc="upper center", bbox_to_anchor=(0.5, 0), borderaxespad=2.6, ncol=3, fontsize=7,
                        frameon=False)
        else:
            left.set_axis_off()
            left.text(0.5, 0.5, "no pod's node is named in this dump" if unnamed else "no scheduled pods",
                      ha="center", transform=left.transAxes)

        if nodes.empty:
            right.set_axis_off()
            right.text(0.5, 0.5, "no Node objects in this dump", ha="center")
        else:
            kinds = [nodes["kubelet_version"].astype("string").fillna(""),
                     nodes["runtime_name"].astype("string").fillna("")]
            # A Windows pool beside Linux ones (same kubelet, same runtime) is a bar of its own.
            systems = nodes["os"].astype("string").fillna("")
            mixed_os = systems[systems != ""].nunique() > 1
            if mixed_os:
                kinds.append(systems)
            versions = Counter(" / ".join(part or "?" for part in parts) for parts in zip(*kinds, strict=True))
            items = sorted(versions.items(), key=lambda kv: (-kv[1], kv[0]))[:12]
            right.barh(range(len(items)), [n for _, n in items], color="#4c78a8")
            right.set_yticks(range(len(items)), [_short(k, 34) for k, _ in items], fontsize=7)
            right.invert_yaxis()
            title_at_top(right, f"Nodes by kubelet / runtime{' / OS' if mixed_os else ''} ({len(nodes)} nodes)")
        for ax in (left, right):
            ax.spines[["top", "right"]].set_visible(False)
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        fig.tight_layout()
        return laid_out(fig)


def findings_by_severity(cluster: Cluster) -> Figure:
    """Failed findings per severity, stacked by category; not-applicable rules counted aside."""
    with _style():
        return findings_chart(cluster.findings, cluster.name)


def findings_chart(findings: Any, title: str = "") -> Figure:
    """The findings-by-severity chart from a findings DataFrame."""
    return tally_chart(findings_tally(findings), title)


def tally_chart(tally: FindingsTally, title: str = "") -> Figure:
    """The findings-by-severity chart from the findings' tally (made where the findings are)."""
    with _style():
        skipped = tally.not_applicable
        heading = f"{title + ': ' if title else ''}findings by severity"
        if not tally.failed:
            return _message_figure(heading, f"no failed checks ({skipped} not applicable to this dump)")
        severities = ["critical", "warning", "info"]
        categories, counts = tally.categories, tally.counts
        fig = Figure(figsize=(8, 2.6))
        ax = fig.add_subplot()
        palette = ["#4c78a8", "#f58518", "#54a24b", "#b279a2", "#72b7b2", "#eeca3b", "#9d755d",
                   "#ff9da6", "#bab0ac", "#e45756"]
        base = [0] * len(severities)
        for i, cat in enumerate(categories):
            values = [counts.get((s, cat), 0) for s in severities]
            ax.barh(severities, values, left=base, color=palette[i % len(palette)], label=cat)
            base = [b + v for b, v in zip(base, values, strict=True)]
        for y, total in enumerate(base):
            ax.text(total + 0.1, y, str(total), va="center", fontsize=8,
                    color=SEVERITY_COLOURS[severities[y]], fontweight="bold")
        ax.invert_yaxis()
        ax.set_xlabel("failed checks")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        title_at_top(ax, f"{heading} ({skipped} rules not applicable)")
        ax.legend(fontsize=7, frameon=False, loc="center left", bbox_to_anchor=(1.0, 0.5))
        ax.spines[["top", "right"]].set_visible(False)
        fig.tight_layout()
        return laid_out(fig)


def component_matrix(clusters: Sequence[Cluster]) -> Figure:
    """Components (by role) x clusters: version in each cell, colour by health, blank if absent."""
    with _style():
        return component_matrix_from_rows(
            [(c.name, c.distribution.name, c.tables["components"]) for c in clusters])


def component_matrix_from_rows(columns: Sequence[tuple[str, str, Any]]) -> Figure:
    """The component matrix from (cluster name, distribution, components table) triples."""
    with _style():
        cells: dict[tuple[str, str], dict[str, dict[str, Any]]] = defaultdict(dict)
        for name, _, comp in columns:
            for row in comp.astype(object).where(comp.notna(), None).to_dict("records"):
                component = row["component"] or row["name"]
                cells[(str(row["role"]), str(component))][name] = row
        rows = sorted(cells)
        if not rows:
            return _message_figure("Components", "no system components in these dumps")
        names = [n for n, _, _ in columns]
        fig = Figure(figsize=(3.2 + 1.7 * len(names), 0.9 + 0.26 * (len(rows) + 2)))
        ax = fig.add_subplot()
        ax.set_xlim(0, len(names))
        ax.set_ylim(len(rows), 0)
        for y, key in enumerate(rows):
            for x, name in enumerate(names):
                row = cells[key].get(name)
                if row is None:
                    colour, text = "#ffffff", "—"
                elif row["healthy"] is None:
                    colour, text = "#e8e8e8", row["version"] or "?"
                else:
                    colour = "#b7e4b0" if row["healthy"] else "#f7b2a9"
                    text = row["version"] or "?"
                ax.add_patch(Rectangle((x, y), 1, 1, facecolor=colour, edgecolor="#cccccc",
                                       linewidth=0.5))
                ax.text(x + 0.5, y + 0.5, _short(str(text), 20), ha="center", va="center",
                        fontsize=6.5)
        ax.set_yticks([y + 0.5 for y in range(len(rows))],
                      [_short(f"{role}: {comp}", 42) for role, comp in rows], fontsize=7)
        ax.set_xticks([x + 0.5 for x in range(len(names))],
                      [f"{_short(n, 18)}\n({d})" for n, d, _ in columns], fontsize=7.5)
        ax.xaxis.tick_top()
        ax.tick_params(length=0)
        for spine in ax.spines.values():
            spine.set_visible(False)
        ax.set_title("Components by role (cell: image version; green healthy, red not, "
                     "grey unknown)", fontsize=9, pad=28)
        fig.tight_layout()
        return fig
