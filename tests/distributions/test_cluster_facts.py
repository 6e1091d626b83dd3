"""Cluster facts: control plane, CNI, DNS, kube-proxy mode, CSI drivers, add-ons.

Fixtures are in-memory dumps (dumps.py); the Corefile is the AKS one of seed 000
(shared/seeds/000_38c768ac0fe26b54.txt, shortened), the kube-proxy config.conf the kubeadm one
of seed 003 (its `mode` field). The catalog here is a small synthetic one, so these tests do not
depend on catalog.yaml's content.
"""

from __future__ import annotations

from analyzer.distributions.catalog import Catalog, CatalogEntry
from analyzer.distributions.cluster_facts import fill_facts
from analyzer.distributions.components import classify
from analyzer.distributions.profiles import load_profiles
from analyzer.distributions.result import Distribution
from analyzer.distributions.workloads import component_workloads

from .dumps import configmap, load, node, pod, service, workload

CATALOG = Catalog((
    CatalogEntry("coredns", ("coredns",), (), "dns", (), True, "cluster DNS"),
    CatalogEntry("kube-proxy", ("kube-proxy",), (), "kube-proxy", (), True, "service proxy"),
    CatalogEntry("konnectivity-agent", ("konnectivity-agent",), (), "api-tunnel", ("aks",), True, "tunnel"),
    CatalogEntry("metrics-server", ("metrics-server",), (), "metrics", (), False, "metrics API"),
    CatalogEntry("coredns-autoscaler", ("coredns-autoscaler",), (), "autoscaler", ("aks",), False, "scales DNS"),
    CatalogEntry("csi-azuredisk-node", ("csi-azuredisk-node",), (), "csi", ("aks",), True, "Azure Disk CSI"),
    CatalogEntry("kube-apiserver", ("kube-apiserver",), (), "control-plane", (), True, "API server"),
))
COREFILE = """.:53 {
    errors
    ready
    kubernetes cluster.local in-addr.arpa ip6.arpa {
      pods insecure
      fallthrough in-addr.arpa ip6.arpa
    }
    forward . /etc/resolv.conf
    import custom/*.override
}
import custom/*.server
"""
KUBE_PROXY_CONF = """apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
clusterCIDR: 10.244.0.0/16
mode: "{mode}"
"""


def _facts(cluster, name: str = "aks") -> Distribution:
    dist = Distribution(name=name, confidence=0.9)
    fill_facts(cluster, dist, classify(component_workloads(cluster, load_profiles()), CATALOG), load_profiles())
    return dist


def _aks_kube_system(*extra):
    return load(
        node("aks-nodepool1-12345678-vmss000000",
             annotations={"projectcalico.org/IPv4Address": "10.224.0.4/16"}),
        workload("Deployment", "kube-system", "coredns", image="mcr.microsoft.com/oss/kubernetes/coredns:v1.9.4", replicas=2, ready=2),
        workload("Deployment", "kube-system", "coredns-autoscaler", image="mcr.microsoft.com/oss/kubernetes/autoscaler/cluster-proportional-autoscaler:1.8.5"),
        workload("Deployment", "kube-system", "konnectivity-agent", image="mcr.microsoft.com/oss/kubernetes/apiserver-network-proxy/agent:v0.0.33", replicas=2, ready=2),
        workload("Deployment", "kube-system", "metrics-server", image="mcr.microsoft.com/oss/kubernetes/metrics-server:v0.6.3"),
        workload("DaemonSet", "kube-system", "csi-azuredisk-node", image="mcr.microsoft.com/oss/kubernetes-csi/azuredisk-csi:v1.28.3", replicas=3, ready=3),
        workload("DaemonSet", "kube-system", "kube-proxy", image="mcr.microsoft.com/oss/kubernetes/kube-proxy:v1.29.7", replicas=3, ready=3),
        service("kube-system", "kube-dns", "10.0.0.10"),
        configmap("kube-system", "coredns", {"Corefile": COREFILE}),
        pod("kube-system", "coredns-69c47794-6xnlq", owner=("ReplicaSet", "coredns-69c47794"),
            labels={"pod-template-hash": "69c47794"}),
        *extra,
    )


def test_dns_addons_and_managed_control_plane() -> None:
    cluster = _aks_kube_system()
    dist = _facts(cluster)
    assert dist.dns == {"provider": "coredns", "service": "kube-system/kube-dns", "service_ip": "10.0.0.10",
                        "configmap": "kube-system/coredns", "corefile": COREFILE, "corefile_collected": True}
    assert (dist.api_tunnel, dist.metrics, dist.autoscalers) == (
        ["konnectivity-agent"], ["metrics-server"], ["coredns-autoscaler"])
    assert dist.csi_drivers == ["csi-azuredisk-node"]  # no CSIDriver objects: the CSI components
    assert dist.control_plane.kind == "managed"
    assert dist.control_plane.evidence == ["no control-plane pods in kube-system",
                                           "aks runs a managed control plane"]
    assert [w.name for w in component_workloads(cluster, load_profiles())].count("coredns") == 1
    # No CNI pods here: the CNI comes from the annotations it writes on nodes.
    assert dist.cni == ["calico"]


def test_kube_proxy_mode_from_configmap_then_flags() -> None:
    cm = configmap("kube-system", "kube-proxy", {"config.conf": KUBE_PROXY_CONF.format(mode="ipvs")})
    assert _facts(_aks_kube_system(cm)).kube_proxy_mode == "ipvs"
    cm = configmap("kube-system", "kube-proxy", {"config.conf": KUBE_PROXY_CONF.format(mode="")})
    assert _facts(_aks_kube_system(cm)).kube_proxy_mode == "iptables"  # empty mode: the default
    assert _facts(_aks_kube_system()).kube_proxy_mode == "unknown"
    flagged = load(workload("DaemonSet", "kube-system", "kube-proxy", image="registry.k8s.io/kube-proxy:v1.29.3",
                            args=["--proxy-mode=ipvs"]))
    assert _facts(flagged).kube_proxy_mode == "ipvs"


def test_visible_control_plane_pods_make_it_self_hosted() -> None:
    cluster = load(*(pod("kube-system", f"kube-apiserver-cp{i}", node_name=f"cp{i}", mirror=True) for i in (1, 2)))
    dist = _facts(cluster, name="kubeadm")
    assert dist.control_plane.kind == "self-hosted"
    assert dist.control_plane.evidence == ["control-plane pods visible: kube-apiserver-cp1, kube-apiserver-cp2"]


def test_static_pod_control_plane_not_in_the_dump_is_said_not_collected() -> None:
    # realdata kind/kubectl-neat (itaysk/kubectl-neat test/fixtures/list1-raw.yaml @ b6e10595):
    # two pods of `default` on kind's 116-control-plane node. kind runs its control plane as static
    # pods in kube-system; the paste left them out, they do not run "outside pods".
    pasted = load(*(pod("default", name, node_name="116-control-plane", image="docker.io/itaysk/cyan:latest")
                    for name in ("t1", "t2")))
    dist = _facts(pasted, name="kind")
    assert dist.control_plane.kind == "self-hosted"
    assert dist.control_plane.evidence == [
        "kind runs a self-hosted control plane as static pods; none of them is in the dump"]
    # k3s runs its API server, scheduler and controllers in its own process: no pods to collect
    dist = _facts(pasted, name="k3s")
    assert dist.control_plane.evidence == [
        "no control-plane pods in kube-system: its components run outside pods here",
        "k3s runs a self-hosted control plane"]


def test_csi_drivers_from_csidriver_objects_and_storage_classes() -> None:
    sc = {"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass", "metadata": {"name": "gp3"},
          "provisioner": "ebs.csi.aws.com"}
    driver = {"apiVersion": "storage.k8s.io/v1", "kind": "CSIDriver", "metadata": {"name": "efs.csi.aws.com"}}
    legacy = {"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass", "metadata": {"name": "gp2"},
              "provisioner": "kubernetes.io/aws-ebs"}
    assert _facts(load(sc, driver, legacy), name="eks").csi_drivers == ["ebs.csi.aws.com", "efs.csi.aws.com"]


def test_nothing_collected_says_unknown() -> None:
    dist = _facts(load(pod("default", "web")), name="unknown")
    assert (dist.cni, dist.kube_proxy_mode, dist.dns["provider"], dist.dns["service_ip"]) == ([], "unknown", None, None)
    assert dist.control_plane.kind == "unknown"


def test_kube_proxy_mode_from_its_log_when_neither_config_nor_flags_were_collected(tmp_path) -> None:
    # eugsim1/wls-oke-amsterdam20v cluster-state/ (@ d66ac10, an OKE `cluster-info dump
    # --output-directory`): no kube-proxy ConfigMap, no --proxy-mode flag; its log, trimmed to the
    # first three lines, says the mode.
    import json

    (tmp_path / "kube-system" / "kube-proxy-6ttrl").mkdir(parents=True)
    pod_body = {"metadata": {"name": "kube-proxy-6ttrl", "namespace": "kube-system", "labels": {"k8s-app": "kube-proxy"}},
                "spec": {"nodeName": "10.0.4.2", "containers": [{"name": "kube-proxy", "image": "eu-amsterdam-1.ocir.io/odx-oke/oke-public-kube-proxy:v1.18.10"}]},
                "status": {"phase": "Running"}}
    (tmp_path / "kube-system" / "pods.json").write_text(json.dumps({"kind": "PodList", "apiVersion": "v1", "items": [pod_body]}))
    (tmp_path / "kube-system" / "kube-proxy-6ttrl" / "logs.txt").write_text(
        "==== START logs for container kube-proxy of pod kube-system/kube-proxy-6ttrl ====\n"
        'W1125 19:02:46.809396       1 server_others.go:559] Unknown proxy mode "", assuming iptables proxy\n'
        "I1125 19:02:46.822903       1 node.go:136] Successfully retrieved node IP: 10.0.4.2\n"
        "I1125 19:02:46.822965       1 server_others.go:186] Using iptables Proxier.\n"
        "==== END logs for container kube-proxy of pod kube-system/kube-proxy-6ttrl ====\n")
    import analyzer

    assert _facts(analyzer.load(str(tmp_path)), "oke").kube_proxy_mode == "iptables"


# A pod's Multus annotation and AddedInterface event, trimmed from realdata
# openshift/must-gather-clean-aws (namespaces/openshift-etcd/core/pods.yaml and
# namespaces/openshift-ingress/core/events.yaml); the dump holds no openshift-sdn pod.
NETWORK_STATUS = ('[{\n    "name": "openshift-sdn",\n    "interface": "eth0",\n    "ips": [\n'
                  '        "10.129.0.12"\n    ],\n    "default": true,\n    "dns": {}\n}]')


def _added_interface(message: str) -> dict:
    return {"apiVersion": "v1", "kind": "Event",
            "metadata": {"name": "router-default-6dd4c95495-7dqkw.1697c1b357a5faed",
                         "namespace": "openshift-ingress"},
            "involvedObject": {"kind": "Pod", "namespace": "openshift-ingress",
                               "name": "router-default-6dd4c95495-7dqkw"},
            "reason": "AddedInterface", "message": message, "source": {"component": "multus"},
            "type": "Normal", "count": 1, "firstTimestamp": "2021-08-03T09:26:09Z"}


def _annotated(obj: dict, annotations: dict[str, str]) -> dict:
    obj["metadata"]["annotations"] = annotations
    return obj


def test_without_cni_pods_the_default_network_multus_names_is_the_cni() -> None:
    etcd = _annotated(pod("openshift-etcd", "installer-2-ip-10-0-187-218.ec2.internal"),
                      {"k8s.v1.cni.cncf.io/network-status": NETWORK_STATUS})
    dist = _facts(load(node("ip-10-0-187-218.ec2.internal"), etcd), name="openshift")
    assert dist.cni == ["openshift-sdn"]
    assert dist.notes == ["CNI openshift-sdn: the default network of pod openshift-etcd/"
                          "installer-2-ip-10-0-187-218.ec2.internal is openshift-sdn (its "
                          "k8s.v1.cni.cncf.io/network-status annotation, written by Multus)"]
    # without the annotation, the event Multus writes for each pod says it too
    dist = _facts(load(pod("openshift-ingress", "router-default-6dd4c95495-7dqkw"),
                       _added_interface("Add eth0 [10.131.0.9/23] from openshift-sdn")), name="openshift")
    assert dist.cni == ["openshift-sdn"]
    assert dist.notes == ['CNI openshift-sdn: pods were attached to network openshift-sdn (AddedInterface '
                          'event: "Add eth0 [10.131.0.9/23] from openshift-sdn")']


def test_a_network_name_no_cni_is_known_by_names_none() -> None:
    # a conflist named by the cluster's admin says nothing about which plugin it runs
    custom = _annotated(pod("default", "web"), {"k8s.v1.cni.cncf.io/network-status": NETWORK_STATUS.replace(
        "openshift-sdn", "tenant-net")})
    dist = _facts(load(custom, _added_interface("Add eth0 [10.131.0.9/23] from tenant-net")), name="openshift")
    assert (dist.cni, dist.notes) == ([], [])


def _with_pod_cidr(obj: dict, cidr: str) -> dict:
    obj["spec"]["podCIDR"] = cidr
    return obj


def test_aks_nodes_with_pod_cidrs_and_no_cni_pod_run_kubenet() -> None:
    # the AKS sample's shape (sample_dumps/aks: kubenet, 3 VMSS nodes, pod CIDRs 10.244.N.0/24)
    nodes = [_with_pod_cidr(node(f"aks-nodepool1-12345678-vmss00000{i}"), f"10.244.{i}.0/24") for i in range(3)]
    coredns = pod("kube-system", "coredns-69c47794-6xnlq", owner=("ReplicaSet", "coredns-69c47794"))
    dist = _facts(load(*nodes, coredns))
    assert dist.cni == ["kubenet"]
    assert dist.notes == ["CNI kubenet: no CNI pod among kube-system's, and every node (3) has a "
                          "spec.podCIDR: Azure Kubernetes Service's kubenet runs in the kubelet"]
    # what the dump does not hold is not a fact: no kube-system pods, no verdict
    assert _facts(load(*nodes, pod("shop", "web"))).cni == []
    # legacy Azure CNI gives nodes no pod CIDR: a node without one leaves it untold
    assert _facts(load(*nodes, node("aks-nodepool1-12345678-vmss000003"), coredns)).cni == []
    # another distribution's nodes with pod CIDRs say nothing (kubeadm's need a CNI pod)
    assert _facts(load(*nodes, coredns), name="kubeadm").cni == []
