"""EKS: managed node group of three m5.large nodes, VPC CNI, a payments application (seed 001)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

from synthetic.clusters.samples.apiserver import Cluster, Flavor, PodPlan, Run
from synthetic.clusters.samples.common import (
    add_default_namespaces,
    coredns_spec,
    crashloop,
    kube_dns_service_ports,
    kube_proxy_spec,
)
from synthetic.ids import hexid
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
from synthetic.objects.logs import app_log, nginx_access_log
from synthetic.objects.node_status import node_conditions, node_info
from synthetic.objects.pod_specs import cm_volume, empty_volume, host_volume, toleration
from synthetic.times import ago, ts

EKS_VERSION = "v1.30.4-eks-a737599"
ECR = "602401143452.dkr.ecr.us-east-1.amazonaws.com"
APP_ECR = "318274654021.dkr.ecr.us-east-1.amazonaws.com/payments"
EKS_NODES = (
    ("ip-10-0-1-23.ec2.internal", "10.0.1.23", "us-east-1a", "use1-az4", "i-0a1b2c3d4e5f60718", "10.0.1.", 41),
    ("ip-10-0-2-87.ec2.internal", "10.0.2.87", "us-east-1b", "use1-az6", "i-0b7e4f19c2d3a6e50", "10.0.2.", 102),
    ("ip-10-0-3-45.ec2.internal", "10.0.3.45", "us-east-1c", "use1-az1", "i-0c93d2e8f1a4b5c67", "10.0.3.", 160),
)


def eks_node_labels(name: str, zone: str, zone_id: str) -> dict[str, str]:
    """The labels an EKS managed node group puts on its nodes."""
    return {
        "beta.kubernetes.io/arch": "amd64",
        "beta.kubernetes.io/instance-type": "m5.large",
        "beta.kubernetes.io/os": "linux",
        "eks.amazonaws.com/capacityType": "ON_DEMAND",
        "eks.amazonaws.com/nodegroup": "ng-general",
        "eks.amazonaws.com/nodegroup-image": "ami-0f4c1a2b3d5e6f789",
        "eks.amazonaws.com/sourceLaunchTemplateId": "lt-0a9b8c7d6e5f43210",
        "eks.amazonaws.com/sourceLaunchTemplateVersion": "1",
        "failure-domain.beta.kubernetes.io/region": "us-east-1",
        "failure-domain.beta.kubernetes.io/zone": zone,
        "k8s.io/cloud-provider-aws": hexid(32, "eks", "cluster"),
        "kubernetes.io/arch": "amd64",
        "kubernetes.io/hostname": name,
        "kubernetes.io/os": "linux",
        "node.kubernetes.io/instance-type": "m5.large",
        "topology.ebs.csi.aws.com/zone": zone,
        "topology.k8s.aws/zone-id": zone_id,
        "topology.kubernetes.io/region": "us-east-1",
        "topology.kubernetes.io/zone": zone,
    }


def build_eks() -> Cluster:
    """The EKS sample cluster, its planted problems included."""
    created = ago(days=43, hours=5, minutes=20)
    flavor = Flavor("eks", 30, "containerd", created, "default-scheduler-ip-172-16-61-130.ec2.internal", "eks",
                    addon_api_operation="Apply")
    cluster = Cluster(flavor, [("10.0.1.211", 443), ("10.0.2.74", 443)])
    app_created = ago(days=13, hours=2)
    add_default_namespaces(cluster, created, [("payments", app_created)])
    lost_at = ago(minutes=3, seconds=12)
    node_names = []
    for index, (name, ip, zone, zone_id, instance, prefix, first_ip) in enumerate(EKS_NODES):
        node_created = ago(days=35, hours=4, minutes=index * 3)
        lost = lost_at if index == 2 else None
        spec: Obj = {"providerID": f"aws:///{zone}/{instance}"}
        if lost:
            spec["taints"] = [{"key": "node.kubernetes.io/unreachable", "effect": "NoSchedule", "timeAdded": ts(lost)},
                              {"key": "node.kubernetes.io/unreachable", "effect": "NoExecute",
                               "timeAdded": ts(lost + timedelta(seconds=5))}]
        cluster.add_node(
            name, ip, node_created, eks_node_labels(name, zone, zone_id),
            {"alpha.kubernetes.io/provided-node-ip": ip,
             "csi.volume.kubernetes.io/nodeid": json.dumps({"ebs.csi.aws.com": instance}, separators=(",", ":")),
             "node.alpha.kubernetes.io/ttl": "0", "volumes.kubernetes.io/controller-managed-attach-detach": "true"},
            spec,
            {"cpu": "2", "ephemeral-storage": "83873772Ki", "hugepages-1Gi": "0", "hugepages-2Mi": "0",
             "memory": "7910348Ki", "pods": "29"},
            {"cpu": "1930m", "ephemeral-storage": "76224326324", "hugepages-1Gi": "0", "hugepages-2Mi": "0",
             "memory": "7220172Ki", "pods": "29"},
            node_info("eks", name, "5.10.223-212.873.amzn2.x86_64", "Amazon Linux 2", "containerd://1.7.11", EKS_VERSION),
            node_conditions(ago(seconds=25 + index * 9), node_created, lost=lost),
            [{"type": "InternalIP", "address": ip}, {"type": "InternalDNS", "address": name},
             {"type": "Hostname", "address": name}],
            prefix, first_ip,
        )
        node_names.append(name)

    def plans(lost_index: int = 2) -> list[PodPlan]:
        return [PodPlan(n, node_lost=(i == lost_index)) for i, n in enumerate(node_names)]

    linux_amd = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
        {"matchExpressions": [{"key": "kubernetes.io/os", "operator": "In", "values": ["linux"]},
                              {"key": "kubernetes.io/arch", "operator": "In", "values": ["amd64", "arm64"]},
                              {"key": "eks.amazonaws.com/compute-type", "operator": "NotIn",
                               "values": ["fargate", "hybrid"]}]}]}}}
    cni_labels = {"app.kubernetes.io/instance": "aws-vpc-cni", "app.kubernetes.io/name": "aws-node",
                  "app.kubernetes.io/version": "v1.18.3", "helm.sh/chart": "aws-vpc-cni-1.18.3", "k8s-app": "aws-node"}
    grpc_probe = ["/app/grpc-health-probe", "-addr=:50051", "-connect-timeout=5s", "-rpc-timeout=5s"]
    cluster.add_daemonset("kube-system", "aws-node", cni_labels, {
        "volumes": [host_volume("bpf-pin-path", "/sys/fs/bpf"), host_volume("cni-bin-dir", "/opt/cni/bin"),
                    host_volume("cni-net-dir", "/etc/cni/net.d"),
                    host_volume("log-dir", "/var/log/aws-routed-eni", "DirectoryOrCreate"),
                    host_volume("run-dir", "/var/run/aws-node", "DirectoryOrCreate"),
                    host_volume("xtables-lock", "/run/xtables.lock", "FileOrCreate")],
        "initContainers": [container("aws-vpc-cni-init", f"{ECR}/amazon-k8s-cni-init:v1.18.3-eksbuild.2",
                               env=[env_value("DISABLE_TCP_EARLY_DEMUX", "false"), env_value("ENABLE_IPv6", "false")],
                               requests={"cpu": "25m"}, mounts=[mount("cni-bin-dir", "/host/opt/cni/bin")],
                               security={"privileged": True})],
        "containers": [
            container("aws-node", f"{ECR}/amazon-k8s-cni:v1.18.3-eksbuild.2", ports=[port("metrics", 61678)],
                env=[env_value("ADDITIONAL_ENI_TAGS", "{}"), env_value("ANNOTATE_POD_IP", "false"),
                     env_value("AWS_VPC_CNI_NODE_PORT_SUPPORT", "true"), env_value("AWS_VPC_ENI_MTU", "9001"),
                     env_value("AWS_VPC_K8S_CNI_EXTERNALSNAT", "false"), env_value("AWS_VPC_K8S_CNI_LOGLEVEL", "DEBUG"),
                     env_value("AWS_VPC_K8S_CNI_LOG_FILE", "/host/var/log/aws-routed-eni/ipamd.log"),
                     env_value("ENABLE_PREFIX_DELEGATION", "false"), env_value("WARM_ENI_TARGET", "1"),
                     env_field("MY_NODE_NAME", "spec.nodeName"), env_field("MY_POD_NAME", "metadata.name")],
                requests={"cpu": "25m"},
                mounts=[mount("cni-bin-dir", "/host/opt/cni/bin"), mount("cni-net-dir", "/host/etc/cni/net.d"),
                        mount("log-dir", "/host/var/log/aws-routed-eni"), mount("run-dir", "/var/run/aws-node"),
                        mount("xtables-lock", "/run/xtables.lock")],
                liveness=exec_probe(grpc_probe, initial=60, timeout=10),
                readiness=exec_probe(grpc_probe, initial=1, timeout=10),
                security={"capabilities": {"add": ["NET_ADMIN", "NET_RAW"]}}),
            container("aws-eks-nodeagent", f"{ECR}/amazon/aws-network-policy-agent:v1.1.2-eksbuild.2",
                args=["--enable-ipv6=false", "--enable-network-policy=false", "--enable-cloudwatch-logs=false",
                      "--enable-policy-event-logs=false", "--log-file=/var/log/aws-routed-eni/network-policy-agent.log",
                      "--metrics-bind-addr=:8162", "--health-probe-bind-addr=:8163",
                      "--conntrack-cache-cleanup-period=300"],
                env=[env_field("MY_NODE_NAME", "spec.nodeName")], requests={"cpu": "25m"},
                mounts=[mount("bpf-pin-path", "/sys/fs/bpf"), mount("log-dir", "/var/log/aws-routed-eni"),
                        mount("run-dir", "/var/run/aws-node")],
                security={"capabilities": {"add": ["NET_ADMIN"]}, "privileged": True}),
        ],
        "terminationGracePeriodSeconds": 10, "serviceAccountName": "aws-node", "hostNetwork": True,
        "affinity": linux_amd, "tolerations": [toleration()], "priorityClassName": "system-node-critical",
    }, plans(), created, selector={"k8s-app": "aws-node"}, max_unavailable="10%")
    cluster.add_daemonset("kube-system", "kube-proxy", {"eks.amazonaws.com/component": "kube-proxy",
                                                        "k8s-app": "kube-proxy"},
                          {**kube_proxy_spec(f"{ECR}/eks/kube-proxy:v1.30.3-minimal-eksbuild.5",
                                             ["kube-proxy", "--v=2", "--config=/var/lib/kube-proxy-config/config",
                                              "--hostname-override=$(NODE_NAME)"],
                                             extra_volumes=[cm_volume("kubeconfig", "kube-proxy"),
                                                            cm_volume("config", "kube-proxy-config")],
                                             extra_mounts=[mount("kubeconfig", "/var/lib/kube-proxy/"),
                                                           mount("config", "/var/lib/kube-proxy-config/")],
                                             requests={"cpu": "100m"}),
                           "affinity": linux_amd},
                          plans(), created, selector={"k8s-app": "kube-proxy"}, max_unavailable="10%")
    ebs_labels = {"app.kubernetes.io/component": "csi-driver", "app.kubernetes.io/managed-by": "EKS",
                  "app.kubernetes.io/name": "aws-ebs-csi-driver", "app.kubernetes.io/version": "1.34.0"}
    plugin = f"{ECR}/eks/aws-ebs-csi-driver:v1.34.0"
    cluster.add_daemonset("kube-system", "ebs-csi-node", {**ebs_labels, "app": "ebs-csi-node"}, {
        "volumes": [host_volume("kubelet-dir", "/var/lib/kubelet", "Directory"),
                    host_volume("plugin-dir", "/var/lib/kubelet/plugins/ebs.csi.aws.com/", "DirectoryOrCreate"),
                    host_volume("registration-dir", "/var/lib/kubelet/plugins_registry/", "Directory"),
                    host_volume("device-dir", "/dev", "Directory")],
        "containers": [
            container("ebs-plugin", plugin, args=["node", "--endpoint=$(CSI_ENDPOINT)", "--logging-format=text", "--v=2"],
                env=[env_value("CSI_ENDPOINT", "unix:/csi/csi.sock"), env_field("CSI_NODE_NAME", "spec.nodeName")],
                ports=[port("healthz", 9808)], requests={"cpu": "10m", "memory": "40Mi"}, limits={"memory": "256Mi"},
                mounts=[mount("kubelet-dir", "/var/lib/kubelet"), mount("plugin-dir", "/csi"),
                        mount("device-dir", "/dev")],
                liveness=http_probe("/healthz", "healthz", initial=10, timeout=3, failure=5),
                security={"privileged": True, "readOnlyRootFilesystem": True}),
            container("node-driver-registrar", f"{ECR}/eks/csi-node-driver-registrar:v2.11.1-eks-1-30-13",
                args=["--csi-address=$(ADDRESS)", "--kubelet-registration-path=$(DRIVER_REG_SOCK_PATH)", "--v=2"],
                env=[env_value("ADDRESS", "/csi/csi.sock"),
                     env_value("DRIVER_REG_SOCK_PATH", "/var/lib/kubelet/plugins/ebs.csi.aws.com/csi.sock")],
                requests={"cpu": "10m", "memory": "40Mi"}, limits={"memory": "256Mi"},
                mounts=[mount("plugin-dir", "/csi"), mount("registration-dir", "/registration")]),
            container("liveness-probe", f"{ECR}/eks/livenessprobe:v2.13.1-eks-1-30-13", args=["--csi-address=/csi/csi.sock"],
                requests={"cpu": "10m", "memory": "40Mi"}, limits={"memory": "256Mi"},
                mounts=[mount("plugin-dir", "/csi")]),
        ],
        "nodeSelector": {"kubernetes.io/os": "linux"}, "serviceAccountName": "ebs-csi-node-sa",
        "securityContext": {"runAsUser": 0, "runAsGroup": 0, "runAsNonRoot": False, "fsGroup": 0},
        "tolerations": [toleration(operator="Exists")], "priorityClassName": "system-node-critical",
    }, plans(), created + timedelta(days=8), selector={"app": "ebs-csi-node", "app.kubernetes.io/name": "aws-ebs-csi-driver"},
        max_unavailable="10%")
    cluster.add_daemonset("kube-system", "eks-pod-identity-agent",
                          {"app.kubernetes.io/instance": "eks-pod-identity-agent",
                           "app.kubernetes.io/name": "eks-pod-identity-agent", "app.kubernetes.io/version": "0.1.10"},
                          {"initContainers": [container("eks-pod-identity-agent-init", f"{ECR}/eks/eks-pod-identity-agent:0.1.10",
                                                  command=["/go-runner", "/eks-pod-identity-agent", "initialize"],
                                                  security={"privileged": True})],
                           "containers": [container("eks-pod-identity-agent", f"{ECR}/eks/eks-pod-identity-agent:0.1.10",
                                              command=["/go-runner", "/eks-pod-identity-agent", "server"],
                                              args=["--port", "80", "--cluster-name", "payments-prod",
                                                    "--probe-port", "2703"],
                                              ports=[port("proxy", 80), port("probes-port", 2703)],
                                              liveness=http_probe("/healthz", "probes-port", initial=30, timeout=10),
                                              readiness=http_probe("/readyz", "probes-port", initial=1, timeout=10),
                                              security={"capabilities": {"add": ["CAP_NET_BIND_SERVICE"]}})],
                           "hostNetwork": True, "affinity": linux_amd, "tolerations": [toleration()],
                           "priorityClassName": "system-node-critical", "terminationGracePeriodSeconds": 30},
                          plans(), created + timedelta(days=8),
                          selector={"app.kubernetes.io/instance": "eks-pod-identity-agent",
                                    "app.kubernetes.io/name": "eks-pod-identity-agent"}, max_unavailable="10%")

    coredns_labels = {"eks.amazonaws.com/component": "coredns", "k8s-app": "kube-dns", "kubernetes.io/name": "CoreDNS"}
    eks_coredns = coredns_spec(f"{ECR}/eks/coredns:v1.11.1-eksbuild.11")
    eks_coredns.pop("nodeSelector")
    eks_coredns["affinity"] = {
        "nodeAffinity": linux_amd["nodeAffinity"],
        "podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 100, "podAffinityTerm": {
            "labelSelector": {"matchExpressions": [{"key": "k8s-app", "operator": "In", "values": ["kube-dns"]}]},
            "topologyKey": "kubernetes.io/hostname"}}]}}
    cluster.add_deployment("kube-system", "coredns", coredns_labels, eks_coredns,
                           [PodPlan(node_names[0]), PodPlan(node_names[1])], created,
                           selector={"eks.amazonaws.com/component": "coredns", "k8s-app": "kube-dns"})
    sidecars = [("csi-provisioner", "csi-provisioner:v5.0.2-eks-1-30-13"), ("csi-attacher", "csi-attacher:v4.6.1-eks-1-30-13"),
                ("csi-snapshotter", "csi-snapshotter:v8.0.1-eks-1-30-13"), ("csi-resizer", "csi-resizer:v1.11.2-eks-1-30-13"),
                ("liveness-probe", "livenessprobe:v2.13.1-eks-1-30-13")]
    cluster.add_deployment("kube-system", "ebs-csi-controller", {**ebs_labels, "app": "ebs-csi-controller"}, {
        "volumes": [empty_volume("socket-dir")],
        "containers": [container("ebs-plugin", plugin, args=["controller", "--endpoint=$(CSI_ENDPOINT)", "--batching=true",
                                                         "--logging-format=text", "--v=2"],
                           env=[env_value("CSI_ENDPOINT", "unix:///var/lib/csi/sockets/pluginproxy/csi.sock"),
                                env_field("CSI_NODE_NAME", "spec.nodeName")],
                           ports=[port("healthz", 9808)], requests={"cpu": "10m", "memory": "40Mi"},
                           limits={"memory": "256Mi"},
                           mounts=[mount("socket-dir", "/var/lib/csi/sockets/pluginproxy/")],
                           liveness=http_probe("/healthz", "healthz", initial=10, timeout=3, failure=5),
                           readiness=http_probe("/healthz", "healthz", initial=10, timeout=3, failure=5),
                           security={"allowPrivilegeEscalation": False, "readOnlyRootFilesystem": True})]
        + [container(n, f"{ECR}/eks/{img}", args=["--csi-address=$(ADDRESS)", "--v=2"],
               env=[env_value("ADDRESS", "/var/lib/csi/sockets/pluginproxy/csi.sock")],
               requests={"cpu": "10m", "memory": "40Mi"}, limits={"memory": "256Mi"},
               mounts=[mount("socket-dir", "/var/lib/csi/sockets/pluginproxy/")],
               security={"allowPrivilegeEscalation": False, "readOnlyRootFilesystem": True}) for n, img in sidecars],
        "nodeSelector": {"kubernetes.io/os": "linux"}, "serviceAccountName": "ebs-csi-controller-sa",
        "securityContext": {"runAsUser": 1000, "runAsGroup": 1000, "runAsNonRoot": True, "fsGroup": 1000},
        "tolerations": [toleration("CriticalAddonsOnly"), toleration(effect="NoExecute")],
        "priorityClassName": "system-cluster-critical",
    }, [PodPlan(node_names[0]), PodPlan(node_names[1])], created + timedelta(days=8),
        selector={"app": "ebs-csi-controller", "app.kubernetes.io/name": "aws-ebs-csi-driver"})

    cluster.add_service("kube-system", "kube-dns", kube_dns_service_ports()[:2], created, {"k8s-app": "kube-dns"},
                        "172.20.0.10", labels={"eks.amazonaws.com/component": "kube-dns", "k8s-app": "kube-dns",
                                               "kubernetes.io/cluster-service": "true", "kubernetes.io/name": "CoreDNS"},
                        annotations={"prometheus.io/port": "9153", "prometheus.io/scrape": "true"}, manager="eks")
    cluster.add_service("default", "kubernetes", [{"name": "https", "port": 443, "targetPort": 443}], created, None,
                        "172.20.0.1", labels={"component": "apiserver", "provider": "kubernetes"},
                        manager="kube-apiserver")

    build_eks_payments(cluster, node_names, app_created, lost_at)
    for pod in cluster.of_kind("Pod"):
        if pod["spec"].get("nodeName") == node_names[2]:
            cluster.add_event(pod, "NodeNotReady", "Node is not ready", lost_at + timedelta(seconds=1),
                              event_type="Warning", component="node-controller")
    lost_node = cluster.get("Node", "", node_names[2])
    cluster.add_event(lost_node, "NodeNotReady", f"Node {node_names[2]} status is now: NodeNotReady",
                      lost_at, component="node-controller")
    cluster.finish()
    return cluster


def build_eks_payments(cluster: Cluster, nodes: list[str], created: datetime, lost_at: datetime) -> None:
    """The `payments` namespace and its planted problems."""
    web = {"containers": [container("web", f"{APP_ECR}/web:1.14.0", ports=[port("http", 8080)],
                              requests={"cpu": "100m", "memory": "64Mi"}, limits={"memory": "128Mi"},
                              readiness=http_probe("/healthz", "http"))]}
    cluster.add_deployment("payments", "web", {"app": "web"}, web, [PodPlan(nodes[0]), PodPlan(nodes[1])],
                           created, manager="kubectl-client-side-apply")
    api = {"containers": [container("api", f"{APP_ECR}/api:2.7.3", ports=[port("http", 8080)],
                              env=[env_value("DATABASE_HOST", "ledger-db.payments.svc.cluster.local"),
                                   env_value("DATABASE_PORT", "5432")],
                              requests={"cpu": "250m", "memory": "256Mi"}, limits={"memory": "512Mi"},
                              readiness=http_probe("/ready", "http"), liveness=http_probe("/live", "http", initial=15))]}
    cluster.add_deployment("payments", "api", {"app": "api"}, api,
                           [PodPlan(nodes[0]), PodPlan(nodes[1]), PodPlan(nodes[2], node_lost=True)],
                           created, manager="kubectl-client-side-apply", progress="complete")
    bad_image = f"{APP_ECR}/worker:2.7.4-rc1"
    worker = {"containers": [container("worker", bad_image, env=[env_value("QUEUE_URL",
                                                                     "https://sqs.us-east-1.amazonaws.com/318274654021/payments-settlement")],
                                 requests={"cpu": "200m", "memory": "256Mi"})]}
    pulled_since = ago(minutes=48)
    cluster.add_deployment("payments", "worker", {"app": "worker"}, worker,
                           [PodPlan(nodes[1], {"worker": Run(state="waiting", reason="ImagePullBackOff",
                                                             message=f'Back-off pulling image "{bad_image}"',
                                                             ever_started=False)}, created=pulled_since)],
                           pulled_since, manager="kubectl-client-side-apply", progress="deadline")
    worker_pod = next(p for p in cluster.of_kind("Pod", "payments") if p["metadata"]["name"].startswith("worker-"))
    path = "spec.containers{worker}"
    not_found = (f'Failed to pull image "{bad_image}": rpc error: code = NotFound desc = failed to pull and unpack image '
                 f'"{bad_image}": failed to resolve reference "{bad_image}": {bad_image}: not found')
    cluster.add_event(worker_pod, "Pulling", f'Pulling image "{bad_image}"', pulled_since + timedelta(seconds=2),
                      ago(minutes=3, seconds=30), 14, host=nodes[1], field_path=path)
    cluster.add_event(worker_pod, "Failed", not_found, pulled_since + timedelta(seconds=3), ago(minutes=3, seconds=29),
                      14, "Warning", host=nodes[1], field_path=path)
    cluster.add_event(worker_pod, "Failed", "Error: ErrImagePull", pulled_since + timedelta(seconds=3),
                      ago(minutes=3, seconds=29), 14, "Warning", host=nodes[1], field_path=path)
    cluster.add_event(worker_pod, "BackOff", f'Back-off pulling image "{bad_image}"', pulled_since + timedelta(seconds=30),
                      ago(seconds=44), 203, host=nodes[1], field_path=path)
    cluster.add_event(worker_pod, "Failed", "Error: ImagePullBackOff", pulled_since + timedelta(seconds=30),
                      ago(seconds=44), 203, "Warning", host=nodes[1], field_path=path)

    reconciler = {"containers": [container("reconciler", f"{APP_ECR}/reconciler:2.7.3",
                                     env=[env_value("DATABASE_URL", "postgres://reconciler@ledger-db.payments.svc:5433/ledger"),
                                          env_value("RECONCILE_INTERVAL", "60s")],
                                     requests={"cpu": "100m", "memory": "128Mi"}, limits={"memory": "256Mi"})]}
    cluster.add_deployment("payments", "reconciler", {"app": "reconciler"}, reconciler,
                           [PodPlan(nodes[0], {"reconciler": crashloop(23, "Error", 1, ago(minutes=2, seconds=51),
                                                                       ago(minutes=2, seconds=46))})],
                           created + timedelta(days=3), manager="kubectl-client-side-apply", progress="complete")
    crashing = next(p for p in cluster.of_kind("Pod", "payments") if p["metadata"]["name"].startswith("reconciler-"))
    cluster.logs[("payments", crashing["metadata"]["name"], "reconciler", False)] = app_log(ago(minutes=2, seconds=51), [
        (0.1, "info", "reconciler 2.7.3 starting interval=60s"),
        (0.2, "info", "connecting to database host=ledger-db.payments.svc port=5433"),
        (5.2, "error", "dial tcp 172.20.118.40:5433: connect: connection refused"),
        (5.2, "error", "fatal: could not connect to ledger database after 5 attempts"),
    ])
    cluster.add_event(crashing, "BackOff", f"Back-off restarting failed container reconciler in pod "
                      f"{crashing['metadata']['name']}_payments({crashing['metadata']['uid']})",
                      ago(hours=1, minutes=55), ago(seconds=26), 497, "Warning", host=nodes[0],
                      field_path="spec.containers{reconciler}")

    report = {"containers": [container("report-builder", f"{APP_ECR}/report-builder:1.2.0",
                                 requests={"cpu": "4", "memory": "6Gi"}, limits={"cpu": "4", "memory": "6Gi"})]}
    message = ("0/3 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }, "
               "2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, "
               "2 No preemption victims found for incoming pod.")
    pending_since = ago(hours=2, minutes=10)
    cluster.add_deployment("payments", "report-builder", {"app": "report-builder"}, report,
                           [PodPlan(None, unschedulable=message, created=pending_since)], pending_since,
                           manager="kubectl-client-side-apply", progress="deadline")
    pending = next(p for p in cluster.of_kind("Pod", "payments") if p["metadata"]["name"].startswith("report-builder-"))
    cluster.add_scheduler_event(pending, message, pending_since + timedelta(seconds=1), ago(minutes=1, seconds=3), 31)

    ledger = {"volumes": [empty_volume("data")],
              "containers": [container("postgres", "postgres:16.4", ports=[port("postgres", 5432)],
                                 env=[env_value("POSTGRES_DB", "ledger"), env_value("PGDATA", "/var/lib/postgresql/data/pgdata")],
                                 requests={"cpu": "250m", "memory": "512Mi"}, limits={"memory": "1Gi"},
                                 mounts=[mount("data", "/var/lib/postgresql/data")],
                                 readiness=exec_probe(["pg_isready", "-U", "postgres"], initial=5))]}
    cluster.add_deployment("payments", "ledger-db", {"app": "ledger-db"}, ledger, [PodPlan(nodes[1])], created,
                           manager="kubectl-client-side-apply")
    for pod in cluster.of_kind("Pod", "payments"):
        if pod["metadata"]["name"].startswith("web-"):
            cluster.logs[("payments", pod["metadata"]["name"], "web", False)] = nginx_access_log(
                ago(minutes=40), 12, pod["metadata"]["name"], ["/", "/healthz", "/checkout", "/static/app.js"])
        if pod["metadata"]["name"].startswith("ledger-db-"):
            cluster.logs[("payments", pod["metadata"]["name"], "postgres", False)] = (
                "2024-09-02 10:14:07.412 UTC [1] LOG:  starting PostgreSQL 16.4 (Debian 16.4-1.pgdg120+1) on "
                "x86_64-pc-linux-gnu, compiled by gcc (Debian 12.2.0-14) 12.2.0, 64-bit\n"
                "2024-09-02 10:14:07.413 UTC [1] LOG:  listening on IPv4 address \"0.0.0.0\", port 5432\n"
                "2024-09-02 10:14:07.420 UTC [1] LOG:  database system is ready to accept connections\n")

    lb_host = "a3f9c1e2b7d84c6e9f0a1b2c3d4e5f60-1843326911.us-east-1.elb.amazonaws.com"
    cluster.add_service("payments", "web", [{"name": "http", "port": 80, "targetPort": "http", "nodePort": 30412}],
                        created, {"app": "web"}, "172.20.44.201", "LoadBalancer", labels={"app": "web"},
                        load_balancer={"ingress": [{"hostname": lb_host}]})
    cluster.add_service("payments", "api", [{"name": "http", "port": 80, "targetPort": "http"}], created,
                        {"app": "api"}, "172.20.91.14", labels={"app": "api"})
    cluster.add_service("payments", "ledger-db", [{"name": "postgres", "port": 5432, "targetPort": 5432}], created,
                        {"app": "ledger-db"}, "172.20.118.40", labels={"app": "ledger-db"})
