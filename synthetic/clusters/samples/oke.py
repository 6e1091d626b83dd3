"""OKE: three flannel worker nodes in a private subnet, a billing application (seed 002)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

from synthetic.clusters.samples.apiserver import Cluster, Flavor, PodPlan, Run
from synthetic.clusters.samples.common import (
    COREFILE_UPSTREAM,
    add_default_namespaces,
    add_extension_apiserver_authentication,
    coredns_spec,
    kube_dns_service_ports,
    kube_proxy_spec,
    running,
)
from synthetic.ids import hexid, make_uid
from synthetic.objects.containers import container, env_field, env_value, http_probe, mount, port
from synthetic.objects.logs import klog
from synthetic.objects.node_status import node_conditions, node_info
from synthetic.objects.pod_specs import cm_volume, host_volume, pvc_volume, toleration
from synthetic.times import ago

OKE_VERSION = "v1.28.2"
OCIR = "iad.ocir.io/axoxdievda5j"
APP_OCIR = "iad.ocir.io/idk7xq2mz0ab/billing"
OKE_SERVER_VERSION = {
    "major": "1", "minor": "28", "gitVersion": OKE_VERSION, "gitCommit": "89a4ea3e1e4ddd7f7572286090359983e0387b2f",
    "gitTreeState": "clean", "buildDate": "2023-09-13T09:29:07Z", "goVersion": "go1.20.8", "compiler": "gc",
    "platform": "linux/amd64",
}
OKE_COMPARTMENT = "aaaaaaaa4qkq2vq3fh5lbwxkzr6d7pgo3ylnxq5fnd2tjw6xq7aqm2c5p4xa"
OKE_NODES = (("10.0.10.10", "10.244.0.0/25", "10.244.0.", 2, "FAULT-DOMAIN-1"),
             ("10.0.10.11", "10.244.0.128/25", "10.244.0.", 130, "FAULT-DOMAIN-2"),
             ("10.0.10.12", "10.244.1.0/25", "10.244.1.", 2, "FAULT-DOMAIN-3"))


def oke_node_labels(ip: str, display: str, fault_domain: str) -> dict[str, str]:
    """The labels OKE puts on a worker node."""
    return {
        "beta.kubernetes.io/arch": "amd64",
        "beta.kubernetes.io/instance-type": "VM.Standard.E4.Flex",
        "beta.kubernetes.io/os": "linux",
        "displayName": display,
        "failure-domain.beta.kubernetes.io/region": "iad",
        "failure-domain.beta.kubernetes.io/zone": "US-ASHBURN-AD-1",
        "hostname": display,
        "internal_addr": ip,
        "kubernetes.io/arch": "amd64",
        "kubernetes.io/hostname": ip,
        "kubernetes.io/os": "linux",
        "last-migration-failure": "get_kubesvc_failure",
        "name": "pool1",
        "node-role.kubernetes.io/node": "",
        "node.info.ds_proxymux_client": "true",
        "node.info/compartment.id_prefix": "ocid1.compartment.oc1",
        "node.info/compartment.id_suffix": OKE_COMPARTMENT,
        "node.info/compartment.name": "billing-prod",
        "node.info/kubeletVersion": "v1.28",
        "node.kubernetes.io/instance-type": "VM.Standard.E4.Flex",
        "oci.oraclecloud.com/fault-domain": fault_domain,
        "oke.oraclecloud.com/node.info.private_subnet": "true",
        "oke.oraclecloud.com/node.info.private_worker": "true",
        "oke.oraclecloud.com/tenant_agent.version": "1.52.3-5f1e2c7b41-871",
        "topology.kubernetes.io/region": "iad",
        "topology.kubernetes.io/zone": "US-ASHBURN-AD-1",
    }


KUBE_PROXY_CONFIG = """apiVersion: kubeproxy.config.k8s.io/v1alpha1
bindAddress: 0.0.0.0
bindAddressHardFail: false
clientConnection:
  acceptContentTypes: ""
  burst: 0
  contentType: ""
  kubeconfig: /var/lib/kube-proxy/kubeconfig.conf
  qps: 0
clusterCIDR: 10.244.0.0/16
configSyncPeriod: 0s
conntrack:
  maxPerCore: null
  min: null
  tcpCloseWaitTimeout: null
  tcpEstablishedTimeout: null
detectLocalMode: ""
enableProfiling: false
healthzBindAddress: ""
hostnameOverride: ""
iptables:
  masqueradeAll: false
  masqueradeBit: null
  minSyncPeriod: 0s
  syncPeriod: 0s
ipvs:
  excludeCIDRs: null
  minSyncPeriod: 0s
  scheduler: ""
  strictARP: false
  syncPeriod: 0s
  tcpFinTimeout: 0s
  tcpTimeout: 0s
  udpTimeout: 0s
kind: KubeProxyConfiguration
metricsBindAddress: ""
mode: ""
nodePortAddresses: null
oomScoreAdj: null
portRange: ""
showHiddenMetricsForVersion: ""
udpIdleTimeout: 0s
winkernel:
  enableDSR: false
  networkName: ""
  sourceVip: ""
"""


def kube_proxy_kubeconfig(server: str) -> str:
    """kube-proxy's kubeconfig.conf (seeds 003/004)."""
    return f"""apiVersion: v1
kind: Config
clusters:
- cluster:
    certificate-authority: /var/run/secrets/kubernetes.io/serviceaccount/ca.crt
    server: {server}
  name: default
contexts:
- context:
    cluster: default
    namespace: default
    user: default
  name: default
current-context: default
users:
- name: default
  user:
    tokenFile: /var/run/secrets/kubernetes.io/serviceaccount/token
"""


FLANNEL_NET_CONF = '{\n  "Network": "10.244.0.0/16",\n  "Backend": {\n    "Type": "vxlan"\n  }\n}\n'
FLANNEL_CNI_CONF = """{
  "name": "cbr0",
  "cniVersion": "0.3.1",
  "plugins": [
    {
      "type": "flannel",
      "delegate": {
        "hairpinMode": true,
        "isDefaultGateway": true
      }
    },
    {
      "type": "portmap",
      "capabilities": {
        "portMappings": true
      }
    }
  ]
}
"""


def build_oke() -> Cluster:
    """The OKE sample cluster, its planted problems included."""
    created = ago(days=21, hours=7, minutes=33)
    flavor = Flavor("oke", 28, "cri-o", created, "default-scheduler-oke-control-plane", "kubectl-client-side-apply")
    cluster = Cluster(flavor, [("10.0.0.13", 6443)])
    billing_created = ago(days=17, hours=1)
    add_default_namespaces(cluster, created, [("billing", billing_created)])
    node_names = []
    for index, (ip, cidr, prefix, first_ip, fault_domain) in enumerate(OKE_NODES):
        node_created = ago(days=21, hours=7, minutes=10 - index)
        display = f"oke-c4tgmjzqzfa-nyqwd7kg4ma-s2fzl5omxta-{index}"
        instance = "ocid1.instance.oc1.iad.anuwcljt" + hexid(52, "oke", ip, "instance")[:52]
        vtep = ":".join(hexid(12, "oke", ip, "vtep")[i:i + 2] for i in range(0, 12, 2))
        cluster.add_node(
            ip, ip, node_created, oke_node_labels(ip, display, fault_domain),
            {"alpha.kubernetes.io/provided-node-ip": ip,
             "csi.volume.kubernetes.io/nodeid": json.dumps({"blockvolume.csi.oraclecloud.com": ip,
                                                            "fss.csi.oraclecloud.com": ip}, separators=(",", ":")),
             "flannel.alpha.coreos.com/backend-data": json.dumps({"VNI": 1, "VtepMAC": vtep}, separators=(",", ":")),
             "flannel.alpha.coreos.com/backend-type": "vxlan",
             "flannel.alpha.coreos.com/kube-subnet-manager": "true",
             "flannel.alpha.coreos.com/public-ip": ip,
             "node.alpha.kubernetes.io/ttl": "0",
             "oci.oraclecloud.com/compartment-id": f"ocid1.compartment.oc1..{OKE_COMPARTMENT}",
             "volumes.kubernetes.io/controller-managed-attach-detach": "true"},
            {"podCIDR": cidr, "podCIDRs": [cidr], "providerID": f"oci://{instance}"},
            {"cpu": "4", "ephemeral-storage": "37177616Ki", "hugepages-1Gi": "0", "hugepages-2Mi": "0",
             "memory": "16092636Ki", "pods": "110"},
            {"cpu": "3830m", "ephemeral-storage": "34262890849", "hugepages-1Gi": "0", "hugepages-2Mi": "0",
             "memory": "14873948Ki", "pods": "110"},
            node_info("oke", ip, "5.15.0-205.149.5.1.el8uek.x86_64", "Oracle Linux Server 8.9",
                      "cri-o://1.28.2-109.el8", OKE_VERSION),
            node_conditions(ago(seconds=19 + index * 13), node_created, ("FlannelIsUp", "Flannel is running on this node")),
            [{"type": "InternalIP", "address": ip}, {"type": "Hostname", "address": ip}],
            prefix, first_ip,
        )
        node_names.append(ip)

    cluster.add_configmap("kube-system", "coredns", {"Corefile": COREFILE_UPSTREAM}, created)
    cluster.add_configmap("kube-system", "kube-dns-autoscaler", {
        "linear": '{"coresPerReplica":256,"min":1,"nodesPerReplica":16,"preventSinglePointFailure":true}'},
        created + timedelta(minutes=1), manager="cluster-proportional-autoscaler")
    cluster.add_configmap("kube-system", "kube-flannel-cfg", {"cni-conf.json": FLANNEL_CNI_CONF,
                                                               "net-conf.json": FLANNEL_NET_CONF},
                          created, labels={"app": "flannel", "tier": "node"})
    cluster.add_configmap("kube-system", "kube-proxy", {"config.conf": KUBE_PROXY_CONFIG,
                                                         "kubeconfig.conf": kube_proxy_kubeconfig("https://10.0.0.13:6443")},
                          created, labels={"app": "kube-proxy"})
    add_extension_apiserver_authentication(cluster, created)

    def ds_plans() -> list[PodPlan]:
        return [PodPlan(n) for n in node_names]

    cluster.add_daemonset("kube-system", "csi-oci-node", {"app": "csi-oci-node", "role": "csi-oci"}, {
        "volumes": [host_volume("plugin-dir", "/var/lib/kubelet/plugins/blockvolume.csi.oraclecloud.com", "DirectoryOrCreate"),
                    host_volume("registration-dir", "/var/lib/kubelet/plugins_registry/", "Directory"),
                    host_volume("kubelet-dir", "/var/lib/kubelet", "Directory"),
                    host_volume("device-dir", "/dev"), host_volume("host-rootfs", "/"),
                    host_volume("encrypt-pv-mount-dir", "/var/lib/kubelet/plugins/blockvolume.csi.oraclecloud.com/encrypted-pv-mount", "DirectoryOrCreate")],
        "containers": [
            container("oci-csi-node-driver", f"{OCIR}/oke-public-cloud-provider-oci:v1.28.0-5a6d3a8-109",
                command=["/bin/sh", "-c", "mkdir -p /var/lib/kubelet/plugins/blockvolume.csi.oraclecloud.com && "
                         "/usr/local/bin/oci-csi-node-driver --v=2 --endpoint=unix:///csi/csi.sock "
                         "--nodeid=$(KUBE_NODE_NAME) --loglevel=debug"],
                env=[env_field("KUBE_NODE_NAME", "spec.nodeName"), env_value("PATH", "/usr/local/bin:/usr/bin:/sbin")],
                mounts=[mount("plugin-dir", "/csi"), mount("kubelet-dir", "/var/lib/kubelet"),
                        mount("device-dir", "/dev"), mount("host-rootfs", "/host"),
                        mount("encrypt-pv-mount-dir", "/var/lib/kubelet/plugins/blockvolume.csi.oraclecloud.com/encrypted-pv-mount")],
                security={"privileged": True}),
            container("csi-node-registrar", f"{OCIR}/oke-public-csi-node-driver-registrar:v2.5.0",
                args=["--csi-address=/csi/csi.sock",
                      "--kubelet-registration-path=/var/lib/kubelet/plugins/blockvolume.csi.oraclecloud.com/csi.sock"],
                mounts=[mount("plugin-dir", "/csi"), mount("registration-dir", "/registration")],
                security={"privileged": True}),
        ],
        "serviceAccountName": "csi-oci-node-sa", "hostNetwork": True, "tolerations": [toleration()],
        "priorityClassName": "system-node-critical",
    }, ds_plans(), created, selector={"app": "csi-oci-node", "role": "csi-oci"})
    flannel_restart = [running(1, "Error", 1, started=ago(days=21, hours=7, minutes=2 - i),
                               last_started=ago(days=21, hours=7, minutes=5 - i),
                               last_finished=ago(days=21, hours=7, minutes=4 - i, seconds=30)) for i in range(3)]
    cluster.add_daemonset("kube-system", "kube-flannel-ds", {"app": "flannel", "tier": "node"}, {
        "volumes": [host_volume("run", "/run/flannel"), host_volume("cni", "/etc/cni/net.d"),
                    cm_volume("flannel-cfg", "kube-flannel-cfg"),
                    host_volume("xtables-lock", "/run/xtables.lock", "FileOrCreate")],
        "initContainers": [container("install-cni", f"{OCIR}/oke-public-flannel:v0.21.5-1f4c9e0",
                               command=["cp"], args=["-f", "/etc/kube-flannel/cni-conf.json", "/etc/cni/net.d/10-flannel.conflist"],
                               mounts=[mount("cni", "/etc/cni/net.d"), mount("flannel-cfg", "/etc/kube-flannel/")])],
        "containers": [container("kube-flannel", f"{OCIR}/oke-public-flannel:v0.21.5-1f4c9e0",
                           command=["/opt/bin/flanneld"], args=["--ip-masq", "--kube-subnet-mgr"],
                           env=[env_field("POD_NAME", "metadata.name"), env_field("POD_NAMESPACE", "metadata.namespace")],
                           requests={"cpu": "100m", "memory": "50Mi"}, limits={"cpu": "100m", "memory": "50Mi"},
                           mounts=[mount("run", "/run/flannel"), mount("flannel-cfg", "/etc/kube-flannel/"),
                                   mount("xtables-lock", "/run/xtables.lock")],
                           security={"capabilities": {"add": ["NET_ADMIN", "NET_RAW"]}, "privileged": False})],
        "nodeSelector": {"beta.kubernetes.io/arch": "amd64"}, "serviceAccountName": "flannel", "hostNetwork": True,
        "tolerations": [toleration(effect="NoSchedule")], "priorityClassName": "system-node-critical",
    }, [PodPlan(n, {"kube-flannel": flannel_restart[i]}) for i, n in enumerate(node_names)], created,
        selector={"app": "flannel", "tier": "node"})
    for i, pod in enumerate(p for p in cluster.of_kind("Pod", "kube-system") if p["metadata"]["name"].startswith("kube-flannel-ds-")):
        name = pod["metadata"]["name"]
        cluster.logs[("kube-system", name, "kube-flannel", True)] = "\n".join([
            klog("I", ago(days=21, hours=7, minutes=5 - i), "main.go:212",
                 "CLI flags config: {etcdEndpoints:http://127.0.0.1:4001,http://127.0.0.1:2379 etcdPrefix:/coreos.com/network "
                 "etcdKeyfile: etcdCertfile: etcdCAFile: etcdUsername: etcdPassword: version:false kubeSubnetMgr:true "
                 "kubeApiUrl: kubeAnnotationPrefix:flannel.alpha.coreos.com kubeConfigFile: iface:[] ifaceRegex:[] "
                 "ipMasq:true ifaceCanReach: subnetFile:/run/flannel/subnet.env publicIP: publicIPv6: subnetLeaseRenewMargin:60 "
                 "healthzIP:0.0.0.0 healthzPort:0 iptablesResyncSeconds:5 iptablesForwardRules:true netConfPath:/etc/kube-flannel/net-conf.json "
                 "setNodeNetworkUnavailable:true}", name),
            klog("W", ago(days=21, hours=7, minutes=5 - i, seconds=-1), "client_config.go:617",
                 "Neither --kubeconfig nor --master was specified.  Using the inClusterConfig.  This might not work.", name),
            klog("E", ago(days=21, hours=7, minutes=4 - i, seconds=31), "main.go:335",
                 f'Error registering network: failed to acquire lease: Get "https://10.96.0.1:443/api/v1/nodes/{node_names[i]}": '
                 "dial tcp 10.96.0.1:443: i/o timeout", name),
            klog("I", ago(days=21, hours=7, minutes=4 - i, seconds=30), "main.go:446", "Stopping shutdownHandler...", name),
        ]) + "\n"
    cluster.add_daemonset("kube-system", "kube-proxy", {"k8s-app": "kube-proxy"},
                          kube_proxy_spec(f"{OCIR}/oke-public-kube-proxy:v1.28.2-1",
                                          ["/usr/local/bin/kube-proxy", "--config=/var/lib/kube-proxy/config.conf",
                                           "--hostname-override=$(NODE_NAME)"],
                                          extra_volumes=[cm_volume("kube-proxy", "kube-proxy")],
                                          extra_mounts=[mount("kube-proxy", "/var/lib/kube-proxy")],
                                          node_selector={"beta.kubernetes.io/os": "linux"}),
                          ds_plans(), created, selector={"k8s-app": "kube-proxy"})
    cluster.add_daemonset("kube-system", "nvidia-gpu-device-plugin", {"k8s-app": "nvidia-gpu-device-plugin"}, {
        "volumes": [host_volume("device-plugin", "/var/lib/kubelet/device-plugins")],
        "containers": [container("nvidia-gpu-device-plugin", f"{OCIR}/oke-public-nvidia-k8s-device-plugin:v0.14.5",
                           requests={"cpu": "50m", "memory": "10Mi"}, limits={"cpu": "50m", "memory": "10Mi"},
                           mounts=[mount("device-plugin", "/var/lib/kubelet/device-plugins")],
                           security={"privileged": True})],
        "nodeSelector": {"nvidia.com/gpu": "true"}, "tolerations": [toleration("nvidia.com/gpu", effect="NoSchedule")],
        "priorityClassName": "system-node-critical",
    }, [], created, selector={"k8s-app": "nvidia-gpu-device-plugin"})
    # proxymux-client exactly as the OKE seed shows it (served as apps/v1 by a 1.28 API server).
    critical = {"scheduler.alpha.kubernetes.io/critical-pod": ""}
    cluster.add_daemonset("kube-system", "proxymux-client", {"oke-app": "proxymux-client-ds"}, {
        "volumes": [host_volume("proxymux-cfg", "/etc/proxymux/"), host_volume("kubernetes-cfg", "/etc/kubernetes/")],
        "containers": [container("proxymux-client", f"{OCIR}/oke-public-proxymux-cli:2.0.2-85d0c34",
                           args=["--config=/mnt/etc/proxymux/config.yaml", "--verbosity=info"],
                           limits={"cpu": "500m", "memory": "256Mi"}, requests={"cpu": "50m", "memory": "64Mi"},
                           mounts=[mount("proxymux-cfg", "/mnt/etc/proxymux/", read_only=True),
                                   mount("kubernetes-cfg", "/etc/kubernetes/", read_only=True)],
                           security={"privileged": True})],
        "dnsPolicy": "ClusterFirst", "hostNetwork": True, "nodeSelector": {"node.info.ds_proxymux_client": "true"},
        "priorityClassName": "system-node-critical",
    }, ds_plans(), created, annotations=critical, pod_annotations=critical, selector={"oke-app": "proxymux-client-ds"})

    cluster.add_deployment("kube-system", "coredns", {"k8s-app": "kube-dns", "kubernetes.io/name": "CoreDNS"},
                           coredns_spec(f"{OCIR}/oke-public-coredns:v1.10.1"),
                           [PodPlan(n) for n in node_names], created, selector={"k8s-app": "kube-dns"})
    cluster.add_deployment("kube-system", "kube-dns-autoscaler", {"k8s-app": "kube-dns-autoscaler"}, {
        "containers": [container("autoscaler", f"{OCIR}/oke-public-cluster-proportional-autoscaler-amd64:1.8.6",
                           command=["/cluster-proportional-autoscaler", "--namespace=kube-system",
                                    "--configmap=kube-dns-autoscaler", "--target=Deployment/coredns",
                                    "--default-params={\"linear\":{\"coresPerReplica\":256,\"nodesPerReplica\":16,"
                                    "\"preventSinglePointFailure\":true,\"includeUnschedulableNodes\":true}}",
                                    "--logtostderr=true", "--v=2"],
                           requests={"cpu": "20m", "memory": "10Mi"})],
        "serviceAccountName": "kube-dns-autoscaler", "tolerations": [toleration("CriticalAddonsOnly")],
        "priorityClassName": "system-cluster-critical",
    }, [PodPlan(node_names[1])], created, selector={"k8s-app": "kube-dns-autoscaler"})
    cluster.add_service("kube-system", "kube-dns", kube_dns_service_ports(), created, {"k8s-app": "kube-dns"},
                        "10.96.0.10", labels={"k8s-app": "kube-dns", "kubernetes.io/cluster-service": "true",
                                              "kubernetes.io/name": "KubeDNS"},
                        annotations={"prometheus.io/port": "9153", "prometheus.io/scrape": "true"})
    cluster.add_service("default", "kubernetes", [{"name": "https", "port": 443, "targetPort": 6443}], created, None,
                        "10.96.0.1", labels={"component": "apiserver", "provider": "kubernetes"},
                        manager="kube-apiserver")
    cluster.add_storageclass("oci", "oracle.com/oci", created, {}, False, "Immediate", expansion=False)
    cluster.add_storageclass("oci-bv", "blockvolume.csi.oraclecloud.com", created, {}, True, "WaitForFirstConsumer")
    build_oke_billing(cluster, node_names, billing_created)
    cluster.finish()
    cluster.server_version = OKE_SERVER_VERSION
    return cluster


def build_oke_billing(cluster: Cluster, nodes: list[str], created: datetime) -> None:
    """The `billing` namespace and its planted problems."""
    invoice = {"containers": [container("invoice-api", f"{APP_OCIR}/invoice-api:4.2.0", ports=[port("http", 8080)],
                                  env=[env_value("DB_HOST", "billing-db.billing.svc.cluster.local")],
                                  requests={"cpu": "200m", "memory": "256Mi"}, limits={"memory": "512Mi"},
                                  readiness=http_probe("/health/ready", "http"))]}
    cluster.add_deployment("billing", "invoice-api", {"app": "invoice-api"}, invoice,
                           [PodPlan(nodes[0]), PodPlan(nodes[2])], created, manager="kubectl-client-side-apply")
    lb_annotations = {"oci.oraclecloud.com/load-balancer-type": "lb",
                      "service.beta.kubernetes.io/oci-load-balancer-shape": "flexible",
                      "service.beta.kubernetes.io/oci-load-balancer-shape-flex-max": "100",
                      "service.beta.kubernetes.io/oci-load-balancer-shape-flex-min": "10"}
    lb_created = ago(hours=3, minutes=20)
    service = cluster.add_service("billing", "invoice-api", [{"name": "http", "port": 80, "targetPort": "http",
                                                              "nodePort": 31390}],
                                  lb_created, {"app": "invoice-api"}, "10.96.12.87", "LoadBalancer",
                                  labels={"app": "invoice-api"}, annotations=lb_annotations)
    cluster.add_event(service, "EnsuringLoadBalancer", "Ensuring load balancer", lb_created + timedelta(seconds=1),
                      ago(minutes=7, seconds=40), 27, component="service-controller")
    cluster.add_event(service, "SyncLoadBalancerFailed",
                      "Error syncing load balancer: failed to ensure load balancer: failed to create load balancer "
                      "\"a8c3f0e2b1d94e6fa7b52c9d0e1f2a3b\": Service error:LimitExceeded. The following service limits "
                      "were exceeded: lb-flexible-count. Request a service limit increase from the service limits page "
                      "in the console. . http status code: 400. Opc request id: "
                      + hexid(32, "oke", "opc-request").upper(),
                      lb_created + timedelta(seconds=9), ago(minutes=7, seconds=31), 27, "Warning",
                      component="service-controller")

    # billing-worker: `:latest`, and its settings ConfigMap does not exist.
    worker_image = f"{APP_OCIR}/worker:latest"
    worker = {"containers": [container("billing-worker", worker_image, env_from=[{"configMapRef": {"name": "billing-settings"}}],
                                 requests={"cpu": "100m", "memory": "128Mi"})]}
    worker_since = ago(hours=1, minutes=12)
    cluster.add_deployment("billing", "billing-worker", {"app": "billing-worker"}, worker,
                           [PodPlan(nodes[1], {"billing-worker": Run(state="waiting", reason="CreateContainerConfigError",
                                                                     message='configmap "billing-settings" not found',
                                                                     ever_started=False)}, created=worker_since)],
                           worker_since, manager="kubectl-client-side-apply", progress="deadline")
    worker_pod = next(p for p in cluster.of_kind("Pod", "billing") if p["metadata"]["name"].startswith("billing-worker-"))
    path = "spec.containers{billing-worker}"
    cluster.add_event(worker_pod, "Pulling", f'Pulling image "{worker_image}"', worker_since + timedelta(seconds=2),
                      ago(minutes=1, seconds=52), 331, host=nodes[1], field_path=path)
    cluster.add_event(worker_pod, "Pulled", f'Successfully pulled image "{worker_image}" in 412ms (412ms including waiting)',
                      worker_since + timedelta(seconds=3), ago(minutes=1, seconds=51), 331, host=nodes[1],
                      field_path=path)
    cluster.add_event(worker_pod, "Failed", 'Error: configmap "billing-settings" not found',
                      worker_since + timedelta(seconds=3), ago(minutes=1, seconds=51), 331, "Warning", host=nodes[1],
                      field_path=path)

    # billing-db: its claim asks for a StorageClass that does not exist, so it never binds.
    claim = cluster.add_pvc("billing", "billing-db-data", "100Gi", "oci-bv-premium", created + timedelta(minutes=4))
    cluster.add_event(claim, "ProvisioningFailed", 'storageclass.storage.k8s.io "oci-bv-premium" not found',
                      created + timedelta(minutes=4), ago(minutes=2, seconds=3), 4312, "Warning",
                      component="persistentvolume-controller")
    database = {"volumes": [pvc_volume("data", "billing-db-data")],
                "containers": [container("postgres", "postgres:15.8", ports=[port("postgres", 5432)],
                                   env=[env_value("POSTGRES_DB", "billing"),
                                        env_value("PGDATA", "/var/lib/postgresql/data/pgdata")],
                                   requests={"cpu": "500m", "memory": "1Gi"}, limits={"memory": "2Gi"},
                                   mounts=[mount("data", "/var/lib/postgresql/data")])]}
    message = ("0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are "
               "available: 3 Preemption is not helpful for scheduling..")
    cluster.add_deployment("billing", "billing-db", {"app": "billing-db"}, database,
                           [PodPlan(None, unschedulable=message, created=created + timedelta(minutes=4))],
                           created + timedelta(minutes=4), manager="kubectl-client-side-apply", progress="deadline")
    db_pod = next(p for p in cluster.of_kind("Pod", "billing") if p["metadata"]["name"].startswith("billing-db-"))
    cluster.add_scheduler_event(db_pod, message, ago(minutes=58), ago(minutes=3, seconds=21), 12)

    # reports: healthy, with a bound block volume.
    archive = cluster.add_pvc("billing", "invoice-archive", "50Gi", "oci-bv", created + timedelta(minutes=5),
                              volume="csi-" + make_uid("oke", "pv", "invoice-archive"))
    cluster.add_pv("csi-" + make_uid("oke", "pv", "invoice-archive"), archive, "50Gi", "blockvolume.csi.oraclecloud.com",
                   "ocid1.volume.oc1.iad.abuwcljt" + hexid(52, "oke", "volume"), "oci-bv",
                   "topology.kubernetes.io/zone", "US-ASHBURN-AD-1", created + timedelta(minutes=6))
    reports = {"volumes": [pvc_volume("archive", "invoice-archive")],
               "containers": [container("reports", f"{APP_OCIR}/reports:1.9.3", ports=[port("http", 8080)],
                                  requests={"cpu": "100m", "memory": "256Mi"},
                                  mounts=[mount("archive", "/srv/archive")])]}
    cluster.add_deployment("billing", "reports", {"app": "reports"}, reports, [PodPlan(nodes[2])],
                           created + timedelta(minutes=5), manager="kubectl-client-side-apply")

    # A schema migration Job that failed because billing-db never came up.
    job_created = ago(hours=2, minutes=5)
    migrate = {"containers": [container("migrate", f"{APP_OCIR}/migrations:4.2.0",
                                  command=["sh", "-c", "psql -h billing-db.billing.svc.cluster.local -U billing -f /migrations/042_invoices_v2.sql"])],
               "restartPolicy": "Never"}
    failed_runs = [PodPlan(nodes[i], {"migrate": Run(state="terminated", reason="Error", exit_code=2,
                                                     started=job_created + timedelta(minutes=i, seconds=4),
                                                     last_finished=job_created + timedelta(minutes=i, seconds=5))},
                           phase="Failed", created=job_created + timedelta(minutes=i)) for i in range(2)]
    cluster.add_job("billing", "billing-migrate-20240915", migrate, failed_runs, job_created, 1,
                    job_created + timedelta(minutes=1, seconds=6))
    for pod in cluster.of_kind("Pod", "billing"):
        if pod["metadata"]["name"].startswith("billing-migrate-"):
            cluster.logs[("billing", pod["metadata"]["name"], "migrate", False)] = (
                'psql: error: connection to server at "billing-db.billing.svc.cluster.local" (10.96.201.40), port 5432 '
                "failed: Connection refused\n\tIs the server running on that host and accepting TCP/IP connections?\n")
    cluster.add_service("billing", "billing-db", [{"name": "postgres", "port": 5432, "targetPort": 5432}],
                        created + timedelta(minutes=4), {"app": "billing-db"}, "10.96.201.40", labels={"app": "billing-db"})
    cluster.add_service("billing", "reports", [{"name": "http", "port": 80, "targetPort": "http"}],
                        created + timedelta(minutes=5), {"app": "reports"}, "10.96.77.152", labels={"app": "reports"})
