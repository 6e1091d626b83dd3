"""The nodes table: identity, placement, system info, capacity as numbers, conditions, taints."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pandas as pd

from analyzer.kube.quantities import quantities
from analyzer.kube.views import NodeView, Taint
from analyzer.model.frame import empty_columns, to_frame
from analyzer.model.normalize import (
    builtin_objects,
    condition_true,
    conditions_text,
    find_condition,
    joined,
    newest,
    source_of,
    text_age,
)

if TYPE_CHECKING:
    from analyzer.ingest.dump import Dump

ROLE_PREFIX = "node-role.kubernetes.io/"
CONTROL_PLANE_ROLES = frozenset({"control-plane", "master"})
CAPACITY_NAMES = ("cpu", "memory", "pods", "ephemeral-storage")


def _label(labels: dict[str, Any], *keys: str) -> Any:
    for key in keys:
        if labels.get(key):
            return labels[key]
    return None


def node_roles(labels: dict[str, Any] | None, stated: str | None = None) -> str | None:
    """Roles from node-role.kubernetes.io/<role> labels (or the ROLES a table states).

    Examples:
        >>> node_roles({"node-role.kubernetes.io/control-plane": "", "node-role.kubernetes.io/master": ""})
        'control-plane,master'
        >>> node_roles({"kubernetes.io/role": "agent"}), node_roles({}, "<none>")
        ('agent', None)
    """
    roles = sorted(k[len(ROLE_PREFIX):] for k in labels or () if k.startswith(ROLE_PREFIX))
    if not roles and labels and labels.get("kubernetes.io/role"):
        roles = [str(labels["kubernetes.io/role"])]
    if not roles and stated and stated != "<none>":
        roles = stated.split(",")
    return joined(roles)


def taint_text(taint: Taint) -> str:
    """A taint as key[=value]:effect."""
    value = f"={taint.value}" if taint.value else ""
    return f"{taint.key}{value}:{taint.effect or ''}"


def build(cluster: Dump) -> dict[str, pd.DataFrame]:
    """The nodes table."""
    n = empty_columns("nodes")
    for obj in builtin_objects(cluster, "Node"):
        view: NodeView = obj.view
        meta, spec, status = view.metadata, view.spec, view.status
        labels = meta.labels or {}
        info = status.nodeInfo
        addresses: dict[str, str] = {}
        for addr in status.addresses or ():
            addresses.setdefault(addr.type, addr.address)
        capacity = status.capacity or {}
        allocatable = status.allocatable or {}
        conditions = status.conditions
        ready = find_condition(conditions, "Ready")
        roles = node_roles(labels, view.text.roles if view.text else None)
        runtime = info.containerRuntimeVersion if info else None

        n["name"].append(obj.name)
        n["uid"].append(obj.uid)
        n["created"].append(meta.creationTimestamp)
        n["age"].append(text_age(view))
        n["roles"].append(roles)
        n["control_plane"].append(bool(roles and CONTROL_PLANE_ROLES & set(roles.split(","))))
        n["internal_ip"].append(addresses.get("InternalIP"))
        n["external_ip"].append(addresses.get("ExternalIP"))
        n["hostname"].append(addresses.get("Hostname"))
        n["provider_id"].append(spec.providerID or None)
        n["instance_type"].append(_label(labels, "node.kubernetes.io/instance-type",
                                         "beta.kubernetes.io/instance-type"))
        n["zone"].append(_label(labels, "topology.kubernetes.io/zone",
                                "failure-domain.beta.kubernetes.io/zone"))
        n["region"].append(_label(labels, "topology.kubernetes.io/region",
                                  "failure-domain.beta.kubernetes.io/region"))
        n["os"].append((info.operatingSystem if info else None)
                       or _label(labels, "kubernetes.io/os", "beta.kubernetes.io/os"))
        n["arch"].append((info.architecture if info else None)
                         or _label(labels, "kubernetes.io/arch", "beta.kubernetes.io/arch"))
        n["os_image"].append(info.osImage if info else None)
        n["kernel_version"].append(info.kernelVersion if info else None)
        n["container_runtime"].append(runtime)
        n["runtime_name"].append(runtime.partition("://")[0] if runtime else None)
        n["kubelet_version"].append(info.kubeletVersion if info else None)
        n["kube_proxy_version"].append(info.kubeProxyVersion if info else None)
        unreadable: list[str] = []
        cpu, memory, pods, storage = quantities(capacity, CAPACITY_NAMES, "capacity", unreadable)
        cpu_alloc, memory_alloc, pods_alloc = quantities(allocatable, CAPACITY_NAMES[:3],
                                                         "allocatable", unreadable)
        n["cpu_capacity"].append(cpu)
        n["memory_capacity"].append(memory)
        n["pods_capacity"].append(pods)
        n["ephemeral_storage_capacity"].append(storage)
        n["cpu_allocatable"].append(cpu_alloc)
        n["memory_allocatable"].append(memory_alloc)
        n["pods_allocatable"].append(pods_alloc)
        n["resources_raw"].append(",".join(unreadable) or None)
        n["ready"].append(ready.status if ready else _text_ready(view))
        n["memory_pressure"].append(condition_true(conditions, "MemoryPressure"))
        n["disk_pressure"].append(condition_true(conditions, "DiskPressure"))
        n["pid_pressure"].append(condition_true(conditions, "PIDPressure"))
        n["network_unavailable"].append(condition_true(conditions, "NetworkUnavailable"))
        n["conditions"].append(conditions_text(conditions))
        n["taints"].append(joined(taint_text(t) for t in spec.taints or ()))
        n["unschedulable"].append(bool(spec.unschedulable))
        n["pod_cidr"].append(spec.podCIDR or None)
        n["last_heartbeat"].append(newest(c.lastHeartbeatTime for c in conditions or ()))
        n["source"].append(source_of(obj))
    return {"nodes": to_frame("nodes", n, cluster.capture_time, ["name"])}


def _text_ready(view: NodeView) -> str | None:
    """Ready from a pasted STATUS column ("Ready", "NotReady,SchedulingDisabled")."""
    status = view.text.status if view.text else None
    if not status:
        return None
    first = status.split(",")[0]
    return {"Ready": "True", "NotReady": "False", "Unknown": "Unknown"}.get(first)
