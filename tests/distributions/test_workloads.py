"""System workloads: one row per component, from controllers, static pods, bare pods or pasted text.

Fixtures are in-memory dumps (dumps.py) and the `kubectl get pods -A -o wide` block of seed 001
(kubeadm on AWS, shared/seeds/001_bdd863a7ce4b57a1.txt), read as pasted text.
"""

from __future__ import annotations

import pytest
from conftest import SEEDS

import analyzer
from analyzer.distributions.profiles import load_profiles
from analyzer.distributions.workloads import component_workloads

from .dumps import load, pod, workload


def _rows(cluster):
    return [(w.namespace, w.kind, w.name, w.desired, w.ready, w.inferred)
            for w in component_workloads(cluster, load_profiles())]


def test_controllers_stand_for_their_replicasets_and_pods() -> None:
    rs = {"apiVersion": "apps/v1", "kind": "ReplicaSet",
          "metadata": {"name": "coredns-69c47794", "namespace": "kube-system",
                       "ownerReferences": [{"kind": "Deployment", "name": "coredns", "controller": True}]},
          "spec": {"replicas": 2}, "status": {"replicas": 2, "readyReplicas": 2}}
    cluster = load(
        workload("Deployment", "kube-system", "coredns", image="registry.k8s.io/coredns/coredns:v1.11.1",
                 replicas=2, ready=2),
        rs,
        pod("kube-system", "coredns-69c47794-6xnlq", owner=("ReplicaSet", "coredns-69c47794")),
        workload("DaemonSet", "kube-system", "kube-proxy", image="registry.k8s.io/kube-proxy:v1.29.3",
                 replicas=3, ready=2),
        workload("Deployment", "default", "web", image="nginx"),  # an application: not a component
    )
    assert _rows(cluster) == [
        ("kube-system", "Deployment", "coredns", 2, 2, False),
        ("kube-system", "DaemonSet", "kube-proxy", 3, 2, False),
    ]


def test_missing_controllers_are_inferred_from_replicasets_and_pods() -> None:
    rs = {"apiVersion": "apps/v1", "kind": "ReplicaSet",
          "metadata": {"name": "metrics-server-774f99dbf4", "namespace": "kube-system",
                       "ownerReferences": [{"kind": "Deployment", "name": "metrics-server", "controller": True}]},
          "spec": {"replicas": 1, "template": {"spec": {"containers": [
              {"name": "metrics-server", "image": "registry.k8s.io/metrics-server/metrics-server:v0.7.1"}]}}},
          "status": {"replicas": 1}}
    cluster = load(
        rs,
        pod("kube-system", "aws-node-x7k2p", owner=("DaemonSet", "aws-node")),
        pod("kube-system", "aws-node-9fj3q", owner=("DaemonSet", "aws-node"), ready=False),
        pod("kube-system", "ebs-csi-controller-5d8f8b7c9-abcde", owner=("ReplicaSet", "ebs-csi-controller-5d8f8b7c9"),
            labels={"pod-template-hash": "5d8f8b7c9"}),
    )
    assert _rows(cluster) == [
        ("kube-system", "DaemonSet", "aws-node", 2, 1, True),
        ("kube-system", "Deployment", "ebs-csi-controller", 1, 1, True),
        ("kube-system", "Deployment", "metrics-server", 1, 0, True),
    ]


def test_static_pods_are_one_row_per_component_and_bare_pods_are_kept() -> None:
    cluster = load(
        *(pod("kube-system", f"etcd-cp{i}", node_name=f"cp{i}", mirror=True, ready=i != 3) for i in (1, 2, 3)),
        pod("kube-system", "debug-shell"),
    )
    assert _rows(cluster) == [
        ("kube-system", "Pod", "debug-shell", 1, 1, False),
        ("kube-system", "StaticPod", "etcd", 3, 2, False),
    ]


def test_pasted_pod_tables_are_grouped_by_name() -> None:
    seed = (SEEDS / "001_bdd863a7ce4b57a1.txt").read_text(encoding="utf-8")
    pasted = seed[seed.index("# kubectl get pods -A -o wide"):seed.index("# kubectl get svc -A")]
    assert _rows(analyzer.load(pasted)) == [
        ("kube-system", "Deployment", "calico-kube-controllers", 1, 1, True),
        ("kube-system", "DaemonSet", "calico-node", 4, 4, True),
        ("kube-system", "Deployment", "coredns", 2, 2, True),
        ("kube-system", "StaticPod", "etcd", 2, 2, False),
        ("kube-system", "StaticPod", "kube-apiserver", 2, 2, False),
        ("kube-system", "StaticPod", "kube-controller-manager", 2, 2, False),
        ("kube-system", "DaemonSet", "kube-proxy", 4, 4, True),
        ("kube-system", "StaticPod", "kube-scheduler", 2, 2, False),
    ]


# kubectl's own rows for realdata eks/holmesgpt-fixtures served by `kda serve` (its pods hold
# names and nodes only, so READY is 0/0 and STATUS empty), trimmed to two system pods.
ZERO_OF_ZERO = """\
NAMESPACE     NAME                                                   READY   STATUS   RESTARTS   AGE         IP       NODE                                          NOMINATED NODE   READINESS GATES
kube-system   aws-node-87tjm                                         0/0              0          <unknown>   <none>   ip-172-31-40-111.us-east-2.compute.internal   <none>           <none>
kube-system   coredns-858457f4f6-9vksl                               0/0              0          <unknown>   <none>   ip-172-31-40-111.us-east-2.compute.internal   <none>           <none>
"""


def test_a_pasted_0_of_0_is_readiness_unknown_not_not_ready() -> None:
    # a pod has at least one container: 0/0 says the printer saw none, not that none is ready
    assert _rows(analyzer.load(ZERO_OF_ZERO)) == [
        ("kube-system", "DaemonSet", "aws-node", 1, None, True),
        ("kube-system", "Deployment", "coredns", 1, None, True),
    ]


def test_completed_job_pods_count_as_ready() -> None:
    cluster = load(pod("kube-system", "helm-install-traefik-abcde", owner=("Job", "helm-install-traefik"),
                       phase="Succeeded", ready=False))
    assert _rows(cluster) == [("kube-system", "Job", "helm-install-traefik", 1, 1, True)]


def test_pods_owned_by_a_configmap_are_their_own_workload() -> None:
    # OpenShift's static-pod installer pods are owned by a revision ConfigMap
    # (realdata/openshift/must-gather-clean-aws, openshift-etcd).
    installer = pod("openshift-etcd", "installer-3-ip-10-0-187-218.ec2.internal", phase="Running",
                    node_name="ip-10-0-187-218.ec2.internal", ready=True)
    installer["metadata"]["ownerReferences"] = [{"apiVersion": "v1", "kind": "ConfigMap",
                                                 "name": "revision-status-3", "uid": "u1"}]
    assert _rows(load(installer)) == [
        ("openshift-etcd", "Pod", "installer-3-ip-10-0-187-218.ec2.internal", 1, 1, False)]


def test_completed_installer_and_pruner_pods_are_no_components() -> None:
    # realdata/openshift/must-gather-clean-aws: installer-N-<node> and revision-pruner-N-<node>
    # pods of openshift-etcd, owned by a revision ConfigMap, Succeeded.
    pods = []
    for name in ("installer-3-ip-10-0-187-218.ec2.internal", "revision-pruner-3-ip-10-0-187-218.ec2.internal"):
        p = pod("openshift-etcd", name, phase="Succeeded", node_name="ip-10-0-187-218.ec2.internal", ready=False)
        p["metadata"]["ownerReferences"] = [{"apiVersion": "v1", "kind": "ConfigMap",
                                             "name": "revision-status-3", "uid": "u1"}]
        pods.append(p)
    assert _rows(load(*pods)) == []


def test_replicasets_of_custom_owners_are_kept() -> None:
    # An Argo Rollout owns its ReplicaSets directly; the Rollout (a custom resource) is the component.
    rs = {"apiVersion": "apps/v1", "kind": "ReplicaSet",
          "metadata": {"name": "gatekeeper-audit-5d8f8b7c9", "namespace": "gatekeeper-system",
                       "ownerReferences": [{"kind": "Rollout", "name": "gatekeeper-audit", "controller": True}]},
          "spec": {"replicas": 1}, "status": {"replicas": 1, "readyReplicas": 1}}
    job = {"apiVersion": "batch/v1", "kind": "Job",
           "metadata": {"name": "helm-install-traefik", "namespace": "kube-system"}, "spec": {}}
    cluster = load(rs, job, pod("kube-system", "helm-install-traefik-abcde", owner=("Job", "helm-install-traefik"),
                                phase="Succeeded"))
    assert _rows(cluster) == [
        ("gatekeeper-system", "Rollout", "gatekeeper-audit", 1, 1, True),
        ("kube-system", "Job", "helm-install-traefik", 1, 1, False),
    ]


# `kubectl get pods -A` then `kubectl describe pod coredns-...` (shared/seeds/004_417db4bb012edb13.txt,
# CKA notes on kubeadm: its pod table and coredns describe, indentation restored, trimmed).
_PODS_TABLE = """\
controlplane $ kubectl get pods -A
NAMESPACE     NAME                                   READY   STATUS    RESTARTS   AGE
kube-system   coredns-f9fd979d6-gt9h2                1/1     Running   2          32m
kube-system   coredns-f9fd979d6-n5bkk                0/1     Running   0          32m
kube-system   etcd-controlplane                      1/1     Running   0          87m
kube-system   kube-apiserver-controlplane            1/1     Running   0          87m
kube-system   kube-proxy-dgdbc                       1/1     Running   0          87m
kube-system   kube-proxy-tj6bm                       1/1     Running   2          86m
"""
_COREDNS_DESCRIBE = """\
controlplane $ kubectl describe pod coredns-f9fd979d6-gt9h2 -n kube-system
Name:                 coredns-f9fd979d6-gt9h2
Namespace:            kube-system
Priority Class Name:  system-cluster-critical
Node:                 node01/172.17.0.15
Labels:               k8s-app=kube-dns
                      pod-template-hash=f9fd979d6
Status:               Running
Controlled By:  ReplicaSet/coredns-f9fd979d6
Containers:
  coredns:
    Image:          k8s.gcr.io/coredns:1.7.0
    Ready:          True
    Restart Count:  2
Conditions:
  Type              Status
  Initialized       True
  Ready             True
  ContainersReady   True
  PodScheduled      True
Events:          <none>
"""
_DEPLOY_TABLE = """\
controlplane $ kubectl get deploy -n kube-system
NAME      READY   UP-TO-DATE   AVAILABLE   AGE
coredns   1/2     2            1           88m
"""


def test_a_described_pod_and_its_table_siblings_are_one_workload() -> None:
    # The describe's Controlled By (ReplicaSet coredns-f9fd979d6) and the table rows' names lead
    # to one inferred Deployment; with the Deployment listed too, it alone is the row (no second,
    # inferred coredns row of the one not-ready table pod).
    assert _rows(analyzer.load(_PODS_TABLE + _COREDNS_DESCRIBE))[:1] == [
        ("kube-system", "Deployment", "coredns", 2, 1, True)]
    rows = _rows(analyzer.load(_PODS_TABLE + _COREDNS_DESCRIBE + _DEPLOY_TABLE))
    assert [r for r in rows if "coredns" in r[2]] == [("kube-system", "Deployment", "coredns", 2, 1, False)]


def test_a_describe_without_the_hash_label_joins_its_table_siblings() -> None:
    # A describe pasted without its Labels: the ReplicaSet's name still carries the template hash.
    describe = _COREDNS_DESCRIBE.replace("                      pod-template-hash=f9fd979d6\n", "")
    assert _rows(analyzer.load(_PODS_TABLE + describe))[:1] == [("kube-system", "Deployment", "coredns", 2, 1, True)]


def test_listed_controllers_stand_for_their_pasted_pods_and_replicasets() -> None:
    # `kubectl get all -n kube-system` on AKS (shared/seeds/000_38c768ac0fe26b54.txt): pods,
    # DaemonSets, Deployments and ReplicaSets as tables; one row per component.
    seed = (SEEDS / "000_38c768ac0fe26b54.txt").read_text(encoding="utf-8")
    rows = _rows(analyzer.load(seed))
    assert len({(r[1], r[2]) for r in rows}) == len(rows)
    assert not [r for r in rows if r[1] == "ReplicaSet" or r[5]]
    assert ("kube-system", "Deployment", "coredns", 2, 2, False) in rows
    assert ("kube-system", "DaemonSet", "azure-ip-masq-agent", 3, 3, False) in rows


def test_pasted_static_pods_are_no_statefulsets() -> None:
    # kubeadm control plane on nodes cp-1 and cp-2, pods pasted without -o wide (no NODE column):
    # etcd-cp-1 is the mirror pod of etcd on cp-1 (the nodes table names it), kube-apiserver-cp-1
    # a control-plane component's; an ordinal alone (etcd-0) or a hash still says its controller.
    pasted = """\
$ kubectl get nodes
NAME   STATUS   ROLES           AGE   VERSION
cp-1   Ready    control-plane   20d   v1.29.3
cp-2   Ready    control-plane   20d   v1.29.3
$ kubectl get pods -n kube-system
NAME                                 READY   STATUS    RESTARTS   AGE
etcd-cp-1                            1/1     Running   0          20d
etcd-cp-2                            1/1     Running   0          20d
kube-scheduler-cp-1                  1/1     Running   0          20d
$ kubectl get pods -n monitoring
NAME                                 READY   STATUS    RESTARTS   AGE
prometheus-k8s-0                     2/2     Running   0          3d
"""
    assert _rows(analyzer.load(pasted)) == [
        ("kube-system", "StaticPod", "etcd", 2, 2, False),
        ("kube-system", "StaticPod", "kube-scheduler", 1, 1, False),
    ]
    # no nodes in the paste: the control-plane prefix decides, a controller's suffix does not
    pods_only = pasted[pasted.index("$ kubectl get pods -n kube-system"):pasted.index("$ kubectl get pods -n monitoring")]
    pods_only += "kube-apiserver-master-a1        1/1     Running   0          20d\n"
    pods_only += "etcd-0                          1/1     Running   0          20d\n"
    pods_only += "kube-scheduler-6d4b75cb6d-x7k2p 1/1     Running   0          20d\n"
    assert _rows(analyzer.load(pods_only)) == [
        ("kube-system", "StatefulSet", "etcd", 1, 1, True),
        ("kube-system", "StaticPod", "etcd", 2, 2, False),
        ("kube-system", "StaticPod", "kube-apiserver", 1, 1, False),
        ("kube-system", "Deployment", "kube-scheduler", 1, 1, True),
        ("kube-system", "StaticPod", "kube-scheduler", 1, 1, False),
    ]


def test_pasted_mirror_pods_of_the_nodes_control_plane_pods_name_are_static() -> None:
    # Trimmed from rancher/rke2#9390 (description, 2025-12-10, one server `clean`): no NODE column;
    # etcd-clean names the node, so cloud-controller-manager-clean is RKE2's static pod on it, not
    # a bare Pod of its own.
    rke2_9390 = """\
[root@clean ~]# kubectl get pod -A
NAMESPACE     NAME                                                    READY   STATUS      RESTARTS       AGE
kube-system   cloud-controller-manager-clean                          1/1     Running     1 (4m9s ago)   4m6s
kube-system   etcd-clean                                              1/1     Running     0              4m6s
"""
    assert _rows(analyzer.load(rke2_9390)) == [
        ("kube-system", "StaticPod", "cloud-controller-manager", 1, 1, False),
        ("kube-system", "StaticPod", "etcd", 1, 1, False),
    ]
    # Trimmed from rancher/rke2#6220 (comment of 2024-06-20, three servers on EC2): nodes named by
    # EC2's hostname of their address end in digits, which read as a StatefulSet's ordinal (three
    # StatefulSets cloud-controller-manager-ip-172-31-12 ...); no controller writes an address.
    rke2_6220 = """\
kubectl get pods -A
NAMESPACE        NAME                                                    READY   STATUS      RESTARTS   AGE
kube-system      cloud-controller-manager-ip-172-31-12-208               1/1     Running     0          9m53s
kube-system      cloud-controller-manager-ip-172-31-14-17                1/1     Running     0          14m
kube-system      cloud-controller-manager-ip-172-31-8-183                1/1     Running     0          12m
kube-system      etcd-ip-172-31-12-208                                   1/1     Running     0          9m20s
"""
    assert _rows(analyzer.load(rke2_6220)) == [
        ("kube-system", "StaticPod", "cloud-controller-manager", 3, 3, False),
        ("kube-system", "StaticPod", "etcd", 1, 1, False),
    ]
    # a pod of a name that ends in no node the paste names keeps its controller's reading
    other = rke2_9390.replace("cloud-controller-manager-clean    ", "cloud-controller-manager-x7k2p    ")
    assert ("kube-system", "DaemonSet", "cloud-controller-manager", 1, 1, True) in _rows(analyzer.load(other))


def test_pasted_pods_of_a_lost_node_are_not_ready_and_those_being_deleted_not_wanted() -> None:
    # Trimmed from kubernetes/kubernetes#73875 (description, 2019-02-09): node1 lost; its
    # calico-node row NodeLost (1/1 as its kubelet last said), its coredns pod Unknown (being
    # deleted, its replacement 8m32s old). Before: every component healthy, 4 of 4 and 3 of 3.
    pasted = """\
NAME                                      READY   STATUS     RESTARTS   AGE
calico-node-759c8                         1/1     Running    0          69m
calico-node-gmkv8                         1/1     NodeLost   0          69m
coredns-788d98cc7b-679z6                  1/1     Running    0          8m32s
coredns-788d98cc7b-lmngh                  1/1     Unknown    0          68m
"""
    assert _rows(analyzer.load(pasted)) == [
        ("kube-system", "DaemonSet", "calico-node", 2, 1, True),
        ("kube-system", "Deployment", "coredns", 1, 1, True),
    ]


def test_an_add_ons_versioned_controller_is_said_without_a_kind() -> None:
    # Trimmed from a Kubernetes-on-Vagrant write-up in the public code index (its repository not
    # named there; kubectl of 2015-16): kube-dns-v9 was the add-on manager's ReplicationController
    # (kubernetes/kubernetes#17488), whose pods are named <rc>-<5 chars> as a DaemonSet's are.
    # Before: "DaemonSet kube-system/kube-dns-v9", a kind the cluster never ran.
    pasted = """\
NAMESPACE     NAME                                  READY     STATUS             RESTARTS   AGE
kube-system   kube-apiserver-172.17.4.50            1/1       Running            0          11m
kube-system   kube-dns-v9-3453v                     2/4       CrashLoopBackOff   9          9m
kube-system   kube-proxy-6mnxk                      1/1       Running            0          11m
"""
    rows = _rows(analyzer.load(pasted))
    assert ("kube-system", "controller", "kube-dns-v9", 1, 0, True) in rows
    assert ("kube-system", "DaemonSet", "kube-proxy", 1, 1, True) in rows  # (a name of no version: as before)
    # a listed controller of any kind that names such pods is the component's row itself
    listed = pasted + """
NAMESPACE     NAME          DESIRED   CURRENT   READY     AGE
kube-system   kube-dns-v9   1         1         0         9m
"""
    kinds = {(kind, name) for _, kind, name, *_ in _rows(analyzer.load(listed))}
    assert ("controller", "kube-dns-v9") not in kinds


def test_a_described_pod_with_an_owner_is_no_static_pod() -> None:
    # A Pending describe shows `Node: <none>` and the table row no node either; its Controlled By
    # still says what owns it (was: read as a pasted static pod, for having no node).
    from analyzer.distributions.workloads import is_static_pod

    pending = _COREDNS_DESCRIBE.replace("node01/172.17.0.15", "<none>").replace("Running", "Pending")
    pods = {o.name: o for o in analyzer.load(_PODS_TABLE + pending).objects if o.kind == "Pod"}
    described = pods["coredns-f9fd979d6-gt9h2"]
    assert described.view.text is not None and described.view.metadata.ownerReferences
    assert not is_static_pod(described)
    assert is_static_pod(pods["etcd-controlplane"])


def test_a_table_row_after_its_describe_keeps_the_describes_owner() -> None:
    # The describe pasted first, the pod table after it (as seed 004 does for kube-proxy-dgdbc):
    # the later row is the pod's state, and its Controlled By still says who owns it.
    cluster = analyzer.load(_COREDNS_DESCRIBE + _PODS_TABLE)
    described = next(o for o in cluster.objects if o.name == "coredns-f9fd979d6-gt9h2")
    assert described.view.text is not None and described.view.text.ready == "1/1"
    assert [(r.kind, r.name) for r in described.view.metadata.ownerReferences] == [("ReplicaSet", "coredns-f9fd979d6")]
    # (the owners ride with the describe's metadata the row keeps, or on their own)
    assert any("owners from its earlier sighting" in n or "spec and metadata from its earlier describe" in n
               for n in described.notes)
    assert _rows(cluster)[:1] == [("kube-system", "Deployment", "coredns", 2, 1, True)]


# kubectl's own `describe deployment` of realdata unknown/troubleshoot-analyze-files served by
# `kda serve`: it counts desired, updated, total, available and unavailable replicas, never ready.
DESCRIBED_DEPLOYMENT = """\
$ kubectl describe deployments -n kube-system coredns
Name:                   coredns
Namespace:              kube-system
CreationTimestamp:      Fri, 17 Dec 2021 18:38:57 +0000
Labels:                 k8s-app=kube-dns
Annotations:            deployment.kubernetes.io/revision: 1
Selector:               k8s-app=kube-dns
Replicas:               2 desired | 2 updated | 2 total | 2 available | 0 unavailable
StrategyType:           RollingUpdate
MinReadySeconds:        0
RollingUpdateStrategy:  1 max unavailable, 25% max surge
Pod Template:
  Labels:           k8s-app=kube-dns
  Service Account:  coredns
  Containers:
   coredns:
    Image:       k8s.gcr.io/coredns:1.7.0
    Ports:       53/UDP, 53/TCP, 9153/TCP
    Host Ports:  0/UDP, 0/TCP, 0/TCP
    Args:
      -conf
      /etc/coredns/Corefile
    Limits:
      memory:  170Mi
    Requests:
      cpu:        100m
      memory:     70Mi
    Liveness:     http-get http://:8080/health delay=60s timeout=5s period=10s #success=1 #failure=5
    Readiness:    http-get http://:8181/ready delay=0s timeout=1s period=10s #success=1 #failure=3
    Environment:  <none>
    Mounts:
      /etc/coredns from config-volume (ro)
  Volumes:
   config-volume:
    Type:               ConfigMap (a volume populated by a ConfigMap)
    Name:               coredns
    Optional:           false
  Priority Class Name:  system-cluster-critical
Conditions:
  Type          Status  Reason
  ----          ------  ------
  Available     True    MinimumReplicasAvailable
  Progressing   True    NewReplicaSetAvailable
Events:         <none>
"""


def test_a_described_deployment_is_as_ready_as_it_is_available_never_zero_for_untold() -> None:
    assert _rows(analyzer.load(DESCRIBED_DEPLOYMENT)) == [("kube-system", "Deployment", "coredns", 2, 2, False)]
    short = DESCRIBED_DEPLOYMENT.replace("2 total | 2 available | 0 unavailable", "2 total | 1 available | 1 unavailable")
    assert _rows(analyzer.load(short)) == [("kube-system", "Deployment", "coredns", 2, 1, False)]


def test_a_pasted_completed_pod_with_a_short_suffix_is_a_jobs_not_a_daemonsets() -> None:
    # k3s-io/k3s#3389 (comment 2021-06-02), trimmed: k3s's helm-install pods belong to Jobs; their
    # names end in 5 random characters as a DaemonSet pod's do, but a DaemonSet's pod never completes.
    pasted = (
        "NAMESPACE     NAME                                      READY   STATUS             RESTARTS   AGE\n"
        "kube-system   helm-install-traefik-crd-krv7p            0/1     Completed          0          102m\n"
        "kube-system   helm-install-traefik-vn7wv                0/1     Completed          2          102m\n"
        "kube-system   svclb-traefik-wrrkh                       2/2     Running            10         100m\n"
    )
    rows = _rows(analyzer.load(pasted))
    assert [(r[1], r[2]) for r in rows] == [("Job", "helm-install-traefik"), ("Job", "helm-install-traefik-crd"),
                                           ("DaemonSet", "svclb-traefik")]


def test_a_pending_or_crashing_helm_install_pod_is_a_jobs_as_the_catalog_knows_it() -> None:
    # rancher/rke2#585 (comment 2021-01-19) and k3s-io/k3s#344 (2019-04-13), one row each, and
    # k3s#3389's svclb row: a helm-install pod that has not completed (Pending, CrashLoopBackOff) is
    # still its Job's; the catalog's `controller: Job` says so where the name's 5-character suffix
    # looks like a DaemonSet's.
    pasted = (
        "NAMESPACE     NAME                                         READY   STATUS             RESTARTS   AGE\n"
        "kube-system   helm-install-rke2-ingress-nginx-s4n49        0/1     Pending            0          8m24s\n"
        "kube-system   helm-install-traefik-k86rz                   0/1     CrashLoopBackOff   36         101m\n"
        "kube-system   svclb-traefik-wrrkh                          2/2     Running            10         100m\n"
    )
    rows = _rows(analyzer.load(pasted))
    assert [(r[1], r[2]) for r in rows] == [("Job", "helm-install-rke2-ingress-nginx"), ("Job", "helm-install-traefik"),
                                           ("DaemonSet", "svclb-traefik")]



# A k3s-on-multipass write-up's `kubectl get po --all-namespaces` (code index id 4910938030) and a
# k3d write-up's `kubectl get pod -o wide -A` (code index id 19188917470), trimmed: k3s's ServiceLB
# names its DaemonSet svclb-<service>-<the Service uid's first 8 hex>. Where those hex hold no vowel
# (32f6769d) the pods read as a Deployment's, "Deployment svclb-traefik"; where they do (898c78ef)
# as the DaemonSet's. Either way the pods give Services their address: role load-balancer, not ingress.
K3S_SERVICELB = """\
NAMESPACE     NAME                                      READY   STATUS      RESTARTS      AGE
kube-system   helm-install-traefik-zlcdx                0/1     Completed   1             25h
kube-system   svclb-traefik-32f6769d-6f4mf              2/2     Running     2 (22m ago)   25h
kube-system   svclb-traefik-32f6769d-kth8t              2/2     Running     4 (29m ago)   25h
kube-system   svclb-traefik-32f6769d-rzskb              2/2     Running     0             25h
kube-system   traefik-d7c9c5778-22s9h                   1/1     Running     2 (29m ago)   25h
"""
K3D_SERVICELB = """\
NAMESPACE     NAME                                      READY   STATUS      RESTARTS   AGE    IP          NODE               NOMINATED NODE   READINESS GATES
kube-system   svclb-traefik-898c78ef-2lwvb              2/2     Running     0          127m   10.42.0.2   k3d-k3s-agent-0    <none>           <none>
kube-system   traefik-7cd4fcff68-974nq                  1/1     Running     0          127m   10.42.0.3   k3d-k3s-agent-0    <none>           <none>
kube-system   svclb-traefik-898c78ef-bk5qk              2/2     Running     0          127m   10.42.2.5   k3d-k3s-agent-1    <none>           <none>
"""


@pytest.mark.parametrize(("pasted", "daemonset", "pods"), [
    (K3S_SERVICELB, "svclb-traefik-32f6769d", 3), (K3D_SERVICELB, "svclb-traefik-898c78ef", 2)])
def test_k3s_servicelb_pods_are_their_daemonset_s_and_the_load_balancer(pasted: str, daemonset: str,
                                                                        pods: int) -> None:
    cluster = analyzer.load({"pods.md": pasted})
    assert cluster.distribution.name == "k3s"
    found = {(row.kind, row.name): (row.role, row.desired, row.ready)
             for row in cluster.tables.components.itertuples()}
    assert found[("DaemonSet", daemonset)] == ("load-balancer", pods, pods)
    assert found[("Deployment", "traefik")][0] == "ingress"
    assert not any(name.startswith("svclb") for kind, name in found if kind == "Deployment")


# An AKS 1.27 demo's `kubectl get pods -Ao wide` (code index id 46781997065), trimmed to
# metrics-server caught mid-rollout: its new ReplicaSet's two pods 13s old, Running, 1/2 while
# their readiness probes first pass, the old one 2/2. It was "metrics-server 1 of 3 ready", a
# not-healthy system component, where the findings said still starting.
METRICS_SERVER_ROLLING_OUT = """\
NAMESPACE     NAME                                  READY   STATUS    RESTARTS   AGE     IP            NODE                              NOMINATED NODE   READINESS GATES
kube-system   metrics-server-5955767688-8s2ld       1/2     Running   0          13s     10.244.0.26   aks-default-21926331-vmss000001   <none>           <none>
kube-system   metrics-server-5955767688-z2t62       1/2     Running   0          14s     10.244.0.31   aks-default-21926331-vmss000001   <none>           <none>
kube-system   metrics-server-5bd48455f4-tht5s       2/2     Running   0          45m     10.244.0.26   aks-default-21926331-vmss000000   <none>           <none>
"""


def test_a_component_whose_new_pods_are_seconds_old_is_not_short_of_ready_pods() -> None:
    assert _rows(analyzer.load({"pods.md": METRICS_SERVER_ROLLING_OUT})) == [
        ("kube-system", "Deployment", "metrics-server", 3, None, True)]
    # minutes old, or restarted, or beside a pod known not ready: short as before
    for old, new, ready in (("13s  ", "13m  ", 1), ("0          13s", "2          13s", 1), ("2/2", "1/2", 0)):
        pasted = METRICS_SERVER_ROLLING_OUT.replace(old, new, 1)
        assert _rows(analyzer.load({"pods.md": pasted}))[0][4] == ready, old

# Azure/AKS#1360 (a new AKS cluster, calico on kubenet, 2019-12-19), `kubectl get pods -A` as
# the issue quotes it, trimmed: the paste is cut after the second kube-proxy pod's name. Before:
# "kube-proxy 1 of 2 pods ready", a critical finding on a healthy cluster.
AKS_1360_CUT_ROW = """\
NAMESPACE     NAME                                                  READY   STATUS    RESTARTS   AGE
kube-system   coredns-68c85fc5d4-7rlqw                              1/1     Running   0          144m
kube-system   kube-proxy-bxv4v                                      1/1     Running   0          140m
kube-system   kube-proxy-wvs2b
"""


def test_a_pod_whose_row_says_nothing_of_its_state_is_counted_out() -> None:
    rows = _rows(analyzer.load({"issue.md": AKS_1360_CUT_ROW}))
    assert ("kube-system", "DaemonSet", "kube-proxy", 1, 1, True) in rows
    # alone, its readiness is unknown, not bad
    only = AKS_1360_CUT_ROW.splitlines()
    rows = _rows(analyzer.load({"issue.md": "\n".join([only[0], only[3]]) + "\n"}))
    assert ("kube-system", "DaemonSet", "kube-proxy", 1, None, True) in rows


# Trimmed from a public write-up "How to create a Microsoft Azure RedHat OpenShift cluster?" (code
# index id 15187669906): an ARO 4.15 cluster's `oc get pods -A -o wide`. collect-profiles is OLM's
# CronJob, its pod named by its Job's minute (29130045: 2025-05-21 04:45); it was a Deployment
# `collect-profiles` before, and ARO's and the Azure cloud provider's components had no role.
ARO_PODS = """oc get pods -A -o wide
NAMESPACE                                          NAME                                                             READY   STATUS                   RESTARTS       AGE     IP             NODE                                        NOMINATED NODE   READINESS GATES
openshift-azure-logging                            mdsd-bmnn8                                                       2/2     Running                  2              13h     10.129.0.62    cluster-797pp-master-0                      <none>           <none>
openshift-azure-operator                           aro-operator-master-6d5cb794c6-z7h6m                             1/1     Running                  0              13h     10.129.0.56    cluster-797pp-master-0                      <none>           <none>
openshift-cloud-controller-manager                 azure-cloud-controller-manager-d75b95c78-2bcpx                   1/1     Running                  0              13h     10.0.0.8       cluster-797pp-master-1                      <none>           <none>
openshift-cloud-controller-manager                 azure-cloud-node-manager-96wsx                                   1/1     Running                  1              14h     10.0.0.9       cluster-797pp-master-2                      <none>           <none>
openshift-managed-upgrade-operator                 managed-upgrade-operator-5cccc675c6-f79db                        1/1     Running                  0              13h     10.129.0.30    cluster-797pp-master-0                      <none>           <none>
openshift-network-node-identity                    network-node-identity-md2lg                                      2/2     Running                  4              14h     10.0.0.10      cluster-797pp-master-0                      <none>           <none>
openshift-operator-lifecycle-manager               collect-profiles-29130045-6ntf7                                  0/1     Completed                0              38m     10.128.2.71    cluster-797pp-worker-canadacentral2-5qbbl   <none>           <none>
openshift-ovn-kubernetes                           ovnkube-node-9rxbz                                               9/9     Running                  10             14h     10.0.2.4       cluster-797pp-worker-canadacentral1-dnw2p   <none>           <none>
"""


def test_an_aro_paste_s_components_have_their_kinds_and_roles(tmp_path) -> None:
    path = tmp_path / "aro.md"
    path.write_text(ARO_PODS, encoding="utf-8")
    cluster = analyzer.load(path)
    assert cluster.distribution.name == "aro"
    components = cluster.tables.components
    found = {(row.kind, row.name): row.role for row in components.itertuples()}
    assert found == {
        ("DaemonSet", "mdsd"): "logging-monitoring", ("Deployment", "aro-operator-master"): "operator",
        ("Deployment", "azure-cloud-controller-manager"): "cloud-controller",
        ("DaemonSet", "azure-cloud-node-manager"): "cloud-controller",
        ("Deployment", "managed-upgrade-operator"): "operator", ("DaemonSet", "network-node-identity"): "security",
        ("CronJob", "collect-profiles"): "unknown", ("DaemonSet", "ovnkube-node"): "cni",
    }
