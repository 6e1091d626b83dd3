"""The nodes table: identity, placement, system info, capacity as numbers, conditions, taints."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pandas as pd

from analyzer.kube.platform import node_os
from analyzer.kube.quantities import quantities
from analyzer.kube.views import Condition, NodeView, Taint
from analyzer.model.frame import columns_from_rows, to_frame
from analyzer.model.normalize import builtin_objects, joined, source_of, text_age

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


# The conditions with a column of their own, in the columns' order after `ready`.
_PRESSURE_CONDITIONS = ("MemoryPressure", "DiskPressure", "PIDPressure", "NetworkUnavailable")
_UNSEEN = object()


def _node_quantities(capacity: dict[str, Any], allocatable: dict[str, Any],
                     memo: dict[tuple[Any, ...], tuple[Any, ...]]) -> tuple[Any, ...]:
    """capacity (cpu, memory, pods, storage), allocatable (cpu, memory, pods) as numbers and
    the unreadable ones as text: the nodes of one pool state the same, read once."""
    raw = (*(capacity.get(n) for n in CAPACITY_NAMES),
           *(allocatable.get(n) for n in CAPACITY_NAMES[:3]))
    # Only texts are memoised: True == 1 as a dict key, yet only 1 is a quantity.
    cacheable = all(r is None or type(r) is str for r in raw)
    found = memo.get(raw) if cacheable else None
    if found is None:
        unreadable: list[str] = []
        found = (*quantities(capacity, CAPACITY_NAMES, "capacity", unreadable),
                 *quantities(allocatable, CAPACITY_NAMES[:3], "allocatable", unreadable),
                 ",".join(unreadable) or None)
        if cacheable:
            memo[raw] = found
    return found


def build(cluster: Dump) -> dict[str, pd.DataFrame]:
    """The nodes table."""
    rows: list[tuple[Any, ...]] = []
    quantity_memo: dict[tuple[Any, ...], tuple[Any, ...]] = {}
    # A node's role labels -> its roles: the nodes of one pool carry the same labels.
    roles_memo: dict[tuple[str, ...], str | None] = {}
    for obj in builtin_objects(cluster, "Node"):
        view: NodeView = obj.view
        meta, spec, status = view.metadata, view.spec, view.status
        labels = meta.labels or {}
        info = status.nodeInfo
        addresses: dict[str, str] = {}
        for addr in status.addresses or ():
            addresses.setdefault(addr.type, addr.address)
        conditions = status.conditions
        # One pass over the conditions: the first of each type, their text, the newest beat.
        first: dict[str, Condition] = {}
        texts: list[str] = []
        beat = None
        for cond in conditions or ():
            first.setdefault(cond.type, cond)
            texts.append(f"{cond.type}={cond.status}")
            heartbeat = cond.lastHeartbeatTime
            if heartbeat and (beat is None or heartbeat > beat):
                beat = heartbeat
        ready = first.get("Ready")
        stated_roles = view.text.roles if view.text else None
        if stated_roles is None:
            role_keys = tuple(k for k in labels if k.startswith(ROLE_PREFIX)) or (
                ("kubernetes.io/role", str(labels["kubernetes.io/role"]))
                if labels.get("kubernetes.io/role") else ())
            roles = roles_memo.get(role_keys, _UNSEEN)
            if roles is _UNSEEN:
                roles = roles_memo[role_keys] = node_roles(labels)
        else:
            roles = node_roles(labels, stated_roles)
        runtime = info.containerRuntimeVersion if info else None
        pressures = tuple(None if (cond := first.get(kind)) is None else cond.status == "True"
                          for kind in _PRESSURE_CONDITIONS)
        # One row tuple: the nodes table's columns in declared order.
        rows.append((
            obj.name, obj.uid, meta.creationTimestamp, text_age(view), roles,
            bool(roles and CONTROL_PLANE_ROLES & set(roles.split(","))),
            addresses.get("InternalIP"), addresses.get("ExternalIP"), addresses.get("Hostname"),
            spec.providerID or None,
            _label(labels, "node.kubernetes.io/instance-type", "beta.kubernetes.io/instance-type"),
            _label(labels, "topology.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/zone"),
            _label(labels, "topology.kubernetes.io/region",
                   "failure-domain.beta.kubernetes.io/region"),
            node_os(info, labels),
            (info.architecture if info else None)
            or _label(labels, "kubernetes.io/arch", "beta.kubernetes.io/arch"),
            info.osImage if info else None, info.kernelVersion if info else None,
            runtime, runtime.partition("://")[0] if runtime else None,
            info.kubeletVersion if info else None, info.kubeProxyVersion if info else None,
            *_node_quantities(status.capacity or {}, status.allocatable or {}, quantity_memo),
            ready.status if ready else _text_ready(view),
            *pressures,
            ",".join(texts) or None,
            joined(taint_text(t) for t in spec.taints or ()),
            bool(spec.unschedulable), spec.podCIDR or None, beat, source_of(obj),
        ))
    return {"nodes": to_frame("nodes", columns_from_rows("nodes", rows), cluster.capture_time,
                              ["name"])}


def _text_ready(view: NodeView) -> str | None:
    """Ready from a pasted STATUS column ("Ready", "NotReady,SchedulingDisabled")."""
    status = view.text.status if view.text else None
    if not status:
        return None
    first = status.split(",")[0]
    return {"Ready": "True", "NotReady": "False", "Unknown": "Unknown"}.get(first)
