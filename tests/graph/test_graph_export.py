"""Exports: GraphML/GEXF/JSON read back with networkx; DOT, Mermaid and Cypher quoted and stable."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import networkx as nx
import pytest

import analyzer
from analyzer.graph import collapse_pods
from analyzer.graph.export import FORMATS, export

# An OKE kube-system in miniature; the file says where each object came from.
OKE = Path(__file__).parent / "data" / "oke_kube_system.yaml"

# A subject name with quotes, a backslash, and Mermaid/Cypher specials: RBAC User
# names are free text, so a writer must quote whatever it gets (written for this test).
AWKWARD = """apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: odd}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}
subjects:
- {kind: User, apiGroup: rbac.authorization.k8s.io, name: "o'brien \\"x\\" <a|b> \\\\ `tick`"}
# a User's name is any text the API takes: one ending in a backslash must not escape DOT's quote
- {kind: User, apiGroup: rbac.authorization.k8s.io, name: "mallory\\\\"}
# a hand-edited name with line breaks (the API allows none), which would end a Mermaid label's
# line and make the rest a directive and a click callback
- {kind: User, apiGroup: rbac.authorization.k8s.io, name: "eve\\n%%{init: {'securityLevel': 'loose'}}%%\\nclick n0 call alert(1)"}
"""


@pytest.fixture(scope="module")
def graph() -> nx.MultiDiGraph:
    return analyzer.load(OKE).graph


@pytest.fixture(scope="module")
def awkward() -> nx.MultiDiGraph:
    cluster = analyzer.load({"odd.yaml": AWKWARD})
    assert len(cluster.objects) == 1
    return cluster.graph


def _same(a: nx.MultiDiGraph, b: nx.MultiDiGraph) -> None:
    assert dict(a.nodes(data=True)) == dict(b.nodes(data=True))
    assert sorted((s, t, d["relation"], d["via"], d["optional"]) for s, t, d in a.edges(data=True)) == \
        sorted((s, t, d["relation"], d["via"], d["optional"]) for s, t, d in b.edges(data=True))


def test_graphml_reads_back_with_every_attribute(graph, awkward):
    for g in (graph, awkward):
        back = nx.read_graphml(io.StringIO(export(g, "graphml")), force_multigraph=True)
        _same(g, back)


def test_collapsed_graph_keeps_integer_counts_in_graphml(graph):
    small = collapse_pods(graph)
    back = nx.read_graphml(io.StringIO(export(small, "graphml")), force_multigraph=True)
    assert back.nodes["apps/Deployment/kube-system/coredns"]["pods"] == 2
    assert {type(c) for _, c in back.nodes(data="count")} == {int}


def test_gexf_reads_back(graph):
    back = nx.read_gexf(io.StringIO(export(graph, "gexf")))
    assert set(back.nodes) == set(graph.nodes)
    assert back.number_of_edges() == graph.number_of_edges()


def test_node_link_json_reads_back(graph, awkward):
    for g in (graph, awkward):
        back = nx.node_link_graph(json.loads(export(g, "json")), edges="edges")
        _same(g, back)


def test_dot_quotes_every_id_and_label(graph, awkward):
    text = export(awkward, "dot")
    assert text.startswith("digraph cluster {") and text.rstrip().endswith("}")
    user = next(n for n, k in awkward.nodes(data="kind") if k == "User" and "brien" in n)
    quoted = '"' + user.replace("\\", "\\\\").replace('"', '\\"') + '"'
    assert f"{quoted} [label=" in text
    # outside quoted strings there is no stray quote: every line has an even number of
    # unescaped quotes
    for line in text.splitlines():
        assert len(re.findall(r'(?<!\\)"', line.replace("\\\\", ""))) % 2 == 0, line
    dot = export(graph, "dot")
    assert dot.count(" -> ") == graph.number_of_edges()
    assert sum(1 for line in dot.splitlines() if "[label=" in line and " -> " not in line) == graph.number_of_nodes()


def test_mermaid_ids_are_sanitised_and_labels_escaped(graph, awkward):
    text = export(awkward, "mermaid")
    lines = text.splitlines()
    assert lines[0] == "flowchart LR"
    for line in lines[1:]:
        assert re.match(r'  (n\d+\["[^"]*"\]|n\d+ -(->|\.->)\|[a-z_]+\| n\d+|classDef .*|class [n\d,]+ \w+)$', line), line
    assert "o'brien #quot;x#quot; #lt;a#124;b#gt;" in text
    # placeholders are styled by state
    assert re.search(r"class n0,n2,n3,n4 not_collected", text)  # ClusterRole and Users: never collected
    # every line of the name with line breaks stays in its label (each line matched a shape above)
    assert "eve %%{init: {'securityLevel': 'loose'}}%% click n0 call alert(1)" in text
    assert export(graph, "mermaid").count("-->") + export(graph, "mermaid").count("-.->") == graph.number_of_edges()


def test_cypher_escapes_strings_and_merges_each_node_and_edge(graph, awkward):
    text = export(awkward, "cypher")
    assert "o\\'brien \\\"x\\\" <a|b> \\\\ `tick`" not in text  # double quotes are not escaped in '...'
    assert "'o\\'brien \"x\" <a|b> \\\\ `tick`'" in text
    full = export(graph, "cypher")
    assert sum(1 for line in full.splitlines() if line.startswith("MERGE (n:KubeObject")) == graph.number_of_nodes()
    assert sum(1 for line in full.splitlines() if line.startswith("MATCH (a:KubeObject")) == graph.number_of_edges()
    assert "MERGE (a)-[r:SCHEDULED_ON]->(b)" in full
    assert "SET n:`DaemonSet`" in full


def test_every_format_is_deterministic_across_two_loads():
    first, second = analyzer.load(OKE).graph, analyzer.load(OKE).graph
    for fmt in FORMATS:
        assert export(first, fmt) == export(second, fmt), fmt


def test_unknown_format_is_refused(graph):
    with pytest.raises(ValueError, match="unknown graph format"):
        export(graph, "svg")
