"""Each signal type's matching rule, as a table of (signal, pattern, value, matches) cases.

Values are ones seen in real dumps (shared/realdata) and the seeds: AKS/EKS provider IDs, k3s and
EKS kubelet versions, kubeadm annotations, AKS ConfigMaps, CRD groups, AKS/EKS images.
"""

from __future__ import annotations

import pytest

from analyzer.distributions.signals import SIGNALS

CASES = [
    ("provider_id_prefix", "azure://", "azure:///subscriptions/x/resourceGroups/mc_rg/providers/Microsoft.Compute/virtualMachineScaleSets/aks-nodepool1-1-vmss/virtualMachines/0", True),
    ("provider_id_prefix", "aws://", "k3s://localhost", False),
    ("node_label_key_prefix", "kubernetes.azure.com/", "kubernetes.azure.com/cluster", True),
    ("node_label_key_prefix", "eks.amazonaws.com/", "topology.ebs.csi.aws.com/zone", False),
    ("node_label", "microk8s.io/cluster=true", "microk8s.io/cluster=true", True),
    ("node_label", "microk8s.io/cluster=true", "microk8s.io/cluster=false", False),
    ("node_label", "kurl.sh/cluster", "kurl.sh/cluster=true", True),
    ("node_annotation_key_prefix", "kubeadm.alpha.kubernetes.io/", "kubeadm.alpha.kubernetes.io/cri-socket", True),
    ("pod_annotation", "kubernetes.io/psp=eks.privileged", "kubernetes.io/psp=eks.privileged", True),
    ("pod_annotation", "kubernetes.io/psp=eks.privileged", "kubernetes.io/psp=restricted", False),
    ("kubelet_version_regex", r"-eks-", "v1.30.4-eks-a737599", True),
    ("kubelet_version_regex", r"\+k3s", "v1.24.4+k3s1", True),
    ("kubelet_version_regex", r"\+k3s", "v1.21.7+rke2r1", False),
    ("os_image_regex", "^AKSUbuntu", "AKSUbuntu-2204gen2containerd-202409.30.0", True),
    ("node_name_regex", "^minikube$", "minikube-m02", False),
    ("workload_name", "^proxymux-client", "proxymux-client-7x2kq", True),
    ("workload_name", "^aws-node", "kube-proxy-aws-node", False),
    ("configmap_name", "overlay-upgrade-data", "overlay-upgrade-data", True),
    ("configmap_name", "kubeadm-config", "kubeadm-config-old", False),
    ("api_group", "openshift.io", "config.openshift.io", True),
    ("api_group", "k3s.cattle.io", "k3s.cattle.io", True),
    ("api_group", r".*\.cattle\.io", "helm.cattle.io", True),
    ("api_group", "openshift.io", "notopenshift.io", False),
    ("image_registry_regex", r"^mcr\.microsoft\.com/oss/kubernetes/", "mcr.microsoft.com/oss/kubernetes/coredns:v1.9.4", True),
    ("image_registry_regex", r"\.dkr\.ecr\..*\.amazonaws\.com/", "docker.io/calico/node:v3.18.1", False),
    ("namespace_name", "kube-flannel", "kube-flannel", True),
    ("namespace_name", "openshift-.*", "openshift-dns", True),
    # An OpenShift namespace and service account pasted in a CKA write-up (review
    # cka-openshift-gke-transcript.md): the SCC annotations and the `-dockercfg-` pull secret.
    ("namespace_annotation_key_prefix", "openshift.io/sa.scc.", "openshift.io/sa.scc.uid-range", True),
    ("namespace_annotation_key_prefix", "openshift.io/sa.scc.", "openshift.io/description", False),
    ("pull_secret_name", "-dockercfg-[a-z0-9]{5}$", "cicd-token-dockercfg-h8qj9", True),
    ("pull_secret_name", "-dockercfg-[a-z0-9]{5}$", "cicd-token-token-wjxd7", False),
    # An OpenShift 4.9 `oc` session (Meiyan-Zheng/technotes rhocp/ocp4.9/01_troubleshoot_pods.md).
    ("cli_tool", "oc", "oc", True),
    ("cli_tool", "microk8s kubectl", "microk8s kubectl", True),
    ("cli_tool", "oc", "microk8s kubectl", False),
]


@pytest.mark.parametrize(("signal", "pattern", "value", "expected"), CASES)
def test_signal_matches(signal: str, pattern: str, value: str, expected: bool) -> None:
    assert SIGNALS[signal].compile(pattern)(value) is expected


def test_every_signal_type_has_a_case() -> None:
    assert {c[0] for c in CASES} == set(SIGNALS)
