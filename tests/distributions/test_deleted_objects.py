"""What a pasted session showed and then deleted was in the cluster: it still tells the distribution."""

from __future__ import annotations

import analyzer

# Trimmed from the OKE seed document (shared seeds 002: gashirar's blog post on OKE's
# proxymux-client): the DaemonSet shown as YAML, deleted, then the pods listed without it.
_SESSION = """\
apiVersion: extensions/v1beta1
kind: DaemonSet
metadata:
  labels:
    oke-app: proxymux-client-ds
  name: proxymux-client
  namespace: kube-system

# kubectl delete ds -n kube-system proxymux-client
daemonset.extensions "proxymux-client" deleted

# kubectl get pod -A
NAMESPACE     NAME                                   READY   STATUS    RESTARTS   AGE
kube-system   coredns-67bb89d7c6-ddnvv               1/1     Running   0          3h45m
kube-system   kube-flannel-ds-h9cm9                  1/1     Running   1          29m
kube-system   kube-proxy-58b2l                       1/1     Running   0          29m
"""


def test_a_deleted_object_is_evidence_and_says_it_was_deleted() -> None:
    cluster = analyzer.load({"blog.txt": _SESSION})
    assert [o.name for o in cluster.objects_of("DaemonSet")] == []
    dist = cluster.distribution
    assert dist.name == "oke"
    (proxymux,) = [e for e in dist.evidence if e.value == "proxymux-client"]
    assert proxymux.object == "apps/DaemonSet/kube-system/proxymux-client, deleted at line 10"


def test_without_the_deleted_object_nothing_tells_oke() -> None:
    listing = _SESSION.split("# kubectl get pod -A\n")[1]
    cluster = analyzer.load({"blog.txt": "$ kubectl get pod -A\n" + listing})
    assert cluster.distribution.name != "oke"
