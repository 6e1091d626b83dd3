"""Provider-managed marks for objects read from pasted text, which shows no labels: the component
catalog's platform components of the distribution the dump was detected as."""

from __future__ import annotations

from pathlib import Path

import analyzer
from analyzer.findings import collect_findings

# Trimmed from Neutrollized/free-tier-gke#6 (GKE Dataplane V2, 2023-09-17): `kubectl -n kube-system
# get pods`. Before: event-exporter-gke's Pending pod was critical with no managed mark (its row
# has no labels, so no label could say GKE runs it).
GKE_ROWS = """\
`kubectl -n kube-system get pods` gives:

```
NAME                                                       READY   STATUS    RESTARTS   AGE
anetd-cf8jz                                                1/1     Running   0          13m
anetd-q5vzr                                                1/1     Running   0          13m
event-exporter-gke-7bf6c99dcb-grmz7                        0/2     Pending   0          13m
fluentbit-gke-f9hh9                                        2/2     Running   0          13m
gke-metadata-server-2q8q5                                  1/1     Running   0          13m
web-7bf6c99dcb-abcde                                       0/1     Pending   0          13m
```
"""


def _pending(text: str) -> dict[str, str]:
    cluster = analyzer.load({"issue.md": text})
    return {f.name: f.managed for f in collect_findings(cluster) if f.rule == "pod-pending" and f.status == "fail"}


def test_a_pasted_gke_add_on_pod_is_marked_provider_managed() -> None:
    found = _pending(GKE_ROWS)
    assert "event-exporter-gke, part of gke" in found["event-exporter-gke-7bf6c99dcb-grmz7"]
    assert found["web-7bf6c99dcb-abcde"] == ""  # not a catalog component


def test_a_component_of_another_distribution_is_not_marked() -> None:
    # hand-made from the rows above: a kind cluster (kindnet, kind-control-plane) running a job
    # named as k3s's helm-install jobs are; the catalog says helm-install is k3s's and RKE2's,
    # not kind's, so nothing says who runs it
    rows = ("$ kubectl get pods -A -o wide\n"
            "NAMESPACE     NAME                         READY   STATUS    RESTARTS   AGE   IP           NODE                 NOMINATED NODE   READINESS GATES\n"
            "kube-system   kindnet-7xk2p                1/1     Running   0          13m   172.18.0.2   kind-control-plane   <none>           <none>\n"
            "kube-system   helm-install-traefik-x9p4c   0/1     Pending   0          13m   <none>       <none>               <none>           <none>\n")
    cluster = analyzer.load({"session.txt": rows})
    assert cluster.distribution.name == "kind"
    found = {f.name: f.managed for f in collect_findings(cluster) if f.rule == "pod-pending" and f.status == "fail"}
    assert found == {"helm-install-traefik-x9p4c": ""}


def test_a_pasted_add_on_deployments_pods_carry_its_mark() -> None:
    # trimmed from a kubectl session against `kda serve` of review3's AKS cluster-info dump (rev11b):
    # the structured dump marks coredns-autoscaler's Deployment and its pod (label
    # addonmanager.kubernetes.io/mode=Reconcile); the paste shows no labels.
    session = (
        "PS C:\\Users\\arena> kubectl get pods -A -o wide\n"
        "NAMESPACE     NAME                                        READY   STATUS             RESTARTS           AGE     IP            NODE                                NOMINATED NODE   READINESS GATES\n"
        "kube-system   coredns-autoscaler-6d7bd69669-nmpz2         0/1     CrashLoopBackOff   1569 (4m28s ago)   3d10h   10.244.0.62   aks-nodepool1-28869405-vmss000000   <none>           <none>\n"
        "default       web-6d7bd69669-abcde                        0/1     CrashLoopBackOff   9 (4m28s ago)      3d10h   10.244.0.63   aks-nodepool1-28869405-vmss000000   <none>           <none>\n"
        "PS C:\\Users\\arena> kubectl get deploy -n kube-system\n"
        "NAME                        READY   UP-TO-DATE   AVAILABLE   AGE\n"
        "coredns-autoscaler          0/1     1            0           12d\n")
    cluster = analyzer.load({"session.txt": session})
    assert cluster.distribution.name == "aks"
    marks = {(f.rule, f.name): f.managed for f in collect_findings(cluster) if f.status == "fail"}
    assert "coredns-autoscaler, part of aks" in marks[("deployment-unavailable", "coredns-autoscaler")]
    assert "coredns-autoscaler, part of aks" in marks[("pod-crashloop", "coredns-autoscaler-6d7bd69669-nmpz2")]
    assert marks[("pod-crashloop", "web-6d7bd69669-abcde")] == ""


def test_a_component_the_clusters_owner_installs_is_not_marked() -> None:
    # trimmed from kubernetes-sigs/aws-load-balancer-controller#2956 (EKS, 2023-01-04): installed by
    # its owner from the EKS user guide; only EKS runs it, but EKS does not manage it
    # (catalog: user_installed). A kube-proxy row of the same cluster is EKS's.
    paste = ("```\n ~/Downloads/ kubectl get deployment -n kube-system aws-load-balancer-controller\n"
             "NAME                           READY   UP-TO-DATE   AVAILABLE   AGE\n"
             "aws-load-balancer-controller   0/2     0            0           15d\n```\n\n"
             "```\n ~/Downloads/ kubectl get pods -n kube-system -o wide\n"
             "NAME                READY   STATUS             RESTARTS   AGE   IP           NODE                                         NOMINATED NODE   READINESS GATES\n"
             "aws-node-8kz2x      0/1     CrashLoopBackOff   12         15d   10.0.1.12    ip-10-0-1-12.us-west-2.compute.internal      <none>           <none>\n```\n")
    cluster = analyzer.load({"issue.md": paste})
    assert cluster.distribution.name == "eks"
    marks = {(f.rule, f.name): f.managed for f in collect_findings(cluster) if f.status == "fail"}
    assert marks[("deployment-unavailable", "aws-load-balancer-controller")] == ""
    assert "aws-node, part of eks" in marks[("pod-crashloop", "aws-node-8kz2x")]


# Azure/AKS#3998 (2024-03-26), trimmed: AKS with Azure CNI overlay, `kubectl -n kube-system get pods
# | grep cns`. Before: the pods were AKS's (catalog) but the incident's head, "Critical cni
# component azure-cns (DaemonSet kube-system/azure-cns) is not healthy", named no owner: the
# DaemonSet is told from its pods alone, and the dump holds no object of it to read a mark from.
AKS_3998 = """\
```
kubectl -n kube-system get pods | grep cns
azure-cns-99gjj                              1/1     Running                 0                  21d
azure-cns-99tbp                              0/1     Init:CrashLoopBackOff   2470 (2m24s ago)   15d
azure-cns-ljv55                              0/1     Init:CrashLoopBackOff   2448 (2m13s ago)   8d
```
"""


def _marks(source: dict[str, str] | str) -> dict[tuple[str, str], str]:
    cluster = analyzer.load(source)
    return {(f.rule, f.name): f.managed for f in collect_findings(cluster) if f.status == "fail"}


def test_a_component_told_from_its_pods_carries_their_mark() -> None:
    marks = _marks({"issue.md": AKS_3998})
    assert "azure-cns, part of aks" in marks[("critical-component-unhealthy", "azure-cns")]
    assert marks[("critical-component-unhealthy", "azure-cns")].endswith("on its pods")


def test_a_described_pods_label_marks_its_component() -> None:
    # terraform-aws-modules/terraform-aws-eks#2596 (2023-05-03), trimmed: the describe of the EKS
    # coredns add-on's pod, ContainerCreating; its label says EKS runs it, so does its component
    describe = (
        "Name:                 coredns-5745988c44-z64mc\n"
        "Namespace:            kube-system\n"
        "Priority:             2000000000\n"
        "Node:                 ip-10-0-4-10.us-east-2.compute.internal/10.0.4.10\n"
        "Start Time:           Wed, 03 May 2023 12:47:47 +0100\n"
        "Labels:               eks.amazonaws.com/component=coredns\n"
        "                      k8s-app=kube-dns\n"
        "                      pod-template-hash=5745988c44\n"
        "Status:               Pending\n"
        "IP:\n"
        "Controlled By:        ReplicaSet/coredns-5745988c44\n"
        "Containers:\n"
        "  coredns:\n"
        "    Image:         602401143452.dkr.ecr.us-east-2.amazonaws.com/eks/coredns:v1.9.3-eksbuild.3\n"
        "    State:          Waiting\n"
        "      Reason:       ContainerCreating\n"
        "    Ready:          False\n"
        "    Restart Count:  0\n"
        "Conditions:\n"
        "  Type              Status\n"
        "  PodScheduled      True \n"
        "Events:          <none>\n")
    marks = _marks({"describe.txt": describe})
    assert marks[("critical-component-unhealthy", "coredns")] == "label eks.amazonaws.com/component=coredns (EKS), on its pods"


def test_coredns_is_the_platforms_on_aks_and_the_owners_on_kubeadm() -> None:
    # Azure/AKS#3642 (2023-05-07), trimmed: AKS's coredns Pending after a restart, pasted without
    # its command. AKS's add-on manager reconciles coredns (its Deployment carries
    # addonmanager.kubernetes.io/mode=Reconcile in review3's AKS dump): before, it was named bare.
    aks = ("```\n"
           "NAME                                  READY   STATUS    RESTARTS   AGE\n"
           "azure-ip-masq-agent-lnrgw             1/1     Running   0          73m\n"
           "coredns-85cddd99d7-kxzn9              0/1     Pending   0          63m\n"
           "kube-proxy-2xs98                      1/1     Running   0          73m\n"
           "```\n")
    marks = _marks({"issue.md": aks})
    assert "component coredns, part of aks" in marks[("pod-pending", "coredns-85cddd99d7-kxzn9")]
    # kubernetes/website#31550 (kubeadm 1.23 without a pod network), trimmed: kubeadm installs
    # coredns, but the cluster's owner runs it: no mark
    kubeadm = ("$ kubectl get pods --all-namespaces\n"
               "NAMESPACE     NAME                             READY   STATUS    RESTARTS   AGE\n"
               "kube-system   coredns-64897985d-5jl6x          0/1     Pending   0          20m\n"
               "kube-system   etcd-master                      1/1     Running   0          20m\n"
               "kube-system   kube-apiserver-master            1/1     Running   0          20m\n"
               "kube-system   kube-proxy-7n5pv                 1/1     Running   0          20m\n")
    cluster = analyzer.load({"issue.md": kubeadm})
    assert cluster.distribution.name == "kubeadm"
    assert {f.managed for f in collect_findings(cluster) if f.status == "fail" and f.name.startswith("coredns")} == {""}



# Trimmed from a DOKS 1.18 demo README's `kubectl get pods -A` (code index id 32168760859):
# DigitalOcean's docs name Cilium and CoreDNS among the managed components it reverts changes to;
# only the CSI node plugin's row was marked. The owner's ingress-nginx is not DigitalOcean's.
DOKS_ROWS = """\
$ kubectl --kubeconfig="kubeconfig.yaml" get pods -A
NAMESPACE       NAME                                                      READY   STATUS    RESTARTS   AGE
ingress-nginx   nginx-ingress-ingress-nginx-controller-7995b44bfd-d6gl2   1/1     Running   0          5m4s
kube-system     cilium-9l57f                                              1/1     Running   0          18m
kube-system     cilium-operator-7c59b5d8d-cqw2t                           1/1     Running   0          20m
kube-system     coredns-6b6854dcbf-tjdzs                                  1/1     Running   0          20m
kube-system     csi-do-node-hqvfm                                         2/2     Running   0          18m
"""


def test_dokss_cilium_and_coredns_are_digitaloceans() -> None:
    from analyzer.findings.managed import _pasted_platform_components

    cluster = analyzer.load({"doks-demo.md": DOKS_ROWS})
    assert cluster.distribution.name == "doks"
    assert {name for _kind, _ns, name in _pasted_platform_components(cluster)} == {
        "cilium-9l57f", "cilium-operator-7c59b5d8d-cqw2t", "coredns-6b6854dcbf-tjdzs", "csi-do-node-hqvfm"}


# Trimmed from an AKS 1.27 demo's `kubectl get pods -Ao wide` (Terraform, Azure CNI Powered by
# Cilium: `cilium status` there shows mcr.microsoft.com/oss/cilium images; code index id
# 46781997065): Cilium beside azure-cns is AKS's dataplane, yet only azure-cns was marked. A BYOCNI
# cluster's owner installs Cilium in kube-system with no azure-cns beside it (Azure/AKS#4952).
AKS_CILIUM_ROWS = """\
kgp -Ao wide
NAMESPACE     NAME                                  READY   STATUS    RESTARTS   AGE     IP            NODE                              NOMINATED NODE   READINESS GATES
kube-system   azure-cns-h8mdb                       1/1     Running   0          47m     10.122.0.4    aks-default-21926331-vmss000000   <none>           <none>
kube-system   cilium-mm6vk                          1/1     Running   0          45m     10.122.0.4    aks-default-21926331-vmss000000   <none>           <none>
kube-system   cilium-operator-fb4c58f8d-zdmbs       1/1     Running   0          45m     10.122.0.4    aks-default-21926331-vmss000000   <none>           <none>
kube-system   coredns-autoscaler-649b947bbd-q2s9n   1/1     Running   0          47m     10.244.0.10   aks-default-21926331-vmss000000   <none>           <none>
kube-system   konnectivity-agent-867b5fb9bb-h6zww   1/1     Running   0          47m     10.244.0.6    aks-default-21926331-vmss000000   <none>           <none>
"""


def test_akss_cilium_dataplane_is_akss_a_byocni_one_is_not() -> None:
    from analyzer.findings.managed import _pasted_platform_components

    def marked(rows: str) -> set[str]:
        cluster = analyzer.load({"aks-demo.md": rows})
        assert cluster.distribution.name == "aks"
        return {name for _kind, _ns, name in _pasted_platform_components(cluster) if name.startswith("cilium")}

    assert marked(AKS_CILIUM_ROWS) == {"cilium-mm6vk", "cilium-operator-fb4c58f8d-zdmbs"}
    assert marked("\n".join(r for r in AKS_CILIUM_ROWS.splitlines() if "azure-cns" not in r) + "\n") == set()


# Trimmed from dankim's OKE Generic VNIC Attachment write-up (a Korean blog's `kubectl get po -n
# kube-system` on a new OKE cluster, 2026; code index id 60378064544): CoreDNS and its autoscaler
# Pending, the only node tainted as a system pool. The write-up fixed it in the CoreDNS add-on's
# configuration (tolerations, node selectors): a toleration added to the Deployment with kubectl
# is written back by OKE. Before, the remedy said only 'relax nodeSelector/affinity, add tolerations'.
OKE_ROWS = """\
```bash
kubectl get po -n kube-system
```

```text
NAME                                  READY   STATUS    RESTARTS   AGE
coredns-7949666f46-frvx4              0/1     Pending   0          6m35s
csi-oci-node-shmgq                    1/1     Running   0          5m20s
kube-dns-autoscaler-9b5569b69-ddqbr   0/1     Pending   0          6m35s
kube-proxy-bxb2r                      1/1     Running   0          5m20s
proxymux-client-rhn65                 1/1     Running   0          5m20s
vcn-native-ip-cni-5tpzp               2/2     Running   0          5m20s
```
"""


def _remedies(text: str) -> dict[tuple[str, str], str]:
    cluster = analyzer.load({"issue.md": text})
    return {(f.rule, f.name): f.remediation for f in collect_findings(cluster) if f.status == "fail"}


def test_a_remedy_on_a_provider_managed_component_says_where_the_provider_takes_the_change() -> None:
    remedies = _remedies(OKE_ROWS)
    for key in (("pod-pending", "coredns-7949666f46-frvx4"), ("pod-pending", "kube-dns-autoscaler-9b5569b69-ddqbr"),
                ("critical-component-unhealthy", "coredns")):
        assert "add tolerations" in remedies[key] or "Fix this component first" in remedies[key]  # the rule's own
        assert "OKE writes this component back" in remedies[key] and "oci ce cluster update-addon" in remedies[key]


def test_a_remedy_on_an_owners_object_is_the_rules_own() -> None:
    remedies = _remedies(GKE_ROWS)
    assert "GKE's add-on" in remedies[("pod-pending", "event-exporter-gke-7bf6c99dcb-grmz7")]
    web = remedies[("pod-pending", "web-7bf6c99dcb-abcde")]
    assert "add tolerations" in web and "GKE" not in web and "add-on" not in web


def test_an_info_finding_on_a_provider_managed_component_says_nothing_of_where_to_change_it() -> None:
    # sample_dumps/oke (generated, see sample_dumps/README.md): kube-flannel's previous container
    # logged an i/o timeout at start-up (history, info) and proxymux-client carries a deprecated
    # annotation (hygiene, info). Both are OKE's, and neither asks for a change now.
    cluster = analyzer.load(str(Path(__file__).parents[2] / "sample_dumps" / "oke"))
    managed = [f for f in collect_findings(cluster) if f.status == "fail" and f.managed]
    info = [f for f in managed if f.severity == "info"]
    assert {f.rule for f in info} >= {"pod-log-errors", "deprecated-annotation"}
    assert not any("OKE writes this component back" in f.remediation for f in info)


# Trimmed from a Spanish GKE Autopilot course's `kubectl get ns` and `kubectl get pods --namespace
# kube-system` an hour after the cluster's creation, every system pod Pending (code index id
# 9882941023). Before: event-exporter-gke, konnectivity-agent, kube-dns and the rest were marked
# GKE's, but egress-nat-controller (GKE's EgressNATPolicy controller) had no component and
# antrea-controller-horizontal-autoscaler was only the generic add-on scaler: two Pending GKE pods
# left to the owner. GoogleCloudPlatform/pubsec-declarative-toolkit#457's GKE kube-system runs both.
GKE_AUTOPILOT_ROWS = """\
```
$ kubectl get ns
NAME                       STATUS   AGE
default                    Active   66m
gke-gmp-system             Active   64m
gke-managed-cim            Active   65m
kube-system                Active   66m
```

```
$ kubectl get pods --namespace kube-system
NAME                                                       READY   STATUS    RESTARTS   AGE
antrea-controller-horizontal-autoscaler-6dfb5849b6-5dxf2   0/1     Pending   0          68m
egress-nat-controller-54bddbd686-dg8q7                     0/1     Pending   0          68m
event-exporter-gke-7d996c57bf-jf7nr                        0/2     Pending   0          68m
konnectivity-agent-6c74695575-q75bp                        0/2     Pending   0          68m
```
"""


def test_gkes_egress_nat_controller_and_antrea_scaler_are_gkes() -> None:
    found = _pending(GKE_AUTOPILOT_ROWS)
    assert "gke-egress-nat-controller, part of gke" in found["egress-nat-controller-54bddbd686-dg8q7"]
    assert "antrea-controller-horizontal-autoscaler, part of gke" in found[
        "antrea-controller-horizontal-autoscaler-6dfb5849b6-5dxf2"]
    assert "konnectivity-agent, part of gke" in found["konnectivity-agent-6c74695575-q75bp"]


# Trimmed from alexellis/arkade#390 (k3s, 2021-05-03): `kubectl get pods -A`. k3s's ServiceLB then
# made the svclb-<service> DaemonSet in the Service's own namespace (here default), outside the
# system namespaces the component catalog classifies. Before: its four Pending pods were the top
# incident with no managed mark, while the same cluster's kube-system components had theirs.
K3S_SVCLB_ROWS = """\
```
$ kubectl get pods -A
NAMESPACE              NAME                                         READY   STATUS      RESTARTS   AGE
default                ingress-nginx-controller-5b74bc9868-9lc4m    1/1     Running     1          31h
default                svclb-ingress-nginx-controller-gt577         0/2     Pending     0          23h
default                svclb-ingress-nginx-controller-mmwxl         0/2     Pending     0          31h
grafana                grafana-69c6db4d7f-5jw44                     1/1     Running     0          23h
kube-system            coredns-7448499f4d-s6nlr                     1/1     Running     5          2d
kube-system            helm-install-traefik-65mj8                   0/1     Completed   1          2d
kube-system            helm-install-traefik-crd-n5w5k               0/1     Completed   0          2d
kube-system            local-path-provisioner-5ff76fc89d-lb7bm      1/1     Running     49         2d
```
"""


def test_a_pasted_k3s_servicelb_pod_beside_its_service_is_k3ss() -> None:
    cluster = analyzer.load({"issue.md": K3S_SVCLB_ROWS})
    assert cluster.distribution.name == "k3s"
    pending = {f.name: f.managed for f in collect_findings(cluster) if f.rule == "pod-pending" and f.status == "fail"}
    assert set(pending) == {"svclb-ingress-nginx-controller-gt577", "svclb-ingress-nginx-controller-mmwxl"}
    assert all("component svclb, part of k3s" in m for m in pending.values())


def test_a_pod_named_like_servicelb_on_another_distribution_is_not_marked() -> None:
    # the rows above, with the k3s rows replaced by kind's kindnet: ServiceLB is k3s's, not kind's
    rows = K3S_SVCLB_ROWS.split("kube-system")[0] + (
        "kube-system            kindnet-7xk2p                                1/1     Running     0          2d\n"
        "kube-system            etcd-kind-control-plane                      1/1     Running     0          2d\n```\n")
    cluster = analyzer.load({"issue.md": rows})
    assert cluster.distribution.name == "kind"
    pending = {f.name: f.managed for f in collect_findings(cluster) if f.rule == "pod-pending" and f.status == "fail"}
    assert pending == {"svclb-ingress-nginx-controller-gt577": "", "svclb-ingress-nginx-controller-mmwxl": ""}
