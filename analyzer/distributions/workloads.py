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
from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from analyzer.distributions.objects import is_builtin_group
from analyzer.distributions.profiles import Profiles
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
_ORDINAL_POD = re.compile(r"^(?P<base>.+)-\d+$")


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


def guess_from_pod_name(name: str, node: str | None) -> tuple[str, str]:
    """(workload kind, workload name) a pod name implies when its owners are not known.

    >>> guess_from_pod_name("coredns-6dcc67dcbc-pfrkk", None)
    ('Deployment', 'coredns')
    >>> guess_from_pod_name("proxymux-client-9xkfp", None), guess_from_pod_name("multi-client", None)
    (('DaemonSet', 'proxymux-client'), ('Pod', 'multi-client'))
    >>> guess_from_pod_name("konnectivity-agent-server-x7b2k", None)
    ('DaemonSet', 'konnectivity-agent-server')
    """
    if node and name.endswith("-" + node) and len(name) > len(node) + 1:
        return "StaticPod", name[: -len(node) - 1]
    for kind, pattern in (("Deployment", _DEPLOYMENT_POD), ("DaemonSet", _SHORT_SUFFIX_POD),
                          ("StatefulSet", _ORDINAL_POD)):
        if m := pattern.match(name):
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
    ready, total = _ready_ratio(v.text)
    if total is not None:
        return total > 0 and ready == total
    for cond in v.status.conditions or ():
        if cond.type == "Ready":
            return cond.status == "True"
    statuses = v.status.containerStatuses
    if statuses:
        return all(s.ready for s in statuses)
    if v.status.phase:
        return False if v.status.phase in ("Pending", "Failed", "Unknown") else None
    return None


# A pod younger than this that is still being created (a provisioner's helper pod, a replica
# rolling out) is starting: its readiness is not known yet, not bad (the findings' window).
STARTING_SECONDS = 300
_STARTING_REASONS = frozenset({"ContainerCreating", "PodInitializing", "Pending"})


def starting(pod: KubeObject, cluster: ModeledDump) -> bool:
    """Whether a pod is minutes old at the capture and still being created (not failing)."""
    v = pod.view
    if v.text is not None and v.text.status is not None:
        reason = v.text.status
        if reason not in _STARTING_REASONS and not re.fullmatch(r"Init:\d+/\d+", reason):
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
        if created is None or capture is None:
            return False
        age = (capture - created).total_seconds()
    return 0 <= age < STARTING_SECONDS


def is_static_pod(pod: KubeObject) -> bool:
    """Whether a pod is the mirror of a static manifest (or, pasted without owners, named like one)."""
    v = pod.view
    owner = _controller_owner(v.metadata)
    if MIRROR_ANNOTATION in (v.metadata.annotations or {}) or (owner is not None and owner.kind == "Node"):
        return True
    if v.text is None:
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
    if from_api and w.desired is not None and w.ready is None:
        w.ready = 0  # the API leaves readyReplicas/numberReady out when it is zero
    return w


def _controller_owner(meta: Any) -> Any:
    refs = meta.ownerReferences or ()
    return next((r for r in refs if r.controller), refs[0] if refs else None)


def _pod_group(pod: KubeObject, present: set[tuple[str, str, str]],
               rs_owner: dict[tuple[str, str], str | None], jobs: set[tuple[str, str]]) -> tuple[str, str, bool] | None:
    """(kind, name, inferred) of the workload a system pod stands for; None when its controller
    is listed, or when the pod is a finished task."""
    v, ns = pod.view, pod.namespace
    node = v.spec.nodeName
    annotations = v.metadata.annotations or {}
    owner = _controller_owner(v.metadata)
    if MIRROR_ANNOTATION in annotations or (owner is not None and owner.kind == "Node"):
        kind, name = guess_from_pod_name(pod.name, node)
        return "StaticPod", (name if kind == "StaticPod" else pod.name), False
    # A pod of no controller that ran to its end (OpenShift's installer and revision-pruner pods)
    # is a task that ran, not a component that runs. (A Job's pods stay: the Job is the row.)
    if v.status.phase in ("Succeeded", "Failed") and (owner is None or owner.kind in NON_CONTROLLER_OWNERS):
        return None
    if owner is not None and owner.kind in NON_CONTROLLER_OWNERS:
        return "Pod", pod.name, False
    if owner is None:
        if v.text is not None:  # a pasted table shows no owners: read them from the name
            kind, name = guess_from_pod_name(pod.name, node)
            return kind, name, kind not in ("Pod", "StaticPod")
        return "Pod", pod.name, False
    if owner.kind == "ReplicaSet":
        if (ns, owner.name) in rs_owner:
            return None  # the ReplicaSet is listed: it, or its Deployment, is the row
        hash_ = (v.metadata.labels or {}).get("pod-template-hash")
        deployment = owner.name[: -len(hash_) - 1] if hash_ and owner.name.endswith("-" + hash_) else None
        if deployment:
            if ("Deployment", ns, deployment) in present:
                return None
            return "Deployment", deployment, True
        return "ReplicaSet", owner.name, True
    if owner.kind == "Job":  # a Job's pods are its row (the Job says no more than they do)
        return "Job", owner.name, (ns, owner.name) not in jobs
    if (owner.kind, ns, owner.name) in present:
        return None
    return owner.kind, owner.name, True


def component_workloads(cluster: ModeledDump, profiles: Profiles) -> list[ComponentWorkload]:
    """Every component workload of the system namespaces, sorted by namespace, name, kind."""
    present: set[tuple[str, str, str]] = set()
    rs_owner: dict[tuple[str, str], str | None] = {}
    jobs: set[tuple[str, str]] = set()
    orphaned: dict[tuple[str, str, str], list[KubeObject]] = defaultdict(list)
    rows: list[ComponentWorkload] = []
    pods: list[KubeObject] = []
    for o in cluster.objects:
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
            rows.append(_from_controller(o))
        elif o.kind == "Job":
            jobs.add((o.namespace, o.name))
        elif o.kind == "Pod":
            pods.append(o)
    for (ns, owner_kind, owner_name), replica_sets in orphaned.items():
        if (owner_kind, ns, owner_name) not in present:
            # The owner was not collected (or is a custom resource): its current ReplicaSet stands for it.
            current = max(replica_sets, key=lambda r: (r.view.spec.replicas or 0, r.name))
            w = _from_controller(current)
            w.kind, w.name, w.inferred = owner_kind, owner_name, True
            w.objects = sorted(r.key.id for r in replica_sets)
            rows.append(w)
    groups: dict[tuple[str, str, str, bool], list[KubeObject]] = defaultdict(list)
    for pod in pods:
        group = _pod_group(pod, present, rs_owner, jobs)
        if group is not None:
            groups[(pod.namespace, *group)].append(pod)
    for (ns, kind, name, inferred), members in groups.items():
        first = members[0].view.spec
        w = ComponentWorkload(ns, name, kind, inferred=inferred,
                              objects=sorted(p.key.id for p in members))
        w.images, w.containers = _images(first)
        w.host_network = first.hostNetwork
        w.priority_class = first.priorityClassName
        w.desired = len(members)
        readiness = [None if starting(p, cluster) else pod_ready(p) for p in members]
        w.ready = None if all(r is None for r in readiness) else sum(1 for r in readiness if r)
        rows.append(w)
    rows.sort(key=lambda w: (w.namespace, w.name, w.kind))
    return rows
