"""Virtual clusters (vcluster) detected as a property of the dump, with evidence; hosts and
look-alikes (minikube's API server on 8443, AKS virtual-kubelet nodes) are not."""

from __future__ import annotations

import pytest
import yaml
from conftest import REALDATA

import analyzer


def _load(*objects: dict) -> analyzer.Cluster:
    # Hand-written after vcluster's documentation: fake nodes carry vcluster.loft.sh/fake-node
    # and answer on <node>.nodes.vcluster.com; the API server listens on 8443.
    return analyzer.load({"objects.yaml": yaml.safe_dump({"apiVersion": "v1", "kind": "List",
                                                          "items": list(objects)})})


KUBERNETES_8443 = {"apiVersion": "v1", "kind": "Service",
                   "metadata": {"name": "kubernetes", "namespace": "default"},
                   "spec": {"ports": [{"name": "https", "port": 443, "targetPort": 8443}]}}


def test_fake_nodes_make_a_vcluster_with_evidence() -> None:
    cluster = _load({"apiVersion": "v1", "kind": "Node",
                     "metadata": {"name": "w1", "labels": {"vcluster.loft.sh/fake-node": "true"}},
                     "status": {"addresses": [{"type": "Hostname", "address": "w1.nodes.vcluster.com"}]}},
                    KUBERNETES_8443)
    virtual = cluster.virtual
    assert virtual.detected and virtual.name == "vcluster"
    assert any("Node/w1" in e and "fake-node" in e for e in virtual.evidence)
    assert any("targetPort 8443" in e for e in virtual.evidence)
    summary = cluster.summary()
    assert summary["virtual_cluster"]["name"] == "vcluster"


def test_an_unusual_api_port_alone_is_not_a_virtual_cluster() -> None:
    # minikube's API server listens on 8443 as vcluster's does
    cluster = _load({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "minikube"}}, KUBERNETES_8443)
    assert not cluster.virtual.detected and cluster.virtual.evidence == ()


def test_no_real_dump_is_called_virtual() -> None:
    if not REALDATA.exists():
        pytest.skip("no realdata beside the checkout")
    for path in sorted(p for p in REALDATA.glob("*/*") if p.is_dir()):
        assert not analyzer.load(str(path)).virtual.detected, path
