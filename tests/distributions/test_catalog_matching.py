"""Matching workload names to catalog components: the most specific pattern wins.

Names are real ones: RKE2 and k3s kube-system workloads (realdata/rke2, realdata/k3s), the AKS and
OKE seeds (000, 002), the kubeadm/kind/OpenShift dumps. Roles, not component names, are asserted
so the catalog's naming can evolve.
"""

from __future__ import annotations

import pytest

import analyzer
from analyzer.distributions.catalog import Catalog, CatalogEntry, load_catalog
from analyzer.distributions.workloads import guess_from_pod_name

CASES = [
    ("coredns", "dns"), ("rke2-coredns-rke2-coredns", "dns"),
    ("coredns-autoscaler", "autoscaler"), ("kube-dns-autoscaler", "autoscaler"),
    ("rke2-coredns-rke2-coredns-autoscaler", "autoscaler"),
    ("csi-azuredisk-node", "csi"), ("csi-azuredisk-node-win", "csi"),
    ("kube-flannel-ds", "cni"), ("calico-node", "cni"), ("rke2-canal", "cni"), ("kindnet", "cni"),
    ("svclb-traefik-8ea5448e", "load-balancer"), ("traefik", "ingress"),
    ("metallb-speaker", "load-balancer"), ("metallb-controller", "load-balancer"),
    ("helm-install-traefik", "addon-manager"),
    ("konnectivity-agent", "api-tunnel"), ("proxymux-client", "api-tunnel"),
    ("kube-apiserver", "control-plane"), ("etcd", "control-plane"),
    ("kube-proxy", "kube-proxy"), ("metrics-server", "metrics"), ("rke2-metrics-server", "metrics"),
    # GKE's add-on scalers (Neutrollized/free-tier-gke#6's kube-system): not the add-on they scale
    ("antrea-controller-horizontal-autoscaler", "autoscaler"), ("antrea-controller", "cni"),
    ("calico-typha-horizontal-autoscaler", "autoscaler"), ("calico-node-vertical-autoscaler", "autoscaler"),
    # GKE's egress NAT policy controller (GoogleCloudPlatform/pubsec-declarative-toolkit#457's kube-system)
    ("egress-nat-controller", "cni"),
]


@pytest.mark.parametrize(("name", "role"), CASES)
def test_real_names_get_their_role(name: str, role: str) -> None:
    entry = load_catalog().match(name, ())
    assert entry is not None and entry.role == role, (name, entry)


def test_a_helm_install_job_of_a_bundled_chart_is_the_platform_s_one_of_the_owner_s_chart_is_not() -> None:
    # k3s-io/k3s#10627 and rancher/rke2#6446: helm-install-apache, a HelmChart the tester wrote
    catalog = load_catalog()
    for bundled in ("helm-install-traefik", "helm-install-traefik-crd", "helm-install-rke2-canal"):
        assert catalog.match(bundled, ()).platform_of("k3s" if "rke2" not in bundled else "rke2")
    owners = catalog.match("helm-install-apache", ())
    assert owners.role == "addon-manager" and owners.user_installed and not owners.platform_of("k3s")


def test_unknown_names_match_nothing() -> None:
    assert load_catalog().match("supportbundle-manager-bundle-o3n28", ()) is None


def test_images_name_a_component_when_its_name_does_not() -> None:
    catalog = Catalog((
        CatalogEntry("coredns", ("coredns",), (r"/coredns(/coredns)?:",), "dns", (), True, ""),
        CatalogEntry("coredns-autoscaler", ("coredns-autoscaler",), (), "autoscaler", (), False, ""),
    ))
    assert catalog.match("cluster-dns", ("registry.k8s.io/coredns/coredns:v1.11.1",)).name == "coredns"
    # A name match beats an image match, and the longer exact name beats the prefix.
    assert catalog.match("coredns-autoscaler", ("registry.k8s.io/coredns/coredns:v1.11.1",)).name == "coredns-autoscaler"
    assert catalog.match("coredns-custom", ()).name == "coredns"  # `coredns-` prefix
    assert catalog.match("mycoredns", ()) is None


def test_bad_catalog_entries_fail_when_loaded(tmp_path) -> None:
    path = tmp_path / "catalog.yaml"
    path.write_text("components:\n  - {name: x, match: [x], role: wizardry}\n")
    with pytest.raises(ValueError, match=r"entry 1 \(x\): unknown role 'wizardry'"):
        load_catalog(path)


# kube-system/kube-dns of sonobuoy's results-0.10 (vmware-tanzu/sonobuoy testdata, kubeadm v1.8.4 on
# EC2, 2017): the Deployment's containers, trimmed from resources/ns/kube-system/Deployments.json.
KUBE_DNS_1_8_IMAGES = ("gcr.io/google_containers/k8s-dns-kube-dns-amd64:1.14.5",
                       "gcr.io/google_containers/k8s-dns-dnsmasq-nanny-amd64:1.14.5",
                       "gcr.io/google_containers/k8s-dns-sidecar-amd64:1.14.5")


def test_kube_dns_is_named_kube_dns_not_coredns() -> None:
    catalog = load_catalog()
    entry = catalog.match("kube-dns", KUBE_DNS_1_8_IMAGES)
    assert entry is not None and (entry.name, entry.role, entry.critical) == ("kube-dns", "dns", True)
    # its images alone say so too (a pod whose name was cut), and a pasted row with no image by its name
    assert catalog.match("dns-7d9f", KUBE_DNS_1_8_IMAGES).name == "kube-dns"
    assert catalog.match("kube-dns", ()).name == "kube-dns"
    # OKE's own builds (oke-coresvcs-k8s-dns-kube-dns-amd64: OCI image names listed in apache/lucene's
    # TestLowercaseAsciiCompression, LUCENE-10551)
    assert catalog.match("dns-7d9f", ("iad.ocir.io/oracle/oke-coresvcs-k8s-dns-kube-dns-amd64@sha256:2cf3",)).name == "kube-dns"
    # realdata/kubeadm/cka-3c97-cluster-info-dump: kubeadm 1.21's coredns Deployment stays CoreDNS
    assert catalog.match("coredns", ("k8s.gcr.io/coredns/coredns:v1.8.0",)).name == "coredns"
    # a workload named kube-dns that runs CoreDNS's image is CoreDNS: the image says what runs
    assert catalog.match("kube-dns", ("k8s.gcr.io/coredns/coredns:v1.8.0",)).name == "coredns"
    assert catalog.match("kube-dns-autoscaler", KUBE_DNS_1_8_IMAGES[:1]).name == "kube-dns-autoscaler"


# An AKS 1.33 cluster with Azure CNI powered by Cilium and the Key Vault secrets provider, from a
# public blog post on the Blob CSI driver ("A look at the options on the CSI StorageClass"): its
# `k get daemonsets.apps -n kube-system`, trimmed to the add-ons' DaemonSets. Seven were of no
# known role; and the Helm chart's cluster autoscaler of an EKS write-up's kube-system
# (`autoscaler-aws-cluster-autoscaler-ffb695cd5-l8fs5`, release `autoscaler`).
AKS_ADDON_DAEMONSETS = """df@df-2404lts:~$ k get daemonsets.apps -n kube-system
NAME                                       DESIRED   CURRENT   READY   UP-TO-DATE   AVAILABLE   NODE SELECTOR              AGE
aks-secrets-store-csi-driver               3         3         3       3            3           <none>                     4h7m
aks-secrets-store-csi-driver-windows       0         0         0       0            0           <none>                     4h7m
aks-secrets-store-provider-azure           3         3         3       3            3           kubernetes.io/os=linux     4h7m
azure-cns                                  3         3         3       3            3           <none>                     4h7m
cilium                                     3         3         3       3            3           <none>                     4h7m
retina-agent                               0         0         0       0            0           <none>                     4h7m
retina-agent-win                           0         0         0       0            0           kubernetes.io/os=windows   4h7m
windows-kube-proxy-initializer             0         0         0       0            0           <none>                     4h7m
"""


def test_aks_add_on_daemonsets_have_their_roles(tmp_path) -> None:
    path = tmp_path / "aks-daemonsets.md"
    path.write_text(AKS_ADDON_DAEMONSETS, encoding="utf-8")
    cluster = analyzer.load(path)
    assert cluster.distribution.name == "aks"
    roles = dict(zip(cluster.tables.components["name"], cluster.tables.components["role"], strict=True))
    assert roles == {
        "aks-secrets-store-csi-driver": "csi", "aks-secrets-store-csi-driver-windows": "csi",
        "aks-secrets-store-provider-azure": "csi", "azure-cns": "cni", "cilium": "cni",
        "retina-agent": "logging-monitoring", "retina-agent-win": "logging-monitoring",
        "windows-kube-proxy-initializer": "kube-proxy",
    }


def test_the_helm_chart_s_cluster_autoscaler_is_the_autoscaler_whatever_its_release() -> None:
    catalog = load_catalog()
    for name in ("autoscaler-aws-cluster-autoscaler", "cluster-autoscaler-aws-cluster-autoscaler"):
        assert catalog.match(name, ()).name == "cluster-autoscaler"
    # the autoscalers of an add-on keep their own entry
    assert catalog.match("coredns-autoscaler", ()).name != "cluster-autoscaler"


# The kube-system pods of an aks-engine cluster with two Windows nodes, as
# kubernetes-sigs/azuredisk-csi-driver#553's CI printed them (trimmed, the namespace column
# added): azure-cni-networkmonitor (an AKS DaemonSet as well, Azure/AKS#820) was of no role.
AKS_ENGINE_WINDOWS_PODS = """\
NAMESPACE     NAME                                            READY   STATUS    RESTARTS   AGE   IP             NODE                    NOMINATED NODE   READINESS GATES
kube-system   azure-cni-networkmonitor-tq245                  1/1     Running   0          49m   10.255.255.5   k8s-master-36832705-0   <none>           <none>
kube-system   azure-ip-masq-agent-hnnvf                       1/1     Running   0          49m   10.255.255.5   k8s-master-36832705-0   <none>           <none>
kube-system   coredns-56db558fb9-jqm7k                        1/1     Running   0          50m   10.240.0.90    k8s-master-36832705-0   <none>           <none>
kube-system   csi-azuredisk-controller-67bc4787b5-w2v4n       5/5     Running   0          47m   10.255.255.5   k8s-master-36832705-0   <none>           <none>
kube-system   csi-azuredisk-node-win-nldq6                    3/3     Running   12         47m   10.240.0.10    3683k8s001              <none>           <none>
"""


def test_windows_pools_system_workloads_have_their_roles(tmp_path) -> None:
    path = tmp_path / "pods.txt"
    path.write_text(AKS_ENGINE_WINDOWS_PODS, encoding="utf-8")
    components = analyzer.load(path).tables.components
    roles = dict(zip(components["name"], components["role"], strict=True))
    assert roles["azure-cni-networkmonitor"] == "cni" and roles["csi-azuredisk-node-win"] == "csi"
    assert "unknown" not in roles.values(), roles
    catalog = load_catalog()
    # EKS's legacy Windows support as `eksctl utils install-vpc-controllers` creates it
    # (eksctl-io/eksctl#1452: Deployment.apps/vpc-resource-controller; #2721's pod
    # vpc-admission-webhook-54f799f5c-hmt6m), the owner's install, not the provider's
    for name in ("vpc-resource-controller", "vpc-admission-webhook"):
        entry = catalog.match(name, ())
        assert (entry.name, entry.role, entry.user_installed) == ("vpc-resource-controller", "cni", True)
    # the SMB CSI driver's Windows node plugin (kubernetes-csi/csi-driver-smb#225) and the Secrets
    # Store driver's chart as Azure/secrets-store-csi-driver-provider-azure#336 lists it; AKS's own
    # Key Vault add-on keeps its entry
    assert catalog.match("csi-smb-node-win", ()).role == "csi"
    assert catalog.match("csi-secrets-store-secrets-store-csi-driver-windows", ()).name == "secrets-store-csi-driver"
    assert catalog.match("aks-secrets-store-csi-driver-windows", ()).name == "aks-secrets-store-csi-driver"


# A GKE lab write-up's `kubectl get pods --all-namespaces` (Anthos Service Mesh on GKE, code index
# id 13860805360), trimmed: Google Managed Prometheus's collection runs beside its operator in
# gmp-system as `collector`, `rule-evaluator` and `alertmanager`, names plain enough that only their
# namespace tells them; they were of no role. Elsewhere a `collector` is not GMP's.
GKE_GMP_PODS = """\
NAMESPACE        NAME                                                    READY   STATUS    RESTARTS        AGE
gmp-system       alertmanager-0                                          2/2     Running   0               6h16m
gmp-system       collector-kvnjl                                         2/2     Running   0               6h11m
gmp-system       collector-mc7fx                                         2/2     Running   0               6h11m
gmp-system       gmp-operator-5c469746b-xqhl7                            1/1     Running   0               6h16m
gmp-system       rule-evaluator-868cb9b64b-5l287                         2/2     Running   2 (6h11m ago)   6h11m
kube-system      event-exporter-gke-7d996c57bf-vs54l                     2/2     Running   0               6h16m
kube-system      gke-metrics-agent-gzhgs                                 2/2     Running   0               6h11m
"""


def test_gmp_s_collection_is_known_by_its_namespace() -> None:
    cluster = analyzer.load({"gke-pods.md": GKE_GMP_PODS})
    assert cluster.distribution.name == "gke"
    gmp = cluster.tables.components.query("namespace == 'gmp-system'")
    assert sorted(zip(gmp["kind"], gmp["component"], gmp["role"], strict=True)) == [
        ("DaemonSet", "gmp-collector", "logging-monitoring"), ("Deployment", "gmp-operator", "logging-monitoring"),
        ("Deployment", "gmp-rule-evaluator", "logging-monitoring"),
        ("StatefulSet", "gmp-alertmanager", "logging-monitoring")]
    assert load_catalog().by_name("gmp-collector").platform_of("gke")
    assert load_catalog().match("collector", (), namespace="opentelemetry") is None


# A Quobyte-on-GKE write-up's `kubectl get pods -A` (code index id 25094939651), trimmed: GKE ran
# kube-proxy as a static pod on each node (`kube-proxy-<node>`, the node named
# `gke-<cluster>-<pool>-<8 hex>-<4 chars>`), pasted without a NODE column; each was a component of
# its own ("Pod"), and the legacy Stackdriver agents had no role.
GKE_STATIC_KUBE_PROXY_PODS = """\
NAMESPACE     NAME                                                        READY   STATUS    RESTARTS   AGE
kube-system   kube-dns-7bb4975665-j2fqx                                   4/4     Running   0          67m
kube-system   kube-proxy-gke-bbtest-default-pool-dcc88ad3-mr6m            1/1     Running   0          67m
kube-system   kube-proxy-gke-bbtest-default-pool-dcc88ad3-pn68            1/1     Running   0          67m
kube-system   kube-proxy-gke-bbtest-default-pool-dcc88ad3-t6f8            1/1     Running   0          67m
kube-system   prometheus-to-sd-2l4wc                                      1/1     Running   0          67m
kube-system   stackdriver-metadata-agent-cluster-level-756cbb8bb5-f7999   2/2     Running   1          67m
"""


def test_gke_s_static_kube_proxy_pods_are_one_component_without_their_nodes() -> None:
    cluster = analyzer.load({"gke-pods.md": GKE_STATIC_KUBE_PROXY_PODS})
    table = cluster.tables.components
    proxy = table[table["role"] == "kube-proxy"]
    assert list(zip(proxy["kind"], proxy["name"], proxy["desired"], proxy["ready"], strict=True)) == [
        ("StaticPod", "kube-proxy", 3, 3)]
    roles = dict(zip(table["name"], table["role"], strict=True))
    assert roles["prometheus-to-sd"] == roles["stackdriver-metadata-agent-cluster-level"] == "logging-monitoring"
    # a node's name inside a component's own (a cluster named gke-gke) is not the component's
    assert guess_from_pod_name("kube-proxy-gke-gke-gke-node-pool-0228a416-n852", None) == ("StaticPod", "kube-proxy")
    assert guess_from_pod_name("event-exporter-gke-77cccd97c6-6qctn", None) == ("Deployment", "event-exporter-gke")


# kubernetes-sigs/kubespray#8882 (Cinder CSI on a kubespray cluster on OpenStack), its
# `kubectl get pods --all-namespaces | grep -i csi`, trimmed: the driver's controller and node
# plugins, crash-looping, were components of no known role, as were RKE2's
# openstack-cinder-csi-nodeplugin (a `kubectl describe node` of an RKE2 cluster on OpenStack) and
# the names of kubernetes/cloud-provider-openstack#1126 and kubernetes/kubernetes#74162.
KUBESPRAY_CINDER_CSI_PODS = """\
$ kubectl get pods --all-namespaces  | grep -i csi
kube-system     csi-cinder-controllerplugin-75bf79fb8c-tmdzf   5/6     CrashLoopBackOff   8 (69s ago)       16m
kube-system     csi-cinder-nodeplugin-9mwrx                    2/3     CrashLoopBackOff   247 (3m43s ago)   20h
kube-system     csi-cinder-nodeplugin-ln695                    2/3     CrashLoopBackOff   247 (3m49s ago)   20h
"""


def test_a_csi_driver_the_catalog_does_not_name_is_a_csi_driver_by_its_plugins_names(tmp_path) -> None:
    path = tmp_path / "pods.txt"
    path.write_text(KUBESPRAY_CINDER_CSI_PODS, encoding="utf-8")
    cluster = analyzer.load(path)
    roles = dict(zip(cluster.tables.components["name"], cluster.tables.components["role"], strict=True))
    assert roles == {"csi-cinder-controllerplugin": "csi", "csi-cinder-nodeplugin": "csi"}
    # the report's CSI drivers name them, not the catalog's entry for any driver
    assert cluster.distribution.csi_drivers == ["csi-cinder-controllerplugin", "csi-cinder-nodeplugin"]
    catalog = load_catalog()
    for name in ("openstack-cinder-csi-nodeplugin", "openstack-cinder-csi-controllerplugin",
                 "csi-cinder-controllerplugin", "csi-nodeplugin-cinderplugin"):
        assert catalog.match(name, ()).role == "csi", name
    # a driver the catalog names keeps its entry, by its workload's name or its pods'
    assert catalog.match("csi-azuredisk-node-win-nldq6", ()).name == "csi-azuredisk-node"
    assert catalog.match("ebs-csi-controller", ()).name == "ebs-csi-controller"
    # by the registrar every node plugin runs, whatever the plugin's name
    registrar = ("quay.io/k8scsi/csi-node-driver-registrar:v1.2.0", "docker.io/k8scloudprovider/cinder-csi-plugin:latest")
    assert catalog.match("cinder-plugin", registrar).role == "csi"
