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
    ("system_object_label", "app.kubernetes.io/managed-by=EKS", "app.kubernetes.io/managed-by=EKS", True),
    ("system_object_label", "app.kubernetes.io/managed-by=EKS", "app.kubernetes.io/managed-by=Helm", False),
    ("kubelet_version_regex", r"-eks-", "v1.30.4-eks-a737599", True),
    ("kubelet_version_regex", r"\+k3s", "v1.24.4+k3s1", True),
    ("kubelet_version_regex", r"\+k3s", "v1.21.7+rke2r1", False),
    ("os_image_regex", "^AKSUbuntu", "AKSUbuntu-2204gen2containerd-202409.30.0", True),
    ("node_name_regex", "^minikube$", "minikube-m02", False),
    # what multinode-demo-m02 adds to multinode-demo; k8s-m01 beside no node named k8s adds nothing
    ("node_name_suffix", "-m(0[2-9]|[1-9][0-9])", "-m02", True),
    ("node_name_suffix", "-m(0[2-9]|[1-9][0-9])", "-m01", False),
    ("workload_name", "^proxymux-client", "proxymux-client-7x2kq", True),
    ("workload_name", "^aws-node", "kube-proxy-aws-node", False),
    # MicroShift's snapshot controller in kube-system; OpenShift's in its storage operator's namespace
    ("system_workload", "^kube-system/csi-snapshot-(controller|webhook)-", "kube-system/csi-snapshot-controller-85ccb45d4-flzh8", True),
    ("system_workload", "^kube-system/csi-snapshot-(controller|webhook)-",
     "openshift-cluster-storage-operator/csi-snapshot-controller-6b8d9c4f7b-2xq8z", False),
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
    # MicroK8s's service range (canonical/microk8s#568's `get all`); kubeadm's default range is not it
    ("service_cluster_ip", r"^(kubernetes=10\.152\.183\.1|kube-dns=10\.152\.183\.10)$", "kube-dns=10.152.183.10", True),
    ("service_cluster_ip", r"^(kubernetes=10\.152\.183\.1|kube-dns=10\.152\.183\.10)$", "kubernetes=10.96.0.1", False),
    ("service_port", "kubernetes=12250/TCP", "kubernetes=12250/TCP", True),
    ("service_port", "kubernetes=12250/TCP", "kubernetes=112250/TCP", False),
    ("cli_tool", "oc", "oc", True),
    ("cli_tool", "microk8s kubectl", "microk8s kubectl", True),
    ("cli_tool", "oc", "microk8s kubectl", False),
    ("event_source", r"gke\.io/optimize-utilization-scheduler", "gke.io/optimize-utilization-scheduler", True),
    ("event_source", r"gke\.io/optimize-utilization-scheduler", "default-scheduler", False),
]


@pytest.mark.parametrize(("signal", "pattern", "value", "expected"), CASES)
def test_signal_matches(signal: str, pattern: str, value: str, expected: bool) -> None:
    assert SIGNALS[signal].compile(pattern)(value) is expected


def test_every_signal_type_has_a_case() -> None:
    assert {c[0] for c in CASES} == set(SIGNALS)


def test_the_patterns_of_a_channel_joined_match_where_one_of_them_does() -> None:
    # The cases above, each signal's patterns joined over every value of its cases (a value one
    # pattern fully matches and another only searches, lookaheads, anchors, alternations).
    from analyzer.distributions.signals import any_matcher

    by_signal: dict[str, list[tuple[str, str]]] = {}
    for signal, pattern, value, _ in CASES:
        by_signal.setdefault(signal, []).append((pattern, value))
    joined_any = 0
    for signal, cases in by_signal.items():
        matchers = [SIGNALS[signal].compile(p) for p, _ in cases]
        if not all(hasattr(m, "test") for m in matchers):
            continue  # not regex matchers: never joined
        values = [v for _, v in cases] + ["", "-eks-", "v1.29.0-eks-1-2-3", "x" * 70, "ac", "v", "k1", "1"]
        extra = [SIGNALS[signal].compile(p) for p in (r"-eks-(?![0-9]+-[0-9]+-[0-9]+$)", "^(a|b)c$",
                                                      "1$|^v")]  # (an alternation of its own)
        for group in (matchers, matchers + extra):
            test = any_matcher(group)
            assert test is not None
            joined_any += 1
            for value in values:
                assert bool(test(value)) == any(m(value) for m in group), (signal, value)
    assert joined_any >= 6
    search = SIGNALS["workload_name"].compile
    # what cannot be joined is left alone (each pattern then tests every value, as before)
    assert any_matcher([search(r"(a)\1"), search("b")]) is None
    assert any_matcher([search("(?i)aws"), search("b")]) is None
    assert any_matcher([search("a"), SIGNALS["namespace_name"].compile("b")]) is None  # search and fullmatch


def test_detection_with_the_joined_patterns_finds_what_each_pattern_finds(monkeypatch) -> None:
    # sample_dumps/* (hand-made, see their README): every hit, in order, the same as when each
    # fingerprint tests every value of its channel.
    from conftest import SAMPLE_DUMPS

    import analyzer
    from analyzer.distributions import detector
    from analyzer.distributions.fingerprints import load_fingerprints
    from analyzer.distributions.observations import observe
    from analyzer.distributions.profiles import load_profiles

    rows = load_fingerprints()
    for dump in ("aks", "eks", "kubeadm", "oke"):
        obs = observe(analyzer.load(str(SAMPLE_DUMPS / dump)), load_profiles())
        assert detector._regex_candidates(list(rows), obs)  # the joined tests are used
        joined = detector.match(rows, obs)
        with monkeypatch.context() as m:
            m.setattr(detector, "_regex_candidates", lambda fingerprints, observations: {})
            each = detector.match(rows, obs)
        assert joined and [(h.fingerprint, h.observation) for h in joined] == [
            (h.fingerprint, h.observation) for h in each]
