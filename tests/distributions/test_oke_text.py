"""OKE from what its users paste: the CNI of VCN-Native Pod Networking is named.

The fixture is the `kubectl get pods -A` of enricopesce/easyoke's README.md (a 3-node OKE
cluster with VCN-Native Pod Networking, minutes old), trimmed to one pod per DaemonSet.
"""

from __future__ import annotations

from pathlib import Path

import analyzer

EASYOKE_PODS = """kubectl get pods -A

NAMESPACE     NAME                                   READY   STATUS    RESTARTS   AGE
kube-system   coredns-6d9c47d4f7-8pm78               1/1     Running   0          2m28s
kube-system   csi-oci-node-fvmlj                     1/1     Running   0          4m21s
kube-system   kube-dns-autoscaler-6c6897cd78-vpvqj   1/1     Running   0          6m28s
kube-system   kube-proxy-45bdm                       1/1     Running   0          4m17s
kube-system   proxymux-client-6z6hk                  1/1     Running   0          4m42s
kube-system   vcn-native-ip-cni-bh8jn                1/1     Running   0          4m21s
"""


def test_vcn_native_pod_networking_is_the_cni_of_an_oke_paste(tmp_path: Path) -> None:
    path = tmp_path / "easyoke.md"
    path.write_text(EASYOKE_PODS, encoding="utf-8")
    dist = analyzer.load(path).distribution
    assert dist.name == "oke"
    assert dist.cni == ["oci-vcn-native"]


# From an OKE course of RedExpertAlliance/katacoda-scenarios (oci-course/oke-*, the expected
# `kubectl get pods` of kube-system), trimmed: an older OKE ran proxymux-client as a static pod
# on each node, its mirror pod named after the node, and OKE names nodes by their address. The
# three were three one-pod components of kind Pod, not one static pod ready on 3 of 3 nodes.
KATACODA_OKE_PODS = """~~~~
NAME                                    READY     STATUS        RESTARTS   AGE
kube-dns-664f6d6bcd-d29mf               3/3       Running       0          128d
kube-flannel-ds-2wtbt                   1/1       Running       1          191d
kube-proxy-h7cn8                        1/1       Running       0          191d
proxymux-client-10.0.10.2               1/1       Running       0          191d
proxymux-client-10.0.11.2               1/1       Running       0          191d
proxymux-client-10.0.12.2               1/1       Running       0          191d
~~~~
"""


def test_mirror_pods_of_nodes_named_by_address_are_one_static_pod_component(tmp_path: Path) -> None:
    path = tmp_path / "step.md"
    path.write_text(KATACODA_OKE_PODS, encoding="utf-8")
    cluster = analyzer.load(path)
    assert cluster.distribution.name == "oke"
    rows = cluster.tables["components"]
    proxymux = rows[rows["component"] == "proxymux-client"]
    assert proxymux[["kind", "name", "desired", "ready"]].values.tolist() == [["StaticPod", "proxymux-client", 3, 3]]


# Trimmed from an OKE write-up's `kubectl get services` (code index id 1025873941; the same
# kubernetes row in OKE's mushop and kueue write-ups): OKE publishes its proxymux tunnel's port
# 12250 on the API server's Service. Before, the listing was of distribution unknown.
OKE_SERVICES = """\
kubectl get services
NAME           TYPE           CLUSTER-IP     EXTERNAL-IP      PORT(S)             AGE
helloworldpy   LoadBalancer   10.96.89.168   xx.xx.xx.xxx     80:30915/TCP        7m43s
kubernetes     ClusterIP      10.96.0.1      <none>           443/TCP,12250/TCP   16h
"""


def test_the_api_servers_service_with_okes_tunnel_port_tells_oke() -> None:
    dist = analyzer.load({"services.md": OKE_SERVICES}).distribution
    assert dist.name == "oke"
    assert [(e.signal, e.value, e.object) for e in dist.evidence] == [
        ("service_port", "kubernetes=12250/TCP", "core/Service/default/kubernetes")]


def test_the_api_servers_service_without_it_tells_nothing() -> None:
    dist = analyzer.load({"services.md": OKE_SERVICES.replace("443/TCP,12250/TCP", "443/TCP          ")}).distribution
    assert dist.name == "unknown"
