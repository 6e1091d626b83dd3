"""What every sample cluster has: namespaces and their CA bundles, CoreDNS, kube-proxy, container runs."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from synthetic.clusters.samples.apiserver import Cluster, Run
from synthetic.objects import Obj
from synthetic.objects.configmaps import ROOT_CA_DESCRIPTION, placeholder_certificate
from synthetic.objects.containers import container, env_field, http_probe, mount, port
from synthetic.objects.pod_specs import cm_volume, host_volume, toleration


def add_root_ca(cluster: Cluster, namespace: str, created: datetime) -> None:
    """The kube-root-ca.crt ConfigMap of a namespace."""
    cluster.add_configmap(namespace, "kube-root-ca.crt", {"ca.crt": placeholder_certificate(cluster.flavor.name, "ca")},
                          created, annotations={"kubernetes.io/description": ROOT_CA_DESCRIPTION},
                          manager="kube-controller-manager")


def add_extension_apiserver_authentication(cluster: Cluster, created: datetime) -> None:
    """kube-system/extension-apiserver-authentication, as the API server publishes it."""
    cluster.add_configmap("kube-system", "extension-apiserver-authentication", {
        "client-ca-file": placeholder_certificate(cluster.flavor.name, "client-ca"),
        "requestheader-allowed-names": '["front-proxy-client"]',
        "requestheader-client-ca-file": placeholder_certificate(cluster.flavor.name, "front-proxy-ca"),
        "requestheader-extra-headers-prefix": '["X-Remote-Extra-"]',
        "requestheader-group-headers": '["X-Remote-Group"]',
        "requestheader-username-headers": '["X-Remote-User"]',
    }, created, manager="kube-apiserver")


def add_default_namespaces(cluster: Cluster, created: datetime, extra: Iterable[tuple[str, datetime]]) -> None:
    """The four namespaces every cluster starts with, the application ones, and their CA bundles."""
    when = {name: created for name in ("default", "kube-node-lease", "kube-public", "kube-system")}
    when.update(extra)
    for name, made in when.items():
        cluster.add_namespace(name, made)
        # kube-controller-manager publishes kube-root-ca.crt into each namespace shortly after it exists
        add_root_ca(cluster, name, made + timedelta(seconds=15))


def kube_dns_service_ports() -> list[Obj]:
    """The ports of the kube-dns Service."""
    return [{"name": "dns", "port": 53, "protocol": "UDP", "targetPort": 53},
            {"name": "dns-tcp", "port": 53, "protocol": "TCP", "targetPort": 53},
            {"name": "metrics", "port": 9153, "protocol": "TCP", "targetPort": 9153}]


COREFILE_UPSTREAM = """.:53 {
    errors
    health {
       lameduck 5s
    }
    ready
    kubernetes cluster.local in-addr.arpa ip6.arpa {
       pods insecure
       fallthrough in-addr.arpa ip6.arpa
       ttl 30
    }
    prometheus :9153
    forward . /etc/resolv.conf {
       max_concurrent 1000
    }
    cache 30
    loop
    reload
    loadbalance
}
"""

# From the AKS seed (kube-system/coredns), without the private-cluster hosts block.
COREFILE_AKS = """.:53 {
    errors
    ready
    health
    kubernetes cluster.local in-addr.arpa ip6.arpa {
      pods insecure
      fallthrough in-addr.arpa ip6.arpa
    }
    prometheus :9153
    forward . /etc/resolv.conf
    cache 30
    loop
    reload
    loadbalance
    import custom/*.override
}
import custom/*.server
"""


def coredns_spec(image: str, service_account: str = "coredns", extra_volumes: list[Obj] | None = None,
                 extra_mounts: list[Obj] | None = None, memory_limit: str = "170Mi",
                 items: list[Obj] | None = None, node_selector: dict[str, str] | None = None,
                 tolerations: list[Obj] | None = None) -> Obj:
    """The CoreDNS pod spec kubeadm and the managed services all derive from."""
    return {
        "volumes": [cm_volume("config-volume", "coredns", items=items or [{"key": "Corefile", "path": "Corefile"}]),
                    *(extra_volumes or [])],
        "containers": [container(
            "coredns", image, args=["-conf", "/etc/coredns/Corefile"],
            ports=[port("dns", 53, "UDP"), port("dns-tcp", 53, "TCP"), port("metrics", 9153, "TCP")],
            limits={"memory": memory_limit}, requests={"cpu": "100m", "memory": "70Mi"},
            mounts=[mount("config-volume", "/etc/coredns", read_only=True), *(extra_mounts or [])],
            liveness=http_probe("/health", 8080, initial=60, timeout=5, failure=5),
            readiness=http_probe("/ready", 8181),
            security={"capabilities": {"add": ["NET_BIND_SERVICE"], "drop": ["ALL"]},
                      "allowPrivilegeEscalation": False, "readOnlyRootFilesystem": True},
        )],
        "dnsPolicy": "Default",
        "nodeSelector": node_selector or {"kubernetes.io/os": "linux"},
        "serviceAccountName": service_account,
        "tolerations": tolerations or [toleration("CriticalAddonsOnly"),
                                       toleration("node-role.kubernetes.io/control-plane", effect="NoSchedule")],
        "priorityClassName": "system-cluster-critical",
    }


def kube_proxy_spec(image: str, command: list[str], extra_volumes: list[Obj] | None = None,
                    extra_mounts: list[Obj] | None = None, requests: dict[str, str] | None = None,
                    node_selector: dict[str, str] | None = None) -> Obj:
    """kube-proxy DaemonSet pod spec (kubeadm's, from the seed; managed services adjust it)."""
    return {
        "volumes": [*(extra_volumes or []), host_volume("xtables-lock", "/run/xtables.lock", "FileOrCreate"),
                    host_volume("lib-modules", "/lib/modules")],
        "containers": [container("kube-proxy", image, command=command,
                           env=[env_field("NODE_NAME", "spec.nodeName")], requests=requests,
                           mounts=[*(extra_mounts or []), mount("xtables-lock", "/run/xtables.lock"),
                                   mount("lib-modules", "/lib/modules", read_only=True)],
                           security={"privileged": True})],
        "nodeSelector": node_selector or {"kubernetes.io/os": "linux"},
        "serviceAccountName": "kube-proxy",
        "hostNetwork": True,
        "tolerations": [toleration(), ],
        "priorityClassName": "system-node-critical",
    }


def crashloop(restarts: int, last_reason: str, exit_code: int, last_started: datetime,
              last_finished: datetime) -> Run:
    """A container in CrashLoopBackOff after `restarts` restarts."""
    return Run(state="waiting", reason="CrashLoopBackOff", restarts=restarts, last_reason=last_reason,
               last_exit_code=exit_code, last_started=last_started, last_finished=last_finished,
               message="back-off 5m0s restarting failed container={container} pod={pod}_{namespace}({uid})")


def running(restarts: int = 0, last_reason: str = "", last_exit_code: int = 0,
            started: datetime | None = None, last_started: datetime | None = None,
            last_finished: datetime | None = None, ready: bool | None = None) -> Run:
    """A running container, restarted before when `last_reason` says why."""
    return Run(restarts=restarts, last_reason=last_reason, last_exit_code=last_exit_code, started=started,
               last_started=last_started, last_finished=last_finished, ready=ready)
