"""The same-cluster check on small dumps written here: which signal decides, and which only adds up."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import analyzer
from analyzer.diff import REFUSE_CONFIDENCE, diff, same_cluster

CA_ONE = "-----BEGIN CERTIFICATE-----\nMIIBone\n-----END CERTIFICATE-----\n"
CA_TWO = "-----BEGIN CERTIFICATE-----\nMIIBtwo\n-----END CERTIFICATE-----\n"


def _cluster(nodes: list[str], provider: str = "azure:///subscriptions/s/resourceGroups/mc_rg/providers/"
             "Microsoft.Compute/virtualMachineScaleSets/aks-pool/virtualMachines",
             kube_system_uid: str | None = None, ca: str | None = None,
             cluster_label: str | None = None) -> analyzer.Cluster:
    items = []
    for i, name in enumerate(nodes):
        labels = {"kubernetes.azure.com/cluster": cluster_label} if cluster_label else {}
        items.append({"apiVersion": "v1", "kind": "Node",
                      "metadata": {"name": name, "labels": labels},
                      "spec": {"providerID": f"{provider}/{name.rsplit('-', 1)[-1] or i}"}})
    if kube_system_uid:
        items.append({"apiVersion": "v1", "kind": "Namespace",
                      "metadata": {"name": "kube-system", "uid": kube_system_uid}})
    if ca:
        items.append({"apiVersion": "v1", "kind": "ConfigMap",
                      "metadata": {"name": "kube-root-ca.crt", "namespace": "default"},
                      "data": {"ca.crt": ca}})
    return analyzer.load(json.dumps({"apiVersion": "v1", "kind": "List", "items": items}, indent=1))


def _refused(verdict: dict) -> bool:
    return verdict["verdict"] == "different" and verdict["confidence"] >= REFUSE_CONFIDENCE


def test_a_rotated_ca_alone_does_not_make_another_cluster() -> None:
    old = _cluster(["aks-pool-0", "aks-pool-1"], ca=CA_ONE)
    new = _cluster(["aks-pool-0", "aks-pool-1"], ca=CA_TWO)
    verdict = same_cluster(old, new)
    assert verdict["verdict"] == "same" and not _refused(verdict)
    said = {e["signal"]: e["says"] for e in verdict["evidence"]}
    assert said["cluster CA certificate"] == "different"


def test_kube_system_uid_decides_either_way() -> None:
    same = same_cluster(_cluster(["a-0"], kube_system_uid="u1"), _cluster(["b-0"], kube_system_uid="u1"))
    assert same["verdict"] == "same" and same["confidence"] >= 0.9
    # the same machines under a new kube-system: the cluster was created again (kubeadm reset)
    rebuilt = same_cluster(_cluster(["a-0"], kube_system_uid="u1"), _cluster(["a-0"], kube_system_uid="u2"))
    assert _refused(rebuilt)
    assert {e["signal"]: e["says"] for e in rebuilt["evidence"]}["node providerIDs"] == "same"


def test_all_nodes_replaced_is_not_refused() -> None:
    """A node-pool upgrade replaces every node: names, ids and instances all new, same pool."""
    verdict = same_cluster(_cluster(["aks-pool-0", "aks-pool-1"]), _cluster(["aks-pool-2", "aks-pool-3"]))
    assert not _refused(verdict)
    said = {e["signal"]: e["says"] for e in verdict["evidence"]}
    assert said["node pools (providerID prefixes)"] == "same"


@pytest.mark.parametrize(("old", "new", "refused"), [
    ("MC_shop_prod_eastus", "MC_shop_prod_eastus", False),
    ("MC_shop_prod_eastus", "MC_billing_dev_westus", True),
])
def test_cluster_name_labels(old: str, new: str, refused: bool) -> None:
    verdict = same_cluster(_cluster(["aks-pool-0"], cluster_label=old), _cluster(["aks-pool-0"], cluster_label=new))
    assert _refused(verdict) is refused


def test_nothing_to_tell_is_unknown() -> None:
    text = "NAME    READY   STATUS    RESTARTS   AGE\nweb-1   1/1     Running   0          5d\n"
    verdict = same_cluster(analyzer.load(text), analyzer.load(text))
    assert verdict["verdict"] == "unknown" and verdict["confidence"] == 0.0 and verdict["evidence"] == []


def test_a_default_kubernetes_service_made_again_does_not_make_another_cluster() -> None:
    """criticalhop/kalc's cluster 'testspace' (tests/test-deployment/dump, then tests/test-daemonset/
    dump a week later): every Service of default was deleted and made again on 2019-09-25, the API
    server's default/kubernetes among them (a new uid), while both Nodes kept theirs, their
    providerIDs and machine ids. One etcd, one cluster: the new Service uid adds up against, it
    does not refuse the comparison."""
    folder = Path(__file__).parents[1] / "data" / "diff" / "kalc-services-made-again"
    old, new = analyzer.load(str(folder / "old.yaml")), analyzer.load(str(folder / "new.yaml"))
    verdict = same_cluster(old, new)
    said = {e["signal"]: (e["says"], e["detail"]) for e in verdict["evidence"]}
    assert verdict["verdict"] == "same" and verdict["confidence"] < REFUSE_CONFIDENCE
    assert said["uids of objects in both dumps"][0] == "same"
    service = said["default/kubernetes Service uid"]
    assert service[0] == "different" and "made again, as other objects keep their uid" in service[1]
    d = diff(old, new).to_dict()  # not refused
    recreated = sorted(c["name"] for c in d["changed"] if c["recreated"])
    assert recreated == ["kubernetes", "redis-master", "redis-slave"]
