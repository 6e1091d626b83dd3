"""impact, dependencies, key resolution, orphans, dangling references, collapsed and sub- graphs."""

from __future__ import annotations

from pathlib import Path

import networkx as nx
import pytest

import analyzer
from analyzer.errors import UnknownObjectError
from analyzer.graph import (
    collapse_pods,
    dangling,
    dependencies,
    impact,
    namespace_subgraph,
    orphans,
    reach_subgraph,
    resolve_key,
)

# An OKE kube-system in miniature; the file says where each object came from.
OKE = Path(__file__).parent / "data" / "oke_kube_system.yaml"

DS = "apps/DaemonSet/kube-system/proxymux-client"
DEPLOY = "apps/Deployment/kube-system/coredns"
RS = "apps/ReplicaSet/kube-system/coredns-67bb89d7c6"
POD_A = "core/Pod/kube-system/coredns-67bb89d7c6-ddnvv"  # on node 10.0.10.2
POD_B = "core/Pod/kube-system/coredns-67bb89d7c6-rwgnj"  # on node 10.0.10.3
PROXY_A = "core/Pod/kube-system/proxymux-client-10.0.10.2"
PROXY_B = "core/Pod/kube-system/proxymux-client-10.0.10.3"
CM = "core/ConfigMap/kube-system/coredns"
SVC = "core/Service/kube-system/kube-dns"
NODE_A = "core/Node//10.0.10.2"


@pytest.fixture(scope="module")
def cluster() -> analyzer.Cluster:
    return analyzer.load(OKE)


@pytest.fixture(scope="module")
def graph(cluster: analyzer.Cluster) -> nx.MultiDiGraph:
    return cluster.graph


def _effects(reach) -> dict[str, str]:
    return {a.node: a.effect for a in reach}


def test_deleting_the_proxymux_daemonset_deletes_its_pods_and_nothing_else(graph):
    assert _effects(impact(graph, DS)) == {PROXY_A: "deleted", PROXY_B: "deleted"}


def test_impact_of_a_configmap_reaches_the_pods_mounting_it_and_their_controllers_and_service(graph):
    assert _effects(impact(graph, CM)) == {
        POD_A: "degraded", POD_B: "degraded", RS: "degraded", DEPLOY: "degraded", SVC: "degraded",
    }


def test_losing_a_node_deletes_its_pods_degrades_their_controllers_but_not_sibling_pods(graph):
    effects = _effects(impact(graph, NODE_A))
    assert effects == {
        POD_A: "deleted", PROXY_A: "deleted", RS: "degraded", DEPLOY: "degraded", DS: "degraded",
        SVC: "degraded",
    }
    assert POD_B not in effects and PROXY_B not in effects


def test_deleting_a_deployment_cascades_through_its_replicaset_to_the_pods(graph):
    effects = _effects(impact(graph, DEPLOY))
    assert effects[RS] == effects[POD_A] == effects[POD_B] == "deleted"
    assert effects[SVC] == "degraded"
    assert CM not in effects


def test_every_path_starts_at_the_root_and_follows_real_edges(graph):
    for reach in (impact(graph, NODE_A), dependencies(graph, SVC)):
        for a in reach:
            assert a.path[0].node == reach.root and a.path[-1].node == a.node
            for before, step in zip(a.path, a.path[1:], strict=False):
                source, target = (before.node, step.node) if step.forward else (step.node, before.node)
                assert step.relation in {d["relation"] for d in graph.get_edge_data(source, target).values()}
    # nearest first: the pods are one step from the node, the Service two
    depths = {a.node: a.depth for a in impact(graph, NODE_A)}
    assert depths[POD_A] == 1 and depths[SVC] == 2


def test_dependencies_of_a_pod_are_its_references_and_owners_not_its_siblings(graph):
    needs = set(dependencies(graph, POD_A).nodes)
    assert needs == {
        RS, DEPLOY, CM, NODE_A, "core/ServiceAccount/kube-system/coredns",
    }


def test_dependencies_of_a_controller_include_what_it_owns_and_what_they_need(graph):
    needs = set(dependencies(graph, DS).nodes)
    assert {PROXY_A, PROXY_B, NODE_A, "scheduling.k8s.io/PriorityClass//system-node-critical"} <= needs


@pytest.mark.parametrize(
    "key",
    [DS, "DaemonSet/kube-system/proxymux-client", "daemonset/kube-system/proxymux-client",
     "ds/kube-system/proxymux-client", "daemonsets/kube-system/proxymux-client",
     "apps/DaemonSet/kube-system/proxymux-client/"],
)
def test_keys_in_every_accepted_form(graph, key):
    assert resolve_key(graph, key) == DS


def test_cluster_scoped_and_unique_short_keys(graph):
    assert resolve_key(graph, "Node/10.0.10.2") == NODE_A
    assert resolve_key(graph, "PriorityClass/system-node-critical") == "scheduling.k8s.io/PriorityClass//system-node-critical"
    assert resolve_key(graph, "Service/kube-dns") == SVC  # namespaced, but the name is unique


def test_unknown_key_names_the_closest_objects(graph):
    with pytest.raises(UnknownObjectError) as err:
        impact(graph, "ds/kube-system/proxymux")
    assert "proxymux-client" in str(err.value) and "closest" in str(err.value)
    with pytest.raises(UnknownObjectError):
        dependencies(graph, "Pod/nope/nothing")


def test_ambiguous_short_key_is_an_error_listing_the_candidates():
    two = analyzer.load({"x.yaml": "apiVersion: v1\nkind: List\nitems:\n"
                         "- {apiVersion: v1, kind: ConfigMap, metadata: {name: a, namespace: n1}}\n"
                         "- {apiVersion: v1, kind: ConfigMap, metadata: {name: a, namespace: n2}}\n"})
    with pytest.raises(UnknownObjectError, match="ambiguous"):
        resolve_key(two.graph, "cm/a")


def test_cluster_api_calls_the_graph(cluster):
    assert set(cluster.impact("ds/kube-system/proxymux-client").nodes) == {PROXY_A, PROXY_B}
    assert CM in cluster.dependencies("deploy/kube-system/coredns")
    frame = cluster.impact(CM).to_frame()
    assert list(frame.columns) == ["node", "kind", "namespace", "name", "state", "effect", "depth", "path"]
    assert len(frame) == 5


def test_orphans_skip_objects_unused_by_design(graph):
    found = orphans(graph)
    # kube-root-ca.crt and the default ServiceAccount are expected to be unused
    assert list(found["node"]) == ["core/ConfigMap/kube-system/leftover-settings"]


def test_orphans_say_nothing_when_pods_were_not_collected():
    only_cms = analyzer.load({"cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: n}\n"})
    assert len(only_cms.objects) == 1
    assert orphans(only_cms.graph).empty


def test_dangling_lists_missing_references_only():
    # A pod naming a ConfigMap and a Secret of its namespace; ConfigMaps were collected there,
    # Secrets not at all: only the ConfigMap reference is dangling.
    dump = analyzer.load({"d.yaml": """apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: ConfigMap, metadata: {name: other, namespace: app}}
- apiVersion: v1
  kind: Pod
  metadata: {name: web, namespace: app}
  spec:
    containers: [{name: c}]
    volumes: [{name: a, configMap: {name: gone}}, {name: b, secret: {secretName: tls}}]
"""})
    frame = dangling(dump.graph)
    assert frame[["referrer", "relation", "missing"]].values.tolist() == [
        ["core/Pod/app/web", "mounts", "core/ConfigMap/app/gone"],
    ]
    assert dump.graph.nodes["core/Secret/app/tls"]["state"] == "not_collected"


def test_collapse_folds_pods_and_replicasets_into_their_top_controller(graph):
    small = collapse_pods(graph)
    assert not any(kind in ("Pod", "ReplicaSet") for _, kind in small.nodes(data="kind"))
    assert small.nodes[DEPLOY]["count"] == 4 and small.nodes[DEPLOY]["pods"] == 2
    assert small.nodes[DS]["pods"] == 2
    mounts = small.get_edge_data(DEPLOY, CM)["mounts"]
    assert mounts["count"] == 4  # the Deployment's template, the ReplicaSet's, two pods
    assert small.get_edge_data(SVC, DEPLOY)["selects"]["count"] == 2
    assert small.number_of_edges() < graph.number_of_edges()


def test_namespace_subgraph_keeps_cluster_scoped_objects_it_touches():
    other = "apiVersion: v1\nkind: Pod\nmetadata: {name: x, namespace: other}\nspec: {nodeName: 10.0.10.3, containers: [{name: c}]}\n"
    dump = analyzer.load(OKE, {"other.yaml": other})
    sub = namespace_subgraph(dump.graph, "other")
    assert set(sub.nodes) == {"core/Pod/other/x", "core/Node//10.0.10.3", "core/ServiceAccount/other/default"}


def test_reach_subgraph_holds_the_root_and_what_it_reaches(graph):
    reach = impact(graph, DS)
    sub = reach_subgraph(graph, reach)
    assert set(sub.nodes) == {DS, PROXY_A, PROXY_B}
    assert sub.number_of_edges() == 4  # owns and selects, to each pod
    assert sub.nodes[DS]["effect"] == "start" and sub.nodes[PROXY_A]["effect"] == "deleted"
    assert sub.nodes[PROXY_A]["depth"] == 1
    assert "effect" not in graph.nodes[DS]  # the whole graph is left as it was


def _collapse_with_public_methods(graph: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """collapse_pods as it was written with add_node and add_edges_from (the reference)."""
    from collections import defaultdict

    from analyzer.graph.queries import COLLAPSED_KINDS, _top_owner

    edges = list(graph.edges(data=True))
    owners: dict[str, list[tuple[bool, str]]] = defaultdict(list)
    for source, target, data in edges:
        if data.get("relation") == "owns":
            owners[target].append((data.get("via") != "controller", source))
    into = {n: _top_owner(owners, n) for n, kind in graph.nodes(data="kind") if kind in COLLAPSED_KINDS}
    slow = nx.MultiDiGraph()
    slow.graph.update(graph.graph)
    for node, attrs in graph.nodes(data=True):
        if into.get(node, node) == node:
            slow.add_node(node, **attrs, count=1, pods=int(attrs.get("kind") == "Pod"))
    for node, top in into.items():
        if top != node:
            slow.nodes[top]["count"] += 1
            slow.nodes[top]["pods"] += int(graph.nodes[node].get("kind") == "Pod")
    merged: dict[tuple[str, str, str], dict] = {}
    for source, target, data in edges:
        s, t = into.get(source, source), into.get(target, target)
        if s == t:
            continue
        key = (s, t, data.get("relation", ""))
        if key in merged:
            merged[key]["count"] += 1
            merged[key]["optional"] = merged[key]["optional"] and bool(data.get("optional", False))
        else:
            merged[key] = {"relation": key[2], "via": data.get("via", ""),
                           "optional": bool(data.get("optional", False)), "count": 1}
    slow.add_edges_from((s, t, rel, attrs) for (s, t, rel), attrs in sorted(merged.items()))
    return slow


@pytest.mark.parametrize("dump", ["oke", "aks", "kubeadm", "eks"])
def test_collapse_fills_the_graph_as_add_node_and_add_edges_from_would(graph, dump):
    from conftest import SAMPLE_DUMPS

    source = graph if dump == "oke" else analyzer.load(SAMPLE_DUMPS / dump).graph
    fast, slow = collapse_pods(source), _collapse_with_public_methods(source)
    assert nx.utils.graphs_equal(fast, slow)
    assert list(fast.nodes(data=True)) == list(slow.nodes(data=True))
    assert list(fast.edges(keys=True, data=True)) == list(slow.edges(keys=True, data=True))
    for node in fast:
        assert list(fast.predecessors(node)) == list(slow.predecessors(node))
    fast.add_edge("x", "y", key="k")  # and it stays an ordinary graph
    assert fast.has_edge("x", "y")
