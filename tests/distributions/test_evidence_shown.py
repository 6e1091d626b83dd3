"""The distribution's evidence as `kda inspect` prints it: what decided, each fact once."""

from __future__ import annotations

import analyzer
from analyzer.cluster.summary import summary_text
from analyzer.ingest import ingest_text

# From Azure/AKS-Construction#727 (kube-system pods of an AKS cluster with Azure Policy, -o wide),
# trimmed to three rows: each node name matches both of AKS's node-name fingerprints, and the
# weaker one (not counted) was printed beside the stronger as a second, identical line.
_AKS_ROWS = """\
$ kubectl get pods -n kube-system -o wide
NAME                                    READY   STATUS             RESTARTS        AGE   IP               NODE                                 NOMINATED NODE   READINESS GATES
azure-cns-9ztdr                         1/1     Running            0               54m   10.240.0.6       aks-userpool01-68104822-vmss000003   <none>           <none>
azure-policy-86887785db-k885d           1/1     Running            0               60m   10.240.100.24    aks-agentpool-30311657-vmss000000    <none>           <none>
azure-policy-webhook-6fbc657745-9jddk   0/1     CrashLoopBackOff   9 (4m21s ago)   27m   10.240.100.104   aks-userpool01-68104822-vmss000004   <none>           <none>
"""


def test_a_fact_two_fingerprints_of_one_signal_match_is_printed_once() -> None:
    cluster = analyzer.Cluster(ingest_text(_AKS_ROWS, "issue.md"))
    assert cluster.distribution.name == "aks"
    shown = [line for line in summary_text(cluster).splitlines() if line.startswith("  - ")]
    assert len(shown) == len(set(shown)), shown
    assert [line.split(":")[0] for line in shown] == ["  - node_name_regex", "  - workload_name"]


# From ../shared/realdata/openshift/insights-operator-archive-sample (config/pod/openshift-etcd/
# etcd-master-0....json), trimmed to the fields detection reads: an insights archive keeps Pods but
# no Namespace, and its namespace evidence cited `core/Namespace//openshift-etcd`, an object the
# dump does not hold.
_ETCD_POD = """\
{"apiVersion": "v1", "kind": "Pod",
 "metadata": {"name": "etcd-master-0", "namespace": "openshift-etcd", "labels": {"app": "etcd", "etcd": "true"}},
 "spec": {"nodeName": "master-0", "containers": [{"name": "etcd",
          "image": "quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:e547acdeb82a29ae9561b1d04b55525ec78a678d892a0575f8c8c34f93542ae7"}]}}
"""
# the namespace as `oc get ns openshift-etcd -o yaml` prints it (hand-written, trimmed)
_ETCD_NAMESPACE = """\
apiVersion: v1
kind: Namespace
metadata:
  name: openshift-etcd
  annotations:
    openshift.io/node-selector: ""
"""


def _namespace_evidence(files: dict[str, str]) -> str:
    dist = analyzer.load(files).distribution
    return next(e.object for e in dist.evidence if e.signal == "namespace_name")


def test_namespace_evidence_cites_an_object_the_dump_holds() -> None:
    assert _namespace_evidence({"etcd.json": _ETCD_POD}) == "core/Pod/openshift-etcd/etcd-master-0"
    assert _namespace_evidence({"etcd.json": _ETCD_POD, "ns.yaml": _ETCD_NAMESPACE}) == "core/Namespace//openshift-etcd"
    # a dump of Namespaces alone (`kubectl get ns -o yaml`) shows its namespaces too
    assert _namespace_evidence({"ns.yaml": _ETCD_NAMESPACE}) == "core/Namespace//openshift-etcd"
