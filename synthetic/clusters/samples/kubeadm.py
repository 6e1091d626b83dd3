"""kubeadm: one control-plane node and two workers on EC2 (no cloud controller), Calico (seeds 001, 003, 004)."""

from __future__ import annotations

from datetime import datetime, timedelta

from synthetic.clusters.samples.apiserver import Cluster, Flavor, PodPlan
from synthetic.clusters.samples.common import (
    add_default_namespaces,
    coredns_spec,
    kube_dns_service_ports,
    kube_proxy_spec,
    running,
)
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
from synthetic.objects.logs import json_log_lines, nginx_access_log
from synthetic.objects.node_status import node_conditions, node_info
from synthetic.objects.pod_specs import cm_volume, host_volume, toleration
from synthetic.times import ago, ts

KUBEADM_VERSION = "v1.29.3"
K8S_REGISTRY = "registry.k8s.io"
# name, IP, podCIDR, Calico block prefix, first pod IP, EC2 instance (kubelet --provider-id)
KUBEADM_NODES = (("kube-master-node1", "10.20.15.204", "192.168.0.0/24", "192.168.57.", 129, "i-07c1d2e3f4a5b6c71"),
                 ("kube-worker-node1", "10.20.14.27", "192.168.1.0/24", "192.168.61.", 65, "i-07c1d2e3f4a5b6c72"),
                 ("kube-worker-node2", "10.20.15.49", "192.168.2.0/24", "192.168.122.", 193, "i-07c1d2e3f4a5b6c73"))


def kubeadm_static_pods(cluster: Cluster, node: str, ip: str, created: datetime) -> None:
    """etcd, kube-apiserver, kube-controller-manager and kube-scheduler mirror pods (seed 004 manifests)."""
    pki = [host_volume("ca-certs", "/etc/ssl/certs", "DirectoryOrCreate"),
           host_volume("etc-pki", "/etc/pki", "DirectoryOrCreate"),
           host_volume("k8s-certs", "/etc/kubernetes/pki", "DirectoryOrCreate")]
    pki_mounts = [mount("ca-certs", "/etc/ssl/certs", read_only=True), mount("etc-pki", "/etc/pki", read_only=True),
                  mount("k8s-certs", "/etc/kubernetes/pki", read_only=True)]
    common = {"hostNetwork": True, "priorityClassName": "system-node-critical",
              "securityContext": {"seccompProfile": {"type": "RuntimeDefault"}},
              "tolerations": [toleration(effect="NoExecute")]}
    etcd_spec = {**common,
                 "volumes": [host_volume("etcd-certs", "/etc/kubernetes/pki/etcd", "DirectoryOrCreate"),
                             host_volume("etcd-data", "/var/lib/etcd", "DirectoryOrCreate")],
                 "containers": [container("etcd", f"{K8S_REGISTRY}/etcd:3.5.12-0", command=[
                     "etcd", f"--advertise-client-urls=https://{ip}:2379", "--cert-file=/etc/kubernetes/pki/etcd/server.crt",
                     "--client-cert-auth=true", "--data-dir=/var/lib/etcd", "--experimental-initial-corrupt-check=true",
                     "--experimental-watch-progress-notify-interval=5s", f"--initial-advertise-peer-urls=https://{ip}:2380",
                     f"--initial-cluster={node}=https://{ip}:2380", "--key-file=/etc/kubernetes/pki/etcd/server.key",
                     f"--listen-client-urls=https://127.0.0.1:2379,https://{ip}:2379",
                     "--listen-metrics-urls=http://127.0.0.1:2381", f"--listen-peer-urls=https://{ip}:2380",
                     f"--name={node}", "--peer-cert-file=/etc/kubernetes/pki/etcd/peer.crt", "--peer-client-cert-auth=true",
                     "--peer-key-file=/etc/kubernetes/pki/etcd/peer.key", "--peer-trusted-ca-file=/etc/kubernetes/pki/etcd/ca.crt",
                     "--snapshot-count=10000", "--trusted-ca-file=/etc/kubernetes/pki/etcd/ca.crt"],
                     requests={"cpu": "100m", "memory": "100Mi"},
                     mounts=[mount("etcd-data", "/var/lib/etcd"), mount("etcd-certs", "/etc/kubernetes/pki/etcd")],
                     liveness=http_probe("/health?exclude=NOSPACE&serializable=true", 2381, initial=10, timeout=15,
                                         failure=8, host="127.0.0.1"),
                     startup=http_probe("/health?serializable=false", 2381, initial=10, timeout=15, failure=24,
                                        host="127.0.0.1"))]}
    etcd_run = running(11, "Error", 137, started=ago(minutes=47), last_started=ago(hours=2, minutes=31),
                       last_finished=ago(minutes=47, seconds=9))
    etcd = cluster.add_static_pod("etcd", node, etcd_spec, PodPlan(node, {"etcd": etcd_run}), created,
                                  {"kubeadm.kubernetes.io/etcd.advertise-client-urls": f"https://{ip}:2379"})
    apiserver_spec = {**common, "volumes": pki, "containers": [container("kube-apiserver", f"{K8S_REGISTRY}/kube-apiserver:{KUBEADM_VERSION}", command=[
        "kube-apiserver", f"--advertise-address={ip}", "--allow-privileged=true", "--authorization-mode=Node,RBAC",
        "--client-ca-file=/etc/kubernetes/pki/ca.crt", "--enable-admission-plugins=NodeRestriction",
        "--enable-bootstrap-token-auth=true", "--etcd-cafile=/etc/kubernetes/pki/etcd/ca.crt",
        "--etcd-certfile=/etc/kubernetes/pki/apiserver-etcd-client.crt",
        "--etcd-keyfile=/etc/kubernetes/pki/apiserver-etcd-client.key", "--etcd-servers=https://127.0.0.1:2379",
        "--kubelet-client-certificate=/etc/kubernetes/pki/apiserver-kubelet-client.crt",
        "--kubelet-client-key=/etc/kubernetes/pki/apiserver-kubelet-client.key",
        "--kubelet-preferred-address-types=InternalIP,ExternalIP,Hostname",
        "--proxy-client-cert-file=/etc/kubernetes/pki/front-proxy-client.crt",
        "--proxy-client-key-file=/etc/kubernetes/pki/front-proxy-client.key",
        "--requestheader-allowed-names=front-proxy-client",
        "--requestheader-client-ca-file=/etc/kubernetes/pki/front-proxy-ca.crt",
        "--requestheader-extra-headers-prefix=X-Remote-Extra-", "--requestheader-group-headers=X-Remote-Group",
        "--requestheader-username-headers=X-Remote-User", "--secure-port=6443",
        "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
        "--service-account-key-file=/etc/kubernetes/pki/sa.pub",
        "--service-account-signing-key-file=/etc/kubernetes/pki/sa.key", "--service-cluster-ip-range=10.96.0.0/12",
        "--tls-cert-file=/etc/kubernetes/pki/apiserver.crt", "--tls-private-key-file=/etc/kubernetes/pki/apiserver.key"],
        requests={"cpu": "250m"}, mounts=pki_mounts,
        liveness=http_probe("/livez", 6443, initial=10, timeout=15, failure=8, host=ip, scheme="HTTPS"),
        readiness=http_probe("/readyz", 6443, period=1, timeout=15, failure=3, host=ip, scheme="HTTPS"),
        startup=http_probe("/livez", 6443, initial=10, timeout=15, failure=24, host=ip, scheme="HTTPS"))]}
    cluster.add_static_pod("kube-apiserver", node, apiserver_spec,
                           PodPlan(node, {"kube-apiserver": running(2, "Error", 1, started=ago(minutes=46),
                                                                    last_started=ago(hours=2, minutes=30),
                                                                    last_finished=ago(minutes=46, seconds=20))}),
                           created, {"kubeadm.kubernetes.io/kube-apiserver.advertise-address.endpoint": f"{ip}:6443"})
    for component, port_number, extra_args, extra_volumes in (
        ("kube-controller-manager", 10257, [
            "--allocate-node-cidrs=true", "--authentication-kubeconfig=/etc/kubernetes/controller-manager.conf",
            "--authorization-kubeconfig=/etc/kubernetes/controller-manager.conf", "--bind-address=127.0.0.1",
            "--client-ca-file=/etc/kubernetes/pki/ca.crt", "--cluster-cidr=192.168.0.0/16", "--cluster-name=kubernetes",
            "--cluster-signing-cert-file=/etc/kubernetes/pki/ca.crt",
            "--cluster-signing-key-file=/etc/kubernetes/pki/ca.key", "--controllers=*,bootstrapsigner,tokencleaner",
            "--kubeconfig=/etc/kubernetes/controller-manager.conf", "--leader-elect=true",
            "--requestheader-client-ca-file=/etc/kubernetes/pki/front-proxy-ca.crt",
            "--root-ca-file=/etc/kubernetes/pki/ca.crt", "--service-account-private-key-file=/etc/kubernetes/pki/sa.key",
            "--service-cluster-ip-range=10.96.0.0/12", "--use-service-account-credentials=true"],
         [host_volume("flexvolume-dir", "/usr/libexec/kubernetes/kubelet-plugins/volume/exec", "DirectoryOrCreate"),
          host_volume("kubeconfig", "/etc/kubernetes/controller-manager.conf", "FileOrCreate")]),
        ("kube-scheduler", 10259, [
            "--authentication-kubeconfig=/etc/kubernetes/scheduler.conf",
            "--authorization-kubeconfig=/etc/kubernetes/scheduler.conf", "--bind-address=127.0.0.1",
            "--kubeconfig=/etc/kubernetes/scheduler.conf", "--leader-elect=true"],
         [host_volume("kubeconfig", "/etc/kubernetes/scheduler.conf", "FileOrCreate")]),
    ):
        volumes = (pki if component == "kube-controller-manager" else []) + extra_volumes
        mounts = [mount(v["name"], v["hostPath"]["path"], read_only=v["name"] != "flexvolume-dir") for v in volumes]
        spec = {**common, "volumes": volumes, "containers": [container(
            component, f"{K8S_REGISTRY}/{component}:{KUBEADM_VERSION}", command=[component, *extra_args],
            requests={"cpu": "200m" if component == "kube-controller-manager" else "100m"}, mounts=mounts,
            liveness=http_probe("/healthz", port_number, initial=10, timeout=15, failure=8, host="127.0.0.1", scheme="HTTPS"),
            startup=http_probe("/healthz", port_number, initial=10, timeout=15, failure=24, host="127.0.0.1", scheme="HTTPS"))]}
        cluster.add_static_pod(component, node, spec,
                               PodPlan(node, {component: running(3, "Error", 1, started=ago(minutes=45),
                                                                 last_started=ago(hours=2, minutes=30),
                                                                 last_finished=ago(minutes=45, seconds=31))}),
                               created, {})
    path = "spec.containers{etcd}"
    cluster.add_event(etcd, "Unhealthy", 'Liveness probe failed: Get "http://127.0.0.1:2381/health?exclude=NOSPACE&serializable=true": '
                      "context deadline exceeded (Client.Timeout exceeded while awaiting headers)",
                      ago(hours=11, minutes=40), ago(minutes=48, seconds=2), 88, "Warning", host=node, field_path=path)
    cluster.add_event(etcd, "Killing", "Container etcd failed liveness probe, will be restarted",
                      ago(hours=11, minutes=39), ago(minutes=47, seconds=12), 11, host=node, field_path=path)
    cluster.add_event(etcd, "Pulled", f'Container image "{K8S_REGISTRY}/etcd:3.5.12-0" already present on machine',
                      ago(hours=11, minutes=39), ago(minutes=47, seconds=1), 11, host=node, field_path=path)
    cluster.logs[("kube-system", etcd["metadata"]["name"], "etcd", False)] = json_log_lines(ago(minutes=47), "", [
        ("info", 0.0, "etcdmain/etcd.go:73", "Running: "),
        ("info", 0.1, "embed/etcd.go:127", "configuring peer listeners"),
        ("info", 0.9, "etcdserver/raft.go:530", "restarting local member"),
        ("info", 1.6, "etcdserver/server.go:867", "starting etcd server"),
        ("info", 3.2, "raft/raft.go:1651", "8e9e05c52164694d became leader at term 38"),
        ("info", 3.3, "etcdserver/server.go:2068", "published local member to cluster through raft"),
        ("warn", 611.4, "wal/wal.go:805", "slow fdatasync"),
        ("warn", 611.4, "etcdserver/util.go:170", "apply request took too long"),
        ("warn", 1402.9, "wal/wal.go:805", "slow fdatasync"),
        ("warn", 1403.0, "etcdserver/util.go:170", "apply request took too long"),
        ("warn", 2544.7, "wal/wal.go:805", "slow fdatasync"),
    ])


def build_kubeadm() -> Cluster:
    """The kubeadm sample cluster, its planted problems included."""
    created = ago(days=12, hours=4, minutes=2)
    flavor = Flavor("kubeadm", 29, "containerd", created, "default-scheduler-kube-master-node1", "kubeadm")
    cluster = Cluster(flavor, [("10.20.15.204", 6443)])
    add_default_namespaces(cluster, created, [])
    node_names = []
    cordoned_at = ago(hours=5, minutes=12)
    for index, (name, ip, cidr, prefix, first_ip, instance) in enumerate(KUBEADM_NODES):
        node_created = created + timedelta(seconds=2) if index == 0 else created + timedelta(minutes=6 + index)
        labels = {"beta.kubernetes.io/arch": "amd64", "beta.kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64",
                  "kubernetes.io/hostname": name, "kubernetes.io/os": "linux"}
        # The bootstrap script passes --provider-id to the kubelet (for cluster-autoscaler), so these
        # self-hosted nodes carry the same aws:/// IDs as EKS nodes: a false friend.
        spec: Obj = {"podCIDR": cidr, "podCIDRs": [cidr], "providerID": f"aws:///us-east-1a/{instance}"}
        if index == 0:
            labels.update({"node-role.kubernetes.io/control-plane": "",
                           "node.kubernetes.io/exclude-from-external-load-balancers": ""})
            spec["taints"] = [{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}]
        else:
            labels["node-role.kubernetes.io/worker"] = ""
        if index == 2:
            spec["unschedulable"] = True
            spec["taints"] = [{"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule",
                               "timeAdded": ts(cordoned_at)}]
        cluster.add_node(
            name, ip, node_created, labels,
            {"kubeadm.alpha.kubernetes.io/cri-socket": "unix:///var/run/containerd/containerd.sock",
             "node.alpha.kubernetes.io/ttl": "0",
             "projectcalico.org/IPv4Address": f"{ip}/20",
             "projectcalico.org/IPv4IPIPTunnelAddr": f"{prefix}{first_ip - 1}",
             "volumes.kubernetes.io/controller-managed-attach-detach": "true"},
            spec,
            {"cpu": "2", "ephemeral-storage": "20959212Ki", "hugepages-1Gi": "0", "hugepages-2Mi": "0",
             "memory": "3964656Ki", "pods": "110"},
            {"cpu": "2", "ephemeral-storage": "19316009748", "hugepages-1Gi": "0", "hugepages-2Mi": "0",
             "memory": "3862256Ki", "pods": "110"},
            node_info("kubeadm", name, "5.10.223-212.873.amzn2.x86_64", "Amazon Linux 2", "containerd://1.7.11",
                      KUBEADM_VERSION),
            node_conditions(ago(seconds=17 + index * 11), node_created, ("CalicoIsUp", "Calico is running on this node")),
            [{"type": "InternalIP", "address": ip}, {"type": "Hostname", "address": name}],
            prefix, first_ip,
        )
        node_names.append(name)
    master = node_names[0]
    kubeadm_static_pods(cluster, master, KUBEADM_NODES[0][1], created)

    cluster.add_daemonset("kube-system", "kube-proxy", {"k8s-app": "kube-proxy"},
                          kube_proxy_spec(f"{K8S_REGISTRY}/kube-proxy:{KUBEADM_VERSION}",
                                          ["/usr/local/bin/kube-proxy", "--config=/var/lib/kube-proxy/config.conf",
                                           "--hostname-override=$(NODE_NAME)"],
                                          extra_volumes=[cm_volume("kube-proxy", "kube-proxy")],
                                          extra_mounts=[mount("kube-proxy", "/var/lib/kube-proxy")]),
                          [PodPlan(n) for n in node_names], created + timedelta(seconds=20), selector={"k8s-app": "kube-proxy"})
    calico = "docker.io/calico"
    calico_env = [env_value("DATASTORE_TYPE", "kubernetes"), env_value("WAIT_FOR_DATASTORE", "true"),
                  env_field("NODENAME", "spec.nodeName"), env_value("CALICO_NETWORKING_BACKEND", "bird"),
                  env_value("CLUSTER_TYPE", "k8s,bgp"), env_value("IP", "autodetect"),
                  env_value("CALICO_IPV4POOL_IPIP", "Always"), env_value("CALICO_IPV4POOL_VXLAN", "Never"),
                  env_value("FELIX_IPINIPMTU", "0"), env_value("CALICO_IPV4POOL_CIDR", "192.168.0.0/16"),
                  env_value("CALICO_DISABLE_FILE_LOGGING", "true"), env_value("FELIX_DEFAULTENDPOINTTOHOSTACTION", "ACCEPT"),
                  env_value("FELIX_IPV6SUPPORT", "false"), env_value("FELIX_HEALTHENABLED", "true")]
    calico_volumes = [host_volume("lib-modules", "/lib/modules"), host_volume("var-run-calico", "/var/run/calico", "DirectoryOrCreate"),
                      host_volume("var-lib-calico", "/var/lib/calico", "DirectoryOrCreate"),
                      host_volume("xtables-lock", "/run/xtables.lock", "FileOrCreate"),
                      host_volume("sys-fs", "/sys/fs/", "DirectoryOrCreate"), host_volume("bpffs", "/sys/fs/bpf", "Directory"),
                      host_volume("nodeproc", "/proc"), host_volume("cni-bin-dir", "/opt/cni/bin", "DirectoryOrCreate"),
                      host_volume("cni-net-dir", "/etc/cni/net.d"), host_volume("cni-log-dir", "/var/log/calico/cni"),
                      host_volume("host-local-net-dir", "/var/lib/cni/networks"),
                      host_volume("policysync", "/var/run/nodeagent", "DirectoryOrCreate")]
    not_ready_since = ago(hours=3, minutes=18)
    cluster.add_daemonset("kube-system", "calico-node", {"k8s-app": "calico-node"}, {
        "volumes": calico_volumes,
        "initContainers": [
            container("upgrade-ipam", f"{calico}/cni:v3.27.3", command=["/opt/cni/bin/calico-ipam", "-upgrade"],
                env=[env_field("KUBERNETES_NODE_NAME", "spec.nodeName")],
                mounts=[mount("host-local-net-dir", "/var/lib/cni/networks"), mount("cni-bin-dir", "/host/opt/cni/bin")],
                security={"privileged": True}),
            container("install-cni", f"{calico}/cni:v3.27.3", command=["/opt/cni/bin/install"],
                env=[env_value("CNI_CONF_NAME", "10-calico.conflist"), env_value("SLEEP", "false"),
                     env_field("KUBERNETES_NODE_NAME", "spec.nodeName")],
                mounts=[mount("cni-bin-dir", "/host/opt/cni/bin"), mount("cni-net-dir", "/host/etc/cni/net.d")],
                security={"privileged": True}),
            container("mount-bpffs", f"{calico}/node:v3.27.3", command=["calico-node", "-init", "-best-effort"],
                mounts=[mount("sys-fs", "/sys/fs"), mount("var-run-calico", "/var/run/calico"),
                        mount("nodeproc", "/nodeproc", read_only=True)],
                security={"privileged": True}),
        ],
        "containers": [container("calico-node", f"{calico}/node:v3.27.3", env=calico_env, requests={"cpu": "250m"},
                           mounts=[mount("cni-net-dir", "/host/etc/cni/net.d"), mount("lib-modules", "/lib/modules", read_only=True),
                                   mount("xtables-lock", "/run/xtables.lock"), mount("var-run-calico", "/var/run/calico"),
                                   mount("var-lib-calico", "/var/lib/calico"), mount("policysync", "/var/run/nodeagent"),
                                   mount("bpffs", "/sys/fs/bpf"), mount("cni-log-dir", "/var/log/calico/cni", read_only=True)],
                           liveness=exec_probe(["/bin/calico-node", "-felix-live", "-bird-live"], initial=10, timeout=10, failure=6),
                           readiness=exec_probe(["/bin/calico-node", "-felix-ready", "-bird-ready"], timeout=10),
                           security={"privileged": True})],
        "nodeSelector": {"kubernetes.io/os": "linux"}, "serviceAccountName": "calico-node", "hostNetwork": True,
        "terminationGracePeriodSeconds": 0,
        "tolerations": [toleration(effect="NoSchedule"), toleration("CriticalAddonsOnly"), toleration(effect="NoExecute")],
        "priorityClassName": "system-node-critical",
    }, [PodPlan(node_names[0]), PodPlan(node_names[1]),
        PodPlan(node_names[2], {"calico-node": running(ready=False)}, unready_since=not_ready_since)],
        created + timedelta(minutes=3), selector={"k8s-app": "calico-node"})
    bad_calico = next(p for p in cluster.of_kind("Pod", "kube-system")
                      if p["metadata"]["name"].startswith("calico-node-") and p["spec"]["nodeName"] == node_names[2])
    cluster.add_event(bad_calico, "Unhealthy",
                      "Readiness probe failed: calico/node is not ready: BIRD is not ready: BGP not established with "
                      "10.20.15.204,10.20.14.27", not_ready_since, ago(seconds=12), 1191, "Warning", host=node_names[2],
                      field_path="spec.containers{calico-node}")
    cluster.add_deployment("kube-system", "calico-kube-controllers", {"k8s-app": "calico-kube-controllers"}, {
        "containers": [container("calico-kube-controllers", f"{calico}/kube-controllers:v3.27.3",
                           env=[env_value("ENABLED_CONTROLLERS", "node"), env_value("DATASTORE_TYPE", "kubernetes")],
                           liveness=exec_probe(["/usr/bin/check-status", "-l"], initial=10, timeout=10, failure=6),
                           readiness=exec_probe(["/usr/bin/check-status", "-r"], period=10))],
        "nodeSelector": {"kubernetes.io/os": "linux"}, "serviceAccountName": "calico-kube-controllers",
        "tolerations": [toleration("CriticalAddonsOnly"),
                        toleration("node-role.kubernetes.io/master", effect="NoSchedule"),
                        toleration("node-role.kubernetes.io/control-plane", effect="NoSchedule")],
        "priorityClassName": "system-cluster-critical",
    }, [PodPlan(master)], created + timedelta(minutes=3), selector={"k8s-app": "calico-kube-controllers"},
        manager="kubectl-create")
    cluster.add_deployment("kube-system", "coredns", {"k8s-app": "kube-dns"},
                           coredns_spec(f"{K8S_REGISTRY}/coredns/coredns:v1.11.1"),
                           [PodPlan(master), PodPlan(master)], created + timedelta(seconds=20),
                           selector={"k8s-app": "kube-dns"})
    cluster.add_service("kube-system", "kube-dns", kube_dns_service_ports(), created + timedelta(seconds=20),
                        {"k8s-app": "kube-dns"}, "10.96.0.10",
                        labels={"k8s-app": "kube-dns", "kubernetes.io/cluster-service": "true", "kubernetes.io/name": "CoreDNS"},
                        annotations={"prometheus.io/port": "9153", "prometheus.io/scrape": "true"}, manager="kubeadm")
    cluster.add_service("default", "kubernetes", [{"name": "https", "port": 443, "targetPort": 6443}], created, None,
                        "10.96.0.1", labels={"component": "apiserver", "provider": "kubernetes"}, manager="kube-apiserver")

    apps = created + timedelta(days=2, hours=3)
    web = {"containers": [container("nginx", "nginx:1.25.4", ports=[port(None, 80)], requests={"cpu": "100m", "memory": "64Mi"})]}
    cluster.add_deployment("default", "web", {"app": "web"}, web,
                           [PodPlan(node_names[1]), PodPlan(node_names[2]), PodPlan(node_names[1])], apps,
                           manager="kubectl-client-side-apply")
    cluster.add_service("default", "web", [{"port": 8080, "targetPort": 80, "nodePort": 31592}], apps, {"app": "web"},
                        "10.106.173.106", "NodePort", labels={"app": "web"})
    inventory = {"containers": [container("inventory", "ghcr.io/acme-retail/inventory:3.4.1", ports=[port("http", 8080)],
                                    env=[env_value("CACHE_SIZE_MB", "1024")],
                                    requests={"cpu": "1500m", "memory": "1Gi"}, limits={"cpu": "2", "memory": "1536Mi"},
                                    readiness=http_probe("/readyz", "http"))]}
    message = ("0/3 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint "
               "{node-role.kubernetes.io/control-plane: }, 1 node(s) were unschedulable. preemption: 0/3 nodes are "
               "available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.")
    scaled = ago(hours=4, minutes=2)
    cluster.add_deployment("default", "inventory", {"app": "inventory"}, inventory,
                           [PodPlan(node_names[1]), PodPlan(None, unschedulable=message, created=scaled)], apps,
                           manager="kubectl-client-side-apply", progress="complete")
    pending = next(p for p in cluster.of_kind("Pod", "default")
                   if p["metadata"]["name"].startswith("inventory-") and not p["spec"].get("nodeName"))
    cluster.add_scheduler_event(pending, message, scaled + timedelta(seconds=1), ago(minutes=4, seconds=40), 49)
    cluster.add_service("default", "inventory", [{"name": "http", "port": 80, "targetPort": "http"}], apps,
                        {"app": "inventory"}, "10.103.219.247", labels={"app": "inventory"})
    cordoned = cluster.get("Node", "", node_names[2])
    cluster.add_event(cordoned, "NodeNotSchedulable", f"Node {node_names[2]} status is now: NodeNotSchedulable",
                      cordoned_at, host=node_names[2])
    for pod in cluster.of_kind("Pod", "default"):
        if pod["metadata"]["name"].startswith("web-"):
            cluster.logs[("default", pod["metadata"]["name"], "nginx", False)] = nginx_access_log(
                ago(minutes=50), 8, pod["metadata"]["name"], ["/", "/index.html", "/favicon.ico"])
    cluster.finish()
    return cluster
