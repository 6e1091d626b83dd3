"""Distribution marks a pod's annotations carry: EKS's default PodSecurityPolicy (kubernetes.io/psp),
GKE's cluster autoscaler's note on a pod it cannot help."""

from __future__ import annotations

import orjson

import analyzer
from analyzer.distributions import detect_distribution

# Trimmed from a real EKS pod: Qovery/engine @ 59fa717d, src/cmd/structs.rs (the raw `kubectl get pod
# -o json` of a pod evicted for ephemeral storage, eu-west-3, 2022-07-13); its image, env and status
# cut. The pod's own namespace is an application's: the PSP annotation is on every admitted pod.
EKS_POD = """{"apiVersion": "v1", "kind": "Pod",
 "metadata": {"name": "app-z064fc389-55c7689767-9bchb", "namespace": "z801e6dcb-zdf4a84bc",
   "creationTimestamp": "2022-07-13T14:33:21Z",
   "annotations": {"appCommitId": "9b1baf132923531777268e9f0335d9dc8a1a9fb5",
                   "kubernetes.io/psp": "eks.privileged"}},
 "spec": {"nodeName": "ip-10-0-21-229.eu-west-3.compute.internal",
          "containers": [{"name": "app-z064fc389", "image": "z064fc389:1"}]},
 "status": {"phase": "Failed", "reason": "Evicted", "startTime": "2022-07-13T14:34:59Z"}}"""


def test_a_lone_pod_admitted_by_eks_privileged_is_eks() -> None:
    dist = detect_distribution(analyzer.load(EKS_POD))
    assert dist.name == "eks" and dist.confidence >= 0.6
    assert [e.value for e in dist.evidence_for("eks") if e.signal == "pod_annotation"] == [
        "kubernetes.io/psp=eks.privileged"]


def test_without_the_annotation_the_ec2_node_name_alone_is_not_enough() -> None:
    without = EKS_POD.replace(',\n                   "kubernetes.io/psp": "eks.privileged"', "")
    assert "eks.privileged" not in without
    assert detect_distribution(analyzer.load(without)).name == "unknown"


def test_another_policy_name_says_nothing() -> None:
    # a self-managed cluster's own PSP (the same pod, another policy's name)
    other = EKS_POD.replace("eks.privileged", "restricted")
    assert detect_distribution(analyzer.load(other)).name == "unknown"


def test_an_eks_add_on_image_named_only_in_a_kubelet_event_is_eks_evidence() -> None:
    # kubernetes-sigs/aws-ebs-csi-driver#477 (trimmed): a describe pod's Events pasted alone, the
    # kubelet backing off pulling an EKS add-on image from Amazon's ECR (602401143452); the pod is
    # not in the dump, its events are all there is. Its image counts as its own image would.
    paste = (
        "  Normal   Scheduled  23m                   default-scheduler                                     "
        "Successfully assigned kube-system/ebs-csi-node-spdzt to ip-172-31-70-169.eu-west-1.compute.internal\n"
        "  Normal   BackOff    23m                   kubelet, ip-172-31-70-169.eu-west-1.compute.internal  "
        "Back-off pulling image \"602401143452.dkr.ecr.us-west-2.amazonaws.com/eks/csi-liveness-probe:v1.1.0\"\n"
        "  Warning  Failed     23m                   kubelet, ip-172-31-70-169.eu-west-1.compute.internal  "
        "Error: ImagePullBackOff\n"
    )
    result = detect_distribution(analyzer.load({"issue.md": paste}))
    assert result.name == "eks"
    assert any(e.signal == "image_registry_regex" and "602401143452.dkr.ecr" in e.value for e in result.evidence)


def test_a_users_image_in_a_users_namespace_event_is_not_evidence() -> None:
    # The same event about a pod of the user's own namespace, pulling the user's image from ECR:
    # only system namespaces' images say what the platform is.
    events = [
        {"apiVersion": "v1", "kind": "Event", "metadata": {"name": "web.1", "namespace": "shop"},
         "involvedObject": {"kind": "Pod", "namespace": "shop", "name": "web-1"}, "reason": "BackOff", "type": "Normal",
         "source": {"component": "kubelet", "host": "node-1"},
         "message": 'Back-off pulling image "602401143452.dkr.ecr.us-west-2.amazonaws.com/eks/app:v1"'},
    ]
    result = detect_distribution(analyzer.load({"events.json": orjson.dumps({"kind": "List", "items": events}).decode()}))
    assert result.name != "eks"


def test_the_kubelets_node_in_event_rows_that_name_no_object_is_a_node_name() -> None:
    # Azure/AKS#1567 (trimmed): a describe's Events rows pasted flush left, naming no object; the
    # kubelet's host is an AKS scale-set node. Before, only events about a named pod gave it.
    paste = (
        "Warning  FailedMount         2m2s (x15 over 33m)       kubelet, aks-opspool-38996706-vmss000000  "
        "Unable to mount volumes for pod \"build-0_prod(56c4d0b2-5494-4731-bf3a-778ab0123b75)\": timeout expired\n"
        "Warning  FailedAttachVolume  <invalid> (x18 over 34m)  attachdetach-controller                   "
        "AttachVolume.Attach failed for volume \"pvc-10639e8b-d60a-41e1-a9a4-35d0365df410\"\n"
    )
    result = detect_distribution(analyzer.load({"issue.md": paste}))
    assert result.name == "aks"
    assert any(e.value == "aks-opspool-38996706-vmss000000" for e in result.evidence)


def test_the_hosts_of_a_pasted_kubelet_journal_are_node_names() -> None:
    # istio/community#749 (trimmed: a support note's 'Line 918:' prefix left out, its quotes straightened): the
    # only thing a ticket quotes is the kubelet's journal line of its node, an AKS scale-set node.
    # Before, nothing was found (unknown).
    paste = ('Jun 01 00:31:49 aks-agentpool3-23355474-vmss000003 kubelet[3484]: I0601 00:31:49.747275 3484 '
             'prober.go:116] "Probe failed" probeType="Readiness" pod="acq-prod2/tokenization-dep-v1-5b468c7d88-xfcwg" '
             'podUID=37201ae8-662c-4e00-9bb0-f7f477d4e61e containerName="istio-proxy" probeResult=failure '
             'output="Get http://172.21.0.78:15021/healthz/ready: dial tcp 172.21.0.78:15021: connect: connection refused"\n')
    result = detect_distribution(analyzer.load({"journal.txt": paste}))
    assert result.name == "aks"
    assert any(e.value == "aks-agentpool3-23355474-vmss000003" for e in result.evidence)


def test_a_journals_host_in_capitals_is_the_node_named_in_lower_case() -> None:
    # fujitatomoya/ros_k8s#22 (trimmed): `get nodes` names the node as the kubelet registered it,
    # the hostname lowercased; its journal prints the hostname as set. Before, both were node names.
    from analyzer.distributions.observations import observe
    from analyzer.distributions.profiles import load_profiles

    paste = ("root@tomoyafujita-HP-Compaq-Elite-8300-SFF:~# kubectl get nodes\n"
             "NAME                                    STATUS     ROLES           AGE     VERSION\n"
             "tomoyafujita-hp-compaq-elite-8300-sff   NotReady   control-plane   5m21s   v1.25.5\n"
             "\n"
             "root@tomoyafujita-HP-Compaq-Elite-8300-SFF:~# journalctl -u kubelet -f\n"
             "Apr 16 22:26:45 tomoyafujita-HP-Compaq-Elite-8300-SFF kubelet[10125]: E0416 22:26:45.154902   10125 "
             'kubelet.go:2373] "Container runtime network not ready"\n')
    obs = observe(analyzer.load({"issue.md": paste}), load_profiles())
    assert list(obs.values("node_name")) == ["tomoyafujita-hp-compaq-elite-8300-sff"]


def test_a_system_pod_and_its_node_named_only_by_its_events_are_evidence() -> None:
    # openconfig/kne#345 (comment of 2023-03-30), trimmed: `kubectl describe pod kindnet-l6fln -n
    # kube-system` cut to its Events (`<..>`); the pod is kind's CNI, the scheduler names its node,
    # a kind control-plane node. Before, nothing was found (unknown).
    paste = (
        "root@ubuntu3:~/kne# kubectl describe pod kindnet-l6fln   -n kube-system\n"
        "<..>\n"
        "Events:\n"
        "  Type     Reason     Age                  From               Message\n"
        "  ----     ------     ----                 ----               -------\n"
        "  Normal   Scheduled  3m34s                default-scheduler  Successfully assigned "
        "kube-system/kindnet-l6fln to kne-control-plane\n"
        "  Normal   BackOff    48s (x5 over 3m3s)   kubelet            Back-off pulling image \"aojea/kindnetd:v1.0.1\"\n"
        "  Warning  Failed     48s (x5 over 3m3s)   kubelet            Error: ImagePullBackOff\n"
    )
    result = detect_distribution(analyzer.load({"kne-345.md": paste}))
    assert result.name == "kind"
    assert {e.value for e in result.evidence} >= {"kindnet-l6fln", "kne-control-plane"}


def test_a_users_pod_named_by_its_events_is_no_workload_evidence() -> None:
    # the same rows about a pod of a user's namespace that happens to be named like a system one
    paste = (
        "$ kubectl describe pod kindnet-l6fln -n web\n"
        "<..>\n"
        "Events:\n"
        "  Type     Reason     Age    From               Message\n"
        "  ----     ------     ----   ----               -------\n"
        "  Normal   Scheduled  3m34s  default-scheduler  Successfully assigned web/kindnet-l6fln to node-1\n"
        "  Warning  Failed     48s    kubelet            Error: ImagePullBackOff\n"
    )
    result = detect_distribution(analyzer.load({"issue.md": paste}))
    assert result.name == "unknown"


# Trimmed from jupyterhub/zero-to-jupyterhub-k8s#3263 (comment of 2023-11-01, GKE 1.27): the
# hub's `kubectl describe pod`, Pending, as far as the corpus kept it (cut in Containers). Its
# only GKE mark is the note GKE's own autoscaler leaves on a pod no node pool could take.
GKE_PENDING_HUB = """Name:             hub-647c87df9b-wwwm6
Namespace:        jupyterhub
Priority:         0
Service Account:  hub
Node:             <none>
Labels:           app=jupyterhub
                  component=hub
                  pod-template-hash=647c87df9b
                  release=jupyterhub
Annotations:      checksum/config-map: a3ad49e09e598875082e87aaddc926177196f77995a2b218d52f9bfc874e928e
                  cloud.google.com/cluster_autoscaler_unhelpable_since: 2023-11-01T18:25:38+0000
                  cloud.google.com/cluster_autoscaler_unhelpable_until: Inf
Status:           Pending
IP:
IPs:              <none>
Controlled By:    ReplicaSet/hub-647c87df9b
Containers:
  hub:
    Image:      jupyterhub/k8s-hub:3.1.0
    Port:       8081/TCP
"""


def test_a_pending_pod_gkes_autoscaler_could_not_help_is_gke() -> None:
    dist = detect_distribution(analyzer.load({"describe.txt": GKE_PENDING_HUB}))
    assert dist.name == "gke"
    assert [e.value for e in dist.evidence_for("gke") if e.signal == "pod_annotation"] == [
        "cloud.google.com/cluster_autoscaler_unhelpable_since=2023-11-01T18:25:38+0000"]


def test_without_the_autoscalers_note_the_pod_says_nothing() -> None:
    without = "".join(line for line in GKE_PENDING_HUB.splitlines(keepends=True) if "cluster_autoscaler" not in line)
    assert detect_distribution(analyzer.load({"describe.txt": without})).name == "unknown"
