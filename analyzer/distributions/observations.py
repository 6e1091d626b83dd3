"""What a dump shows that fingerprints can match: one flat list of observations per channel.

Reading the typed views only (Node labels, providerID, versions; system workload names and images;
ConfigMap names; API groups; namespaces), so detection works on any partial dump, pasted text too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from analyzer.distributions.objects import is_builtin_group
from analyzer.distributions.profiles import Profiles
from analyzer.kube.event_reasons import current_reason

if TYPE_CHECKING:
    from analyzer.ingest import KubeObject
    from analyzer.kube.keys import ObjectKey
    from analyzer.model.dump import ModeledDump

WORKLOAD_KINDS = ("Deployment", "DaemonSet", "StatefulSet", "ReplicaSet", "Job", "CronJob",
                  "ReplicationController")
WORKLOAD = "Workload"
SERVER_VERSION = "server version"
SERVER_VERSION_KIND = "Version"


@dataclass(slots=True)
class Observation:
    """One distinct value seen on a channel, from one kind of object, about one node (or none)."""

    channel: str
    value: str
    kind: str
    node: str | None
    objects: list[str] = field(default_factory=list)


# One object seen with a value: (kind, node, object id).
Sighting = tuple[str, "str | None", str]


class Observations:
    """Observations grouped by channel, each distinct (value, kind, node) once with its objects.

    Kept as sightings per (channel, value) until a fingerprint matches the value: a 5,000-node
    cluster shows 190,000 (label, node) pairs, of which fingerprints match a few thousand, and
    one Observation each cost more than the rest of detection.
    """

    def __init__(self) -> None:
        self._seen: dict[str, dict[str, list[Sighting]]] = {}
        self.virtual_nodes: set[str] = set()

    def add(self, channel: str, value: str | None, obj: str, kind: str, node: str | None) -> None:
        if not value:
            return
        values = self._seen.get(channel)
        if values is None:
            values = self._seen[channel] = {}
        sightings = values.get(value)
        if sightings is None:
            values[value] = [(kind, node, obj)]
        else:
            sightings.append((kind, node, obj))

    def add_all(self, values: list[tuple[str, str | None]], obj: str, kind: str, node: str | None) -> None:
        """`add` for each (channel, value) of one object, in order (a node shows dozens)."""
        seen = self._seen
        sighting = (kind, node, obj)  # one tuple for all of the object's values
        for channel, value in values:
            if not value:
                continue
            by_value = seen.get(channel)
            if by_value is None:
                by_value = seen[channel] = {}
            sightings = by_value.get(value)
            if sightings is None:
                by_value[value] = [sighting]
            else:
                sightings.append(sighting)

    def add_each(self, channel: str, values: Iterable[str | None], obj: str, kind: str, node: str | None) -> None:
        """`add` for each value one object shows on one channel (a node's label keys)."""
        by_value = self._seen.get(channel)
        if by_value is None:
            by_value = self._seen[channel] = {}
        sighting = (kind, node, obj)
        for value in values:
            if not value:
                continue
            sightings = by_value.get(value)
            if sightings is None:
                by_value[value] = [sighting]
            else:
                sightings.append(sighting)

    def values(self, channel: str) -> dict[str, list[Sighting]]:
        """The distinct values seen on a channel (each with its sightings), in the order first seen."""
        return self._seen.get(channel, {})

    def observations(self, channel: str, value: str) -> list[Observation]:
        """The observations of one value: one per (kind, node), in the order first seen."""
        grouped: dict[tuple[str, str | None], Observation] = {}
        for kind, node, obj in self._seen[channel][value]:
            ob = grouped.get((kind, node))
            if ob is None:
                ob = grouped[(kind, node)] = Observation(channel, value, kind, node)
            ob.objects.append(obj)
        return list(grouped.values())

    def __iter__(self) -> Iterator[Observation]:
        for channel, values in self._seen.items():
            for value in values:
                yield from self.observations(channel, value)


def _labels(meta: Any) -> dict[str, Any]:
    return (meta.labels or {}) if meta is not None else {}


def _images(spec: Any) -> Iterator[str]:
    for group in (spec.containers, spec.initContainers):
        for c in group or ():
            if c.image:
                yield c.image


def _observe_node(obs: Observations, node: KubeObject, profiles: Profiles) -> None:
    v, name, oid = node.view, node.name, node.key.id
    labels = _labels(v.metadata)
    if any(k in labels for k in profiles.virtual_node_labels):
        # A placeholder node of a virtual cluster: nothing on it tells the distribution.
        obs.virtual_nodes.add(name)
        return
    obs.add_all([("node_name", name), ("provider_id", v.spec.providerID)], oid, "Node", name)
    obs.add_each("node_label_key", labels, oid, "Node", name)
    obs.add_each("node_label", [f"{key}={'' if value is None else value}" for key, value in labels.items()],
                 oid, "Node", name)
    if v.text is not None and v.text.roles:
        # A pasted table says the roles only in its ROLES column.
        for role in v.text.roles.split(","):
            if role.strip() and role.strip() != "<none>":
                key = f"node-role.kubernetes.io/{role.strip()}"
                obs.add("node_label_key", key, oid, "Node", name)
                obs.add("node_label", f"{key}=", oid, "Node", name)
    obs.add_each("node_annotation_key", v.metadata.annotations or {}, oid, "Node", name)
    info = v.status.nodeInfo
    if info is not None:
        obs.add("version", info.kubeletVersion, oid, "Node", name)
        obs.add("version", info.kubeProxyVersion, oid, "Node", name)
        obs.add("os_image", info.osImage, oid, "Node", name)


@cache
def pod_annotation_keys() -> frozenset[str]:
    """The pod annotation keys fingerprints.yaml's `pod_annotation` rows look at."""
    from analyzer.distributions.fingerprints import load_fingerprints

    return frozenset(f.pattern.partition("=")[0] for f in load_fingerprints() if f.signal == "pod_annotation")


@cache
def system_object_label_keys() -> frozenset[str]:
    """The label keys fingerprints.yaml's `system_object_label` rows look at."""
    from analyzer.distributions.fingerprints import load_fingerprints

    return frozenset(f.pattern.partition("=")[0] for f in load_fingerprints() if f.signal == "system_object_label")


def _observe_workload(obs: Observations, o: KubeObject, system: bool, oid: str | None = None) -> None:
    key = o.key
    oid, kind = oid or key.id, key.kind
    if kind == "Pod":
        spec = o.view.spec
        if spec.nodeName:
            # The same fact as the Node's own name, so it scores as one (kind "Node").
            obs.add("node_name", spec.nodeName, oid, "Node", spec.nodeName)
        annotations = o.view.metadata.annotations
        if annotations:
            # Only the keys fingerprints.yaml names (a pod carries many annotations).
            for annotation in pod_annotation_keys().intersection(annotations):
                obs.add("pod_annotation", f"{annotation}={annotations[annotation]}", oid, kind, None)
    if not system:
        return
    # A DaemonSet and its pods are one component: names and images score once as "Workload".
    seen = [("workload_name", key.name), ("system_workload", f"{key.namespace}/{key.name}")]
    spec = None
    if kind == "Pod":
        spec = o.view.spec
    elif getattr(o.view.spec, "template", None) is not None:
        spec = o.view.spec.template.spec
    if spec is not None:
        seen += (("image", image) for image in _images(spec))
    obs.add_all(seen, oid, WORKLOAD, None)  # (one call for the object's values, in this order)


# The image a kubelet's event names: "Pulling image \"x\"", "Back-off pulling image \"x\"",
# "Failed to pull image \"x\": ...", "Successfully pulled image \"x\"", "Container image \"x\" already present".
_EVENT_IMAGE = re.compile(r'\bimage "([^"\s]+)"', re.IGNORECASE)
# The scheduler's event: "Successfully assigned <namespace>/<pod> to <node>".
_ASSIGNED_TO = re.compile(r"^Successfully assigned \S+ to (\S+)$")


def _observe_event(obs: Observations, o: KubeObject, profiles: Profiles) -> None:
    """What a pod's events say when the pod may not be in the dump (a describe's Events pasted
    alone), and a node's events its name: the images its kubelet pulls, for a pod of a system namespace (as its own images
    would count), and the kubelet's host, a node's name (ebs-csi-driver#477: an EKS add-on's
    image from Amazon's ECR, named only in the kubelet's back-off)."""
    view = o.view
    about = view.involvedObject or view.regarding
    reporter = (view.source.component if view.source is not None else None) or view.reportingComponent
    if reporter and reporter not in obs.values("event_source"):
        obs.add("event_source", reporter, o.key.id, "Event", None)
    if about is not None and about.kind == "Node" and about.name and about.name not in obs.values("node_name"):
        # a node's own events name it (kind#3504: `kubectl events` rows of Node/kind-control-plane
        # pasted with no node listed)
        node_id = f"core/Node//{about.name}"
        obs.add("node_name", about.name, node_id, "Node", about.name)
    if about is not None and about.kind and about.kind != "Pod":
        return
    namespace = (about.namespace if about is not None else None) or o.namespace or ""
    pod_id = f"core/Pod/{namespace}/{about.name}" if about is not None and about.name else o.key.id
    host = view.source.host if view.source is not None else None
    # (only what the objects themselves did not show: the same fact, not a second sighting);
    # an event naming no object (rows pasted without their describe: Azure/AKS#1567) still
    # names its kubelet's node
    if host and (view.source.component or "") == "kubelet" and host not in obs.values("node_name"):
        obs.add("node_name", host, pod_id, "Node", host)
    if about is None or about.kind != "Pod":
        return
    message = view.message or ""
    # the scheduler's "Successfully assigned kube-system/kindnet-l6fln to kne-control-plane" names
    # the pod's node (openconfig/kne#345: a kind cluster's describe Events pasted alone)
    assigned = _ASSIGNED_TO.search(message) if current_reason(view.reason or "") == "Scheduled" else None
    if assigned is not None and assigned.group(1) not in obs.values("node_name"):
        obs.add("node_name", assigned.group(1), pod_id, "Node", assigned.group(1))
    system = not namespace or profiles.is_system_namespace(namespace)
    if system and about.name and about.name not in obs.values("workload_name"):
        # a system pod known only from its events is a system workload as its table row would be
        obs.add("workload_name", about.name, pod_id, WORKLOAD, None)
    if 'image "' in message.lower() and system:
        for image in _EVENT_IMAGE.findall(message):
            if image not in obs.values("image"):
                obs.add("image", image, pod_id, WORKLOAD, None)


# The Services whose cluster IPs a distribution's default service range sets: the API server's
# (the range's first address) and the DNS Service's (by convention its tenth).
_RANGE_SERVICES = frozenset({"kubernetes", "kube-dns"})


def _observe_node_name_suffixes(obs: Observations) -> None:
    """What a node's name adds to another node's (`-m02` of multinode-demo-m02 beside multinode-demo):
    a name is tried against its own prefixes up to each `-`, never against every other name."""
    names = obs.values("node_name")
    for name in list(names):
        cut = name.find("-")
        while cut > 0:
            if name[:cut] in names:
                obs.add("node_name_suffix", name[cut:], f"core/Node//{name}", "Node", name)
            cut = name.find("-", cut + 1)


def observe(cluster: ModeledDump, profiles: Profiles) -> Observations:
    """Every observation detection can score, from the cluster's typed views."""
    obs = Observations()
    namespaces: dict[str, bool] = {}  # namespace -> is a system namespace
    # namespace -> the object that shows it: its Namespace, else the first object in it (a dump
    # that did not collect Namespaces must not cite one as evidence)
    shown_by: dict[str, str] = {}
    events: list[KubeObject] = []  # observed last: the objects themselves come first as evidence
    first_of_group: dict[str, ObjectKey] = {}  # API group -> its first object
    for o in cluster.objects:
        key = o.key
        kind, ns, group = key.kind, key.namespace, key.group
        system = namespaces.get(ns)
        if system is None:
            # A pasted table that does not state its namespace may well be kube-system's.
            system = namespaces[ns] = not ns or profiles.is_system_namespace(ns)
            shown_by.setdefault(ns, key.id)
        if kind == "Namespace" and not group:
            namespaces.setdefault(key.name, profiles.is_system_namespace(key.name))
            shown_by[key.name] = key.id
        if group:
            seen = first_of_group.get(group)
            if seen is None or key < seen:
                first_of_group[group] = key
            if not is_builtin_group(group):
                continue  # a custom resource, even one named like a built-in kind
        if system and kind != "Event" and (labels := o.view.metadata.labels):
            # Only the keys fingerprints.yaml names (an object carries many labels).
            for label in system_object_label_keys().intersection(labels):
                obs.add("system_object_label", f"{label}={labels[label]}", key.id, kind, None)
        if kind == "Node":
            _observe_node(obs, o, profiles)
        elif kind == "Pod" or kind in WORKLOAD_KINDS:
            _observe_workload(obs, o, system)
        elif kind == "Event":
            events.append(o)
        elif kind == "ConfigMap" and system:
            obs.add("configmap_name", key.name, key.id, kind, None)
        elif kind == "Service" and key.name in _RANGE_SERVICES and (system or ns == "default"):
            spec = o.view.spec
            if spec is not None and spec.clusterIP:
                obs.add("service_ip", f"{key.name}={spec.clusterIP}", key.id, kind, None)
            if spec is not None and key.name == "kubernetes" and ns in ("", "default"):
                for port in spec.ports or ():
                    obs.add("service_port", f"kubernetes={port.port}/{port.protocol or 'TCP'}", key.id, kind, None)
        elif kind == "Namespace":
            namespaces.setdefault(key.name, profiles.is_system_namespace(key.name))
            for annotation in (o.view.metadata.annotations or {}):
                obs.add("namespace_annotation_key", annotation, key.id, kind, None)
        elif kind == "ServiceAccount":
            # OpenShift's controller gives each service account a `<sa>-dockercfg-xxxxx` pull secret.
            view = o.view
            for ref in (*(view.secrets or ()), *(view.imagePullSecrets or ())):
                obs.add("secret_name", ref.name, key.id, kind, None)
        elif kind == "Secret":
            obs.add("secret_name", key.name, key.id, kind, None)
        elif kind == "CustomResourceDefinition":
            crd_group = (o.view.spec or {}).get("group") or key.name.partition(".")[2]
            obs.add("api_group", crd_group, key.id, kind, None)
        elif kind == "APIService":
            # APIService names are <version>.<group>; the core group's are just <version>.
            obs.add("api_group", key.name.partition(".")[2], key.id, kind, None)
    for gone in getattr(cluster.ingest, "deleted", None) or ():
        # What a paste showed and then deleted was in the cluster: its names and images still
        # tell the distribution (OKE's proxymux-client DaemonSet, deleted to see what breaks).
        o, key = gone.obj, gone.obj.key
        system = not key.namespace or profiles.is_system_namespace(key.namespace)
        oid = f"{key.id}, deleted at line {gone.line}"
        if key.kind == "Pod" or key.kind in WORKLOAD_KINDS:
            _observe_workload(obs, o, system, oid)
        elif key.kind == "ConfigMap" and system:
            obs.add("configmap_name", key.name, oid, key.kind, None)
    for event in events:
        _observe_event(obs, event, profiles)
    for log in getattr(cluster.ingest, "logs", None) or ():
        # a system pod known only from its log (`kubectl logs POD -n kube-system` pasted alone) is
        # a system workload as its table row would be, and its events are
        if log.pod and log.pod not in obs.values("workload_name") and (
                not log.namespace or profiles.is_system_namespace(log.namespace)):
            obs.add("workload_name", log.pod, f"core/Pod/{log.namespace}/{log.pod}, its log at line {log.line}",
                    WORKLOAD, None)
    _observe_node_name_suffixes(obs)
    namespaces.pop("", None)
    for ns in sorted(namespaces):
        obs.add("namespace", ns, shown_by[ns], "Namespace", None)
    for group, first in sorted(first_of_group.items()):
        obs.add("api_group", group, first.id, "object", None)
    for tool in sorted(getattr(cluster.ingest, "cli_tools", None) or {}):
        obs.add("cli_tool", tool, "transcript commands", "Transcript", None)
    # The hosts of the nodes' journal lines are node names (`aks-agentpool3-23355474-vmss000003
    # kubelet[3484]: ...`): a ticket quoting only the kubelet's journal names its nodes there.
    # (a host printed as the node's name in other case is that node: the kubelet registers the
    # hostname lowercased)
    known = {name.lower() for name in obs.values("node_name")}
    for host in sorted({line.host for line in getattr(cluster.ingest, "node_journal", None) or ()}):
        if host.lower() not in known:
            obs.add("node_name", host, f"node journal of {host}", "Node", host)
    version = cluster.ingest.server_version
    if version:
        obs.add("version", version, SERVER_VERSION, SERVER_VERSION_KIND, None)
    return obs
