"""Container logs of the sample clusters as `kubectl logs` returns them: the scenario's own, a
component's usual start-up lines, or the error kubectl prints when the kubelet cannot give one."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from synthetic.clusters.samples.apiserver import Cluster
from synthetic.ids import hexid, pick
from synthetic.objects import Obj
from synthetic.objects.logs import app_log, coredns_log, json_log_lines, klog, kube_proxy_log
from synthetic.times import CAPTURE, ago


def default_log(cluster: Cluster, pod: Obj, container: Obj) -> str:
    """What `kubectl logs` returns for a container that no scenario gave a log of its own."""
    name = container["name"]
    pod_name = pod["metadata"]["name"]
    node = pod["spec"].get("nodeName", "")
    status = next((s for s in pod["status"].get("containerStatuses", []) + pod["status"].get("initContainerStatuses", [])
                   if s["name"] == name), None)
    started = CAPTURE - timedelta(days=1)
    if status and ("running" in status["state"] or "terminated" in status["state"]):
        state = status["state"].get("running") or status["state"]["terminated"]
        started = datetime.strptime(state["startedAt"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    image = container["image"]
    tag = image.rsplit(":", 1)[-1]
    if name == "coredns":
        version = tag.lstrip("v").split("-")[0]
        return coredns_log(version, "go1.21.11" if version >= "1.10" else "go1.19.10", hexid(7, image))
    if name == "kube-proxy":
        return kube_proxy_log(node, cluster.nodes[node].ip, started)
    if name in ("autoscaler", "kube-dns-autoscaler"):
        return "\n".join([
            klog("I", started, "autoscaler.go:49", "Scaling Namespace: kube-system, Target: deployment/coredns", pod_name),
            klog("I", started + timedelta(seconds=1), "autoscaler_server.go:157", "ConfigMap not found: configmaps \"coredns-autoscaler\" not found, will create one with default params" if cluster.flavor.name == "oke" else "Setting up the autoscaler server", pod_name),
            klog("I", started + timedelta(seconds=1), "k8sclient.go:147", "Cluster status: SchedulableNodes[3], SchedulableCores[12]", pod_name),
            klog("I", started + timedelta(seconds=1), "k8sclient.go:148", "Replicas are not as expected : updating replicas from 1 to 2" if cluster.flavor.name == "aks" else "Replicas are as expected: 3", pod_name),
        ]) + "\n"
    if name == "metrics-server":
        return "\n".join([
            klog("I", started, "serving.go:342", "Generated self-signed cert (/tmp/apiserver.crt, /tmp/apiserver.key)", pod_name),
            klog("I", started + timedelta(seconds=1), "handler.go:232", "Adding GroupVersion metrics.k8s.io v1beta1 to ResourceManager", pod_name),
            klog("I", started + timedelta(seconds=1), "secure_serving.go:266", "Serving securely on [::]:4443", pod_name),
            klog("E", started + timedelta(hours=3), "scraper.go:140", '"Failed to scrape node" err="Get \\"https://10.224.0.6:10250/metrics/resource\\": context deadline exceeded" node="aks-nodepool1-12345678-vmss000002"', pod_name),
        ]) + "\n"
    if name in ("liveness-probe", "node-driver-registrar", "csi-provisioner", "csi-attacher", "csi-snapshotter",
                "csi-resizer"):
        return "\n".join([
            klog("I", started, "main.go:135", f"Version: {tag}", pod_name),
            klog("I", started, "main.go:136", "Running node-driver-registrar in mode=registration" if name == "node-driver-registrar" else "Running " + name, pod_name),
            klog("I", started + timedelta(seconds=1), "connection.go:215", "Connecting to unix:///csi/csi.sock", pod_name),
        ]) + "\n"
    if name in ("azuredisk", "azurefile", "ebs-plugin"):
        return "\n".join([
            klog("I", started, "main.go:91", f'"set up prometheus server on" address=":29604" driver="{name}"', pod_name),
            klog("I", started + timedelta(seconds=1), "driver.go:147", f'"Driver starting" Driver="{name}" Version="{tag}"', pod_name),
            klog("I", started + timedelta(seconds=1), "server.go:117", 'Listening for connections on address: &net.UnixAddr{Name:"//csi/csi.sock", Net:"unix"}', pod_name),
            klog("I", started + timedelta(seconds=2), "utils.go:77", "GRPC call: /csi.v1.Identity/GetPluginInfo", pod_name),
            klog("I", started + timedelta(seconds=2), "utils.go:77", "GRPC call: /csi.v1.Node/NodeGetInfo", pod_name),
        ]) + "\n"
    if name in ("azure-ip-masq-agent", "cloud-node-manager", "konnectivity-agent", "eks-pod-identity-agent",
                "calico-kube-controllers"):
        return "\n".join([
            klog("I", started, "main.go:67", f"{name} version {tag} starting", pod_name),
            klog("I", started + timedelta(seconds=1), "main.go:102", "connected; waiting for work", pod_name),
            klog("I", started + timedelta(hours=2), "main.go:131", "sync completed", pod_name),
        ]) + "\n"
    special = COMPONENT_LOGS.get(name)
    if special is not None:
        return special(cluster, pod, started, tag)
    return app_log(started, [(0.2, "info", f"starting {name} {tag}"), (1.4, "info", "listening"),
                             (600.0, "info", "health check ok")])


def log_error(cluster: Cluster, pod: Obj, container: Obj) -> str | None:
    """The error kubectl prints instead of a log when the kubelet cannot give one."""
    node = pod["spec"].get("nodeName")
    if not node:
        return ""  # an unscheduled pod has no log location: the API returns nothing
    name = container["name"]
    status = next((s for s in pod["status"].get("containerStatuses", []) + pod["status"].get("initContainerStatuses", [])
                   if s["name"] == name), None)
    if any(c["type"] == "Ready" and c["status"] == "False" and "reason" not in c
           for c in pod["status"]["conditions"]):
        ip = cluster.nodes[node].ip
        return (f'Request log error: Get "https://{ip}:10250/containerLogs/{pod["metadata"]["namespace"]}/'
                f'{pod["metadata"]["name"]}/{name}": dial tcp {ip}:10250: i/o timeout\n')
    if status and "waiting" in status["state"] and not status.get("containerID"):
        reason = status["state"]["waiting"]["reason"]
        if reason == "ImagePullBackOff":
            reason = "trying and failing to pull image"
        return (f'Request log error: container "{name}" in pod "{pod["metadata"]["name"]}" is waiting to start: '
                f"{reason}\n")
    return None


def container_log(cluster: Cluster, pod: Obj, container: Obj) -> str:
    """What `kubectl logs` returns for a container: the kubelet's error, the scenario's log or the component's."""
    error = log_error(cluster, pod, container)
    if error is not None:
        return error
    key = (pod["metadata"]["namespace"], pod["metadata"]["name"], container["name"], False)
    return cluster.logs.get(key) or default_log(cluster, pod, container)



def _aws_node_log(cluster: Cluster, pod: Obj, started: datetime, tag: str) -> str:
    return json_log_lines(started, "", [
        ("info", 0.0, "entrypoint.sh", "Validating env variables ..."),
        ("info", 0.0, "entrypoint.sh", "Install CNI binaries.."),
        ("info", 0.1, "entrypoint.sh", "Starting IPAM daemon in the background ... "),
        ("info", 0.1, "entrypoint.sh", "Checking for IPAM connectivity ... "),
        ("info", 2.2, "entrypoint.sh", "Copying config file ... "),
        ("info", 2.2, "entrypoint.sh", "Successfully copied CNI plugin binary and config file."),
        ("info", 2.3, "entrypoint.sh", "Foregrounding IPAM daemon ..."),
    ])


def _vpc_cni_init_log(cluster: Cluster, pod: Obj, started: datetime, tag: str) -> str:
    return ("Copying CNI plugin binaries ... \nConfigure rp_filter loose... \n"
            "Setting RPF for primary interface: net.ipv4.conf.eth0.rp_filter = 2\nCNI init container done\n")


def _nodeagent_log(cluster: Cluster, pod: Obj, started: datetime, tag: str) -> str:
    return json_log_lines(started, "", [
        ("info", 0.0, "runtime/proc.go:267", "version"),
        ("info", 0.4, "ebpf/bpf_client.go:180", "Network Policy agent started"),
        ("info", 0.5, "metrics/listener.go:48", "Starting metrics server"),
        ("info", 0.6, "manager/internal.go:568", "Starting server"),
    ])


def _flannel_log(cluster: Cluster, pod: Obj, started: datetime, tag: str) -> str:
    node = pod["spec"]["nodeName"]
    cidr = cluster.get("Node", "", node)["spec"]["podCIDR"]
    name = pod["metadata"]["name"]
    return "\n".join([
        klog("I", started, "main.go:212", "CLI flags config: {kubeSubnetMgr:true ipMasq:true subnetFile:/run/flannel/subnet.env "
             "netConfPath:/etc/kube-flannel/net-conf.json setNodeNetworkUnavailable:true}", name),
        klog("I", started + timedelta(seconds=1), "kube.go:145", "Waiting 10m0s for node controller to sync", name),
        klog("I", started + timedelta(seconds=1), "kube.go:490", f"Creating the node lease for IPv4. This is the n.Spec.PodCIDRs: [{cidr}]", name),
        klog("I", started + timedelta(seconds=2), "main.go:353", f"Current network or subnet (10.244.0.0/16, {cidr}) is not equal to previous one (0.0.0.0/0, 0.0.0.0/0), trying to recycle old iptables rules", name),
        klog("I", started + timedelta(seconds=2), "main.go:480", "Wrote subnet file to /run/flannel/subnet.env", name),
        klog("I", started + timedelta(seconds=2), "main.go:484", "Running backend.", name),
        klog("I", started + timedelta(seconds=2), "vxlan_network.go:64", "watching for new subnet leases", name),
        klog("I", started + timedelta(seconds=3), "main.go:505", "Waiting for all goroutines to exit", name),
    ]) + "\n"


def _install_cni_log(cluster: Cluster, pod: Obj, started: datetime, tag: str) -> str:
    if cluster.flavor.name == "kubeadm":
        stamp = started.strftime("%Y-%m-%d %H:%M:%S.%f")[:-3]
        return "\n".join(f"{stamp} [INFO][1] cni-installer/<nil> <nil>: {m}" for m in (
            "Running as a Kubernetes pod", "File is already up to date, skipping file=\"/host/opt/cni/bin/bandwidth\"",
            "Installed /host/opt/cni/bin/install", "Wrote Calico CNI binaries to /host/opt/cni/bin",
            "CNI plugin version: v3.27.3", "/host/secondary-bin-dir is not writeable, skipping",
            "Using CNI config template from CNI_NETWORK_CONFIG environment variable.",
            "Created /host/etc/cni/net.d/10-calico.conflist", "Done configuring CNI.  Sleep= false")) + "\n"
    return ""


def _calico_log(cluster: Cluster, pod: Obj, started: datetime, tag: str) -> str:
    node = pod["spec"]["nodeName"]
    lines = [(0.0, "INFO", "startup/startup.go 432", "Early log level set to info"),
             (0.1, "INFO", "startup/utils.go 126", "Using NODENAME environment for node name " + node),
             (0.4, "INFO", "startup/startup.go 632", "Using autodetected IPv4 address on interface eth0: "
              + cluster.nodes[node].ip + "/20"),
             (1.2, "INFO", "startup/startup.go 747", "CALICO_IPV4POOL_NAT_OUTGOING is true (defaulted) through environment variable"),
             (2.0, "INFO", "felix/daemon.go 388", "Successfully loaded configuration. GOMAXPROCS=2 builddate=\"2024-04-04T22:03:55+0000\" gitcommit=\"a2cbfb1\" version=\"v3.27.3\""),
             (3.5, "INFO", "felix/health.go 336", "Overall health status changed: live=true ready=true")]
    if node == "kube-worker-node2":  # BGP sessions dropped about three hours before the capture
        broke = (ago(hours=3, minutes=18) - started).total_seconds()
        lines += [(broke - 9, "INFO", "confd/client.go 1364", "Recompute BGP peerings: 10.20.15.204 10.20.14.27"),
                  (broke - 2, "WARNING", "bird", "BGP: Unexpected connect from unknown address 10.20.14.27 (port 46113)"),
                  (broke, "WARNING", "felix/health.go 211", "Reporter is not ready. name=\"bird\""),
                  (broke + 1800, "WARNING", "bird", "Mesh_10_20_15_204: Socket error: connect: Connection timed out")]
    out = []
    for offset, level, where, message in lines:
        moment = started + timedelta(seconds=offset)
        out.append(f"{moment.strftime('%Y-%m-%d %H:%M:%S.%f')[:-3]} [{level}][{80 + pick(60, node, offset)}] {where}: {message}")
    return "\n".join(out) + "\n"


def _control_plane_log(cluster: Cluster, pod: Obj, started: datetime, tag: str) -> str:
    component = pod["spec"]["containers"][0]["name"]
    name = pod["metadata"]["name"]
    common = [klog("I", started, "flags.go:64", 'FLAG: --v="0"', name)]
    specific = {
        "kube-apiserver": [
            ("I", 1.1, "server.go:148", "Version: v1.29.3"),
            ("I", 2.0, "plugins.go:157", "Loaded 12 mutating admission controller(s) successfully in the following order: "
             "NamespaceLifecycle,LimitRanger,ServiceAccount,NodeRestriction,TaintNodesByCondition,Priority,"
             "DefaultTolerationSeconds,DefaultStorageClass,StorageObjectInUseProtection,RuntimeClass,"
             "DefaultIngressClass,MutatingAdmissionWebhook."),
            ("I", 5.8, "secure_serving.go:213", "Serving securely on [::]:6443"),
            ("W", 600.2, "logging.go:59", '[core] [Channel #5 SubChannel #6] grpc: addrConn.createTransport failed to '
             'connect to {Addr: "127.0.0.1:2379", ServerName: "127.0.0.1:2379", }. Err: connection error: '
             'desc = "transport: Error while dialing: dial tcp 127.0.0.1:2379: connect: connection refused"'),
            ("E", 1402.1, "status.go:71", 'apiserver received an error that is not an metav1.Status: '
             '&errors.errorString{s:"context deadline exceeded"}: context deadline exceeded'),
        ],
        "kube-controller-manager": [
            ("I", 0.9, "serving.go:380", "Generated self-signed cert in-memory"),
            ("I", 1.5, "controllermanager.go:187", '"Starting" version="v1.29.3"'),
            ("I", 2.0, "leaderelection.go:250", "attempting to acquire leader lease kube-system/kube-controller-manager..."),
            ("I", 17.3, "leaderelection.go:260", "successfully acquired lease kube-system/kube-controller-manager"),
            ("E", 1403.4, "leaderelection.go:332", "error retrieving resource lock kube-system/kube-controller-manager: "
             'Get "https://10.20.15.204:6443/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-controller-manager?timeout=5s": '
             "context deadline exceeded"),
        ],
        "kube-scheduler": [
            ("I", 0.9, "serving.go:380", "Generated self-signed cert in-memory"),
            ("I", 1.6, "server.go:154", '"Starting Kubernetes Scheduler" version="v1.29.3"'),
            ("I", 2.1, "leaderelection.go:250", "attempting to acquire leader lease kube-system/kube-scheduler..."),
            ("I", 19.0, "leaderelection.go:260", "successfully acquired lease kube-system/kube-scheduler"),
        ],
    }[component]
    return "\n".join(common + [klog(sev, started + timedelta(seconds=offset), src, msg, name)
                               for sev, offset, src, msg in specific]) + "\n"


def _proxymux_log(cluster: Cluster, pod: Obj, started: datetime, tag: str) -> str:
    node = pod["spec"]["nodeName"]
    return app_log(started, [
        (0.0, "info", f"proxymux-client starting node-name={node} tm-id=oke"),
        (0.3, "info", "loaded certificates from /var/lib/kubelet/pki"),
        (0.9, "info", "connected to proxymux server server-addr=https://10.0.0.13:12250"),
        (1.0, "info", "serving kubelet tunnel for apiserver"),
    ])


def _csi_oci_log(cluster: Cluster, pod: Obj, started: datetime, tag: str) -> str:
    return app_log(started, [
        (0.0, "info", "Starting OCI CSI node driver endpoint=unix:///csi/csi.sock"),
        (0.2, "info", "node driver registered nodeid=" + pod["spec"]["nodeName"]),
        (0.3, "info", "Listening for connections on address: //csi/csi.sock"),
    ])


def _one_shot_log(lines: list[str]) -> Callable[[Cluster, Obj, datetime, str], str]:
    """A log for an init container that prints a few fixed lines and exits."""
    def render(cluster: Cluster, pod: Obj, started: datetime, tag: str) -> str:
        stamp = started.strftime("%Y-%m-%d %H:%M:%S.%f")[:-3]
        return "".join(f"{stamp} {line}\n" for line in lines)
    return render


COMPONENT_LOGS: dict[str, Callable[[Cluster, Obj, datetime, str], str]] = {
    "upgrade-ipam": _one_shot_log(["[INFO][1] ipam_plugin.go 75: migrating from host-local to calico-ipam...",
                                   "[INFO][1] migrate.go 66: checking host-local IPAM data dir dir existence...",
                                   "[INFO][1] migrate.go 68: host-local IPAM data dir dir not found; no migration necessary, successfully exiting..."]),
    "mount-bpffs": _one_shot_log(["[INFO][1] init/startup.go 81: Checking if BPF filesystem is mounted.",
                                  "[INFO][1] init/startup.go 96: BPF filesystem is mounted.",
                                  "[INFO][1] init/startup.go 108: Checking if Cgroup2 filesystem is mounted.",
                                  "[INFO][1] init/startup.go 130: Cgroup2 filesystem is not mounted. Trying to mount it..."]),
    "eks-pod-identity-agent-init": _one_shot_log(["INFO initializing: adding link-local address 169.254.170.23/32",
                                                  "INFO initialization complete"]),
    "aws-node": _aws_node_log,
    "aws-vpc-cni-init": _vpc_cni_init_log,
    "aws-eks-nodeagent": _nodeagent_log,
    "kube-flannel": _flannel_log,
    "install-cni": _install_cni_log,
    "calico-node": _calico_log,
    "kube-apiserver": _control_plane_log,
    "kube-controller-manager": _control_plane_log,
    "kube-scheduler": _control_plane_log,
    "proxymux-client": _proxymux_log,
    "oci-csi-node-driver": _csi_oci_log,
}


class ContainerLogs:
    """A sample cluster's logs as the emitters read them (synthetic.emit.sources.LogSource)."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster

    def current(self, pod: Obj, container: Obj) -> str:
        """What `kubectl logs` returns: the kubelet's error, the scenario's log or the component's."""
        return container_log(self.cluster, pod, container)

    def previous(self, pod: Obj, container: Obj) -> str | None:
        """What `kubectl logs --previous` returns, where the scenario wrote one."""
        metadata = pod["metadata"]
        return self.cluster.logs.get((metadata["namespace"], metadata["name"], container["name"], True))
