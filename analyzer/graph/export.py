"""The graph written for other tools: GraphML, GEXF, node-link JSON, DOT, Mermaid and Cypher.

Every writer emits nodes and edges in sorted order, so the same graph gives the same bytes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import networkx as nx

FORMATS = ("graphml", "gexf", "json", "dot", "mermaid", "cypher")


def export(graph: nx.MultiDiGraph, fmt: str) -> str:
    """The graph as text in one of FORMATS."""
    writer = _WRITERS.get(fmt)
    if writer is None:
        raise ValueError(f"unknown graph format {fmt!r}; formats are: {', '.join(FORMATS)}")
    return writer(sorted_graph(graph))


def sorted_graph(graph: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """A copy whose nodes and edges are in sorted order (writers keep insertion order)."""
    out = nx.MultiDiGraph()
    out.graph.update(graph.graph)
    out.add_nodes_from(sorted(graph.nodes(data=True), key=lambda n: n[0]))
    out.add_edges_from(sorted(graph.edges(keys=True, data=True), key=lambda e: (e[0], e[1], str(e[2]))))
    return out


# networkx's generators leave out the XML declaration that a file on disk should start with.
XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>'


def to_graphml(graph: nx.MultiDiGraph) -> str:
    """GraphML (Gephi, Cytoscape, yEd); attributes are plain strings, ints and booleans."""
    return "\n".join([XML_DECLARATION, *nx.generate_graphml(graph, prettyprint=True)]) + "\n"


def to_gexf(graph: nx.MultiDiGraph) -> str:
    """GEXF 1.2 (Gephi)."""
    return "\n".join([XML_DECLARATION, *nx.generate_gexf(graph, prettyprint=True)]) + "\n"


def to_json(graph: nx.MultiDiGraph) -> str:
    """node-link JSON (`networkx.node_link_graph` reads it back; d3 draws it)."""
    data = nx.node_link_data(graph, edges="edges")
    return json.dumps(data, indent=1, sort_keys=True) + "\n"


# -- DOT -------------------------------------------------------------------------------

_DOT_STYLE = {
    "missing": 'style="dashed,bold", color="red3"',
    "not_collected": 'style="dotted", color="gray50", fontcolor="gray40"',
}


def _dot_text(value: Any) -> str:
    """A value as the inside of a DOT quoted string, read literally: a backslash (a User
    subject's name may end in one) no longer escapes the closing quote, nor starts `\\N`."""
    return str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _dot_quote(value: Any) -> str:
    return f'"{_dot_text(value)}"'


# Node attributes whose names Graphviz reads itself (`group` straightens edges between members).
_DOT_RENAMED = {"group": "api_group"}


def _dot_attrs(attrs: dict[str, Any]) -> str:
    return ", ".join(f"{_DOT_RENAMED.get(k, k)}={_dot_quote(v)}" for k, v in sorted(attrs.items()))


def to_dot(graph: nx.MultiDiGraph) -> str:
    """Graphviz DOT (`dot -Tsvg`): one box per object, dashed red when missing."""
    lines = ["digraph cluster {", "  rankdir=LR;", '  node [shape=box, fontname="Helvetica"];',
             '  edge [fontname="Helvetica", fontsize=10];']
    for node, attrs in graph.nodes(data=True):
        label_text = f'"{_dot_text(attrs.get("kind", ""))}\\n{_dot_text(_place(attrs))}"'
        style = _DOT_STYLE.get(str(attrs.get("state")), "")
        extra = f", {style}" if style else ""
        lines.append(f"  {_dot_quote(node)} [label={label_text}{extra}, {_dot_attrs(attrs)}];")
    for source, target, attrs in graph.edges(data=True):
        label = attrs.get("relation", "")
        style = ', style="dashed"' if attrs.get("optional") else ""
        lines.append(f"  {_dot_quote(source)} -> {_dot_quote(target)} [label={_dot_quote(label)}{style}, {_dot_attrs(attrs)}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _place(attrs: dict[str, Any]) -> str:
    ns = attrs.get("namespace", "")
    return f"{ns}/{attrs.get('name', '')}" if ns else str(attrs.get("name", ""))


# -- Mermaid ---------------------------------------------------------------------------


# A line break or another control character in a hand-edited name (the API allows none) would end
# the label's line, and the next would be read as Mermaid: a directive (`%%{init: ...}%%`), a
# `click` callback. Each is a space.
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _mermaid_text(text: str) -> str:
    """A label's text as Mermaid reads it literally, on one line.

    >>> _mermaid_text('a"b<c>|d\\n%%{init}%%')
    'a#quot;b#lt;c#gt;#124;d %%{init}%%'
    """
    return _CONTROL.sub(" ", text.replace("&", "#amp;").replace('"', "#quot;").replace("<", "#lt;")
                        .replace(">", "#gt;").replace("|", "#124;"))


def to_mermaid(graph: nx.MultiDiGraph) -> str:
    """A Mermaid `flowchart LR` (Markdown, GitHub); ids are n0, n1, ... in node order."""
    ids = {node: f"n{i}" for i, node in enumerate(graph.nodes)}
    lines = ["flowchart LR"]
    classes: dict[str, list[str]] = {"missing": [], "not_collected": []}
    for node, attrs in graph.nodes(data=True):
        label = f"{_mermaid_text(str(attrs.get('kind', '')))}<br/>{_mermaid_text(_place(attrs))}"
        count = attrs.get("count")
        if isinstance(count, int) and count > 1:
            label += f"<br/>x{count}"
        lines.append(f'  {ids[node]}["{label}"]')
        if attrs.get("state") in classes:
            classes[str(attrs["state"])].append(ids[node])
    for source, target, attrs in graph.edges(data=True):
        arrow = "-.->" if attrs.get("optional") else "-->"
        lines.append(f"  {ids[source]} {arrow}|{_mermaid_text(str(attrs.get('relation', '')))}| {ids[target]}")
    lines.append("  classDef missing stroke:#c00,stroke-width:2px,stroke-dasharray: 5 5")
    lines.append("  classDef not_collected stroke:#999,color:#777,stroke-dasharray: 2 2")
    for state, members in classes.items():
        if members:
            lines.append(f"  class {','.join(members)} {state}")
    return "\n".join(lines) + "\n"


# -- Cypher ----------------------------------------------------------------------------


def _cypher_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    text = str(value).replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n").replace("\r", "\\r")
    return f"'{text}'"


def _cypher_map(attrs: dict[str, Any]) -> str:
    return "{" + ", ".join(f"`{k.replace('`', '``')}`: {_cypher_value(v)}" for k, v in sorted(attrs.items())) + "}"


def to_cypher(graph: nx.MultiDiGraph) -> str:
    """Cypher statements for Neo4j/Memgraph: MERGE every object (label KubeObject plus its kind)
    by id, then MERGE each relation (type = relation in upper case) with its attributes."""
    lines = [
        f"// kube-dump-analyzer graph: {graph.number_of_nodes()} objects, {graph.number_of_edges()} references",
        "CREATE CONSTRAINT kube_object_id IF NOT EXISTS FOR (n:KubeObject) REQUIRE n.id IS UNIQUE;",
    ]
    for node, attrs in graph.nodes(data=True):
        label = str(attrs.get("kind") or "Unknown").replace("`", "``")
        lines.append(f"MERGE (n:KubeObject {{id: {_cypher_value(node)}}}) SET n:`{label}` SET n += {_cypher_map(attrs)};")
    for source, target, attrs in graph.edges(data=True):
        rel = "".join(c if c.isalnum() else "_" for c in str(attrs.get("relation") or "related")).upper()
        lines.append(
            f"MATCH (a:KubeObject {{id: {_cypher_value(source)}}}), (b:KubeObject {{id: {_cypher_value(target)}}}) "
            f"MERGE (a)-[r:{rel}]->(b) SET r += {_cypher_map(attrs)};"
        )
    return "\n".join(lines) + "\n"


_WRITERS: dict[str, Callable[[nx.MultiDiGraph], str]] = {
    "graphml": to_graphml, "gexf": to_gexf, "json": to_json, "dot": to_dot,
    "mermaid": to_mermaid, "cypher": to_cypher,
}
