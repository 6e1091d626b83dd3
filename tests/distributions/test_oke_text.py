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
