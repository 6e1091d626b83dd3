"""Graphs of real dumps from shared/realdata, with edge counts per relation checked by hand.

The counts were recounted once from the raw files with a throwaway script that read them with
plain json/yaml (no analyzer code): ownerReferences, nodeName, volumes, env, selectors matched
label by label, roleRefs and subjects, Endpoints targetRefs. Where it differed, the files were
read by eye: the kURL bundle's 10 extra `owns` are Longhorn custom resources (6 InstanceManagers
owned by Longhorn Nodes, 3 Replicas and 1 Engine owned by a Volume, in cluster-resources/
custom-resources/); the cka dump's two files hold the same Services/DaemonSets/Deployments twice,
kept once.
"""

from __future__ import annotations

from collections import Counter

import pytest
from conftest import REALDATA

import analyzer
from analyzer.graph import dangling
from analyzer.graph.queries import REPR_LINES

EXPECTED_EDGES = {
    "kubeadm/sbctl-kurl-supportbundle": {
        "claims": 1, "mirror_of": 7, "mounts": 99, "owns": 74, "provisioned_by": 2, "reads": 14,
        "runs_as": 84, "scheduled_on": 58, "selects": 72, "uses_priority_class": 52,
    },
    "k3s/troubleshoot-testdata-supportbundle": {
        "binds": 63, "claims": 4, "grants": 66, "mounts": 24, "owns": 14, "provisioned_by": 8,
        "runs_as": 21, "scheduled_on": 8, "selects": 15, "uses_priority_class": 12,
    },
    "rke2/support-bundle-kit-harvester": {
        # routes_to: 6 Endpoints targetRefs + 6 Services -> their Endpoints (kube-system only;
        # Endpoints were collected for kube-system alone)
        "claims": 2, "mirror_of": 6, "mounts": 92, "owns": 60, "provisioned_by": 2, "reads": 2,
        "routes_to": 12, "runs_as": 83, "scheduled_on": 55, "selects": 48, "uses_priority_class": 27,
    },
    "kubeadm/cka-3c97-cluster-info-dump": {
        "mirror_of": 12, "mounts": 28, "owns": 17, "reads": 8, "runs_as": 33, "scheduled_on": 24,
        "selects": 23, "uses_priority_class": 33,
    },
}


@pytest.fixture(scope="module", params=sorted(EXPECTED_EDGES))
def dump(request: pytest.FixtureRequest) -> tuple[str, analyzer.Cluster]:
    path = REALDATA / request.param
    if not path.exists():
        pytest.skip(f"shared realdata not beside the repo: {path}")
    return request.param, analyzer.load(path)


def test_edge_counts_per_relation(dump):
    name, cluster = dump
    counts = Counter(rel for _, _, rel in cluster.graph.edges(data="relation"))
    assert dict(sorted(counts.items())) == EXPECTED_EDGES[name]


def test_every_attribute_is_a_plain_scalar(dump):
    _, cluster = dump
    g = cluster.graph
    for _, attrs in g.nodes(data=True):
        assert all(isinstance(v, str | int | float | bool) for v in attrs.values())
    for _, _, attrs in g.edges(data=True):
        assert all(isinstance(v, str | int | float | bool) for v in attrs.values())


def test_cluster_info_dump_configmap_references_are_not_collected_never_missing():
    path = REALDATA / "kubeadm/cka-3c97-cluster-info-dump"
    if not path.exists():
        pytest.skip("shared realdata not beside the repo")
    g = analyzer.load(path).graph
    configmaps = {n: s for n, s in g.nodes(data="state") if g.nodes[n]["kind"] == "ConfigMap"}
    # kube-proxy and coredns mount their ConfigMaps; pods project kube-root-ca.crt
    assert "core/ConfigMap/kube-system/kube-proxy" in configmaps
    assert "core/ConfigMap/kube-system/coredns" in configmaps
    assert set(configmaps.values()) == {"not_collected"}
    assert dangling(g).empty


def test_bundle_that_collected_configmaps_of_some_namespaces_only_calls_none_missing():
    # The kURL bundle has cluster-resources/configmaps/ for default, kube-node-lease and
    # kube-public only; the coredns and kube-proxy ConfigMaps of kube-system were not collected.
    path = REALDATA / "kubeadm/sbctl-kurl-supportbundle"
    if not path.exists():
        pytest.skip("shared realdata not beside the repo")
    g = analyzer.load(path).graph
    assert g.nodes["core/ConfigMap/kube-system/coredns"]["state"] == "not_collected"
    assert dangling(g).empty
    # pods are scheduled on the core Nodes, never on Longhorn's custom resources of kind Node
    assert {t.split("/")[0] for _, t, r in g.edges(data="relation") if r == "scheduled_on"} == {"core"}


def test_harvester_bundle_calls_nothing_missing_that_its_paths_did_not_collect():
    # Pod kube-vip-cloud-provider-0 (harvester-system) is owned by a StatefulSet; the bundle has
    # yamls/namespaced/kube-system/apps/v1/statefulsets.yaml only, an empty list, so
    # StatefulSets were collected for kube-system alone: the owner is not_collected.
    path = REALDATA / "rke2/support-bundle-kit-harvester"
    if not path.exists():
        pytest.skip("shared realdata not beside the repo")
    g = analyzer.load(path).graph
    assert g.nodes["apps/StatefulSet/harvester-system/kube-vip-cloud-provider"]["state"] == "not_collected"
    assert dangling(g).empty


def test_an_impact_in_a_notebook_lists_its_paths_not_its_records():
    # 77 objects of the kURL bundle depend on its node troubleshoot-demo-001: cluster.impact(...) in a
    # notebook is its listing, cut after REPR_LINES nodes, and a table of every one in HTML.
    path = REALDATA / "kubeadm/sbctl-kurl-supportbundle"
    if not path.exists():
        pytest.skip("shared realdata not beside the repo")
    reach = analyzer.load(path).impact("Node/troubleshoot-demo-001")
    shown = repr(reach).splitlines()
    assert shown[0] == f"impact of core/Node//troubleshoot-demo-001: {len(reach)} objects"
    assert shown[1:-1] == reach.text().splitlines()[1:REPR_LINES + 1]
    assert shown[-1] == f"  ... {len(reach) - REPR_LINES} more (.text() or .to_frame() has all)"
    assert "Affected(" not in repr(reach)
    page = reach._repr_html_()
    assert page.count("</tr>") == len(reach) + 1  # the header and one row per object
    assert "<-scheduled_on- core/Pod/" not in page and "&lt;-scheduled_on- core/Pod/" in page
