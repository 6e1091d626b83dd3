"""Pod templates of the synthetic workloads, and the Pod objects created from them."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from synthetic.fields import managed_entry, top_level_fields
from synthetic.ids import Ids
from synthetic.objects.pod_specs import (
    admission_defaults,
    default_tolerations,
    service_account_mount,
    service_account_volume,
)
from synthetic.objects.pod_status import pod_status
from synthetic.times import timestamp


@dataclass(slots=True)
class NodeSlot:
    """Where a pod runs: the node's name, address and pod CIDR base."""

    name: str
    ip: str
    pod_net: str  # "10.244.3." -- pods get addresses in this /24
    uid: str
    next_host: int = 2

    def pod_ip(self) -> str:
        """The next pod address on this node (wrapping inside the /24)."""
        host = self.next_host
        self.next_host = 2 + (self.next_host - 1) % 252
        return f"{self.pod_net}{host}"


@dataclass(slots=True)
class PodTemplate:
    """What every pod of one workload shares; pods reference these objects, never copy them."""

    labels: dict[str, str]
    annotations: dict[str, str]
    spec: dict[str, Any]  # the pod spec as the workload's template holds it
    qos_class: str
    created_by: str  # manager that creates the pods: kube-controller-manager, kubelet, kubectl
    controller_fields: dict[str, Any] | None = None  # fieldsV1 of the creating manager


@dataclass(slots=True)
class PodPlan:
    """One pod to write: identity, template, owner, placement and state."""

    namespace: str
    name: str
    template: PodTemplate
    owner_reference: dict[str, Any] | None
    node: NodeSlot | None
    state: str
    age: int  # seconds since creation
    labels: dict[str, str] | None = None  # replaces the template's labels (StatefulSet pods)
    claim: str | None = None  # PersistentVolumeClaim of a StatefulSet pod's "data" volume
    generate_name: str | None = None


def pod_spec_defaults(spec: dict[str, Any]) -> dict[str, Any]:
    """A template's pod spec with the fields admission adds when a pod is created."""
    pod_spec = dict(spec)
    admission_defaults(pod_spec)
    tolerations = spec.get("tolerations", [])
    pod_spec["tolerations"] = [*tolerations, *default_tolerations(tolerations)]
    return pod_spec


def _kubelet_fields(status: dict[str, Any]) -> dict[str, Any]:
    tree: dict[str, Any] = {}
    for key, value in status.items():
        if key == "conditions":
            tree["f:conditions"] = {
                "k:" + json.dumps({"type": c["type"]}, separators=(",", ":")): {
                    ".": {}, **{"f:" + k: {} for k in c}
                }
                for c in value
            }
        elif key in ("podIPs", "hostIPs"):
            tree["f:" + key] = {".": {}, **{
                "k:" + json.dumps({"ip": entry["ip"]}, separators=(",", ":")): {".": {}, "f:ip": {}} for entry in value
            }}
        else:
            tree["f:" + key] = {}
    tree.pop("f:qosClass", None)  # set once at creation, not by kubelet
    return {"f:status": tree}


def build_pod(plan: PodPlan, ids: Ids, node_count: int) -> dict[str, Any]:
    """The full Pod object of `plan`, as `kubectl get pod -o json` returns it."""
    template = plan.template
    uid = ids.uid()
    created = timestamp(plan.age)
    spec = dict(template.spec)
    if template.created_by != "kubelet":  # mirror pods of static pods have no token volume
        token_volume = "kube-api-access-" + ids.suffix(5)
        token_mount = service_account_mount(token_volume)
        spec["containers"] = [{**c, "volumeMounts": [*c.get("volumeMounts", []), token_mount]} for c in spec["containers"]]
        if "initContainers" in spec:
            spec["initContainers"] = [
                {**c, "volumeMounts": [*c.get("volumeMounts", []), token_mount]} for c in spec["initContainers"]
            ]
        volumes = list(spec.get("volumes", []))
        if plan.claim:
            volumes.insert(0, {"name": "data", "persistentVolumeClaim": {"claimName": plan.claim}})
        spec["volumes"] = [*volumes, service_account_volume(token_volume)]
    if plan.node is not None:
        spec["nodeName"] = plan.node.name
    metadata: dict[str, Any] = {
        "creationTimestamp": created,
        "labels": plan.labels or template.labels,
        "name": plan.name,
        "namespace": plan.namespace,
        "resourceVersion": ids.resource_version(),
        "uid": uid,
    }
    if template.annotations:
        metadata["annotations"] = template.annotations
    if plan.generate_name:
        metadata["generateName"] = plan.generate_name
    if plan.owner_reference:
        metadata["ownerReferences"] = [plan.owner_reference]
    pod: dict[str, Any] = {"apiVersion": "v1", "kind": "Pod", "metadata": metadata, "spec": spec}
    host_ip = plan.node.ip if plan.node else None
    pod_ip = None
    if plan.node is not None:
        pod_ip = host_ip if spec.get("hostNetwork") else plan.node.pod_ip()
    status = pod_status(plan.state, pod, ids, plan.age, host_ip, pod_ip, template.qos_class, node_count)
    pod["status"] = status
    managed: list[dict[str, Any]] = []
    if template.controller_fields is not None:
        tree = template.controller_fields
        if plan.labels is not None:  # StatefulSet pods: per-pod labels and claim
            tree = {**tree, "f:metadata": {**tree["f:metadata"], "f:labels": {".": {}, **{"f:" + k: {} for k in plan.labels}}}}
        managed.append(managed_entry(template.created_by, created, tree))
    if plan.state == "pending":
        managed.append(managed_entry("kube-scheduler", timestamp(max(plan.age - 1, 0)), _kubelet_fields(status), subresource="status"))
    else:
        # kubelet last wrote the status when the latest condition changed.
        last_update = max((c["lastTransitionTime"] for c in status["conditions"]), default=created)
        managed.append(managed_entry("kubelet", max(last_update, created), _kubelet_fields(status), subresource="status"))
    metadata["managedFields"] = managed
    return pod


def controller_fields(labels: dict[str, str], annotations: dict[str, str], owner: dict[str, Any] | None,
                      spec: dict[str, Any], generate_name: bool = True) -> dict[str, Any]:
    """fieldsV1 of the controller that creates pods from a template (not the token volume)."""
    metadata: dict[str, Any] = {}
    if annotations:
        metadata["annotations"] = annotations
    if generate_name:
        metadata["generateName"] = "x"
    metadata["labels"] = labels
    if owner:
        metadata["ownerReferences"] = [owner]
    return top_level_fields({"metadata": metadata, "spec": spec})
