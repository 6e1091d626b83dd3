"""Facts about how the cluster is built: control plane, CNI, DNS, kube-proxy mode, CSI, add-ons.

Each fact comes from the classified components (catalog roles) and the few objects that say it
outright (the kube-proxy and CoreDNS ConfigMaps, the DNS Service, CSIDriver objects). A fact the
dump cannot tell is "unknown" or empty, never guessed.

Examples:
    >>> proxy_mode_from_config("apiVersion: kubeproxy.config.k8s.io/v1alpha1\\nmode: ipvs\\n")
    'ipvs'
    >>> proxy_mode_from_config('kind: KubeProxyConfiguration\\nmode: ""\\n')
    'iptables'
    >>> proxy_mode_from_args(["--v=2", "--proxy-mode=ipvs"])
    'ipvs'
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

import yaml

from analyzer.distributions.catalog import CatalogEntry
from analyzer.distributions.objects import builtin_objects, find
from analyzer.distributions.profiles import Profiles
from analyzer.distributions.result import ControlPlane, Distribution
from analyzer.distributions.workloads import ComponentWorkload
from analyzer.safeyaml import load_yaml

if TYPE_CHECKING:
    from analyzer.ingest import KubeObject
    from analyzer.model.dump import ModeledDump

Classified = list[tuple[ComponentWorkload, CatalogEntry | None]]
# kube-proxy's default mode on Linux when its configuration leaves `mode` empty.
DEFAULT_PROXY_MODE = "iptables"


def _find(cluster: ModeledDump, kind: str, ref: str) -> KubeObject | None:
    ns, _, name = ref.partition("/")
    return find(cluster, kind, ns, name)


def _names_with_role(classified: Classified, role: str) -> list[str]:
    return sorted({w.name if e.family else e.name for w, e in classified if e is not None and e.role == role})


def control_plane(cluster: ModeledDump, dist: Distribution, classified: Classified,
                  profiles: Profiles) -> ControlPlane:
    """Managed or self-hosted: are control-plane pods visible, and what does the distribution say?"""
    visible = sorted(
        {oid for w, e in classified if w.kind == "StaticPod" or (e is not None and e.role == "control-plane")
         for oid in w.objects if profiles.control_plane_pods.search(oid.rsplit("/", 1)[-1])}
    )
    if visible:
        shown = ", ".join(v.rsplit("/", 1)[-1] for v in visible[:4])
        more = f" and {len(visible) - 4} more" if len(visible) > 4 else ""
        return ControlPlane("self-hosted", [f"control-plane pods visible: {shown}{more}"])
    profile = profiles.distributions.get(dist.name)
    if profile is None:
        return ControlPlane("unknown", ["no control-plane pods seen and the distribution is not known"])
    evidence = [f"{dist.name} runs a {profile.control_plane} control plane"]
    if profile.runs_as == "static-pods":
        # kubeadm, kind, RKE2, OpenShift...: their static pods exist; a dump without them left them out
        evidence[0] = (f"{dist.name} runs a self-hosted control plane as static pods; "
                       "none of them is in the dump")
    elif cluster.covers("Pod"):
        seen = ("no control-plane pods in kube-system" if profile.control_plane == "managed" else
                "no control-plane pods in kube-system: its components run outside pods here")
        evidence.insert(0, seen)
    return ControlPlane(profile.control_plane, evidence)


def cni(cluster: ModeledDump, classified: Classified, profiles: Profiles) -> list[str]:
    """The CNIs whose components run, else those whose annotations are on the nodes."""
    found = {profiles.cni_of_component.get(e.name if e else w.name) or profiles.cni_of_component.get(w.name)
             for w, e in classified}
    found.discard(None)
    if found:
        return sorted(found)
    seen: set[str] = set()
    for node in builtin_objects(cluster, "Node"):
        for key in node.view.metadata.annotations or {}:
            for prefix, name in profiles.cni_node_annotations.items():
                if key.startswith(prefix):
                    seen.add(name)
    return sorted(seen)


NETWORK_STATUS = ("k8s.v1.cni.cncf.io/network-status", "k8s.v1.cni.cncf.io/networks-status")
ADDED_INTERFACE = re.compile(r"^Add eth0 \[[^\]]*\] from (\S+)")


def cni_without_its_pods(cluster: ModeledDump, profiles: Profiles, distribution: str) -> tuple[str, str] | None:
    """The CNI, with how it was told, when the dump holds none of its pods and its nodes carry
    none of its annotations: the default network Multus attached pods to (their network-status
    annotation, then their AddedInterface events), else the CNI a distribution runs without
    pods, when every node has the field it gives them and the dump holds kube-system's pods
    (so that no CNI pod among them is a fact, not a gap)."""
    for pod in builtin_objects(cluster, "Pod"):
        annotations = pod.view.metadata.annotations
        for key in NETWORK_STATUS if annotations else ():
            network = _default_network(annotations.get(key))
            if network in profiles.cni_of_network:
                return profiles.cni_of_network[network], (
                    f"the default network of pod {pod.key.namespace}/{pod.key.name} is {network} "
                    f"(its {key} annotation, written by Multus)")
    for event in builtin_objects(cluster, "Event"):
        if event.view.reason == "AddedInterface":
            said = ADDED_INTERFACE.match(event.view.message or "")
            if said and said.group(1) in profiles.cni_of_network:
                return profiles.cni_of_network[said.group(1)], (
                    f"pods were attached to network {said.group(1)} (AddedInterface event: "
                    f"\"{event.view.message}\")")
    built_in = profiles.cni_without_pods.get(distribution)
    if built_in is None:
        return None
    name, field = built_in
    profile = profiles.distributions.get(distribution)
    title = profile.title if profile else distribution
    nodes = list(builtin_objects(cluster, "Node"))
    system_pods = any(p.key.namespace == "kube-system" for p in builtin_objects(cluster, "Pod"))
    if nodes and system_pods and all(getattr(n.view.spec, field, None) for n in nodes):
        return name, (f"no CNI pod among kube-system's, and every node ({len(nodes)}) has a "
                      f"spec.{field}: {title}'s {name} runs in the kubelet")
    return None


def _default_network(text: object) -> str | None:
    """The name of the default network in a Multus network-status annotation (a JSON list).

    >>> _default_network('[{"name": "openshift-sdn", "interface": "eth0", "default": true}]')
    'openshift-sdn'
    >>> _default_network('not json') is None
    True
    """
    if not isinstance(text, str):
        return None
    try:
        networks = json.loads(text)
    except ValueError:
        return None
    if not isinstance(networks, list):
        return None
    entries = [n for n in networks if isinstance(n, dict)]
    default = next((n for n in entries if n.get("default") is True), None)
    default = default or next((n for n in entries if n.get("interface") == "eth0"), None)
    name = default.get("name") if default else None
    return name if isinstance(name, str) else None


def dns(cluster: ModeledDump, classified: Classified, profiles: Profiles) -> dict[str, Any]:
    """Cluster DNS: provider (CoreDNS/kube-dns), its Service IP, and the Corefile when collected."""
    providers = _names_with_role(classified, "dns")
    service_ip = service = None
    for ref in profiles.dns_services:
        svc = _find(cluster, "Service", ref)
        if svc is not None:
            service, service_ip = ref, svc.view.spec.clusterIP
            break
    corefile = configmap = None
    for ref in profiles.dns_configmaps:
        cm = _find(cluster, "ConfigMap", ref)
        if cm is not None and cm.view.data and "Corefile" in cm.view.data:
            configmap, corefile = ref, cm.view.data["Corefile"]
            break
    provider = providers[0] if len(providers) == 1 else (", ".join(providers) or None)
    if provider is None and corefile is not None:
        provider = "coredns"
    return {"provider": provider, "service": service, "service_ip": service_ip,
            "configmap": configmap, "corefile": corefile,
            "corefile_collected": cluster.covers("ConfigMap")}


def proxy_mode_from_config(text: str) -> str | None:
    """The `mode` of a KubeProxyConfiguration document (empty means the iptables default)."""
    try:
        doc = load_yaml(text)
    except yaml.YAMLError:
        return None
    if not isinstance(doc, dict) or "mode" not in doc:
        return None
    return str(doc["mode"] or DEFAULT_PROXY_MODE)


# kube-proxy names the proxier it runs as it starts (klog: "Using iptables Proxier."); the mode
# when neither its ConfigMap nor its flags were collected (a cluster-info dump holds its log).
_PROXIER_LOG = re.compile(r"\bUsing (iptables|ipvs|nftables|userspace|kernelspace|winkernel) [Pp]roxier\b")


def proxy_mode_from_log(text: str) -> str | None:
    """The proxier kube-proxy's log says it uses (its first lines), or None.

    >>> proxy_mode_from_log('I1125 19:02:46.822903       1 server_others.go:186] Using iptables Proxier.')
    'iptables'
    """
    m = _PROXIER_LOG.search(text[:20000])
    return m.group(1) if m else None


def proxy_mode_from_args(args: list[str]) -> str | None:
    """The `--proxy-mode` flag of kube-proxy's command line."""
    for i, arg in enumerate(args):
        if arg.startswith("--proxy-mode="):
            return arg.split("=", 1)[1] or DEFAULT_PROXY_MODE
        if arg == "--proxy-mode" and i + 1 < len(args):
            return args[i + 1]
    return None


def kube_proxy_mode(cluster: ModeledDump, classified: Classified) -> str:
    """kube-proxy's mode from its ConfigMap (`config.conf`), else its flags, else "unknown"."""
    cm = _find(cluster, "ConfigMap", "kube-system/kube-proxy")
    if cm is not None:
        for key, value in sorted((cm.view.data or {}).items()):
            if key.endswith((".conf", ".yaml")) and isinstance(value, str):
                mode = proxy_mode_from_config(value)
                if mode:
                    return mode
    wanted = {oid for w, e in classified if e is not None and e.role == "kube-proxy" for oid in w.objects}
    kinds = {oid.split("/")[1] for oid in wanted}
    for obj in sorted((o for o in builtin_objects(cluster, *kinds) if o.key.id in wanted), key=lambda o: o.key.id):
        spec = _pod_spec(obj)
        for c in (spec.containers or ()) if spec is not None else ():
            mode = proxy_mode_from_args([*(c.command or ()), *(c.args or ())])
            if mode:
                return mode
    for log in cluster.logs:
        if log.container == "kube-proxy" and not log.previous:
            mode = proxy_mode_from_log(log.text)
            if mode:
                return mode
    return "unknown"


def _pod_spec(obj: KubeObject) -> Any:
    if obj.kind == "Pod":
        return obj.view.spec
    template = getattr(obj.view.spec, "template", None)
    return template.spec if template is not None else None


def csi_drivers(cluster: ModeledDump, classified: Classified) -> list[str]:
    """CSI driver names (CSIDriver objects, CSI StorageClass provisioners and PVs), else CSI components."""
    drivers = {o.name for o in builtin_objects(cluster, "CSIDriver")}
    for sc in builtin_objects(cluster, "StorageClass"):
        provisioner = sc.view.provisioner or ""
        if "csi" in provisioner:
            drivers.add(provisioner)
    for pv in builtin_objects(cluster, "PersistentVolume"):
        csi = pv.view.spec.csi or {}
        if isinstance(csi.get("driver"), str) and csi["driver"]:  # (an edited PV's may be anything)
            drivers.add(csi["driver"])
    return sorted(drivers) or _names_with_role(classified, "csi")


def fill_facts(cluster: ModeledDump, dist: Distribution, classified: Classified, profiles: Profiles) -> None:
    """Add the cluster facts to a detection result."""
    dist.control_plane = control_plane(cluster, dist, classified, profiles)
    dist.cni = cni(cluster, classified, profiles)
    if not dist.cni and (told := cni_without_its_pods(cluster, profiles, dist.name)):
        dist.cni = [told[0]]
        dist.notes.append(f"CNI {told[0]}: {told[1]}")
    dist.dns = dns(cluster, classified, profiles)
    dist.kube_proxy_mode = kube_proxy_mode(cluster, classified)
    dist.csi_drivers = csi_drivers(cluster, classified)
    dist.api_tunnel = _names_with_role(classified, "api-tunnel")
    dist.metrics = _names_with_role(classified, "metrics")
    dist.autoscalers = _names_with_role(classified, "autoscaler")
