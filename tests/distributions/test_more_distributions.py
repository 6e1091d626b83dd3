"""Linode LKE, Talos, MicroK8s, kops, EKS Anywhere, Rancher Desktop and VMware TKG, scored with
the real fingerprints (fingerprints.yaml).

Each dump is built from values these platforms publish or print, as they appear in public
`kubectl get nodes --show-labels` / `-o wide` output and in the platforms' own code:
- LKE: node `lke212553-307295-339173d10000` with `lke.linode.com/pool-id=307295`,
  `node.k8s.linode.com/host-uuid`, `topology.linode.com/region=ap-south`, instance type
  g6-dedicated-4 (a public `--show-labels` listing); providerID `linode://<id>` (linode CCM and
  blockstorage CSI, which checks for that prefix).
- Talos: OS image `Talos (v1.7.5)`, kernel `6.6.33-talos` (`kubectl get nodes -o wide` on Talos
  prints `Talos (<version>)`); flannel from `ghcr.io/siderolabs/flannel`.
- MicroK8s: `microk8s.io/cluster=true`, `node.kubernetes.io/microk8s-controlplane=microk8s-controlplane`
  (the snap's kubelet --node-labels), calico as its default CNI, hostpath-provisioner.
- kops: `kops.k8s.io/instancegroup=nodes` (public `kubectl describe node` on kops/AWS),
  etcd-manager-main-<node> static pods, kops-controller and dns-controller images.
- EKS Anywhere: kubelet `v1.27.1-eks-1-27-4` (EKS Distro tag, public `kubectl get
  kubeadmcontrolplane` output), namespace eksa-system, images from public.ecr.aws/eks-distro.
- Rancher Desktop: node `lima-rancher-desktop`, kubelet `v1.27.3+k3s1` (public `kubectl get nodes`).
- TKG: kubelet `v1.21.2+vmware.1`, OS image `VMware Photon OS/Linux`, kernel `4.19.198-1.ph3`
  (public `kubectl get nodes -o wide` on TCE/TKG), images from projects.registry.vmware.com/tkg.
"""

from __future__ import annotations

from typing import Any

import pytest

import analyzer
from analyzer.distributions import detect_distribution
from analyzer.distributions.catalog import load_catalog

from .dumps import load, node, pod, workload

CONTROL_PLANE = {"node-role.kubernetes.io/control-plane": ""}


def _static_pods(node_name: str, image_prefix: str, version: str) -> list[dict]:
    return [pod("kube-system", f"{c}-{node_name}", node_name=node_name, mirror=True, host_network=True,
                image=f"{image_prefix}/{c}:{version}", container=c)
            for c in ("kube-apiserver", "kube-controller-manager", "kube-scheduler", "etcd")]


def _namespace(name: str) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name, "uid": f"uid-ns-{name}"},
            "status": {"phase": "Active"}}


def _verdict(cluster) -> tuple[str, set[str]]:
    dist = detect_distribution(cluster)
    return dist.name, {e.signal for e in dist.evidence_for(dist.name)}


def test_linode_lke() -> None:
    labels = {"lke.linode.com/pool-id": "307295", "node.k8s.linode.com/host-uuid": "618158120a299c6fd37f00d01d355ca18794c467",
              "topology.linode.com/region": "ap-south", "topology.kubernetes.io/region": "ap-south",
              "node.kubernetes.io/instance-type": "g6-dedicated-4"}
    cluster = load(
        node("lke212553-307295-339173d10000", provider_id="linode://61712345", labels=labels,
             kubelet="v1.29.2", os_image="Debian GNU/Linux 11 (bullseye)"),
        node("lke212553-307295-4c81a5e90000", provider_id="linode://61712346", labels=labels,
             kubelet="v1.29.2", os_image="Debian GNU/Linux 11 (bullseye)"),
        pod("kube-system", "csi-linode-node-7xk2p", node_name="lke212553-307295-339173d10000",
            owner=("DaemonSet", "csi-linode-node"), image="linode/linode-blockstorage-csi-driver:v0.8.4"),
        pod("kube-system", "calico-node-k7w9d", node_name="lke212553-307295-339173d10000",
            owner=("DaemonSet", "calico-node"), image="docker.io/calico/node:v3.25.0"),
    )
    name, signals = _verdict(cluster)
    assert name == "lke"
    assert {"node_label_key_prefix", "provider_id_prefix", "node_name_regex"} <= signals
    assert detect_distribution(cluster).control_plane.kind == "managed"


def test_talos() -> None:
    cluster = load(
        node("talos-cp-1", labels=CONTROL_PLANE, kubelet="v1.30.2", os_image="Talos (v1.7.5)"),
        node("talos-worker-1", kubelet="v1.30.2", os_image="Talos (v1.7.5)"),
        *_static_pods("talos-cp-1", "registry.k8s.io", "v1.30.2"),
        pod("kube-system", "kube-flannel-8xq2c", node_name="talos-worker-1", owner=("DaemonSet", "kube-flannel"),
            image="ghcr.io/siderolabs/flannel:v0.25.1"),
    )
    name, signals = _verdict(cluster)
    assert name == "talos"
    assert {"os_image_regex", "image_registry_regex"} <= signals
    assert detect_distribution(cluster).control_plane.kind == "self-hosted"



# containerd/go-cni#123 (comment of 2024-12-19): `kubectl describe node` of a Talos 1.9.0 control
# plane, pasted up to its Labels (trimmed: the Intel and Coral feature labels between them left out).
# It carries neither the OS image nor a Sidero Labs image: its labels alone say Talos.
TALOS_NODE_LABELS = """\
Name:               m0
Roles:              control-plane
Labels:             beta.kubernetes.io/arch=amd64
                    beta.kubernetes.io/os=linux
                    extensions.talos.dev/i915=20241110-v1.9.0
                    extensions.talos.dev/intel-ucode=20241112
                    feature.node.kubernetes.io/system-os_release.ID=talos
                    feature.node.kubernetes.io/system-os_release.VERSION_ID=v1.9.0
                    kubernetes.io/arch=amd64
                    kubernetes.io/hostname=m0
                    kubernetes.io/os=linux
                    node-role.kubernetes.io/control-plane=
                    plan.upgrade.cattle.io/kubernetes=85eb67ef34eceaf0062c60a69ce05414ede42f6351d891d58f03dea4
"""


def test_talos_from_its_node_labels() -> None:
    name, signals = _verdict(analyzer.load({"issue.md": TALOS_NODE_LABELS}))
    assert name == "talos"
    assert {"node_label", "node_label_key_prefix"} <= signals


def test_docker_for_mac_before_docker_desktop_2() -> None:
    # docker/for-mac#2990 (2018): Docker for Mac's kubectl listing its one node, which Docker
    # named docker-for-desktop (as its context) before Docker Desktop 2.0 renamed both.
    paste = ("$ /usr/local/bin/kubectl.docker  --context docker-for-desktop get nodes\n"
             "NAME                 STATUS    ROLES     AGE       VERSION\n"
             "docker-for-desktop   Ready     master    7d        v1.10.3\n")
    name, signals = _verdict(analyzer.load({"issue.md": paste}))
    assert (name, signals) == ("docker-desktop", {"node_name_regex"})


def test_the_static_pod_of_kinds_default_cluster_is_kind() -> None:
    # kind's etcd mirror pod as `kubectl get pod -o json` printed it (trimmed from ynqa/promkit's
    # JSON viewer example, examples/json, node kind-control-plane, 2024-12): upstream
    # images and a static pod of kubeadm's, and the node name kind gives its default cluster.
    # It was kubeadm (7 against kind's 4 for a `-control-plane` name).
    etcd = pod("kube-system", "etcd-kind-control-plane", node_name="kind-control-plane", mirror=True,
               host_network=True, image="registry.k8s.io/etcd:3.5.15-0", container="etcd")
    name, signals = _verdict(load(etcd))
    assert name == "kind"
    assert "node_name_regex" in signals

def test_microk8s() -> None:
    labels = {"microk8s.io/cluster": "true",
              "node.kubernetes.io/microk8s-controlplane": "microk8s-controlplane"}
    cluster = load(
        node("ubuntua", labels=labels, kubelet="v1.27.2", os_image="Ubuntu 22.04.2 LTS"),
        node("ubuntub", labels=labels, kubelet="v1.27.2", os_image="Ubuntu 22.04.2 LTS"),
        pod("kube-system", "calico-node-x2k9d", node_name="ubuntua", owner=("DaemonSet", "calico-node"),
            image="docker.io/calico/node:v3.25.1"),
        pod("kube-system", "hostpath-provisioner-7df77bc496-9gkwj", node_name="ubuntua",
            owner=("ReplicaSet", "hostpath-provisioner-7df77bc496"), image="cdkbot/hostpath-provisioner:1.4.2"),
    )
    name, signals = _verdict(cluster)
    assert name == "microk8s"
    assert "node_label_key_prefix" in signals



def test_microk8s_from_its_service_range() -> None:
    # canonical/microk8s#568 (2019-07-30), trimmed: `get all --all-namespaces` after `microk8s.enable
    # dns`, coredns crashlooping, typed here as plain kubectl: no MicroK8s label, pod or image, only
    # the Services' addresses in MicroK8s's range 10.152.183.0/24. It was unknown.
    paste = ("$ kubectl get all --all-namespaces\n"
             "NAMESPACE     NAME                          READY   STATUS             RESTARTS   AGE\n"
             "kube-system   pod/coredns-f7867546d-c4n9s   0/1     CrashLoopBackOff   7          6m10s\n\n"
             "NAMESPACE     NAME                 TYPE        CLUSTER-IP      EXTERNAL-IP   PORT(S)                  AGE\n"
             "default       service/kubernetes   ClusterIP   10.152.183.1    <none>        443/TCP                  22m\n"
             "kube-system   service/kube-dns     ClusterIP   10.152.183.10   <none>        53/UDP,53/TCP,9153/TCP   6m10s\n")
    name, signals = _verdict(analyzer.load({"issue.md": paste}))
    assert (name, signals) == ("microk8s", {"service_cluster_ip"})
    kubeadm = paste.replace("10.152.183.", "10.96.0.")
    assert _verdict(analyzer.load({"issue.md": kubeadm}))[0] == "unknown"

def test_kops_on_aws_is_not_eks() -> None:
    aws = {"topology.kubernetes.io/region": "ap-northeast-2", "topology.kubernetes.io/zone": "ap-northeast-2a",
           "node.kubernetes.io/instance-type": "t3.medium"}
    cp = "i-0a1b2c3d4e5f60001"
    cluster = load(
        node("ip-172-20-36-133.ap-northeast-2.compute.internal", provider_id=f"aws:///ap-northeast-2a/{cp}",
             labels={**aws, **CONTROL_PLANE, "kops.k8s.io/instancegroup": "control-plane-ap-northeast-2a",
                     "kops.k8s.io/kops-controller-pki": ""}),
        node("ip-172-20-44-71.ap-northeast-2.compute.internal", provider_id="aws:///ap-northeast-2a/i-0a1b2c3d4e5f60002",
             labels={**aws, "kops.k8s.io/instancegroup": "nodes"}),
        pod("kube-system", "etcd-manager-main-ip-172-20-36-133.ap-northeast-2.compute.internal",
            node_name="ip-172-20-36-133.ap-northeast-2.compute.internal", mirror=True, host_network=True,
            image="registry.k8s.io/etcdadm/etcd-manager-slim:v3.0.20231230", container="etcd-manager"),
        pod("kube-system", "kops-controller-5x7vn", node_name="ip-172-20-36-133.ap-northeast-2.compute.internal",
            owner=("DaemonSet", "kops-controller"), image="registry.k8s.io/kops/kops-controller:1.28.4"),
    )
    dist = detect_distribution(cluster)
    assert dist.name == "kops"
    assert dist.scores.get("eks", 0.0) < dist.scores["kops"]
    assert {"node_label_key_prefix", "workload_name", "image_registry_regex"} <= {e.signal for e in dist.evidence_for("kops")}


def test_eks_anywhere_is_not_managed_eks() -> None:
    version = "v1.27.1-eks-1-27-4"
    cluster = load(
        node("mgmt-new-cp-8fz2k", provider_id="vsphere://4237d8a1-5c4e-6b2a-9f1d-0c8e7b3a2d11",
             labels=CONTROL_PLANE, kubelet=version, os_image="Bottlerocket OS 1.14.1 (vmware-k8s-1.27)"),
        node("mgmt-new-md-0-7d9f8c6b5-x2k4q", provider_id="vsphere://4237e0b2-7a1d-2c3e-8f4a-1b2c3d4e5f60",
             kubelet=version, os_image="Bottlerocket OS 1.14.1 (vmware-k8s-1.27)"),
        *_static_pods("mgmt-new-cp-8fz2k", "public.ecr.aws/eks-distro/kubernetes", version),
        _namespace("eksa-system"),
        pod("eksa-system", "eksa-controller-manager-6d9b8c7f5-q2w3e", node_name="mgmt-new-md-0-7d9f8c6b5-x2k4q",
            owner=("ReplicaSet", "eksa-controller-manager-6d9b8c7f5"),
            image="public.ecr.aws/eks-anywhere/eks-anywhere-cluster-controller:v0.16.0-eks-a-41"),
        server_version=version,
    )
    dist = detect_distribution(cluster)
    assert dist.name == "eks-anywhere"
    assert "eks" not in dist.scores or dist.scores["eks"] < dist.scores["eks-anywhere"]
    assert {"kubelet_version_regex", "namespace_name"} <= {e.signal for e in dist.evidence_for("eks-anywhere")}


def test_managed_eks_is_still_eks() -> None:
    cluster = load(node("ip-192-168-12-34.ec2.internal", provider_id="aws:///us-east-1a/i-0123456789abcdef0",
                        kubelet="v1.30.4-eks-a737599", os_image="Amazon Linux 2"))
    assert detect_distribution(cluster).name == "eks"


def test_rancher_desktop() -> None:
    cluster = load(
        node("lima-rancher-desktop", provider_id="k3s://lima-rancher-desktop",
             labels={**CONTROL_PLANE, "node.kubernetes.io/instance-type": "k3s"},
             annotations={"k3s.io/node-args": '["server"]'}, kubelet="v1.27.3+k3s1",
             os_image="Alpine Linux v3.18"),
        pod("kube-system", "svclb-traefik-3b1e4f1c-x7p2k", node_name="lima-rancher-desktop",
            owner=("DaemonSet", "svclb-traefik-3b1e4f1c"), image="rancher/klipper-lb:v0.4.4"),
    )
    dist = detect_distribution(cluster)
    assert dist.name == "rancher-desktop"
    # built on k3s: k3s's own marks support it rather than beat it
    assert {"node_name_regex"} <= {e.signal for e in dist.evidence_for("rancher-desktop")}


def test_vmware_tkg() -> None:
    version = "v1.21.2+vmware.1"
    cluster = load(
        node("tce-work-control-plane-vc2pb", provider_id="vsphere://4201a1b2-c3d4-e5f6-a7b8-c9d0e1f2a3b4",
             labels=CONTROL_PLANE, kubelet=version, os_image="VMware Photon OS/Linux"),
        node("tce-work-md-0-687444b744-crc9q", provider_id="vsphere://4201a1b2-c3d4-e5f6-a7b8-c9d0e1f2a3b5",
             kubelet=version, os_image="VMware Photon OS/Linux"),
        *_static_pods("tce-work-control-plane-vc2pb", "projects.registry.vmware.com/tkg", "v1.21.2_vmware.1"),
        pod("kube-system", "antrea-agent-7x2kq", node_name="tce-work-md-0-687444b744-crc9q",
            owner=("DaemonSet", "antrea-agent"), image="projects.registry.vmware.com/tkg/antrea-advanced-debian:v0.13.3_vmware.1"),
        server_version=version,
    )
    dist = detect_distribution(cluster)
    assert dist.name == "tkg"
    assert {"kubelet_version_regex", "os_image_regex", "image_registry_regex"} <= {e.signal for e in dist.evidence_for("tkg")}
    assert dist.scores.get("openshift", 0.0) < dist.scores["tkg"]


def test_openshift_on_vsphere_is_not_tkg() -> None:
    # vsphere:// alone is a false friend: OpenShift on vSphere (realdata) carries it too.
    cluster = load(node("ci-op-x-worker-abc", provider_id="vsphere://4201a1b2-c3d4-e5f6-a7b8-c9d0e1f2a3b6",
                        labels={"node.openshift.io/os_id": "rhcos"}, kubelet="v1.21.1+38b3ecc",
                        os_image="Red Hat Enterprise Linux CoreOS 48.84.202109100857-0 (Ootpa)"))
    assert detect_distribution(cluster).name == "openshift"


def test_oke_from_a_pasted_kube_system_table_without_its_namespace(tmp_path) -> None:
    # A real OKE write-up (VCN-native pod networking) pastes `kubectl get po -n kube-system`'s
    # output in a fence of its own, so the table does not state its namespace.
    import analyzer

    paste = tmp_path / "oke.txt"
    paste.write_text(
        "NAME                                  READY   STATUS    RESTARTS   AGE\n"
        "coredns-58975fffdb-f6x8f              1/1     Running   0          13s\n"
        "csi-oci-node-shmgq                    1/1     Running   0          10m\n"
        "kube-dns-autoscaler-f5ff6c8d4-9g97r   1/1     Running   0          13s\n"
        "kube-proxy-bxb2r                      1/1     Running   0          10m\n"
        "proxymux-client-rhn65                 1/1     Running   0          10m\n"
        "vcn-native-ip-cni-5tpzp               2/2     Running   0          10m\n")
    result = analyzer.load(paste).distribution
    assert result.name == "oke"
    assert {e.value for e in result.evidence} >= {"proxymux-client-rhn65", "vcn-native-ip-cni-5tpzp"}


def test_k3s_before_1_17_from_its_kubelet_version(tmp_path) -> None:
    # k3s-io/k3s#1264 (2020-01-02, k3s v1.0.0, trimmed): before 1.17 k3s versioned its builds
    # `v1.16.3-k3s.2`, not `+k3s1`; the cluster was 'unknown'.
    import analyzer

    paste = tmp_path / "k3s.txt"
    paste.write_text(
        "kubectl get nodes\n"
        "NAME      STATUS     ROLES    AGE   VERSION\n"
        "worker2   NotReady   node     15d   v1.16.3-k3s.2\n"
        "master    Ready      master   16d   v1.16.3-k3s.2\n")
    result = analyzer.load(paste).distribution
    assert result.name == "k3s"
    assert {(e.signal, e.value) for e in result.evidence} >= {("kubelet_version_regex", "v1.16.3-k3s.2")}


def test_an_oc_session_leans_openshift(tmp_path) -> None:
    # A real OpenShift 4.9 session (Meiyan-Zheng/technotes rhocp/ocp4.9/01_troubleshoot_pods.md):
    # nothing in its table names OpenShift, its client does.
    import analyzer

    paste = tmp_path / "oc.txt"
    paste.write_text(
        "[root@ocpclient ~]# oc get pods -n openstack\n"
        "NAME                                                        READY   STATUS    RESTARTS        AGE\n"
        "osp-director-operator-controller-manager-5545756d8c-4hcs8   2/2     Running   330 (21h ago)   2d3h\n"
        "sriov-network-operator-8699d87676-cljn8                     1/1     Running   0               21h\n"
        "\n"
        "[root@ocpclient ~]# oc get pods -n openshift-sriov-network-operator\n"
        "No resources found in openshift-sriov-network-operator namespace.\n")
    cluster = analyzer.load(paste)
    assert cluster.ingest.cli_tools == {"oc": 2}
    result = cluster.distribution
    assert result.name == "openshift" and result.confidence < 0.6
    assert [(e.signal, e.value) for e in result.evidence] == [("cli_tool", "oc")]


def test_one_oc_command_without_a_prompt_and_oc3s_version_lean_openshift(tmp_path) -> None:
    # openshift/origin#20233 (2018-07-06, trimmed): one `oc get pods` without a prompt (read as a
    # plain table, its command line was prose) and OpenShift 3's `oc version` print of its client.
    import analyzer

    paste = tmp_path / "origin-20233.md"
    paste.write_text(
        "oc get pods\n"
        "NAME                                    READY     STATUS                  RESTARTS   AGE\n"
        "elasticsearch-client-7754b98dc6-tr4f8   0/1       Init:CrashLoopBackOff   5          3m\n"
        "elasticsearch-data-77c8b59978-hmnk7     0/1       Init:CrashLoopBackOff   10         28m\n"
        "\n"
        "##### Version\n"
        "oc v3.9.30\n"
        "kubernetes v1.9.1+a0ce1bc657\n"
        "features: Basic-Auth GSSAPI Kerberos SPNEGO\n")
    cluster = analyzer.load(paste)
    assert cluster.ingest.cli_tools == {"oc": 2}
    assert cluster.ingest.server_version is None  # the client's version, not the server's
    result = cluster.distribution
    assert result.name == "openshift" and [(e.signal, e.value) for e in result.evidence] == [("cli_tool", "oc")]
    # prose naming the client is no command
    prose = tmp_path / "prose.txt"
    prose.write_text("We ran oc get pods and it hung.\n" + "\n".join(paste.read_text().splitlines()[1:4]) + "\n")
    assert analyzer.load(prose).ingest.cli_tools == {}


def test_kubectl_alone_names_no_distribution(tmp_path) -> None:
    import analyzer

    paste = tmp_path / "kubectl.txt"
    paste.write_text("$ kubectl get pods\nNAME    READY   STATUS    RESTARTS   AGE\nweb-1   1/1     Running   0          2d\n"
                     "$ kubectl get pods -n shop\nNo resources found in shop namespace.\n")
    cluster = analyzer.load(paste)
    assert cluster.ingest.cli_tools == {} and cluster.distribution.name == "unknown"


def test_a_pasted_kind_cluster_config_leans_kind(tmp_path) -> None:
    # trimmed from kubernetes-sigs/kind#3227 (2023-05-15): the kind config that made the cluster,
    # then `kubectl get pod` whose rows name nothing kind's. Before: unknown (0.00).
    import analyzer

    paste = tmp_path / "issue.md"
    paste.write_text("```\nkind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nname: ops-ingress\nnodes:\n"
                     "- role: control-plane\n- role: worker\n```\n\nOne of the Pods is in pending state\n"
                     "```\nkubectl get pod\nNAME                                        READY   STATUS      RESTARTS   AGE\n"
                     "ingress-nginx-controller-7768ccd744-2zr9s   0/1     Pending     0          47m\n```\n")
    cluster = analyzer.load(paste)
    assert cluster.distribution.name == "kind"
    assert any(e.signal == "api_group" for e in cluster.distribution.evidence)


def test_minikube_start_typed_in_a_paste_leans_minikube_and_gives_its_version(tmp_path) -> None:
    # trimmed from kubernetes/minikube#8414 (2020-06-08): a PVC table with no command, then the
    # `minikube start` the user ran and its output. Before: unknown (0.00), no version.
    import analyzer

    paste = tmp_path / "issue.md"
    paste.write_text(
        "~~~\nNAME                   STATUS    VOLUME   CAPACITY   ACCESS MODES   STORAGECLASS   AGE\n"
        "standard-authservice   Pending                                      standard       8m8s\n~~~\n\n"
        "~~~\n$ minikube start --cpus 4 --memory 8192\n😄  minikube v1.11.0 on Fedora 32\n"
        "🐳  Preparing Kubernetes v1.18.3 on Docker 19.03.8 ...\n🏄  Done! kubectl is now configured to use \"minikube\"\n~~~\n",
        encoding="utf-8")
    cluster = analyzer.load(paste)
    assert cluster.distribution.name == "minikube"
    assert cluster.ingest.cli_tools == {"minikube": 1} and cluster.ingest.server_version == "v1.18.3"


def test_a_nodes_own_events_name_it(tmp_path) -> None:
    # trimmed from kubernetes-sigs/kind#3504 (2024): `kubectl get pods` and `kubectl events`
    # whose rows are about Node/kind-control-plane; no node listed. Before: unknown (0.00).
    import analyzer

    paste = tmp_path / "issue.md"
    paste.write_text(
        "```\n$ kubectl get pods\nNAME      READY   STATUS             RESTARTS   AGE\n"
        "testpod   0/1     ImagePullBackOff   0          27m\n\n$ kubectl events testpod\n"
        "LAST SEEN               TYPE      REASON                    OBJECT                    MESSAGE\n"
        "10m (x8 over 10m)       Normal    NodeHasSufficientMemory   Node/kind-control-plane   "
        "Node kind-control-plane status is now: NodeHasSufficientMemory\n"
        "10m                     Normal    Starting                  Node/kind-control-plane   Starting kubelet.\n```\n",
        encoding="utf-8")
    cluster = analyzer.load(paste)
    assert cluster.distribution.name == "kind"


def test_a_paste_of_an_openshift_operators_project_tells_openshift(tmp_path) -> None:
    # IBM/ibm-spectrum-scale-bridge-for-grafana#78 (turn 1, trimmed): `oc project
    # openshift-marketplace` then `oc get all`: the catalog pods are in the marketplace
    # operator's namespace, which only OpenShift (OKD) has.
    import analyzer

    paste = tmp_path / "oc.md"
    paste.write_text(
        "[root@helper ~]# oc project openshift-marketplace\n"
        'Now using project "openshift-marketplace" on server "https://api.ocp1.kvmlocal:6443".\n'
        "\n"
        "[root@helper ~]# oc get all\n"
        "NAME                                       READY   STATUS             RESTARTS       AGE\n"
        "pod/certified-operators-g7xgr              0/1     ImagePullBackOff   0              165m\n"
        "pod/marketplace-operator-68ddcd9c6-57m7v   1/1     Running            1 (158m ago)   169m\n")
    result = analyzer.load(paste).distribution
    assert result.name == "openshift" and result.confidence > 0.6
    assert ("namespace_name", "openshift-marketplace") in {(e.signal, e.value) for e in result.evidence}


def test_events_reported_by_gkes_own_scheduler_tell_gke(tmp_path) -> None:
    # DataDog/helm-charts#182 (2021-09-07, trimmed): a GKE Autopilot DaemonSet pod's Events pasted
    # alone; its FailedScheduling comes from gke.io/optimize-utilization-scheduler, nothing else
    # in the paste names GKE.
    import analyzer

    paste = tmp_path / "autopilot.md"
    paste.write_text(
        "```\n"
        "Events:\n"
        "  Type     Reason             Age                   From                                   Message\n"
        "  ----     ------             ----                  ----                                   -------\n"
        "  Normal   NotTriggerScaleUp  2m26s (x98 over 12m)  cluster-autoscaler                     pod didn't trigger scale-up (it wouldn't fit if a new node is added): 5 node(s) didn't match Pod's node affinity\n"
        "  Warning  FailedScheduling   49s (x10 over 12m)    gke.io/optimize-utilization-scheduler  0/5 nodes are available: 1 Insufficient cpu.\n"
        "```\n")
    result = analyzer.load(paste).distribution
    assert result.name == "gke"
    assert [(e.signal, e.value) for e in result.evidence] == [("event_source", "gke.io/optimize-utilization-scheduler")]
    # the default scheduler says nothing of the distribution
    plain = tmp_path / "plain.md"
    plain.write_text(paste.read_text().replace("gke.io/optimize-utilization-scheduler", "default-scheduler                    "))
    assert analyzer.load(plain).distribution.name != "gke"


@pytest.mark.parametrize(("command", "tool", "distribution"), [
    # Azure/AKS#50 (2017-11-19): the session starts with the credentials of the AKS cluster
    ("az aks get-credentials --resource-group rs-frame-cluster --name frame-cluster", "az aks", "aks"),
    ("aws eks update-kubeconfig --region eu-west-1 --name prod", "aws eks", "eks"),
    ("eksctl get nodegroup --cluster prod", "eksctl", "eks"),
    ("gcloud container clusters get-credentials prod --zone europe-west1-b", "gcloud container", "gke"),
    ("oci ce cluster create-kubeconfig --cluster-id ocid1.cluster.oc1.phx.aaaa --file $HOME/.kube/config", "oci ce", "oke"),
])
def test_a_managed_clouds_own_cli_names_its_kubernetes_service(tmp_path, command: str, tool: str, distribution: str) -> None:
    import analyzer

    paste = tmp_path / "issue.md"
    paste.write_text(
        f"```\nuser@host:~$ {command}\n"
        "user@host:~$ kubectl get pods\n"
        "NAME                                 READY     STATUS    RESTARTS   AGE\n"
        "flink-jobmanager-870122904-t6mmf     1/1       Running   0          36m\n```\n")
    cluster = analyzer.load(paste)
    assert cluster.ingest.cli_tools == {tool: 1}
    result = cluster.distribution
    assert result.name == distribution and [(e.signal, e.value) for e in result.evidence] == [("cli_tool", tool)]


# `oc get pods -A` on MicroShift 4.18 (arthur-r-oliveira/bootc-embeeded-containers README.md,
# "Sample"; the example app's rows left out): OpenShift's DNS, router, service CA and
# OVN-Kubernetes, LVMS, and OpenShift's snapshot controller in kube-system.
MICROSHIFT_PODS = (
    "NAMESPACE                  NAME                                      READY   STATUS    RESTARTS      AGE\n"
    "kube-system                csi-snapshot-controller-85ccb45d4-flzh8   1/1     Running   0             75m\n"
    "openshift-dns              dns-default-pgh8w                         2/2     Running   0             75m\n"
    "openshift-dns              node-resolver-r9822                       1/1     Running   0             75m\n"
    "openshift-ingress          router-default-6ddbc959b9-vv6wr           1/1     Running   0             75m\n"
    "openshift-ovn-kubernetes   ovnkube-master-qgchl                      4/4     Running   1 (75m ago)   75m\n"
    "openshift-ovn-kubernetes   ovnkube-node-d72c8                        1/1     Running   1 (75m ago)   75m\n"
    "openshift-service-ca       service-ca-7b964bd597-g2cvc               1/1     Running   0             75m\n"
    "openshift-storage          lvms-operator-d6f9c9d4-m7cfr              1/1     Running   0             75m\n"
    "openshift-storage          vg-manager-wx2bg                          1/1     Running   0             75m\n")


def test_microshift_is_its_own_distribution_on_openshift(tmp_path) -> None:
    # It was OpenShift: MicroShift runs OpenShift's components but no cluster operators
    import analyzer

    paste = tmp_path / "microshift.txt"
    paste.write_text("[redhat@localhost wordpress]$ oc get pods -A\n" + MICROSHIFT_PODS)
    result = analyzer.load(paste).distribution
    assert result.name == "microshift"
    assert result.evidence[0].value == "kube-system/csi-snapshot-controller-85ccb45d4-flzh8"
    # OpenShift's namespaces and workloads support it (its base), they do not compete with it
    assert {e.distribution for e in result.evidence} == {"microshift", "openshift"}
    assert result.runner_up is None


def test_a_snapshot_controller_in_kube_system_alone_is_not_microshift(tmp_path) -> None:
    # The same name in kube-system without any mark of OpenShift: another cluster's own install
    import analyzer

    paste = tmp_path / "pods.txt"
    paste.write_text(
        "NAMESPACE     NAME                                      READY   STATUS    RESTARTS   AGE\n"
        "kube-system   csi-snapshot-controller-85ccb45d4-flzh8   1/1     Running   0          75m\n"
        "kube-system   coredns-7448499f4d-4n7lp                  1/1     Running   0          75m\n")
    assert analyzer.load(paste).distribution.name != "microshift"


def test_microshift_version_configmap_is_decisive() -> None:
    # MicroShift's own version record (openshift/microshift docs: `oc get configmap -n kube-public
    # microshift-version`), with the OpenShift node of a MicroShift host
    cm = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "microshift-version", "namespace": "kube-public"},
          "data": {"major": "4", "minor": "10", "version": "4.10.0-0.microshift-e6980e25"}}
    cluster = load(cm, pod("openshift-dns", "dns-default-n2td4", node_name="fedora", image="quay.io/openshift/okd-content@sha256:a51b"))
    assert detect_distribution(cluster).name == "microshift"


# "How to create a Microsoft Azure RedHat OpenShift cluster?" (code index id 15187669906), trimmed:
# an ARO 4.15 cluster's `oc get nodes -o wide` and `oc get pods -A -o wide`. It was plain OpenShift
# (0.99): RHCOS, the +<commit> kubelet, OVN-Kubernetes; ARO's operator and the service's logging
# agent, which only the managed service runs, said nothing.
ARO_NODES_AND_PODS = """\
oc get nodes -o wide -A
NAME                                        STATUS   ROLES                  AGE   VERSION            INTERNAL-IP   EXTERNAL-IP   OS-IMAGE                                                       KERNEL-VERSION                 CONTAINER-RUNTIME
cluster-797pp-master-0                      Ready    control-plane,master   13h   v1.28.13+2ca1a23   10.0.0.10     <none>        Red Hat Enterprise Linux CoreOS 415.92.202409241719-0 (Plow)   5.14.0-284.86.1.el9_2.x86_64   cri-o://1.28.10-5.rhaos4.15.git7a788e6.el9
cluster-797pp-worker-canadacentral1-dnw2p   Ready    worker                 13h   v1.28.13+2ca1a23   10.0.2.4      <none>        Red Hat Enterprise Linux CoreOS 415.92.202409241719-0 (Plow)   5.14.0-284.86.1.el9_2.x86_64   cri-o://1.28.10-5.rhaos4.15.git7a788e6.el9

oc get pods -A -o wide
NAMESPACE                                          NAME                                                             READY   STATUS                   RESTARTS       AGE     IP             NODE                                        NOMINATED NODE   READINESS GATES
openshift-azure-logging                            mdsd-bmnn8                                                       2/2     Running                  2              13h     10.129.0.62    cluster-797pp-master-0                      <none>           <none>
openshift-azure-operator                           aro-operator-master-6d5cb794c6-z7h6m                             1/1     Running                  0              13h     10.129.0.56    cluster-797pp-master-0                      <none>           <none>
openshift-cloud-controller-manager                 azure-cloud-controller-manager-d75b95c78-2bcpx                   1/1     Running                  0              13h     10.0.0.8       cluster-797pp-master-1                      <none>           <none>
openshift-ovn-kubernetes                           ovnkube-node-9rxbz                                               9/9     Running                  10             14h     10.0.2.4       cluster-797pp-worker-canadacentral1-dnw2p   <none>           <none>
"""


def test_azure_red_hat_openshift_is_its_own_distribution_on_openshift(tmp_path) -> None:
    paste = tmp_path / "aro.md"
    paste.write_text(ARO_NODES_AND_PODS, encoding="utf-8")
    cluster = analyzer.load(paste)
    result = cluster.distribution
    assert result.name == "aro"
    assert {e.value for e in result.evidence if e.distribution == "aro"} >= {
        "openshift-azure-logging", "aro-operator-master-6d5cb794c6-z7h6m"}
    # OpenShift's marks support it (its base), they do not compete with it
    assert {e.distribution for e in result.evidence} == {"aro", "openshift"}
    assert result.runner_up is None
    # ARO's own components are the service's, and so are the OpenShift ones it runs
    catalog = load_catalog()
    roles = dict(zip(cluster.tables.components["component"], cluster.tables.components["role"], strict=True))
    assert roles["aro-operator"] == "operator" and roles["aro-mdsd"] == "logging-monitoring"
    assert all(catalog.by_name(name).platform_of("aro") for name in ("aro-operator", "aro-mdsd", "ovn-kubernetes"))
    assert not catalog.by_name("aro-operator").platform_of("openshift")


def test_openshift_its_owner_installed_on_azure_is_not_aro(tmp_path) -> None:
    # The same cluster less what only the service runs: Azure's cloud provider is any OpenShift's on Azure
    paste = tmp_path / "ocp-on-azure.md"
    paste.write_text("\n".join(line for line in ARO_NODES_AND_PODS.splitlines()
                               if not line.startswith("openshift-azure-")) + "\n", encoding="utf-8")
    assert analyzer.load(paste).distribution.name == "openshift"


def test_the_aro_service_s_registry_and_api_group_say_aro() -> None:
    # Azure/ARO-RP: the operator's image arosvc.azurecr.io/aro:<commit> (Makefile), its Cluster
    # resource aro.openshift.io/v1alpha1 (operator/apis)
    operator = workload("Deployment", "openshift-azure-operator", "aro-operator-master",
                        image="arosvc.azurecr.io/aro:v20240911.00")
    cluster = load(operator, {"apiVersion": "aro.openshift.io/v1alpha1", "kind": "Cluster",
                              "metadata": {"name": "cluster"}, "spec": {}})
    result = detect_distribution(cluster)
    assert result.name == "aro"
    assert {e.signal for e in result.evidence} >= {"image_registry_regex", "api_group"}


# minikube names a profile's nodes <profile>, <profile>-m02, -m03, ...: a course's `kubectl get
# nodes -o wide` of profile multinode-demo on Docker Desktop's WSL2 (code index id 13117922171, no
# minikube label, image or ISO in it: 'unknown') and a tutorial's six-node profile learn-k8s (code
# index id 13310472104); a kubeadm cluster's masters named k8s-m01..m03 (code index id 5534144079)
# share the -mNN ending with no node named k8s beside them.
MINIKUBE_PROFILE_NODES = """\
NAME                 STATUS   ROLES           AGE    VERSION   INTERNAL-IP    EXTERNAL-IP           OS-IMAGE             KERNEL-VERSION                       CONTAINER-RUNTIME
multinode-demo       Ready    control-plane   2d9h   v1.32.0   192.168.49.2   15.237.144.183        Ubuntu 22.04.5 LTS   5.15.167.4-microsoft-standard-WSL2   docker://27.4.1
multinode-demo-m02   Ready    <none>          2d9h   v1.32.0   192.168.49.3   35.181.26.237         Ubuntu 22.04.5 LTS   5.15.167.4-microsoft-standard-WSL2   docker://27.4.1
"""
LEARN_K8S_PROFILE_NODES = """\
NAME            STATUS   ROLES           AGE     VERSION
learn-k8s       Ready    control-plane   2m55s   v1.30.0
learn-k8s-m02   Ready    control-plane   2m16s   v1.30.0
learn-k8s-m03   Ready    control-plane   103s    v1.30.0
learn-k8s-m04   Ready    <none>          69s     v1.30.0
"""
KUBEADM_MASTERS_NAMED_M01 = """\
NAME      STATUS   ROLES                  AGE     VERSION
k8s-m01   Ready    control-plane,master   58m     v1.20.0
k8s-m02   Ready    control-plane,master   61m     v1.20.0
k8s-m03   Ready    control-plane,master   54m     v1.20.0
k8s-n01   Ready    <none>                 3m47s   v1.20.0
"""


@pytest.mark.parametrize("pasted", [MINIKUBE_PROFILE_NODES, LEARN_K8S_PROFILE_NODES])
def test_a_minikube_profile_s_nodes_say_minikube(pasted: str) -> None:
    result = analyzer.load({"nodes.md": pasted}).distribution
    assert result.name == "minikube"
    assert {(e.signal, e.value) for e in result.evidence} >= {("node_name_suffix", "-m02")}


def test_masters_numbered_m01_m02_are_not_a_minikube_profile() -> None:
    result = analyzer.load({"nodes.md": KUBEADM_MASTERS_NAMED_M01}).distribution
    assert result.name != "minikube"
    assert not any(e.signal == "node_name_suffix" for e in result.evidence)
