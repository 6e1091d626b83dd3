"""The workloads of system namespaces, one per component, from controllers or from their pods.

A component is found as its controller (Deployment, DaemonSet, StatefulSet, ReplicationController,
or a ReplicaSet nobody owns), as the mirror pods of a static manifest (one row per component, not
per node), as a bare pod, or, when the controller was not collected (or the pods were pasted as a
table, which shows no owners), as the workload its pods' names and owner references imply.

Examples:
    >>> guess_from_pod_name("coredns-69c47794-6xnlq", None)
    ('Deployment', 'coredns')
    >>> guess_from_pod_name("kube-proxy-jct8w", None)
    ('DaemonSet', 'kube-proxy')
    >>> guess_from_pod_name("etcd-kube-master-node1", "kube-master-node1")
    ('StaticPod', 'etcd')
    >>> guess_from_pod_name("alertmanager-main-0", None)
    ('StatefulSet', 'alertmanager-main')
"""

from __future__ import annotations

import re
import weakref
from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from analyzer.distributions.objects import is_builtin_group
from analyzer.distributions.profiles import Profiles
from analyzer.ingest.result import capture_is_lower_bound
from analyzer.kube.time import parse_time

if TYPE_CHECKING:
    from analyzer.ingest import KubeObject
    from analyzer.model.dump import ModeledDump

CONTROLLER_KINDS = ("Deployment", "DaemonSet", "StatefulSet", "ReplicaSet", "ReplicationController")
MIRROR_ANNOTATION = "kubernetes.io/config.mirror"
# Owners that only garbage-collect a pod (OpenShift's installer pods belong to a ConfigMap): the pod
# is its own workload, as if it had no owner.
NON_CONTROLLER_OWNERS = frozenset({"ConfigMap", "Secret", "Service", "PersistentVolumeClaim"})
# Suffixes controllers add to pod names: <rs-hash>-<5 chars> (Deployment), <5 chars> (DaemonSet),
# <ordinal> (StatefulSet). Hashes and random suffixes are written in an alphabet without vowels
# (so they never spell a word): a name part like "client" or "server" is no hash.
_HASH_CHAR = "[b-df-hj-np-tv-z0-9]"
_DEPLOYMENT_POD = re.compile(rf"^(?P<base>.+)-{_HASH_CHAR}{{6,10}}-{_HASH_CHAR}{{5}}$")
_SHORT_SUFFIX_POD = re.compile(rf"^(?P<base>.+)-{_HASH_CHAR}{{5}}$")
# A DaemonSet's, a ReplicationController's, a Job's and a bare ReplicaSet's pods are all named
# <name>-<5 chars>. Where the name is an add-on's versioned controller (`kube-dns-v9`,
# `heapster-v11`, `fluentd-gcp-v3.2.0`: the add-on manager's names, given to ReplicationControllers
# and DaemonSets alike; kubernetes/kubernetes#17488) nothing tells which: it is said as the
# controller (NAMED_CONTROLLER), and a listed one of any of those kinds is it.
_VERSIONED_CONTROLLER = re.compile(r"-v\d+(?:\.\d+)*$")
NAMED_CONTROLLER = "controller"
NAMED_CONTROLLER_KINDS = ("DaemonSet", "ReplicationController", "Job", "ReplicaSet")
_ORDINAL_POD = re.compile(r"^(?P<base>.+)-\d+$")
_DEPLOYMENT_RS = re.compile(rf"^(?P<base>.+)-{_HASH_CHAR}{{6,10}}$")
# A CronJob's pod, `<cronjob>-<minutes since the epoch>-<5 chars>` (its Job is named by the minute
# it was scheduled for, eight digits since 1.21's controller): no Deployment's hash is a date.
_CRONJOB_POD = re.compile(rf"^(?P<base>.+)-\d{{8}}-{_HASH_CHAR}{{5}}$")
# A mirror pod of a node named by its IPv4 address (OKE's nodes are `10.0.10.2`), by EC2's
# hostname of it (`ip-172-31-8-90`, with or without its domain: RKE2 and kubeadm on EC2), or as
# GKE names its nodes (`gke-<cluster>-<pool>-<8 hex>-<4 chars>`: its kube-proxy ran as a static
# pod on each node till 1.26): no controller writes an address or a node's name into a pod's
# name (an ordinal would read it as a StatefulSet's, a 4-char end as nothing).
_NODE_NAMED_POD = re.compile(r"^(?P<base>.+?)-(?:(?:\d{1,3}\.){3}\d{1,3}|ip-\d{1,3}-\d{1,3}-\d{1,3}-\d{1,3}"
                             r"(?:\.[a-z0-9.-]+)?|gke-[a-z0-9-]+-[0-9a-f]{8}-[a-z0-9]{4})$")


@dataclass(slots=True)
class ComponentWorkload:
    """One system workload: where it is, what it runs, how many pods it wants and has ready."""

    namespace: str
    name: str
    kind: str
    images: list[str] = field(default_factory=list)
    containers: list[str] = field(default_factory=list)
    desired: int | None = None
    ready: int | None = None
    host_network: bool | None = None
    priority_class: str | None = None
    inferred: bool = False  # built from pods because the controller itself is not in the dump
    objects: list[str] = field(default_factory=list)


def guess_from_pod_name(name: str, node: str | None, nodes: frozenset[str] = frozenset(),
                        control_plane: re.Pattern[str] | None = None) -> tuple[str, str]:
    """(workload kind, workload name) a pod name implies when its owners are not known.

    A mirror pod is named <component>-<node>: its own node, any node of the dump (nodes), or,
    for a control-plane component (control_plane matches the name), a suffix no controller
    writes (kubeadm-like clusters run these as static pods, never as StatefulSets).

    >>> guess_from_pod_name("coredns-6dcc67dcbc-pfrkk", None)
    ('Deployment', 'coredns')
    >>> guess_from_pod_name("proxymux-client-9xkfp", None), guess_from_pod_name("multi-client", None)
    (('DaemonSet', 'proxymux-client'), ('Pod', 'multi-client'))
    >>> guess_from_pod_name("konnectivity-agent-server-x7b2k", None)
    ('DaemonSet', 'konnectivity-agent-server')
    >>> guess_from_pod_name("kube-dns-v9-3453v", None)  # an add-on's versioned controller: RC or DaemonSet
    ('controller', 'kube-dns-v9')
    >>> guess_from_pod_name("etcd-cp-1", None), guess_from_pod_name("etcd-cp-1", None, frozenset({"cp-1"}))
    (('StatefulSet', 'etcd-cp'), ('StaticPod', 'etcd'))
    >>> guess_from_pod_name("kube-apiserver-cp-1", None, control_plane=re.compile("^(kube-apiserver|etcd)-."))
    ('StaticPod', 'kube-apiserver')
    >>> guess_from_pod_name("proxymux-client-10.0.10.2", None)  # a node named by its address
    ('StaticPod', 'proxymux-client')
    >>> guess_from_pod_name("kube-proxy-ip-172-1-1-1", None)  # by EC2's hostname of its address
    ('StaticPod', 'kube-proxy')
    >>> guess_from_pod_name("kube-proxy-gke-bbtest-default-pool-dcc88ad3-mr6m", None)  # as GKE names it
    ('StaticPod', 'kube-proxy')
    >>> guess_from_pod_name("collect-profiles-29130045-6ntf7", None)  # the Job of 2025-05-21 04:45
    ('CronJob', 'collect-profiles')
    """
    if node and name.endswith("-" + node) and len(name) > len(node) + 1:
        return "StaticPod", name[: -len(node) - 1]
    for known in sorted(nodes, key=len, reverse=True):
        if name.endswith("-" + known) and len(name) > len(known) + 1:
            return "StaticPod", name[: -len(known) - 1]
    if m := _NODE_NAMED_POD.match(name):
        return "StaticPod", m["base"]
    if control_plane is not None and (m := control_plane.match(name)) and m.re.groups:
        # the pattern's group is the component (kube-apiserver of kube-apiserver-cp-1); a suffix a
        # controller writes (a hash, an ordinal alone) still says Deployment/DaemonSet/StatefulSet
        component = m.group(1)
        suffix = name[len(component) + 1:]
        if suffix and not (_DEPLOYMENT_POD.match(name) or _SHORT_SUFFIX_POD.match(name) or suffix.isdigit()):
            return "StaticPod", component
    for kind, pattern in (("CronJob", _CRONJOB_POD), ("Deployment", _DEPLOYMENT_POD), ("DaemonSet", _SHORT_SUFFIX_POD),
                          ("StatefulSet", _ORDINAL_POD)):
        if m := pattern.match(name):
            if kind == "DaemonSet" and _VERSIONED_CONTROLLER.search(m["base"]):
                return NAMED_CONTROLLER, m["base"]
            return kind, m["base"]
    return "Pod", name


def _images(spec: Any) -> tuple[list[str], list[str]]:
    images: list[str] = []
    names: list[str] = []
    for group in (spec.containers, spec.initContainers):
        for c in group or ():
            names.append(c.name)
            if c.image and c.image not in images:
                images.append(c.image)
    return images, names


def _ready_ratio(text: Any) -> tuple[int | None, int | None]:
    if text is None or not text.ready or "/" not in text.ready:
        return None, None
    a, _, b = text.ready.partition("/")
    return (int(a), int(b)) if a.isdigit() and b.isdigit() else (None, None)


def pod_ready(pod: KubeObject) -> bool | None:
    """Whether a pod is ready (Ready condition, container statuses, or a pasted READY column).

    A pod that ran to completion (a Job's) counts as ready: it did what it was for.
    """
    v = pod.view
    if v.status.phase == "Succeeded" or (v.text is not None and v.text.status == "Completed"):
        return True
    if v.status.reason == "NodeLost" or (v.text is not None and v.text.status in _LOST_STATUSES):
        # its node stopped reporting: the node controller marks it not ready, and its READY is
        # what its kubelet said last (kubernetes/kubernetes#73875: node1's API server "1/1 Unknown")
        return False
    ready, total = _ready_ratio(v.text)
    if total:  # (a pod has at least one container: a row's 0/0 says its printer saw none)
        return ready == total
    for cond in v.status.conditions or ():
        if cond.type == "Ready":
            return cond.status == "True"
    statuses = v.status.containerStatuses
    if statuses:
        return all(s.ready for s in statuses)
    if v.status.phase:
        return False if v.status.phase in ("Pending", "Failed", "Unknown") else None
    return None


# The STATUS kubectl prints for a pod the node controller marked lost (NodeLost), and for one
# being deleted on top of it (Unknown).
_LOST_STATUSES = frozenset({"NodeLost", "Unknown"})


# A pod younger than this that is still being created (a provisioner's helper pod, a replica
# rolling out) is starting: its readiness is not known yet, not bad (the findings' window).
STARTING_SECONDS = 300
_STARTING_REASONS = frozenset({"ContainerCreating", "PodInitializing", "Pending"})


def starting(pod: KubeObject, cluster: ModeledDump) -> bool:
    """Whether a pod is minutes old at the capture and still being created (not failing), or
    Running, never restarted, with containers not ready yet (their readiness probes' first pass)."""
    v = pod.view
    if v.text is not None and v.text.status is not None:
        reason = v.text.status
        probing = reason == "Running" and not v.text.restarts and pod_ready(pod) is False
        if reason not in _STARTING_REASONS and not re.fullmatch(r"Init:\d+/\d+", reason) and not probing:
            return False
    else:
        if v.status.phase != "Pending":
            return False
        for cs in (*(v.status.initContainerStatuses or ()), *(v.status.containerStatuses or ())):
            waiting = cs.state.waiting if cs.state is not None else None
            if cs.restartCount or (waiting is not None and waiting.reason not in _STARTING_REASONS):
                return False
    age = v.text.age_seconds if v.text is not None else None
    if age is None:
        created, capture = parse_time(v.metadata.creationTimestamp), cluster.capture_time
        if created is None or capture is None or capture_is_lower_bound(cluster):
            return False  # (a capture that is a lower bound says how old at least, never how young)
        age = (capture - created).total_seconds()
    return 0 <= age < STARTING_SECONDS


def is_static_pod(pod: KubeObject) -> bool:
    """Whether a pod is the mirror of a static manifest (or, pasted without owners, named like one)."""
    v = pod.view
    owner = _controller_owner(v.metadata)
    if MIRROR_ANNOTATION in (v.metadata.annotations or {}) or (owner is not None and owner.kind == "Node"):
        return True
    if v.text is None or owner is not None:  # a described pod's Controlled By says what owns it
        return False
    node = v.spec.nodeName
    return node is None or pod.name.endswith("-" + node)


def _from_controller(o: KubeObject) -> ComponentWorkload:
    v = o.view
    w = ComponentWorkload(o.namespace, o.name, o.kind, objects=[o.key.id])
    template = v.spec.template
    if template is not None:
        w.images, w.containers = _images(template.spec)
        w.host_network = template.spec.hostNetwork
        w.priority_class = template.spec.priorityClassName
    from_api = v.text is None
    if o.kind == "DaemonSet":
        w.desired = v.status.desiredNumberScheduled
        w.ready = v.status.numberReady
    else:
        w.desired = v.spec.replicas
        w.ready = v.status.readyReplicas
    if v.text is not None:
        ready, total = _ready_ratio(v.text)
        w.ready = ready if ready is not None else w.ready
        w.desired = total if total is not None and w.desired is None else w.desired
        if w.ready is None and o.kind != "DaemonSet" and v.status.availableReplicas is not None:
            # a Deployment's describe counts available replicas, never ready ones; an available
            # pod has been ready for minReadySeconds
            w.ready = v.status.availableReplicas
    if from_api and w.desired is not None and w.ready is None:
        w.ready = 0  # the API leaves readyReplicas/numberReady out when it is zero
    return w


def _controller_owner(meta: Any) -> Any:
    refs = meta.ownerReferences or ()
    return next((r for r in refs if r.controller), refs[0] if refs else None)


@dataclass(slots=True)
class _Known:
    """What the dump says of the controllers system pods can belong to."""

    present: set[tuple[str, str, str]] = field(default_factory=set)  # (kind, namespace, name) listed
    rs_owner: dict[tuple[str, str], str | None] = field(default_factory=dict)  # listed ReplicaSets
    jobs: set[tuple[str, str]] = field(default_factory=set)
    nodes: frozenset[str] = frozenset()  # node names: Nodes, pods' nodeName
    control_plane: re.Pattern[str] | None = None
    # ReplicaSets named by pods' owner references (a describe's Controlled By) -> their group
    rs_groups: dict[tuple[str, str], tuple[str, str, bool] | None] = field(default_factory=dict)


def _replica_set_group(pod: KubeObject, rs_name: str, known: _Known) -> tuple[str, str, bool] | None:
    """The group of a pod of ReplicaSet rs_name: None when the ReplicaSet or its Deployment is
    listed (it is the row), else its Deployment (by the pod-template-hash label, or the hash in
    the ReplicaSet's name when a pasted describe cut the labels) or the ReplicaSet, inferred."""
    ns = pod.namespace
    if (ns, rs_name) in known.rs_owner:
        return None  # the ReplicaSet is listed: it, or its Deployment, is the row
    hash_ = (pod.view.metadata.labels or {}).get("pod-template-hash")
    if hash_ and rs_name.endswith("-" + hash_):
        deployment: str | None = rs_name[: -len(hash_) - 1]
    else:
        m = _DEPLOYMENT_RS.match(rs_name) if pod.view.text is not None else None
        deployment = m["base"] if m else None
    if deployment:
        if ("Deployment", ns, deployment) in known.present:
            return None
        return "Deployment", deployment, True
    return "ReplicaSet", rs_name, True


def _table_pod_group(pod: KubeObject, known: _Known) -> tuple[str, str, bool] | None:
    """The group of a pasted table row (no owners shown), from its name: the same workload its
    described or listed siblings' owners name, or None when the guessed controller is listed."""
    ns = pod.namespace
    kind, name = guess_from_pod_name(pod.name, pod.view.spec.nodeName, known.nodes, known.control_plane)
    if kind in ("Pod", "StaticPod"):
        return kind, name, False
    if kind in ("DaemonSet", NAMED_CONTROLLER) and (_ran_to_its_end(pod) or _catalog_controller(name) == "Job"):
        # a Job's pods are named <job>-<5 chars> too; a DaemonSet's pod restarts, never completes
        # (k3s#3389: helm-install-traefik-vn7wv Completed was listed as a DaemonSet), and a
        # component the catalog knows as a Job's is one while it waits or runs (rke2#585's Pending
        # helm-install-rke2-ingress-nginx-s4n49)
        kind = "Job"
    elif kind == "Deployment" and _catalog_controller(name) == "DaemonSet":
        # a DaemonSet named <name>-<8 hex> (k3s's svclb-<service>-<its uid's first 8 hex>) has
        # pods that read as a Deployment's where those hex hold no vowel (svclb-traefik-32f6769d-6f4mf)
        kind, name = "DaemonSet", pod.name.rsplit("-", 1)[0]
    if kind in ("Deployment", "DaemonSet", NAMED_CONTROLLER):
        # <replicaset>-<5 chars>: a ReplicaSet a describe or the dump named decides
        rs_name = pod.name.rsplit("-", 1)[0]
        if (ns, rs_name) in known.rs_owner:
            return None
        if (ns, rs_name) in known.rs_groups:
            return known.rs_groups[(ns, rs_name)]
    if any((listed, ns, name) in known.present for listed in (NAMED_CONTROLLER_KINDS if kind == NAMED_CONTROLLER
                                                                else (kind,))):
        return None
    return kind, name, True


def _catalog_controller(name: str) -> str:
    """The controller kind the catalog knows the workload of this name by ("" where its name tells)."""
    from analyzer.distributions.catalog import load_catalog

    entry = load_catalog().match(name, ())
    return entry.controller if entry is not None else ""


def _ran_to_its_end(pod: KubeObject) -> bool:
    """A pod that completed: Succeeded, or a pasted STATUS `Completed`."""
    text = pod.view.text
    return pod.view.status.phase == "Succeeded" or (text is not None and text.status == "Completed")


def _pod_group(pod: KubeObject, known: _Known) -> tuple[str, str, bool] | None:
    """(kind, name, inferred) of the workload a system pod stands for; None when its controller
    is listed, or when the pod is a finished task."""
    v, ns = pod.view, pod.namespace
    present, jobs = known.present, known.jobs
    node = v.spec.nodeName
    annotations = v.metadata.annotations or {}
    owner = _controller_owner(v.metadata)
    if MIRROR_ANNOTATION in annotations or (owner is not None and owner.kind == "Node"):
        kind, name = guess_from_pod_name(pod.name, node or (owner.name if owner is not None else None))
        return "StaticPod", (name if kind == "StaticPod" else pod.name), False
    # A pod of no controller that ran to its end (OpenShift's installer and revision-pruner pods)
    # is a task that ran, not a component that runs. (A Job's pods stay: the Job is the row.)
    if v.status.phase in ("Succeeded", "Failed") and (owner is None or owner.kind in NON_CONTROLLER_OWNERS):
        return None
    if owner is not None and owner.kind in NON_CONTROLLER_OWNERS:
        return "Pod", pod.name, False
    if owner is None:
        if v.text is not None:  # a pasted table shows no owners: read them from the name
            return _table_pod_group(pod, known)
        return "Pod", pod.name, False
    if owner.kind == "ReplicaSet":
        return known.rs_groups.get((ns, owner.name), _replica_set_group(pod, owner.name, known))
    if owner.kind == "Job":  # a Job's pods are its row (the Job says no more than they do)
        return "Job", owner.name, (ns, owner.name) not in jobs
    if (owner.kind, ns, owner.name) in present:
        return None
    return owner.kind, owner.name, True


def _nodes_named_by_static_pods(pods: list[KubeObject], control_plane: re.Pattern[str]) -> set[str]:
    """The nodes pasted control-plane static pods' names end in (`etcd-clean`: node `clean`), where
    no NODE column says them: the node's other mirror pods (RKE2's cloud-controller-manager and
    kube-proxy) end in it too (rancher/rke2#9390: `cloud-controller-manager-clean` beside
    `etcd-clean` was a workload of its own, a bare Pod)."""
    named: set[str] = set()
    for pod in pods:
        if pod.view.text is None or pod.view.spec.nodeName or (m := control_plane.match(pod.name)) is None \
                or not m.re.groups:
            continue
        if guess_from_pod_name(pod.name, None, control_plane=control_plane)[0] == "StaticPod":
            named.add(pod.name[len(m.group(1)) + 1:])
    return named


# Per cluster: (profiles, its workloads). The distribution and the components table both ask.
_WORKLOADS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def component_workloads(cluster: ModeledDump, profiles: Profiles) -> list[ComponentWorkload]:
    """Every component workload of the system namespaces, sorted by namespace, name, kind
    (found once per cluster and profiles; each call gets a list of its own)."""
    try:
        known = _WORKLOADS.get(cluster)
    except TypeError:  # not weakly referable: found each time
        return _component_workloads(cluster, profiles)
    if known is None or known[0] is not profiles:
        known = _WORKLOADS[cluster] = (profiles, _component_workloads(cluster, profiles))
    return list(known[1])


def _component_workloads(cluster: ModeledDump, profiles: Profiles) -> list[ComponentWorkload]:
    known = _Known(control_plane=profiles.control_plane_pods)
    present, rs_owner, jobs = known.present, known.rs_owner, known.jobs
    nodes: set[str] = set()
    orphaned: dict[tuple[str, str, str], list[KubeObject]] = defaultdict(list)
    rows: list[ComponentWorkload] = []
    pods: list[KubeObject] = []
    unowned_rows: list[KubeObject] = []  # pasted ReplicaSet rows
    for o in cluster.objects:
        if o.kind in ("Node", "Pod") and is_builtin_group(o.key.group):
            nodes.add(o.name if o.kind == "Node" else o.view.spec.nodeName or "")
        if not profiles.is_system_namespace(o.namespace) or not is_builtin_group(o.key.group):
            continue
        if o.kind in CONTROLLER_KINDS:
            present.add((o.kind, o.namespace, o.name))
            owner = _controller_owner(o.view.metadata)
            if o.kind == "ReplicaSet":
                rs_owner[(o.namespace, o.name)] = owner.name if owner and owner.kind == "Deployment" else None
                if owner is not None:
                    orphaned[(o.namespace, owner.kind, owner.name)].append(o)
                    continue  # its owner (a Deployment, an Argo Rollout, ...) is the component
                if o.view.text is not None:
                    unowned_rows.append(o)  # a table row shows no owner: decided below
                    continue
            rows.append(_from_controller(o))
        elif o.kind == "Job":
            jobs.add((o.namespace, o.name))
        elif o.kind == "Pod":
            pods.append(o)
    for rs in unowned_rows:
        # `kubectl get all` lists a Deployment's ReplicaSets beside it: <deployment>-<hash> is its
        if (m := _DEPLOYMENT_RS.match(rs.name)) and ("Deployment", rs.namespace, m["base"]) in present:
            rs_owner[(rs.namespace, rs.name)] = m["base"]
        else:
            rows.append(_from_controller(rs))
    for (ns, owner_kind, owner_name), replica_sets in orphaned.items():
        if (owner_kind, ns, owner_name) not in present:
            # The owner was not collected (or is a custom resource): its current ReplicaSet stands for it.
            current = max(replica_sets, key=lambda r: (r.view.spec.replicas or 0, r.name))
            w = _from_controller(current)
            w.kind, w.name, w.inferred = owner_kind, owner_name, True
            w.objects = sorted(r.key.id for r in replica_sets)
            rows.append(w)
    known.nodes = frozenset((nodes | _nodes_named_by_static_pods(pods, known.control_plane)) - {""})
    for pod in pods:  # the ReplicaSets pods' owner references name, so that table rows join them
        owner = _controller_owner(pod.view.metadata)
        if owner is not None and owner.kind == "ReplicaSet" and (pod.namespace, owner.name) not in known.rs_groups:
            known.rs_groups[(pod.namespace, owner.name)] = _replica_set_group(pod, owner.name, known)
    groups: dict[tuple[str, str, str, bool], list[KubeObject]] = defaultdict(list)
    for pod in pods:
        group = _pod_group(pod, known)
        if group is not None:
            groups[(pod.namespace, *group)].append(pod)
    for (ns, kind, name, inferred), members in groups.items():
        first = members[0].view.spec
        w = ComponentWorkload(ns, name, kind, inferred=inferred,
                              objects=sorted(p.key.id for p in members))
        w.images, w.containers = _images(first)
        w.host_network = first.hostNetwork
        w.priority_class = first.priorityClassName
        # pods being deleted (an old ReplicaSet's, Terminating) are not wanted any more: the
        # others are (terraform-aws-eks#2623: 2 coredns pods ContainerCreating, 4 Terminating)
        wanted = [p for p in members if not _being_deleted(p)] or members
        readiness = [None if starting(p, cluster) else pod_ready(p) for p in wanted]
        # a pod the dump says nothing of its state (a pasted row cut after its name) is neither
        # ready nor short: counted out while others are known (Azure/AKS#1360: kube-proxy's
        # second row cut by the paste read "1 of 2 pods ready", critical, on a healthy cluster)
        unread = [i for i, p in enumerate(wanted) if readiness[i] is None and _says_nothing(p)]
        if unread and len(unread) < len(wanted):
            wanted = [p for i, p in enumerate(wanted) if i not in unread]
            readiness = [r for i, r in enumerate(readiness) if i not in unread]
        w.desired = len(wanted)
        # pods still starting, beside none known not ready (a rollout's new ReplicaSet, its old
        # one serving): how many will be ready is not known yet, not short
        w.ready = None if all(r is not False for r in readiness) and None in readiness else sum(1 for r in readiness if r)
        rows.append(w)
    rows.sort(key=lambda w: (w.namespace, w.name, w.kind))
    return rows


def _says_nothing(pod: KubeObject) -> bool:
    """Whether the dump holds nothing of a pod's state: no phase, condition, container status,
    nor READY or STATUS column."""
    v = pod.view
    text = v.text
    return not (v.status.phase or v.status.conditions or v.status.containerStatuses
                or (text is not None and (text.ready or text.status)))


def _being_deleted(pod: KubeObject) -> bool:
    """A pod on its way out: its deletion asked for, or a pasted row saying Terminating (or
    Unknown: kubectl's word for a pod being deleted whose node was lost)."""
    text = pod.view.text
    return bool(pod.view.metadata.deletionTimestamp) or (text is not None and text.status in ("Terminating", "Unknown"))
