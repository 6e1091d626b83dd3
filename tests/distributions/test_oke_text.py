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


# kubernetes-sigs/kueue#5039 (an OKE 1.31 node pool, 2025-04-18), the reporter's `k describe node`, trimmed:
# a real OKE node, its compartment annotation beside OKE's own labels and pods, stays OKE now that
# the annotation alone weighs no more than any cluster on OCI (kubernetes/autoscaler#7518).
OKE_NODE_DESCRIBE = """Name:               10.140.50.107
Roles:              node
Labels:             beta.kubernetes.io/arch=amd64
                    beta.kubernetes.io/instance-type=VM.Standard.E5.Flex
                    beta.kubernetes.io/os=linux
                    displayName=oke-cjzo2qrvfea-nli2morxp6q-sctxjmld7bq-1
                    kubernetes.io/hostname=10.140.50.107
                    node.info.ds_proxymux_client=true
                    node.info/compartment.name=oguz
                    node.info/kubeletVersion=v1.31
                    oci.oraclecloud.com/fault-domain=FAULT-DOMAIN-2
                    oci.oraclecloud.com/vcn-native-ip-cni=true
                    oke.oraclecloud.com/node.info.private_worker=true
                    oke.oraclecloud.com/pool.mode=node-pool
Annotations:        alpha.kubernetes.io/provided-node-ip: 10.140.50.107
                    node.alpha.kubernetes.io/ttl: 0
                    oci.oraclecloud.com/compartment-id: ocid1.compartment.oc1..aaaaaaaamgpf7b5zhfwqc3cttmhatl3eqxl6uztmhozk52h2qbh4iytjvrsa
                    oci.oraclecloud.com/node-pool-id: ocid1.nodepool.oc1.iad.aaaaaaaa5mii6bdzr72n4wbf5fgkagxrqqfxbtktfzgkymqesnli2morxp6q
CreationTimestamp:  Tue, 08 Apr 2025 18:05:46 +0000
Taints:             <none>
Unschedulable:      false
Conditions:
  Type             Status  LastHeartbeatTime                 LastTransitionTime                Reason                       Message
  ----             ------  -----------------                 ------------------                ------                       -------
  Ready            True    Fri, 18 Apr 2025 19:18:40 +0000   Tue, 08 Apr 2025 18:06:16 +0000   KubeletReady                 kubelet is posting ready status
Addresses:
  InternalIP:  10.140.50.107
  Hostname:    10.140.50.107
System Info:
  Kernel Version:             6.8.0-1019-oracle
  OS Image:                   Ubuntu 22.04.5 LTS
  Operating System:           linux
  Architecture:               amd64
  Container Runtime Version:  cri-o://1.31.3
  Kubelet Version:            v1.31.1
  Kube-Proxy Version:         v1.31.1
ProviderID:                   ocid1.instance.oc1.iad.anuwcljtpwneysacfkeyronlgetsvqc346gwp2lkznbvxhhguz2n2zkdm3ha
Non-terminated Pods:          (6 in total)
  Namespace                   Name                                                         CPU Requests  CPU Limits  Memory Requests  Memory Limits  Age
  ---------                   ----                                                         ------------  ----------  ---------------  -------------  ---
  kube-system                 coredns-68fd89b4f6-7xfzk                                     100m (0%)     0 (0%)      70Mi (0%)        170Mi (0%)     8d
  kube-system                 csi-oci-node-tcxlg                                           30m (0%)      500m (3%)   70Mi (0%)        300Mi (1%)     8d
  kube-system                 kube-dns-autoscaler-6cbc77b497-nhv8b                         20m (0%)      0 (0%)      10Mi (0%)        0 (0%)         8d
  kube-system                 kube-proxy-8jdkd                                             0 (0%)        0 (0%)      0 (0%)           0 (0%)         10d
  kube-system                 proxymux-client-h8x65                                        50m (0%)      500m (3%)   64Mi (0%)        256Mi (0%)     10d
  kube-system                 vcn-native-ip-cni-vf95m                                      0 (0%)        0 (0%)      0 (0%)           0 (0%)         10d
Events:              <none>
"""


def test_a_real_oke_node_is_oke_by_its_own_marks(tmp_path: Path) -> None:
    path = tmp_path / "describe-node.txt"
    path.write_text(OKE_NODE_DESCRIBE, encoding="utf-8")
    dist = analyzer.load(path).distribution
    assert dist.name == "oke" and dist.runner_up is None
    assert dist.control_plane.kind == "managed"
    assert {e.signal for e in dist.deciding()} >= {"node_label", "node_label_key_prefix", "workload_name"}
    assert dist.cni == ["oci-vcn-native"]


# oracle/terraform-kubernetes-installer#46 (2018-01-15 comment): a worker of a cluster Oracle's
# Terraform installer built on OCI instances (Kubernetes 1.7), its labels as `get nodes
# --show-labels` printed them. Its node.info/ labels are the installer's, not OKE's bootstrap's
# (node.info/kubeletVersion, node.info/compartment.name): it read as OKE 0.58 by the prefix alone.
INSTALLER_NODE_LABELS = (
    "NAME                                                 STATUS    ROLES     AGE       VERSION   LABELS\n"
    "k8s-worker-ad1-0.k8sworkerad1.k8soci.oraclevcn.com   Ready     <none>    18h       v1.7.10   "
    "beta.kubernetes.io/arch=amd64,beta.kubernetes.io/instance-type=VM.DenseIO2.8,beta.kubernetes.io/os=linux,"
    "failure-domain.beta.kubernetes.io/region=iad,failure-domain.beta.kubernetes.io/zone=US-ASHBURN-AD-1,"
    "kubernetes.io/hostname=k8s-worker-ad1-0.k8sworkerad1.k8soci.oraclevcn.com,"
    "node.info/availability.domain=hXgQ-US-ASHBURN-AD-1,node.info/compartment.id_prefix=ocid1.compartment.oc1,"
    "node.info/external.ipaddress=129.XXX.XX.XX,node.info/node.id_prefix=ocid1.instance.oc1.iad,"
    "node.info/node.shape=VM.DenseIO2.8\n")


def test_the_terraform_installers_node_info_labels_do_not_say_oke(tmp_path: Path) -> None:
    path = tmp_path / "nodes.txt"
    path.write_text(INSTALLER_NODE_LABELS, encoding="utf-8")
    dist = analyzer.load(path).distribution
    assert dist.name != "oke" and not dist.scores.get("oke")
    # OKE's own bootstrap label still says OKE
    oke = INSTALLER_NODE_LABELS.replace("node.info/node.shape=VM.DenseIO2.8", "node.info/kubeletVersion=v1.31")
    path.write_text(oke, encoding="utf-8")
    assert analyzer.load(path).distribution.name == "oke"


def test_a_bare_instance_ocid_as_provider_id_is_okes_and_weighs_more_than_oci_prefixed(tmp_path: Path) -> None:
    # kubernetes-sigs/kueue#5039's OKE 1.31 node: `ProviderID: ocid1.instance.oc1.iad....`, which
    # OKE's bootstrap hands the kubelet; a self-built cluster's OCI cloud controller writes oci://.
    node = ("apiVersion: v1\nkind: Node\nmetadata:\n  name: 10.0.10.27\nspec:\n  providerID: "
            "ocid1.instance.oc1.iad.anuwcljtpwneysacfkeyronlgetsvqc346gwp2lkznbvxhhguz2n2zkdm3ha\n")
    path = tmp_path / "node.yaml"
    path.write_text(node, encoding="utf-8")
    bare = analyzer.load(path).distribution
    path.write_text(node.replace("providerID: ocid1", "providerID: oci://ocid1"), encoding="utf-8")
    prefixed = analyzer.load(path).distribution
    assert bare.name == prefixed.name == "oke"
    assert bare.scores["oke"] > prefixed.scores["oke"]
