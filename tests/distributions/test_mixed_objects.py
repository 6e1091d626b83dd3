"""OpenShift's marks on namespaces and service accounts, and objects of two clusters in one input
(review cka-openshift-gke-transcript.md: a CKA write-up whose OpenShift namespace and service
account sit beside `kubectl get no` of a GKE cluster)."""

from __future__ import annotations

import analyzer
from analyzer.cluster.summary import summary_text

# From the public CKA write-up (review cka-openshift-gke-transcript.md, repo not recorded), trimmed.
OPENSHIFT_NS_SA = """\
$ k get ns app-team1 -o yaml
apiVersion: v1
kind: Namespace
metadata:
  annotations:
    openshift.io/sa.scc.mcs: s0:c27,c4
    openshift.io/sa.scc.supplemental-groups: 1000710000/10000
    openshift.io/sa.scc.uid-range: 1000710000/10000
  creationTimestamp: "2021-11-20T13:01:12Z"
  labels:
    kubernetes.io/metadata.name: app-team1
  name: app-team1
status:
  phase: Active
$ k get sa -n app-team1 cicd-token -o yaml
apiVersion: v1
imagePullSecrets:
- name: cicd-token-dockercfg-h8qj9
kind: ServiceAccount
metadata:
  creationTimestamp: "2021-11-20T13:02:32Z"
  name: cicd-token
  namespace: app-team1
secrets:
- name: cicd-token-dockercfg-h8qj9
- name: cicd-token-token-wjxd7
"""
GKE_NODES = """\
$ k get no
NAME                                       STATUS   ROLES    AGE   VERSION
gke-ssli-demo-default-pool-0cba9a7c-rbff   Ready    <none>   32m   v1.21.5-gke.1302
gke-ssli-demo-default-pool-0cba9a7c-skr2   Ready    <none>   32m   v1.21.5-gke.1302
"""


def test_openshift_namespace_and_service_account_marks_name_openshift() -> None:
    dist = analyzer.load({"write-up.txt": OPENSHIFT_NS_SA}).distribution
    assert dist.name == "openshift"
    signals = {e.signal: e.object for e in dist.evidence}
    assert signals["namespace_annotation_key_prefix"] == "core/Namespace//app-team1"
    assert signals["pull_secret_name"] == "core/ServiceAccount/app-team1/cicd-token"


def test_openshift_objects_beside_gke_nodes_are_two_clusters_and_inspect_says_so() -> None:
    cluster = analyzer.load({"write-up.txt": OPENSHIFT_NS_SA + GKE_NODES})
    dist = cluster.distribution
    assert dist.name == "mixed"
    assert {e.distribution for e in dist.evidence} >= {"gke", "openshift"}
    note = next(n for n in dist.notes if n.startswith("objects of two or more clusters"))
    assert "gke: nodes gke-ssli-demo-default-pool-0cba9a7c-rbff" in note
    assert "openshift: core/Namespace//app-team1, core/ServiceAccount/app-team1/cicd-token" in note
    assert f"  note: {note}" in summary_text(cluster).splitlines()


def test_gke_nodes_alone_stay_gke() -> None:
    dist = analyzer.load({"nodes.txt": GKE_NODES}).distribution
    assert dist.name == "gke" and not dist.notes
