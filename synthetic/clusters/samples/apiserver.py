"""The sample clusters' model: API objects as the API server would hold them after admission,
scheduling, controllers and kubelet status (uids, resourceVersions, managedFields derived from names)."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from synthetic import fields
from synthetic.emit.go_order import go_order
from synthetic.fields import pick_keys
from synthetic.ids import hexid, make_uid, pick, safe_suffix
from synthetic.objects import Obj
from synthetic.objects.containers import image_id, normalized_image
from synthetic.objects.events import core_event
from synthetic.objects.pod_specs import (
    DS_TOLERATIONS,
    admission_defaults,
    default_pod_spec,
    default_tolerations,
    qos_class,
    service_account_mount,
    service_account_volume,
)
from synthetic.objects.services import label_selector_matches, service_spec
from synthetic.times import ago, micro_ts, nano_ts, ts

# The sample clusters' managedFields expand every struct and map, as API servers before 1.22 did
# (shared/realdata: 1.18 and 1.20 servers expand `f:fieldRef`, a 1.23 server owns it whole); kept so
# that sample_dumps/ stays byte-identical.
SAMPLE_ATOMIC_FIELDS: frozenset[str] = frozenset()


def managed(manager: str, when: datetime, owned: Obj, api_version: str = "v1", operation: str = "Update",
            subresource: str | None = None) -> Obj:
    """One managedFields entry of a sample cluster (synthetic.fields.managed with its atomic fields)."""
    return fields.managed(manager, when, owned, api_version, operation, subresource, atomic=SAMPLE_ATOMIC_FIELDS)


@dataclass(frozen=True)
class Flavor:
    """What differs per distribution in how the API server and kubelets populate objects."""

    name: str
    k8s_minor: int
    runtime: str  # "containerd" or "cri-o": container/image id prefixes and image naming
    created: datetime  # when the control plane came up
    scheduler_instance: str  # reportingInstance of default-scheduler events
    addon_manager: str  # field manager that applied the distribution's add-ons
    addon_api_operation: str = "Update"


@dataclass
class Run:
    """How one container is doing at capture time."""

    state: str = "running"  # running | waiting | terminated
    reason: str = ""  # waiting/terminated reason
    message: str = ""
    exit_code: int = 0
    restarts: int = 0
    last_reason: str = ""  # lastState.terminated.reason when the container restarted before
    last_exit_code: int = 0
    ready: bool | None = None  # None: ready when running
    started: datetime | None = None  # current instance start (running) or last start
    last_started: datetime | None = None
    last_finished: datetime | None = None
    ever_started: bool = True  # False: image never pulled / never created


@dataclass
class PodPlan:
    """Where a pod runs and how its containers are doing."""

    node: str | None
    runs: dict[str, Run] = field(default_factory=dict)
    unschedulable: str = ""  # the scheduler's message when the pod has no node
    node_lost: bool = False  # node stopped reporting; node controller marked the pod not ready
    no_sandbox: bool = False  # sandbox never created (volume setup failing): no pod IP
    phase: str | None = None  # explicit phase (Failed/Succeeded for job pods)
    created: datetime | None = None
    unready_since: datetime | None = None  # when Ready turned False (default: about an hour ago)


@dataclass
class NodeSlot:
    """Per-node facts the pod builder needs."""

    name: str
    ip: str
    pod_ip_prefix: str
    next_pod_ip: int
    uid: str
    created: datetime




class Cluster:
    """All objects of one cluster, plus its container logs."""

    def __init__(self, flavor: Flavor, api_server_endpoints: list[tuple[str, int]]) -> None:
        self.flavor = flavor
        self.objects: list[Obj] = []
        self.logs: dict[tuple[str, str, str, bool], str] = {}
        self.nodes: dict[str, NodeSlot] = {}
        self.api_server_endpoints = api_server_endpoints
        self._rv = 400 + pick(300, flavor.name)
        self.server_version: Obj | None = None  # `kubectl version`'s serverVersion, where a dump shows it

    def version_info(self) -> Obj:
        """The API server's version.Info: the one the cluster was given, else derived from its kubelets."""
        if self.server_version is not None:
            return self.server_version
        kubelet = self.of_kind("Node")[0]["status"]["nodeInfo"]["kubeletVersion"]
        return {
            "major": "1", "minor": str(self.flavor.k8s_minor), "gitVersion": kubelet,
            "gitCommit": hexid(40, self.flavor.name, "kube-apiserver"), "gitTreeState": "clean",
            "buildDate": ts(self.flavor.created - timedelta(days=30)), "goVersion": "go1.22.5",
            "compiler": "gc", "platform": "linux/amd64",
        }

    # -- bookkeeping -------------------------------------------------------------------------

    def next_rv(self) -> str:
        """A fresh resourceVersion (increasing, like etcd revisions)."""
        self._rv += 1 + pick(97, self.flavor.name, self._rv)
        return str(self._rv)

    @property
    def list_rv(self) -> str:
        """The resourceVersion a List call returns."""
        return str(self._rv + 211)

    def add(self, obj: Obj) -> Obj:
        """Store an object as it is."""
        self.objects.append(obj)
        return obj

    def of_kind(self, kind: str, namespace: str | None = None) -> list[Obj]:
        """Objects of a kind (in one namespace if given), sorted as the API lists them."""
        found = [
            o for o in self.objects
            if o["kind"] == kind and (namespace is None or o["metadata"].get("namespace") == namespace)
        ]
        return sorted(found, key=lambda o: (o["metadata"].get("namespace", ""), o["metadata"]["name"]))

    def get(self, kind: str, namespace: str, name: str) -> Obj:
        """The object of a kind, namespace and name."""
        for o in self.objects:
            md = o["metadata"]
            if o["kind"] == kind and md.get("namespace", "") == namespace and md["name"] == name:
                return o
        raise KeyError(f"{kind} {namespace}/{name}")

    def namespaces(self) -> list[str]:
        """The names of the cluster's namespaces."""
        return [o["metadata"]["name"] for o in self.of_kind("Namespace")]

    def meta(self, kind: str, namespace: str, name: str, created: datetime,
             labels: dict[str, str] | None = None, annotations: dict[str, str] | None = None,
             **extra: Any) -> Obj:
        """Server-populated ObjectMeta (uid, resourceVersion, creationTimestamp)."""
        md: Obj = {"name": name}
        if "generateName" in extra:
            md["generateName"] = extra.pop("generateName")
        if namespace:
            md["namespace"] = namespace
        md["uid"] = make_uid(self.flavor.name, kind, namespace, name)
        md["resourceVersion"] = self.next_rv()
        if "generation" in extra:
            md["generation"] = extra.pop("generation")
        md["creationTimestamp"] = ts(created)
        if labels:
            md["labels"] = dict(labels)
        if annotations:
            md["annotations"] = dict(annotations)
        md.update(extra)
        return md

    # -- namespaces, nodes, config -------------------------------------------------------------

    def add_namespace(self, name: str, created: datetime, labels: dict[str, str] | None = None) -> Obj:
        """A Namespace, with the well-known name label."""
        all_labels = {"kubernetes.io/metadata.name": name, **(labels or {})}
        md = self.meta("Namespace", "", name, created, all_labels)
        manager = "kube-apiserver" if name in ("default", "kube-system", "kube-public", "kube-node-lease") else "kubectl-create"
        md["managedFields"] = [managed(manager, created, {"metadata": {"labels": all_labels}})]
        return self.add({
            "kind": "Namespace", "apiVersion": "v1", "metadata": md,
            "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": "Active"},
        })

    def add_node(self, name: str, ip: str, created: datetime, labels: dict[str, str],
                 annotations: dict[str, str], spec: Obj, capacity: dict[str, str],
                 allocatable: dict[str, str], node_info: Obj, conditions: list[Obj],
                 addresses: list[Obj], pod_ip_prefix: str, first_pod_ip: int) -> Obj:
        """A Node with its kubelet's and the controller manager's fields, and its slot for pod IPs."""
        md = self.meta("Node", "", name, created, labels, annotations)
        kubelet_owned: Obj = {"metadata": {
            "annotations": pick_keys(annotations, "volumes.kubernetes.io/controller-managed-attach-detach",
                                     "alpha.kubernetes.io/provided-node-ip"),
            "labels": labels,
        }}
        if "providerID" in spec:
            kubelet_owned["spec"] = {"providerID": spec["providerID"]}
        controller_owned: Obj = {"metadata": {"annotations": pick_keys(annotations, "node.alpha.kubernetes.io/ttl")}}
        if "podCIDR" in spec:
            controller_owned["spec"] = pick_keys(spec, "podCIDR", "podCIDRs")
        status = {
            "capacity": capacity, "allocatable": allocatable, "conditions": conditions,
            "addresses": addresses, "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
            "nodeInfo": node_info, "images": [],
        }
        md["managedFields"] = [
            managed("kubelet", created, kubelet_owned),
            managed("kube-controller-manager", created + timedelta(seconds=12), controller_owned),
            managed("kubelet", ago(minutes=4), {"status": status}, subresource="status"),
        ]
        node = self.add({"kind": "Node", "apiVersion": "v1", "metadata": md, "spec": spec, "status": status})
        self.nodes[name] = NodeSlot(name, ip, pod_ip_prefix, first_pod_ip, md["uid"], created)
        return node

    def add_configmap(self, namespace: str, name: str, data: dict[str, str] | None, created: datetime,
                      labels: dict[str, str] | None = None, annotations: dict[str, str] | None = None,
                      manager: str = "kubectl-client-side-apply") -> Obj:
        """A ConfigMap (`data` None: one without data)."""
        md = self.meta("ConfigMap", namespace, name, created, labels, annotations)
        owned: Obj = {"metadata": pick_keys(md, "labels", "annotations")}
        if data is not None:
            owned["data"] = data
        md["managedFields"] = [managed(manager, created, owned)]
        obj: Obj = {"kind": "ConfigMap", "apiVersion": "v1", "metadata": md}
        if data is not None:
            obj["data"] = data
        return self.add(obj)

    # -- pods -----------------------------------------------------------------------------------

    def _pod_ip(self, node: str) -> str:
        slot = self.nodes[node]
        ip = f"{slot.pod_ip_prefix}{slot.next_pod_ip}"
        slot.next_pod_ip += 1 + pick(3, node, slot.next_pod_ip)
        return ip

    def build_pod(self, namespace: str, name: str, template: Obj, plan: PodPlan,
                  owner: Obj | None, generate_name: str | None, created: datetime,
                  static: bool = False, extra_annotations: dict[str, str] | None = None) -> Obj:
        """A pod as the API server stores it after admission, scheduling and kubelet status."""
        tmeta = template.get("metadata", {})
        spec = default_pod_spec(template["spec"])
        if plan.node and plan.created is None and created < self.nodes[plan.node].created:
            # the pod was (re)created once its node existed
            plan.created = self.nodes[plan.node].created + timedelta(minutes=2, seconds=pick(90, name))
        annotations = {**tmeta.get("annotations", {}), **(extra_annotations or {})}
        extra: Obj = {}
        if generate_name:
            extra["generateName"] = generate_name
        md = self.meta("Pod", namespace, name, plan.created or created, tmeta.get("labels"), annotations or None, **extra)
        if owner is not None:
            md["ownerReferences"] = [owner]
        if not static:
            spec.setdefault("serviceAccountName", "default")
            spec["serviceAccount"] = spec["serviceAccountName"]
            if spec.get("automountServiceAccountToken") is not False:
                volume_name = "kube-api-access-" + safe_suffix(5, self.flavor.name, namespace, name, "sa")
                spec.setdefault("volumes", []).append(service_account_volume(volume_name))
                for container in spec.get("initContainers", []) + spec["containers"]:
                    container.setdefault("volumeMounts", []).append(service_account_mount(volume_name))
            tolerations = spec.setdefault("tolerations", [])
            tolerations += default_tolerations(tolerations)
        if plan.node:
            spec["nodeName"] = plan.node
        admission_defaults(spec)
        # keep the Go field order readable in YAML too: re-sort spec keys the way Go declares them
        spec = go_order(spec, "PodSpec")
        pod: Obj = {"kind": "Pod", "apiVersion": "v1", "metadata": md, "spec": spec}
        pod["status"] = self.pod_status(pod, plan, plan.created or created)
        creator = "kubelet" if static else "kube-controller-manager"
        owned_meta = pick_keys(md, "generateName", "labels", "annotations", "ownerReferences")
        owned_spec = {k: v for k, v in spec.items() if k not in ("nodeName", "priority")}
        md["managedFields"] = [
            managed(creator, plan.created or created, {"metadata": owned_meta, "spec": owned_spec}),
        ]
        if plan.node:
            md["managedFields"].append(managed(
                "kubelet", ago(minutes=2 + pick(40, name)), {"status": pod["status"]}, subresource="status"))
        return self.add(pod)

    def _container_ids(self, namespace: str, pod: str, container: str, instance: int) -> str:
        prefix = "cri-o://" if self.flavor.runtime == "cri-o" else "containerd://"
        return prefix + hexid(64, self.flavor.name, namespace, pod, container, instance)

    def _container_status(self, namespace: str, pod_name: str, pod_uid: str, container: Obj, run: Run,
                          started_default: datetime) -> Obj:
        image = container["image"]
        status: Obj = {"name": container["name"]}
        started = run.started or started_default
        if run.state == "running":
            status["state"] = {"running": {"startedAt": ts(started)}}
        elif run.state == "waiting":
            waiting: Obj = {"reason": run.reason}
            if run.message:
                waiting["message"] = run.message.format(pod=pod_name, namespace=namespace, uid=pod_uid,
                                                        container=container["name"])
            status["state"] = {"waiting": waiting}
        else:
            terminated: Obj = {"exitCode": run.exit_code, "reason": run.reason}
            if run.message:
                terminated["message"] = run.message
            terminated["startedAt"] = ts(started)
            terminated["finishedAt"] = ts(run.last_finished or started + timedelta(seconds=7))
            terminated["containerID"] = self._container_ids(namespace, pod_name, container["name"], run.restarts)
            status["state"] = {"terminated": terminated}
        if run.last_reason:
            last_start = run.last_started or started - timedelta(minutes=5)
            status["lastState"] = {"terminated": {
                "exitCode": run.last_exit_code,
                "reason": run.last_reason,
                "startedAt": ts(last_start),
                "finishedAt": ts(run.last_finished or last_start + timedelta(seconds=41)),
                "containerID": self._container_ids(namespace, pod_name, container["name"], max(run.restarts - 1, 0)),
            }}
        else:
            status["lastState"] = {}
        ready = run.ready if run.ready is not None else run.state == "running"
        status["ready"] = ready
        status["restartCount"] = run.restarts
        if run.ever_started:
            status["image"] = normalized_image(image)
            status["imageID"] = image_id(image)
            if run.state in ("running", "terminated"):
                status["containerID"] = self._container_ids(namespace, pod_name, container["name"], run.restarts)
            elif run.last_reason:  # crash-looping: the id of the container that last exited
                status["containerID"] = status["lastState"]["terminated"]["containerID"]
        else:
            status["image"] = image
            status["imageID"] = ""
        status["started"] = run.state == "running"
        return status

    def pod_status(self, pod: Obj, plan: PodPlan, created: datetime) -> Obj:
        """A pod's status at capture time, as its plan says."""
        spec = pod["spec"]
        name = pod["metadata"]["name"]
        namespace = pod["metadata"]["namespace"]
        scheduled_at = created + timedelta(seconds=1)
        if not plan.node:
            return {
                "phase": "Pending",
                "conditions": [{
                    "type": "PodScheduled", "status": "False", "lastProbeTime": None,
                    "lastTransitionTime": ts(scheduled_at), "reason": "Unschedulable",
                    "message": plan.unschedulable,
                }],
                "qosClass": qos_class(spec),
            }
        runs = {c["name"]: plan.runs.get(c["name"], Run()) for c in spec["containers"]}
        init_runs = {c["name"]: plan.runs.get(c["name"], Run(state="terminated", reason="Completed"))
                     for c in spec.get("initContainers", [])}
        started_default = scheduled_at + timedelta(seconds=3 + pick(20, name))
        container_statuses = [
            self._container_status(namespace, name, pod["metadata"]["uid"], c, runs[c["name"]], started_default)
            for c in spec["containers"]
        ]
        init_statuses = []
        for c in spec.get("initContainers", []):
            st = self._container_status(namespace, name, pod["metadata"]["uid"], c, init_runs[c["name"]],
                                        started_default - timedelta(seconds=2))
            st["ready"] = True
            init_statuses.append(st)
        unready = [s["name"] for s in container_statuses if not s["ready"]]
        has_started = any(r.ever_started and r.state != "waiting" or r.last_reason for r in runs.values())
        if plan.phase:
            phase = plan.phase
        elif has_started:
            phase = "Running"
        else:
            phase = "Pending"
        ready_since = max(
            (datetime.strptime(s["state"]["running"]["startedAt"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
             for s in container_statuses if "running" in s["state"]), default=started_default)
        conditions: list[Obj] = []
        sandbox_ok = not plan.no_sandbox
        if self.flavor.k8s_minor >= 29:
            conditions.append({
                "type": "PodReadyToStartContainers", "status": "True" if sandbox_ok and phase != "Failed" else "False",
                "lastProbeTime": None, "lastTransitionTime": ts(started_default - timedelta(seconds=2)),
            })
        conditions.append({"type": "Initialized", "status": "True", "lastProbeTime": None,
                           "lastTransitionTime": ts(scheduled_at if not init_statuses else started_default)})
        if plan.node_lost:
            lost_at = ago(minutes=3, seconds=12)
            conditions.append({"type": "Ready", "status": "False", "lastProbeTime": None,
                               "lastTransitionTime": ts(lost_at)})
            conditions.append({"type": "ContainersReady", "status": "True", "lastProbeTime": None,
                               "lastTransitionTime": ts(ready_since)})
        elif unready:
            message = f"containers with unready status: [{' '.join(unready)}]"
            when = ts(plan.unready_since or (max(scheduled_at, ago(hours=1, minutes=6)) if has_started
                                             else scheduled_at))
            if phase == "Failed":
                conditions.append({"type": "Ready", "status": "False", "lastProbeTime": None,
                                   "lastTransitionTime": when, "reason": "PodFailed"})
                conditions.append({"type": "ContainersReady", "status": "False", "lastProbeTime": None,
                                   "lastTransitionTime": when, "reason": "PodFailed"})
            else:
                for kind in ("Ready", "ContainersReady"):
                    conditions.append({"type": kind, "status": "False", "lastProbeTime": None,
                                       "lastTransitionTime": when, "reason": "ContainersNotReady",
                                       "message": message})
        else:
            for kind in ("Ready", "ContainersReady"):
                conditions.append({"type": kind, "status": "True", "lastProbeTime": None,
                                   "lastTransitionTime": ts(ready_since + timedelta(seconds=4))})
        conditions.append({"type": "PodScheduled", "status": "True", "lastProbeTime": None,
                           "lastTransitionTime": ts(scheduled_at)})
        node_ip = self.nodes[plan.node].ip
        status: Obj = {"phase": phase, "conditions": conditions, "hostIP": node_ip}
        if self.flavor.k8s_minor >= 28:
            status["hostIPs"] = [{"ip": node_ip}]
        if sandbox_ok:
            pod_ip = node_ip if spec.get("hostNetwork") else self._pod_ip(plan.node)
            status["podIP"] = pod_ip
            status["podIPs"] = [{"ip": pod_ip}]
        status["startTime"] = ts(scheduled_at)
        if init_statuses:
            status["initContainerStatuses"] = init_statuses
        status["containerStatuses"] = container_statuses
        status["qosClass"] = qos_class(spec)
        return status

    # -- workloads ------------------------------------------------------------------------------

    def _template(self, labels: dict[str, str], spec: Obj, annotations: dict[str, str] | None = None) -> Obj:
        meta: Obj = {"creationTimestamp": None, "labels": dict(labels)}
        if annotations:
            meta["annotations"] = dict(annotations)
        return {"metadata": meta, "spec": default_pod_spec(spec)}

    def add_deployment(self, namespace: str, name: str, labels: dict[str, str], pod_spec: Obj,
                       plans: list[PodPlan], created: datetime, replicas: int | None = None,
                       selector: dict[str, str] | None = None, manager: str | None = None,
                       progress: str = "", pod_annotations: dict[str, str] | None = None,
                       annotations: dict[str, str] | None = None) -> Obj:
        """A Deployment, its ReplicaSet and its pods (one pod per plan)."""
        replicas = len(plans) if replicas is None else replicas
        selector = selector or dict(labels)
        pod_labels = dict(selector)
        template = self._template(pod_labels, pod_spec, pod_annotations)
        manager = manager or self.flavor.addon_manager
        dep_annotations = {"deployment.kubernetes.io/revision": "1", **(annotations or {})}
        md = self.meta("Deployment", namespace, name, created, labels, dep_annotations, generation=1)
        rs_hash = safe_suffix(9 + pick(2, name), self.flavor.name, namespace, name, "rs")
        rs_name = f"{name}-{rs_hash}"
        owner_dep = {"apiVersion": "apps/v1", "kind": "Deployment", "name": name, "uid": md["uid"],
                     "controller": True, "blockOwnerDeletion": True}
        rs_md = self.meta("ReplicaSet", namespace, rs_name, created + timedelta(seconds=1),
                          {**pod_labels, "pod-template-hash": rs_hash},
                          {"deployment.kubernetes.io/desired-replicas": str(replicas),
                           "deployment.kubernetes.io/max-replicas": str(replicas + max(1, -(-replicas // 4))),
                           "deployment.kubernetes.io/revision": "1"}, generation=1)
        rs_md["ownerReferences"] = [owner_dep]
        owner_rs = {"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": rs_name, "uid": rs_md["uid"],
                    "controller": True, "blockOwnerDeletion": True}
        rs_template = copy.deepcopy(template)
        rs_template["metadata"]["labels"]["pod-template-hash"] = rs_hash
        pods = []
        for index, plan in enumerate(plans):
            pod_name = f"{rs_name}-{safe_suffix(5, self.flavor.name, rs_name, index)}"
            pods.append(self.build_pod(namespace, pod_name, rs_template, plan, owner_rs, f"{rs_name}-",
                                       created + timedelta(seconds=2)))
        ready = sum(1 for p in pods if _pod_ready(p))
        rs_status: Obj = {"replicas": len(pods), "fullyLabeledReplicas": len(pods)}
        if ready:
            rs_status["readyReplicas"] = ready
            rs_status["availableReplicas"] = ready
        rs_status["observedGeneration"] = 1
        if not pods:
            rs_status.pop("fullyLabeledReplicas")
        rs_spec = {"replicas": replicas, "selector": {"matchLabels": {**selector, "pod-template-hash": rs_hash}},
                   "template": rs_template}
        rs_md["managedFields"] = [
            managed("kube-controller-manager", created + timedelta(seconds=1),
                    {"metadata": pick_keys(rs_md, "annotations", "labels", "ownerReferences"), "spec": rs_spec},
                    api_version="apps/v1"),
            managed("kube-controller-manager", ago(minutes=5 + pick(50, rs_name)), {"status": rs_status},
                    api_version="apps/v1", subresource="status"),
        ]
        self.add({"kind": "ReplicaSet", "apiVersion": "apps/v1", "metadata": rs_md, "spec": rs_spec,
                  "status": rs_status})
        spec: Obj = {
            "replicas": replicas, "selector": {"matchLabels": selector}, "template": template,
            "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "25%", "maxSurge": "25%"}},
            "revisionHistoryLimit": 10, "progressDeadlineSeconds": 600,
        }
        status = deployment_status(replicas, len(pods), ready, rs_name, created, progress)
        md["managedFields"] = [
            managed(manager, created, {"metadata": pick_keys(md, "labels") | {"annotations": annotations or {}},
                                       "spec": {k: v for k, v in spec.items() if k != "revisionHistoryLimit"}},
                    api_version="apps/v1", operation=self.flavor.addon_api_operation if manager == self.flavor.addon_manager else "Update"),
            managed("kube-controller-manager", ago(minutes=5 + pick(50, name)),
                    {"metadata": {"annotations": {"deployment.kubernetes.io/revision": "1"}}, "status": status},
                    api_version="apps/v1", subresource="status"),
        ]
        return self.add({"kind": "Deployment", "apiVersion": "apps/v1", "metadata": md, "spec": spec,
                         "status": status})

    def add_daemonset(self, namespace: str, name: str, labels: dict[str, str], pod_spec: Obj,
                      plans: list[PodPlan], created: datetime, selector: dict[str, str] | None = None,
                      manager: str | None = None, annotations: dict[str, str] | None = None,
                      pod_annotations: dict[str, str] | None = None, max_unavailable: Any = 1) -> Obj:
        """A DaemonSet and one pod per plan (plans name the nodes it runs on)."""
        selector = selector or dict(labels)
        template = self._template(dict(selector), pod_spec, pod_annotations)
        manager = manager or self.flavor.addon_manager
        ds_annotations = {"deprecated.daemonset.template.generation": "1", **(annotations or {})}
        md = self.meta("DaemonSet", namespace, name, created, labels, ds_annotations, generation=1)
        revision_hash = safe_suffix(9 + pick(2, name), self.flavor.name, namespace, name, "rev")
        owner = {"apiVersion": "apps/v1", "kind": "DaemonSet", "name": name, "uid": md["uid"],
                 "controller": True, "blockOwnerDeletion": True}
        pods = []
        for plan in plans:
            pod_template = copy.deepcopy(template)
            pod_template["metadata"]["labels"].update(
                {"controller-revision-hash": revision_hash, "pod-template-generation": "1"})
            pod_spec_full = pod_template["spec"]
            pod_spec_full["affinity"] = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
                "nodeSelectorTerms": [{"matchFields": [
                    {"key": "metadata.name", "operator": "In", "values": [plan.node]}]}]}}}
            tolerations = pod_spec_full.setdefault("tolerations", [])
            for key, effect in DS_TOLERATIONS + ([("node.kubernetes.io/network-unavailable", "NoSchedule")]
                                                 if pod_spec_full.get("hostNetwork") else []):
                if not any(t.get("key") == key and t.get("effect") == effect for t in tolerations):
                    tolerations.append({"key": key, "operator": "Exists", "effect": effect})
            pod_name = f"{name}-{safe_suffix(5, self.flavor.name, name, plan.node)}"
            pods.append(self.build_pod(namespace, pod_name, pod_template, plan, owner, f"{name}-",
                                       created + timedelta(seconds=3)))
        desired = len(plans)
        ready = sum(1 for p in pods if _pod_ready(p))
        status: Obj = {"currentNumberScheduled": desired, "numberMisscheduled": 0,
                       "desiredNumberScheduled": desired, "numberReady": ready, "observedGeneration": 1}
        if desired:
            status["updatedNumberScheduled"] = desired
        if ready:
            status["numberAvailable"] = ready
        if desired - ready:
            status["numberUnavailable"] = desired - ready
        spec = {"selector": {"matchLabels": selector}, "template": template,
                "updateStrategy": {"type": "RollingUpdate",
                                   "rollingUpdate": {"maxUnavailable": max_unavailable, "maxSurge": 0}},
                "revisionHistoryLimit": 10}
        md["managedFields"] = [
            managed(manager, created, {"metadata": pick_keys(md, "labels") | {"annotations": annotations or {}},
                                       "spec": {k: v for k, v in spec.items() if k != "revisionHistoryLimit"}},
                    api_version="apps/v1"),
            managed("kube-controller-manager", ago(minutes=3 + pick(30, name)), {"status": status},
                    api_version="apps/v1", subresource="status"),
        ]
        return self.add({"kind": "DaemonSet", "apiVersion": "apps/v1", "metadata": md, "spec": spec,
                         "status": status})

    def add_static_pod(self, component: str, node: str, pod_spec: Obj, plan: PodPlan, created: datetime,
                       extra_annotations: dict[str, str]) -> Obj:
        """A kubelet mirror pod `<component>-<node>` for a manifest in /etc/kubernetes/manifests."""
        config_hash = hexid(32, self.flavor.name, component, node, "manifest")
        annotations = {
            **extra_annotations,
            "kubernetes.io/config.hash": config_hash,
            "kubernetes.io/config.mirror": config_hash,
            "kubernetes.io/config.seen": nano_ts(created - timedelta(seconds=9), component, node),
            "kubernetes.io/config.source": "file",
        }
        template = {"metadata": {"labels": {"component": component, "tier": "control-plane"}}, "spec": pod_spec}
        owner = {"apiVersion": "v1", "kind": "Node", "name": node, "uid": self.nodes[node].uid, "controller": True}
        plan.node = node
        return self.build_pod("kube-system", f"{component}-{node}", template, plan, owner, None, created,
                              static=True, extra_annotations=annotations)

    def add_job(self, namespace: str, name: str, pod_spec: Obj, plans: list[PodPlan], created: datetime,
                backoff_limit: int, failed_at: datetime | None) -> Obj:
        """A Job and its pods; a failed Job reports BackoffLimitExceeded."""
        job_uid = make_uid(self.flavor.name, "Job", namespace, name)
        selector = {"batch.kubernetes.io/controller-uid": job_uid}
        pod_labels = {"batch.kubernetes.io/controller-uid": job_uid, "batch.kubernetes.io/job-name": name,
                      "controller-uid": job_uid, "job-name": name}
        template = self._template(pod_labels, pod_spec)
        md = self.meta("Job", namespace, name, created, {"batch.kubernetes.io/controller-uid": job_uid,
                       "batch.kubernetes.io/job-name": name, "controller-uid": job_uid, "job-name": name},
                       generation=1)
        owner = {"apiVersion": "batch/v1", "kind": "Job", "name": name, "uid": md["uid"],
                 "controller": True, "blockOwnerDeletion": True}
        for index, plan in enumerate(plans):
            pod_name = f"{name}-{safe_suffix(5, self.flavor.name, name, index)}"
            self.build_pod(namespace, pod_name, template, plan, owner, f"{name}-", created + timedelta(minutes=index))
        spec = {"parallelism": 1, "completions": 1, "backoffLimit": backoff_limit,
                "selector": {"matchLabels": selector}, "template": template,
                "completionMode": "NonIndexed", "suspend": False}
        status: Obj = {}
        if failed_at is not None:
            status["conditions"] = [{
                "type": "Failed", "status": "True", "lastProbeTime": ts(failed_at),
                "lastTransitionTime": ts(failed_at), "reason": "BackoffLimitExceeded",
                "message": "Job has reached the specified backoff limit",
            }]
        status["startTime"] = ts(created)
        status["failed"] = len(plans)
        status["uncountedTerminatedPods"] = {}
        status["ready"] = 0
        md["managedFields"] = [
            managed("kubectl-create", created, {"spec": {k: v for k, v in spec.items() if k not in ("selector",)}},
                    api_version="batch/v1"),
            managed("kube-controller-manager", failed_at or created, {"status": status},
                    api_version="batch/v1", subresource="status"),
        ]
        return self.add({"kind": "Job", "apiVersion": "batch/v1", "metadata": md, "spec": spec, "status": status})

    # -- services, storage, events ----------------------------------------------------------------

    def add_service(self, namespace: str, name: str, ports: list[Obj], created: datetime,
                    selector: dict[str, str] | None, cluster_ip: str, service_type: str = "ClusterIP",
                    labels: dict[str, str] | None = None, annotations: dict[str, str] | None = None,
                    load_balancer: Obj | None = None, manager: str = "kubectl-client-side-apply") -> Obj:
        """A Service (its Endpoints are derived in finish())."""
        md = self.meta("Service", namespace, name, created, labels, annotations)
        spec = service_spec(ports, selector, cluster_ip, service_type)
        status: Obj = {"loadBalancer": load_balancer or {}}
        owned: Obj = {"metadata": pick_keys(md, "labels", "annotations"),
                      "spec": {k: v for k, v in spec.items() if k not in ("clusterIP", "clusterIPs", "ipFamilies")}}
        md["managedFields"] = [managed(manager, created, owned)]
        if load_balancer:
            md["managedFields"].append(managed("kube-controller-manager", created + timedelta(minutes=2),
                                               {"status": status}, subresource="status"))
        return self.add({"kind": "Service", "apiVersion": "v1", "metadata": md, "spec": spec, "status": status})

    def add_storageclass(self, name: str, provisioner: str, created: datetime, parameters: dict[str, str],
                         default: bool, binding_mode: str, expansion: bool = True,
                         labels: dict[str, str] | None = None) -> Obj:
        """A StorageClass, the default one annotated as such."""
        annotations = {"storageclass.kubernetes.io/is-default-class": "true"} if default else None
        md = self.meta("StorageClass", "", name, created, labels, annotations)
        obj: Obj = {"kind": "StorageClass", "apiVersion": "storage.k8s.io/v1", "metadata": md,
                    "provisioner": provisioner, "parameters": parameters, "reclaimPolicy": "Delete",
                    "allowVolumeExpansion": expansion, "volumeBindingMode": binding_mode}
        if not parameters:
            obj.pop("parameters")
        md["managedFields"] = [managed(self.flavor.addon_manager, created,
                                       {k: v for k, v in obj.items() if k not in ("kind", "apiVersion", "metadata")},
                                       api_version="storage.k8s.io/v1")]
        return self.add(obj)

    def add_pvc(self, namespace: str, name: str, size: str, storage_class: str, created: datetime,
                volume: str | None = None) -> Obj:
        """A PersistentVolumeClaim, bound to `volume` or pending."""
        annotations: dict[str, str] = {}
        if volume:
            annotations = {"pv.kubernetes.io/bind-completed": "yes", "pv.kubernetes.io/bound-by-controller": "yes",
                           "volume.beta.kubernetes.io/storage-provisioner": "blockvolume.csi.oraclecloud.com",
                           "volume.kubernetes.io/storage-provisioner": "blockvolume.csi.oraclecloud.com"}
        md = self.meta("PersistentVolumeClaim", namespace, name, created, None, annotations or None,
                       finalizers=["kubernetes.io/pvc-protection"])
        spec: Obj = {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": size}}}
        if volume:
            spec["volumeName"] = volume
        spec["storageClassName"] = storage_class
        spec["volumeMode"] = "Filesystem"
        status: Obj = {"phase": "Bound" if volume else "Pending"}
        if volume:
            status["accessModes"] = ["ReadWriteOnce"]
            status["capacity"] = {"storage": size}
        md["managedFields"] = [managed("kubectl-client-side-apply", created, {"spec": pick_keys(
            spec, "accessModes", "resources", "storageClassName", "volumeMode")})]
        if volume:
            md["managedFields"].append(managed("kube-controller-manager", created + timedelta(seconds=21),
                                               {"metadata": {"annotations": annotations}, "spec": {"volumeName": volume}}))
            md["managedFields"].append(managed("kube-controller-manager", created + timedelta(seconds=21),
                                               {"status": status}, subresource="status"))
        return self.add({"kind": "PersistentVolumeClaim", "apiVersion": "v1", "metadata": md, "spec": spec,
                         "status": status})

    def add_pv(self, name: str, claim: Obj, size: str, driver: str, handle: str, storage_class: str,
               zone_key: str, zone: str, created: datetime) -> Obj:
        """A CSI PersistentVolume bound to `claim`."""
        md = self.meta("PersistentVolume", "", name, created, None,
                       {"pv.kubernetes.io/provisioned-by": driver, "volume.kubernetes.io/provisioner-deletion-secret-name": "",
                        "volume.kubernetes.io/provisioner-deletion-secret-namespace": ""},
                       finalizers=["kubernetes.io/pv-protection", "external-attacher/" + driver.replace(".", "-")])
        cmd = claim["metadata"]
        spec = {
            "capacity": {"storage": size},
            "csi": {"driver": driver, "volumeHandle": handle, "fsType": "ext4",
                    "volumeAttributes": {"storage.kubernetes.io/csiProvisionerIdentity": f"{int(created.timestamp() * 1000) - 86_400_000}-8081-{driver}"}},
            "accessModes": ["ReadWriteOnce"],
            "claimRef": {"kind": "PersistentVolumeClaim", "namespace": cmd["namespace"], "name": cmd["name"],
                         "uid": cmd["uid"], "apiVersion": "v1", "resourceVersion": cmd["resourceVersion"]},
            "persistentVolumeReclaimPolicy": "Delete",
            "storageClassName": storage_class,
            "volumeMode": "Filesystem",
            "nodeAffinity": {"required": {"nodeSelectorTerms": [{"matchExpressions": [
                {"key": zone_key, "operator": "In", "values": [zone]}]}]}},
        }
        status = {"phase": "Bound", "lastPhaseTransitionTime": ts(created + timedelta(seconds=1))}
        if self.flavor.k8s_minor < 29:
            status.pop("lastPhaseTransitionTime")
        md["managedFields"] = [managed("csi-provisioner", created, {"spec": spec}),
                               managed("kube-controller-manager", created + timedelta(seconds=1),
                                       {"status": status}, subresource="status")]
        return self.add({"kind": "PersistentVolume", "apiVersion": "v1", "metadata": md, "spec": spec,
                         "status": status})

    def add_event(self, involved: Obj, reason: str, message: str, first: datetime, last: datetime | None = None,
                  count: int = 1, event_type: str = "Normal", component: str = "kubelet", host: str | None = None,
                  field_path: str | None = None, namespace: str | None = None) -> Obj:
        """A core/v1 Event as kubelet and the controllers record them."""
        last = last or first
        imd = involved["metadata"]
        namespace = namespace if namespace is not None else (imd.get("namespace") or "default")
        name = f"{imd['name']}.{_event_suffix(first, imd['name'], reason, message)}"
        ref: Obj = {"kind": involved["kind"]}
        if imd.get("namespace"):
            ref["namespace"] = imd["namespace"]
        ref["name"] = imd["name"]
        ref["uid"] = imd["name"] if involved["kind"] == "Node" else imd["uid"]
        ref["apiVersion"] = involved["apiVersion"]
        if involved["kind"] != "Node":
            ref["resourceVersion"] = imd["resourceVersion"]
        if field_path:
            ref["fieldPath"] = field_path
        md = self.meta("Event", namespace, name, first)
        event = core_event(md, ref, reason, message, ts(first), ts(last), count, event_type, component, host)
        manager = {"kubelet": "kubelet"}.get(component, "kube-controller-manager")
        md["managedFields"] = [managed(manager, last, {k: v for k, v in event.items()
                                                       if k in ("count", "firstTimestamp", "involvedObject",
                                                                "lastTimestamp", "message", "reason",
                                                                "reportingComponent", "reportingInstance",
                                                                "source", "type")})]
        return self.add(event)

    def add_scheduler_event(self, pod: Obj, message: str, first: datetime, last: datetime, count: int) -> Obj:
        """A FailedScheduling event as default-scheduler records it (events.k8s.io/v1 series)."""
        pmd = pod["metadata"]
        name = f"{pmd['name']}.{_event_suffix(first, pmd['name'], 'FailedScheduling', message)}"
        md = self.meta("Event", pmd["namespace"], name, first)
        series = {"count": count, "lastObservedTime": micro_ts(last, pmd["name"], "series")}
        event: Obj = {
            "kind": "Event", "apiVersion": "v1", "metadata": md,
            "involvedObject": {"kind": "Pod", "namespace": pmd["namespace"], "name": pmd["name"],
                               "uid": pmd["uid"], "apiVersion": "v1", "resourceVersion": pmd["resourceVersion"]},
            "reason": "FailedScheduling", "message": message, "source": {}, "firstTimestamp": None,
            "lastTimestamp": None, "type": "Warning", "eventTime": micro_ts(first, pmd["name"], "first"),
            "series": series, "action": "Scheduling", "reportingComponent": "default-scheduler",
            "reportingInstance": self.flavor.scheduler_instance,
        }
        md["managedFields"] = [managed("kube-scheduler", last, {
            "action": "", "eventTime": "", "note": "", "reason": "", "regarding": {
                "apiVersion": "", "kind": "", "name": "", "namespace": "", "resourceVersion": "", "uid": ""},
            "reportingController": "", "reportingInstance": "", "series": series, "type": ""},
            api_version="events.k8s.io/v1")]
        return self.add(event)

    # -- derived objects --------------------------------------------------------------------------

    def finish(self) -> None:
        """Derive Endpoints from Services and pods, and node image lists from the pods they run."""
        for service in self.of_kind("Service"):
            self._add_endpoints(service)
        for node in self.of_kind("Node"):
            node["status"]["images"] = self._node_images(node["metadata"]["name"])
        self.objects.sort(key=lambda o: (o["kind"], o["metadata"].get("namespace", ""), o["metadata"]["name"]))

    def _add_endpoints(self, service: Obj) -> None:
        smd = service["metadata"]
        namespace, name = smd["namespace"], smd["name"]
        created = datetime.strptime(smd["creationTimestamp"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
        selector = service["spec"].get("selector")
        annotations = None
        subsets: list[Obj] = []
        if name == "kubernetes" and namespace == "default":
            subsets = [{"addresses": [{"ip": ip} for ip, _ in self.api_server_endpoints],
                        "ports": [{"name": "https", "port": self.api_server_endpoints[0][1], "protocol": "TCP"}]}]
            labels: dict[str, str] | None = {"endpointslice.kubernetes.io/skip-mirror": "true"}
        elif selector:
            labels = dict(smd.get("labels", {})) or None
            ready, not_ready, target_ports = [], [], []
            for pod in self.of_kind("Pod", namespace):
                if not label_selector_matches(selector, pod["metadata"].get("labels", {})):
                    continue
                ip = pod["status"].get("podIP")
                if not ip or pod["status"]["phase"] in ("Failed", "Succeeded"):
                    continue
                address = {"ip": ip, "nodeName": pod["spec"]["nodeName"], "targetRef": {
                    "kind": "Pod", "namespace": namespace, "name": pod["metadata"]["name"],
                    "uid": pod["metadata"]["uid"]}}
                (ready if _pod_ready(pod) else not_ready).append(address)
                target_ports.append(pod)
            if ready or not_ready:
                ports = []
                for port in service["spec"]["ports"]:
                    target = port["targetPort"]
                    if isinstance(target, str):
                        target = _named_port(target_ports[0], target)
                    ep_port: Obj = {"name": port.get("name"), "port": target, "protocol": port["protocol"]}
                    ports.append({k: v for k, v in ep_port.items() if v is not None})
                subset: Obj = {}
                if ready:
                    subset["addresses"] = sorted(ready, key=lambda a: a["ip"])
                if not_ready:
                    subset["notReadyAddresses"] = sorted(not_ready, key=lambda a: a["ip"])
                subset["ports"] = ports
                subsets = [subset]
            annotations = {"endpoints.kubernetes.io/last-change-trigger-time": ts(ago(minutes=3 + pick(300, name)))}
        else:
            return
        md = self.meta("Endpoints", namespace, name, created + timedelta(seconds=1), labels, annotations)
        body: Obj = {"kind": "Endpoints", "apiVersion": "v1", "metadata": md}
        if subsets:
            body["subsets"] = subsets
        manager = "kube-apiserver" if name == "kubernetes" else "kube-controller-manager"
        md["managedFields"] = [managed(manager, created + timedelta(seconds=1),
                                       {"metadata": pick_keys(md, "labels", "annotations"), **({"subsets": subsets} if subsets else {})})]
        self.add(body)

    def _node_images(self, node: str) -> list[Obj]:
        images = {self.pause_image()}
        for pod in self.of_kind("Pod"):
            if pod["spec"].get("nodeName") != node:
                continue
            for container in pod["spec"].get("initContainers", []) + pod["spec"]["containers"]:
                status = next((s for s in pod["status"].get("containerStatuses", []) +
                               pod["status"].get("initContainerStatuses", [])
                               if s["name"] == container["name"]), None)
                if status is None or status["imageID"]:
                    images.add(container["image"])
        out = []
        for image in images:
            names = [image_id(image), normalized_image(image)]
            out.append({"names": names, "sizeBytes": 300_000 + pick(120_000_000, "size", image)})
        return sorted(out, key=lambda i: (-i["sizeBytes"], i["names"][0]))

    def pause_image(self) -> str:
        """The sandbox (pause) image of this distribution."""
        return PAUSE_IMAGES[self.flavor.name]


PAUSE_IMAGES = {
    "aks": "mcr.microsoft.com/oss/kubernetes/pause:3.6",
    "eks": "602401143452.dkr.ecr.us-east-1.amazonaws.com/eks/pause:3.5",
    "oke": "iad.ocir.io/axoxdievda5j/oke-public-pause:3.9",
    "kubeadm": "registry.k8s.io/pause:3.9",
}


def _event_suffix(first: datetime, *parts: object) -> str:
    # Event names end in the hex UnixNano of the first occurrence.
    return format(int(first.timestamp()) * 1_000_000_000 + pick(1_000_000_000, *parts), "x")


def _pod_ready(pod: Obj) -> bool:
    return any(c["type"] == "Ready" and c["status"] == "True" for c in pod["status"].get("conditions", []))


def _named_port(pod: Obj, port_name: str) -> int:
    for container in pod["spec"]["containers"]:
        for port in container.get("ports", []):
            if port.get("name") == port_name:
                return port["containerPort"]
    raise KeyError(port_name)


def deployment_status(replicas: int, current: int, ready: int, rs_name: str, created: datetime,
                      progress: str) -> Obj:
    """Deployment status and its Available/Progressing conditions."""
    max_unavailable = replicas * 25 // 100
    status: Obj = {"observedGeneration": 1}
    if current:
        status["replicas"] = current
        status["updatedReplicas"] = current
    if ready:
        status["readyReplicas"] = ready
        status["availableReplicas"] = ready
    if replicas - ready > 0:
        status["unavailableReplicas"] = replicas - ready
    available = ready >= replicas - max_unavailable
    changed = ago(hours=2 + pick(20, rs_name)) if not available else created + timedelta(seconds=40)
    conditions = [{
        "type": "Available", "status": "True" if available else "False",
        "lastUpdateTime": ts(changed), "lastTransitionTime": ts(changed),
        "reason": "MinimumReplicasAvailable" if available else "MinimumReplicasUnavailable",
        "message": "Deployment has minimum availability." if available
        else "Deployment does not have minimum availability.",
    }]
    progress = progress or ("complete" if ready == replicas else "progressing")
    if progress == "complete":
        conditions.append({"type": "Progressing", "status": "True",
                           "lastUpdateTime": ts(created + timedelta(seconds=40)),
                           "lastTransitionTime": ts(created + timedelta(seconds=2)),
                           "reason": "NewReplicaSetAvailable",
                           "message": f'ReplicaSet "{rs_name}" has successfully progressed.'})
    elif progress == "deadline":
        conditions.append({"type": "Progressing", "status": "False",
                           "lastUpdateTime": ts(created + timedelta(minutes=10, seconds=2)),
                           "lastTransitionTime": ts(created + timedelta(minutes=10, seconds=2)),
                           "reason": "ProgressDeadlineExceeded",
                           "message": f'ReplicaSet "{rs_name}" has timed out progressing.'})
    else:
        conditions.append({"type": "Progressing", "status": "True",
                           "lastUpdateTime": ts(created + timedelta(seconds=2)),
                           "lastTransitionTime": ts(created + timedelta(seconds=2)),
                           "reason": "ReplicaSetUpdated",
                           "message": f'ReplicaSet "{rs_name}" is progressing.'})
    status["conditions"] = conditions
    return status
