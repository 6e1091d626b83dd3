"""Who manages an object (analyzer/model/managed.yaml), as a finding's `managed` mark says it."""

from __future__ import annotations

import analyzer
from analyzer.findings import collect_findings


def test_openshift_3_sdn_pods_are_the_platforms_not_said_to_be_an_operators() -> None:
    # openshift/openshift-ansible#11466 (comment of 2019-04-19), trimmed: OKD 3.11's openshift-sdn
    # pods, which openshift-ansible installs (no operator manages them before 4.x)
    paste = ("# oc get pods -n openshift-sdn\n"
             "NAME        READY     STATUS             RESTARTS   AGE\n"
             "ovs-gz97h   1/1       Running            0          23m\n"
             "sdn-5pxbb   0/1       CrashLoopBackOff   9          23m\n")
    findings = [f for f in collect_findings(analyzer.load({"okd-311.md": paste}))
                if f.rule == "pod-crashloop" and f.status == "fail"]
    assert [f.name for f in findings] == ["sdn-5pxbb"]
    assert "OpenShift platform" in findings[0].managed
    assert "an OpenShift operator" not in findings[0].managed


# Trimmed from a GitOps-on-GKE write-up's `kubectl get pods -A` (GKE 1.35.6-gke.1250000; code index
# id 63776695362). GKE runs what is in its gke-managed-* namespaces and gke-gmp-system; before,
# kube-state-metrics-0 in gke-managed-cim had no mark (the catalog's kube-state-metrics is the
# owner's anywhere else), gmp-system's collector its catalog entry's.
GKE_PODS = """\
$ kubectl get pods -A
NAMESPACE         NAME                                                   READY   STATUS    RESTARTS   AGE
gke-managed-cim   kube-state-metrics-0                                   2/2     Running   0          16m
gmp-system        collector-gf9qw                                        2/2     Running   0          14m
kube-system       event-exporter-gke-7b96f8bbfb-p2z5n                    2/2     Running   0          16m
kube-system       gke-metrics-agent-69njw                                3/3     Running   0          14m
kube-system       netd-dcq6g                                             3/3     Running   0          14m
kube-system       pdcsi-node-qjcbh                                       3/3     Running   0          14m
"""


def test_what_runs_in_gkes_managed_namespaces_is_gkes() -> None:
    pods = analyzer.load({"gitops.md": GKE_PODS}).tables["pods"].set_index("name")["managed"]
    assert pods["kube-state-metrics-0"] == "namespace gke-managed-cim (GKE)"
    # (the same rows, kube-state-metrics crash-looping: its finding is GKE's, its remedy where GKE takes it)
    crashing = GKE_PODS.replace("kube-state-metrics-0                                   2/2     Running   0       ",
                                "kube-state-metrics-0                                   1/2     CrashLoopBackOff   7")
    assert crashing != GKE_PODS
    found = [f for f in collect_findings(analyzer.load({"gitops.md": crashing}))
             if f.rule == "pod-crashloop" and f.status == "fail"]
    assert [(f.name, f.managed) for f in found] == [("kube-state-metrics-0", "namespace gke-managed-cim (GKE)")]
    assert "On GKE this is GKE's add-on" in found[0].remediation


def test_a_namespace_named_like_gkes_but_not_its_prefix_is_the_owners() -> None:
    # gmp-system: Managed Prometheus installed by hand runs there on any cluster
    from analyzer.model.managed import signal_of

    assert signal_of("gmp-system", None, None) == ""
    assert signal_of("gke-gmp-system", None, None) == "namespace gke-gmp-system (GKE)"
    assert signal_of("gke-managed-filestorecsi", None, None) == "namespace gke-managed-filestorecsi (GKE)"



# hashicorp-education/learn-terraform-provision-eks-cluster#10 (trimmed further than in
# tests/findings/test_incidents.py): two coredns pods in a table, one described with its
# controller and the eks.amazonaws.com/component label; and a row of the same name pasted for a
# namespace `apps`, whose pods no described pod speaks for.
SIBLINGS = """\
**COMMAND:** kubectl get pods --all-namespaces
NAMESPACE     NAME                      READY   STATUS    RESTARTS   AGE
kube-system   coredns-bd44f767b-jjlkb   0/1     Pending   0          4m58s
apps          coredns-bd44f767b-k2x9q   0/1     Pending   0          4m58s
kube-system   coredns-bd44f767b-n29b7   0/1     Pending   0          4m58s

**COMMAND:** kubectl describe pods coredns-bd44f767b-n29b7 -n kube-system
Name:                 coredns-bd44f767b-n29b7
Namespace:            kube-system
Labels:               eks.amazonaws.com/component=coredns
Status:               Pending
Controlled By:        ReplicaSet/coredns-bd44f767b
"""


def test_a_pod_naming_no_controller_takes_a_described_siblings_mark_in_its_own_namespace_only() -> None:
    from analyzer.model.managed import managed_of

    cluster = analyzer.load({"issue.md": SIBLINGS})
    marks = {(p.namespace, p.name): managed_of(cluster, p) for p in cluster.objects_of("Pod")}
    eks = "label eks.amazonaws.com/component=coredns (EKS)"
    assert marks == {("kube-system", "coredns-bd44f767b-jjlkb"): eks,
                     ("kube-system", "coredns-bd44f767b-n29b7"): eks,
                     ("apps", "coredns-bd44f767b-k2x9q"): ""}
