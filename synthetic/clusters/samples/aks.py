"""AKS: kubenet cluster, three VMSS nodes, a shop application (seed 000 for kube-system)."""

from __future__ import annotations

import copy
import json
from datetime import datetime, timedelta
from typing import Any

from synthetic.clusters.samples.apiserver import Cluster, Flavor, PodPlan, Run
from synthetic.clusters.samples.common import (
    COREFILE_AKS,
    add_default_namespaces,
    add_extension_apiserver_authentication,
    coredns_spec,
    crashloop,
    kube_dns_service_ports,
    kube_proxy_spec,
    running,
)
from synthetic.ids import make_uid
from synthetic.objects import Obj
from synthetic.objects.containers import (
    container,
    env_field,
    env_value,
    exec_probe,
    http_probe,
    mount,
    port,
)
from synthetic.objects.logs import app_log
from synthetic.objects.metadata import last_applied_annotation
from synthetic.objects.node_status import node_conditions, node_info
from synthetic.objects.pod_specs import cm_volume, empty_volume, host_volume, toleration
from synthetic.times import ago, ts

AKS_SUBSCRIPTION = "6f1c9a52-3d8e-4b7a-a0c4-9e2f51d7b803"
AKS_NODE_RG = "mc_rg-shop-prod_aks-shop-prod_eastus"
AKS_VERSION = "v1.29.7"
MCR = "mcr.microsoft.com/oss/kubernetes"


def aks_node_labels(name: str, index: int) -> dict[str, str]:
    """The labels AKS puts on a VMSS node of nodepool1."""
    return {
        "agentpool": "nodepool1",
        "beta.kubernetes.io/arch": "amd64",
        "beta.kubernetes.io/instance-type": "Standard_D4s_v3",
        "beta.kubernetes.io/os": "linux",
        "failure-domain.beta.kubernetes.io/region": "eastus",
        "failure-domain.beta.kubernetes.io/zone": "0",
        "kubernetes.azure.com/agentpool": "nodepool1",
        "kubernetes.azure.com/cluster": "MC_rg-shop-prod_aks-shop-prod_eastus",
        "kubernetes.azure.com/consolidated-additional-properties": make_uid("aks", "props"),
        "kubernetes.azure.com/kubelet-identity-client-id": make_uid("aks", "kubelet-identity"),
        "kubernetes.azure.com/mode": "system",
        "kubernetes.azure.com/node-image-version": "AKSUbuntu-2204gen2containerd-202408.27.0",
        "kubernetes.azure.com/nodepool-type": "VirtualMachineScaleSets",
        "kubernetes.azure.com/os-sku": "Ubuntu",
        "kubernetes.azure.com/role": "agent",
        "kubernetes.azure.com/storageprofile": "managed",
        "kubernetes.azure.com/storagetier": "Premium_LRS",
        "kubernetes.io/arch": "amd64",
        "kubernetes.io/hostname": name,
        "kubernetes.io/os": "linux",
        "kubernetes.io/role": "agent",
        "node-role.kubernetes.io/agent": "",
        "node.kubernetes.io/instance-type": "Standard_D4s_v3",
        "storageprofile": "managed",
        "storagetier": "Premium_LRS",
        "topology.disk.csi.azure.com/zone": "",
        "topology.kubernetes.io/region": "eastus",
        "topology.kubernetes.io/zone": "0",
    }


AKS_NPD_CONDITIONS = [
    ("FrequentContainerdRestart", "NoFrequentContainerdRestart", "containerd is functioning properly"),
    ("FilesystemCorruptionProblem", "FilesystemIsOK", "Filesystem is healthy"),
    ("KernelDeadlock", "KernelHasNoDeadlock", "kernel has no deadlock"),
    ("FrequentKubeletRestart", "NoFrequentKubeletRestart", "kubelet is functioning properly"),
    ("ReadonlyFilesystem", "FilesystemIsNotReadOnly", "Filesystem is not read-only"),
    ("VMEventScheduled", "NoVMEventScheduled", "VM has no scheduled event"),
    ("ContainerRuntimeProblem", "ContainerRuntimeIsUp", "container runtime service is up"),
    ("KubeletProblem", "KubeletIsUp", "kubelet service is up"),
]


def build_aks() -> Cluster:
    """The AKS sample cluster, its planted problems included."""
    created = ago(days=11, hours=3, minutes=12)
    flavor = Flavor("aks", 29, "containerd", created, "default-scheduler", "kubectl-client-side-apply")
    cluster = Cluster(flavor, [("20.62.143.17", 443)])
    shop_created = ago(days=9, hours=6)
    add_default_namespaces(cluster, created, [("shop", shop_created)])

    nodes = []
    for index in range(3):
        name = f"aks-nodepool1-12345678-vmss00000{index}"
        ip = f"10.224.0.{4 + index}"
        node_created = ago(days=7, hours=2, minutes=index) if index < 2 else ago(days=2, hours=5, minutes=40)
        memory_pressure = ago(minutes=26) if index == 2 else None
        spec: Obj = {"podCIDR": f"10.244.{index}.0/24", "podCIDRs": [f"10.244.{index}.0/24"],
                     "providerID": f"azure:///subscriptions/{AKS_SUBSCRIPTION}/resourceGroups/{AKS_NODE_RG}"
                                   f"/providers/Microsoft.Compute/virtualMachineScaleSets/aks-nodepool1-12345678-vmss"
                                   f"/virtualMachines/{index}"}
        if memory_pressure:
            spec["taints"] = [{"key": "node.kubernetes.io/memory-pressure", "effect": "NoSchedule",
                               "timeAdded": ts(memory_pressure + timedelta(seconds=1))}]
        nodes.append(cluster.add_node(
            name, ip, node_created, aks_node_labels(name, index),
            {"csi.volume.kubernetes.io/nodeid": json.dumps({"disk.csi.azure.com": name, "file.csi.azure.com": name},
                                                           separators=(",", ":")),
             "node.alpha.kubernetes.io/ttl": "0",
             "volumes.kubernetes.io/controller-managed-attach-detach": "true"},
            spec,
            {"cpu": "4", "ephemeral-storage": "129886128Ki", "hugepages-1Gi": "0", "hugepages-2Mi": "0",
             "memory": "16375060Ki", "pods": "110"},
            {"cpu": "3860m", "ephemeral-storage": "119703055367", "hugepages-1Gi": "0", "hugepages-2Mi": "0",
             "memory": "12879636Ki", "pods": "110"},
            node_info("aks", name, "5.15.0-1071-azure", "Ubuntu 22.04.4 LTS", "containerd://1.7.20-1", AKS_VERSION),
            node_conditions(ago(seconds=38 + index * 7), node_created, ("RouteCreated", "RouteController created a route"),
                            memory_pressure=memory_pressure, extra=AKS_NPD_CONDITIONS),
            [{"type": "InternalIP", "address": ip}, {"type": "Hostname", "address": name}],
            f"10.244.{index}.", 2,
        ))
    node_names = [n["metadata"]["name"] for n in nodes]
    addon_labels = {"addonmanager.kubernetes.io/mode": "Reconcile", "kubernetes.azure.com/managedby": "aks"}

    # kube-system ConfigMaps (seed 000: `kubectl get configmaps -n kube-system`)
    cluster.add_configmap("kube-system", "azure-ip-masq-agent-config", {
        "ip-masq-agent": "nonMasqueradeCIDRs:\n  - 10.244.0.0/16\n  - 10.224.0.0/12\nmasqLinkLocal: true\n"},
        created, labels={"addonmanager.kubernetes.io/mode": "EnsureExists", "component": "ip-masq-agent",
                         "kubernetes.io/cluster-service": "true"})
    coredns_labels = {"addonmanager.kubernetes.io/mode": "Reconcile", "k8s-app": "kube-dns",
                      "kubernetes.io/cluster-service": "true"}
    cluster.add_configmap("kube-system", "coredns", {"Corefile": COREFILE_AKS}, created, labels=coredns_labels,
                          annotations=last_applied_annotation({"apiVersion": "v1", "data": {"Corefile": COREFILE_AKS},
                                                    "kind": "ConfigMap", "metadata": {"annotations": {},
                                                    "labels": coredns_labels, "name": "coredns",
                                                    "namespace": "kube-system"}}))
    cluster.add_configmap("kube-system", "coredns-autoscaler", {
        "linear": '{"coresPerReplica":512,"includeUnschedulableNodes":true,"min":2,"nodesPerReplica":8,'
                  '"preventSinglePointFailure":true}'}, created + timedelta(minutes=1),
        labels={"addonmanager.kubernetes.io/mode": "EnsureExists"}, manager="cluster-proportional-autoscaler")
    cluster.add_configmap("kube-system", "coredns-custom", None, created,
                          labels={"addonmanager.kubernetes.io/mode": "EnsureExists", "k8s-app": "kube-dns",
                                  "kubernetes.io/cluster-service": "true"})
    add_extension_apiserver_authentication(cluster, created)
    overlay = {"ccpEtag": make_uid("aks", "ccp-etag"), "isSLA": "false",
               "lastUpgradeTime": "2024-09-04T09:47:31.218734552Z",
               "overlaymgrversionGoal": "Version: v20240826.240829.1 - Branch: refs/heads/official/v20240826"
                                        " - git SHA: 8f2b1c7e4 - Build date / time: 2024-08-29T17:02:11Z"}
    overlay_labels = {"addonmanager.kubernetes.io/mode": "Reconcile", "k8s-app": "overlay-upgrade"}
    cluster.add_configmap("kube-system", "overlay-upgrade-data", overlay, created + timedelta(seconds=3),
                          labels=overlay_labels,
                          annotations=last_applied_annotation({"apiVersion": "v1", "data": overlay, "kind": "ConfigMap",
                                                    "metadata": {"annotations": {}, "labels": overlay_labels,
                                                                 "name": "overlay-upgrade-data",
                                                                 "namespace": "kube-system"}}))

    # kube-system DaemonSets (seed 000: `kubectl get all -n kube-system`)
    def ds_plans() -> list[PodPlan]:
        return [PodPlan(n) for n in node_names]

    cluster.add_daemonset("kube-system", "azure-ip-masq-agent",
                          {**addon_labels, "component": "azure-ip-masq-agent", "kubernetes.io/cluster-service": "true",
                           "tier": "node"},
                          {"volumes": [{"name": "azure-ip-masq-agent-config-volume", "projected": {"sources": [
                              {"configMap": {"name": "azure-ip-masq-agent-config", "items": [
                                  {"key": "ip-masq-agent", "path": "ip-masq-agent", "mode": 444}], "optional": True}}],
                              "defaultMode": 420}}],
                           "containers": [container("azure-ip-masq-agent", "mcr.microsoft.com/aks/ip-masq-agent-v2:v0.1.11",
                                              args=["--v=2", "--resync-interval=60"],
                                              limits={"cpu": "500m", "memory": "250Mi"},
                                              requests={"cpu": "100m", "memory": "50Mi"},
                                              mounts=[mount("azure-ip-masq-agent-config-volume", "/etc/config",
                                                            read_only=True)],
                                              security={"capabilities": {"add": ["NET_ADMIN", "NET_RAW"]}})],
                           "nodeSelector": {"kubernetes.io/os": "linux"}, "hostNetwork": True,
                           "tolerations": [toleration("CriticalAddonsOnly"), toleration(effect="NoExecute"),
                                           toleration(effect="NoSchedule")],
                           "priorityClassName": "system-node-critical"},
                          ds_plans(), created, selector={"k8s-app": "azure-ip-masq-agent", "tier": "node"})
    cluster.add_daemonset("kube-system", "cloud-node-manager",
                          {**addon_labels, "component": "cloud-node-manager", "kubernetes.io/cluster-service": "true"},
                          {"containers": [container("cloud-node-manager", f"{MCR}/azure-cloud-node-manager:v1.29.8",
                                              command=["cloud-node-manager", "--node-name=$(NODE_NAME)",
                                                       "--wait-routes=true"],
                                              env=[env_field("NODE_NAME", "spec.nodeName")],
                                              limits={"cpu": "2", "memory": "512Mi"},
                                              requests={"cpu": "50m", "memory": "50Mi"})],
                           "nodeSelector": {"kubernetes.io/os": "linux"}, "serviceAccountName": "cloud-node-manager",
                           "hostNetwork": True, "tolerations": [toleration(effect="NoSchedule"),
                                                                toleration(effect="NoExecute")],
                           "priorityClassName": "system-node-critical"},
                          ds_plans(), created, selector={"k8s-app": "cloud-node-manager"})
    for driver, plugin_image in (("azuredisk", "azuredisk-csi:v1.29.9"), ("azurefile", "azurefile-csi:v1.29.6")):
        short = "disk" if driver == "azuredisk" else "file"
        csi_spec = {
            "volumes": [host_volume("socket-dir", f"/var/lib/kubelet/plugins/{short}.csi.azure.com", "DirectoryOrCreate"),
                        host_volume("mountpoint-dir", "/var/lib/kubelet/", "DirectoryOrCreate"),
                        host_volume("registration-dir", "/var/lib/kubelet/plugins_registry/", "DirectoryOrCreate"),
                        host_volume("azure-cred", "/etc/kubernetes/", "DirectoryOrCreate"),
                        host_volume("device-dir", "/dev", "Directory")],
            "containers": [
                container("liveness-probe", "mcr.microsoft.com/oss/kubernetes-csi/livenessprobe:v2.12.0",
                    args=["--csi-address=/csi/csi.sock", "--probe-timeout=3s", "--health-port=2902" if short == "disk" else "--health-port=29613"],
                    limits={"memory": "100Mi"}, requests={"cpu": "10m", "memory": "20Mi"},
                    mounts=[mount("socket-dir", "/csi")]),
                container("node-driver-registrar", "mcr.microsoft.com/oss/kubernetes-csi/csi-node-driver-registrar:v2.10.1",
                    args=["--csi-address=$(ADDRESS)", "--kubelet-registration-path=$(DRIVER_REG_SOCK_PATH)", "--v=2"],
                    env=[env_value("ADDRESS", "/csi/csi.sock"),
                         env_value("DRIVER_REG_SOCK_PATH", f"/var/lib/kubelet/plugins/{short}.csi.azure.com/csi.sock")],
                    limits={"memory": "100Mi"}, requests={"cpu": "10m", "memory": "20Mi"},
                    mounts=[mount("socket-dir", "/csi"), mount("registration-dir", "/registration")]),
                container(driver, f"mcr.microsoft.com/oss/kubernetes-csi/{plugin_image}",
                    args=["--v=5", "--endpoint=$(CSI_ENDPOINT)", "--nodeid=$(KUBE_NODE_NAME)",
                          "--enable-perf-optimization=true"],
                    env=[env_value("AZURE_CREDENTIAL_FILE", "/etc/kubernetes/azure.json"),
                         env_value("CSI_ENDPOINT", "unix:///csi/csi.sock"), env_field("KUBE_NODE_NAME", "spec.nodeName")],
                    ports=[port("healthz", 29603 if short == "disk" else 29613)],
                    limits={"memory": "2100Mi"}, requests={"cpu": "10m", "memory": "20Mi"},
                    mounts=[mount("socket-dir", "/csi"), mount("mountpoint-dir", "/var/lib/kubelet/"),
                            mount("azure-cred", "/etc/kubernetes/"), mount("device-dir", "/dev")],
                    security={"privileged": True}),
            ],
            "nodeSelector": {"kubernetes.io/os": "linux"}, "serviceAccountName": f"csi-{driver}-node-sa",
            "hostNetwork": True, "tolerations": [toleration()], "priorityClassName": "system-node-critical",
        }
        cluster.add_daemonset("kube-system", f"csi-{driver}-node", {**addon_labels, "app": f"csi-{driver}-node"},
                              csi_spec, ds_plans(), created, selector={"app": f"csi-{driver}-node"})
        windows_spec = copy.deepcopy(csi_spec)
        windows_spec["nodeSelector"] = {"kubernetes.io/os": "windows"}
        windows_spec.pop("hostNetwork")
        cluster.add_daemonset("kube-system", f"csi-{driver}-node-win", {**addon_labels, "app": f"csi-{driver}-node-win"},
                              windows_spec, [], created, selector={"app": f"csi-{driver}-node-win"})
    cluster.add_daemonset("kube-system", "kube-proxy",
                          {**addon_labels, "component": "kube-proxy", "tier": "node"},
                          kube_proxy_spec(f"{MCR}/kube-proxy:{AKS_VERSION}",
                                          ["kube-proxy", "--conntrack-max-per-core=0", "--metrics-bind-address=0.0.0.0:10249",
                                           "--cluster-cidr=10.244.0.0/16", "--detect-local-mode=ClusterCIDR",
                                           "--pod-interface-name-prefix=", "--v=3"],
                                          requests={"cpu": "100m"}),
                          [PodPlan(n, {}, created=ago(minutes=5 + i)) for i, n in enumerate(node_names)], created,
                          selector={"component": "kube-proxy", "tier": "node"})

    # kube-system Deployments
    cluster.add_deployment("kube-system", "coredns",
                           {**addon_labels, "k8s-app": "kube-dns", "kubernetes.io/cluster-service": "true",
                            "kubernetes.io/name": "CoreDNS", "version": "v20"},
                           coredns_spec(f"{MCR}/coredns:v1.9.4-hotfix.20240704", memory_limit="500Mi",
                                        extra_volumes=[cm_volume("custom-config-volume", "coredns-custom", optional=True),
                                                       empty_volume("tmp")],
                                        extra_mounts=[mount("custom-config-volume", "/etc/coredns/custom", read_only=True),
                                                      mount("tmp", "/tmp")],
                                        items=[{"key": "Corefile", "path": "Corefile"}],
                                        tolerations=[toleration("CriticalAddonsOnly")]),
                           [PodPlan(node_names[0]), PodPlan(node_names[1])], created,
                           selector={"k8s-app": "kube-dns", "version": "v20"})
    cluster.add_deployment("kube-system", "coredns-autoscaler",
                           {**addon_labels, "k8s-app": "coredns-autoscaler", "kubernetes.io/cluster-service": "true"},
                           {"containers": [container("autoscaler", f"{MCR}/autoscaler/cluster-proportional-autoscaler:v1.8.11",
                                               command=["/cluster-proportional-autoscaler", "--namespace=kube-system",
                                                        "--configmap=coredns-autoscaler", "--target=deployment/coredns",
                                                        "--default-params={\"linear\":{\"coresPerReplica\":512,"
                                                        "\"nodesPerReplica\":8,\"min\":1,\"preventSinglePointFailure\":true}}",
                                                        "--logtostderr=true", "--v=2"],
                                               limits={"cpu": "200m", "memory": "500Mi"},
                                               requests={"cpu": "20m", "memory": "10Mi"})],
                            "dnsPolicy": "ClusterFirst", "nodeSelector": {"kubernetes.io/os": "linux"},
                            "serviceAccountName": "coredns-autoscaler",
                            "tolerations": [toleration("CriticalAddonsOnly")],
                            "priorityClassName": "system-cluster-critical"},
                           [PodPlan(node_names[1])], created, selector={"k8s-app": "coredns-autoscaler"})
    cluster.add_deployment("kube-system", "konnectivity-agent",
                           {**addon_labels, "app": "konnectivity-agent", "component": "tunnel"},
                           {"volumes": [{"name": "kubeconfig", "secret": {"secretName": "konnectivity-agent"}}],
                            "containers": [container("konnectivity-agent",
                                               f"{MCR}/apiserver-network-proxy/agent:v0.1.6-hotfix.20240116",
                                               command=["/proxy-agent"],
                                               args=["--logtostderr=true", "--ca-cert=/certs/ca.crt",
                                                     "--proxy-server-host=aks-shop-prod-dns-4f8a2c1e.hcp.eastus.azmk8s.io",
                                                     "--proxy-server-port=443", "--agent-identifiers=default-route=true",
                                                     "--keepalive-time=1m"],
                                               limits={"cpu": "2", "memory": "1Gi"},
                                               requests={"cpu": "20m", "memory": "50Mi"},
                                               mounts=[mount("kubeconfig", "/certs", read_only=True)],
                                               liveness=http_probe("/healthz", 8082, initial=15, timeout=15))],
                            "nodeSelector": {"kubernetes.io/os": "linux"},
                            "serviceAccountName": "konnectivity-agent",
                            "tolerations": [toleration("CriticalAddonsOnly")],
                            "priorityClassName": "system-cluster-critical"},
                           [PodPlan(node_names[0]), PodPlan(node_names[1])], created, selector={"app": "konnectivity-agent"})
    cluster.add_deployment("kube-system", "metrics-server",
                           {**addon_labels, "k8s-app": "metrics-server", "kubernetes.io/cluster-service": "true"},
                           {"volumes": [empty_volume("tmp-dir")],
                            "containers": [container("metrics-server", f"{MCR}/metrics-server:v0.6.3",
                                               command=["/metrics-server", "--kubelet-insecure-tls",
                                                        "--kubelet-preferred-address-types=InternalIP",
                                                        "--cert-dir=/tmp", "--secure-port=4443"],
                                               ports=[port("https", 4443)],
                                               limits={"cpu": "145m", "memory": "208Mi"},
                                               requests={"cpu": "44m", "memory": "55Mi"},
                                               mounts=[mount("tmp-dir", "/tmp")],
                                               liveness=http_probe("/livez", "https", scheme="HTTPS", failure=3),
                                               readiness=http_probe("/readyz", "https", scheme="HTTPS", initial=20),
                                               security={"readOnlyRootFilesystem": True, "runAsNonRoot": True,
                                                         "runAsUser": 1000, "allowPrivilegeEscalation": False})],
                            "nodeSelector": {"kubernetes.io/os": "linux"},
                            "serviceAccountName": "metrics-server",
                            "tolerations": [toleration("CriticalAddonsOnly")],
                            "priorityClassName": "system-cluster-critical"},
                           [PodPlan(node_names[0], {"metrics-server": running(1, "Error", 1,
                                                                               started=ago(days=6, hours=22))})],
                           created, selector={"k8s-app": "metrics-server"})

    # kube-system Services
    cluster.add_service("kube-system", "kube-dns", kube_dns_service_ports()[:2], created, {"k8s-app": "kube-dns"},
                        "10.0.0.10", labels={**addon_labels, "k8s-app": "kube-dns",
                                             "kubernetes.io/cluster-service": "true", "kubernetes.io/name": "CoreDNS"})
    cluster.add_service("kube-system", "metrics-server", [{"port": 443, "targetPort": "https"}], created,
                        {"k8s-app": "metrics-server"}, "10.0.131.223",
                        labels={**addon_labels, "k8s-app": "metrics-server", "kubernetes.io/cluster-service": "true",
                                "kubernetes.io/name": "Metrics-server"})
    cluster.add_service("default", "kubernetes", [{"name": "https", "port": 443, "targetPort": 443}], created,
                        None, "10.0.0.1", labels={"component": "apiserver", "provider": "kubernetes"},
                        manager="kube-apiserver")

    build_aks_shop(cluster, node_names, shop_created)
    cluster.finish()
    return cluster


def build_aks_shop(cluster: Cluster, nodes: list[str], created: datetime) -> None:
    """The `shop` namespace: an online shop with the problems the README lists."""
    acr = "shopprodacr.azurecr.io/shop"
    frontend_config = {"API_BASE_URL": "http://cart.shop.svc.cluster.local:8080", "FEATURE_RECS": "true",
                       "LOG_LEVEL": "info"}
    cluster.add_configmap("shop", "frontend-config", frontend_config, created,
                          annotations=last_applied_annotation({"apiVersion": "v1", "data": frontend_config, "kind": "ConfigMap",
                                                    "metadata": {"annotations": {}, "name": "frontend-config",
                                                                 "namespace": "shop"}}))
    cart_config = {"application.yaml": "server:\n  port: 8080\nspring:\n  redis:\n    host: redis.shop.svc.cluster.local\n"
                                       "    port: 6379\ncart:\n  session-ttl: 30m\n"}
    cluster.add_configmap("shop", "cart-config", cart_config, created,
                          annotations=last_applied_annotation({"apiVersion": "v1", "data": cart_config, "kind": "ConfigMap",
                                                    "metadata": {"annotations": {}, "name": "cart-config",
                                                                 "namespace": "shop"}}))

    def app(name: str, image: str, port_number: int, **kw: Any) -> Obj:
        return container(name, image, ports=[port("http", port_number)], **kw)

    frontend = {"containers": [app("frontend", f"{acr}/frontend:2.4.1", 3000,
                                   env_from=[{"configMapRef": {"name": "frontend-config"}}],
                                   requests={"cpu": "100m", "memory": "128Mi"}, limits={"cpu": "500m", "memory": "256Mi"},
                                   readiness=http_probe("/healthz", "http", period=5),
                                   liveness=http_probe("/healthz", "http", initial=10))]}
    cluster.add_deployment("shop", "frontend", {"app": "frontend", "app.kubernetes.io/part-of": "shop"}, frontend,
                           [PodPlan(nodes[0]), PodPlan(nodes[1]), PodPlan(nodes[2])], created + timedelta(minutes=3),
                           selector={"app": "frontend"}, manager="kubectl-client-side-apply")
    # cart: one replica is OOM-killed over and over on the node under memory pressure.
    cart = {"volumes": [cm_volume("config", "cart-config")],
            "containers": [app("cart", f"{acr}/cart:1.8.0", 8080,
                               env=[env_value("JAVA_TOOL_OPTIONS", "-Xms256m -Xmx768m"),
                                    env_value("SPRING_CONFIG_ADDITIONAL_LOCATION", "/config/")],
                               requests={"cpu": "250m", "memory": "512Mi"}, limits={"cpu": "1", "memory": "512Mi"},
                               mounts=[mount("config", "/config", read_only=True)],
                               readiness=http_probe("/actuator/health/readiness", "http", initial=20),
                               liveness=http_probe("/actuator/health/liveness", "http", initial=60))]}
    oom = crashloop(14, "OOMKilled", 137, ago(minutes=6, seconds=42), ago(minutes=5, seconds=58))
    cluster.add_deployment("shop", "cart", {"app": "cart", "app.kubernetes.io/part-of": "shop"}, cart,
                                      [PodPlan(nodes[0]), PodPlan(nodes[2], {"cart": oom})], created + timedelta(minutes=3),
                                      selector={"app": "cart"}, manager="kubectl-client-side-apply", progress="complete")
    cart_pods = [p for p in cluster.of_kind("Pod", "shop") if p["metadata"]["name"].startswith("cart-")]
    crashing = next(p for p in cart_pods if p["spec"]["nodeName"] == nodes[2])
    cluster.add_event(crashing, "BackOff", f"Back-off restarting failed container cart in pod "
                      f"{crashing['metadata']['name']}_shop({crashing['metadata']['uid']})",
                      ago(hours=1, minutes=4), ago(minutes=1, seconds=9), 58, "Warning", host=nodes[2],
                      field_path="spec.containers{cart}")
    cluster.add_event(crashing, "Pulled", f'Container image "{acr}/cart:1.8.0" already present on machine',
                      ago(hours=1, minutes=6), ago(minutes=6, seconds=43), 14, host=nodes[2],
                      field_path="spec.containers{cart}")
    cluster.add_event(crashing, "Created", "Created container cart", ago(hours=1, minutes=6),
                      ago(minutes=6, seconds=43), 14, host=nodes[2], field_path="spec.containers{cart}")
    cluster.add_event(crashing, "Started", "Started container cart", ago(hours=1, minutes=6),
                      ago(minutes=6, seconds=42), 14, host=nodes[2], field_path="spec.containers{cart}")
    cluster.logs[("shop", crashing["metadata"]["name"], "cart", True)] = app_log(ago(minutes=6, seconds=42), [
        (0.4, "info", "Starting CartApplication v1.8.0 using Java 17.0.12"),
        (3.1, "info", "Tomcat initialized with port 8080 (http)"),
        (9.8, "info", "Started CartApplication in 10.2 seconds"),
        (31.5, "warn", "Session cache size 412311 entries exceeds soft limit 250000"),
        (43.0, "error", "java.lang.OutOfMemoryError: Java heap space"),
    ], fmt="plain")

    # recommendations: `:latest` image and a ConfigMap that was never created.
    recs = {"volumes": [cm_volume("config", "recommendations-config")],
            "containers": [app("recommendations", f"{acr}/recommendations:latest", 8081,
                               requests={"cpu": "100m", "memory": "256Mi"},
                               mounts=[mount("config", "/etc/recommendations", read_only=True)])]}
    cluster.add_deployment("shop", "recommendations", {"app": "recommendations", "app.kubernetes.io/part-of": "shop"},
                           recs, [PodPlan(nodes[1], {"recommendations": Run(state="waiting", reason="ContainerCreating",
                                                                            ever_started=False)}, no_sandbox=True,
                                          created=ago(hours=1, minutes=50))],
                           ago(hours=1, minutes=50), selector={"app": "recommendations"},
                           manager="kubectl-client-side-apply", progress="deadline")
    recs_pod = next(p for p in cluster.of_kind("Pod", "shop") if p["metadata"]["name"].startswith("recommendations-"))
    cluster.add_event(recs_pod, "FailedMount",
                      'MountVolume.SetUp failed for volume "config" : configmap "recommendations-config" not found',
                      ago(hours=1, minutes=50), ago(minutes=2, seconds=17), 57, "Warning", host=nodes[1])

    redis = {"containers": [container("redis", "redis:7.2.5", args=["--save", "", "--appendonly", "no"],
                                ports=[port("redis", 6379)], requests={"cpu": "100m", "memory": "128Mi"},
                                limits={"memory": "256Mi"},
                                liveness=exec_probe(["redis-cli", "ping"], initial=5))]}
    cluster.add_deployment("shop", "redis", {"app": "redis", "app.kubernetes.io/part-of": "shop"}, redis,
                           [PodPlan(nodes[1])], created + timedelta(minutes=2), selector={"app": "redis"},
                           manager="kubectl-client-side-apply")
    payments = {"containers": [app("payments-api", f"{acr}/payments-api:3.0.2", 8443,
                                   requests={"cpu": "200m", "memory": "256Mi"}, limits={"memory": "512Mi"},
                                   readiness=http_probe("/ready", "http"))]}
    cluster.add_deployment("shop", "payments-api", {"app": "payments-api", "app.kubernetes.io/part-of": "shop"},
                           payments, [PodPlan(nodes[0]), PodPlan(nodes[1])], created + timedelta(minutes=4),
                           selector={"app": "payments-api"}, manager="kubectl-client-side-apply")

    lb = {"ingress": [{"ip": "20.81.112.45", "ipMode": "VIP"}]}
    cluster.add_service("shop", "frontend", [{"name": "http", "port": 80, "targetPort": "http", "nodePort": 31847}],
                        created + timedelta(minutes=3), {"app": "frontend"}, "10.0.84.17", "LoadBalancer",
                        labels={"app": "frontend"}, load_balancer=lb)
    cluster.add_service("shop", "cart", [{"name": "http", "port": 8080, "targetPort": "http"}],
                        created + timedelta(minutes=3), {"app": "cart"}, "10.0.201.9", labels={"app": "cart"})
    cluster.add_service("shop", "redis", [{"name": "redis", "port": 6379, "targetPort": 6379}],
                        created + timedelta(minutes=2), {"app": "redis"}, "10.0.45.200", labels={"app": "redis"})
    cluster.add_service("shop", "recommendations", [{"name": "http", "port": 8081, "targetPort": "http"}],
                        ago(hours=1, minutes=50), {"app": "recommendations"}, "10.0.17.88",
                        labels={"app": "recommendations"})
    # payments: selects app=payments, but the pods are labelled app=payments-api.
    cluster.add_service("shop", "payments", [{"name": "https", "port": 443, "targetPort": 8443}],
                        created + timedelta(minutes=4), {"app": "payments"}, "10.0.92.31", labels={"app": "payments"})

    pressured = cluster.get("Node", "", nodes[2])
    cluster.add_event(pressured, "NodeHasInsufficientMemory",
                      f"Node {nodes[2]} status is now: NodeHasInsufficientMemory", ago(minutes=26), host=nodes[2])
    cluster.add_event(pressured, "EvictionThresholdMet", "Attempting to reclaim memory", ago(minutes=27, seconds=3),
                      ago(minutes=4, seconds=50), 9, "Warning", host=nodes[2])
    cluster.add_event(pressured, "OOMKilling",
                      "Memory cgroup out of memory: Killed process 24817 (java) total-vm:3894116kB, "
                      "anon-rss:522428kB, file-rss:21176kB, shmem-rss:0kB, UID:1000 pgtables:1316kB oom_score_adj:984",
                      ago(minutes=5, seconds=58), event_type="Warning", component="kernel-monitor", host=nodes[2])
