"""`kubectl describe node`: taints, conditions, addresses, capacity, system info, its pods."""

from __future__ import annotations

import re
from typing import Any

from analyzer.ingest.text.describe.context import DescribeContext
from analyzer.ingest.text.describe.sections import (
    DESCRIBE_ORIGIN,
    child_map,
    condition_rows,
    table_rows,
    taints,
)
from analyzer.ingest.text.describe.tree import Entry
from analyzer.ingest.text.types import TEXT_FACTS_KEY, TextObject
from analyzer.ingest.text.values import age_seconds, boolean, cell, csv, describe_time

_NODE_INFO = {
    "Machine ID": "machineID", "System UUID": "systemUUID", "Boot ID": "bootID",
    "Kernel Version": "kernelVersion", "OS Image": "osImage", "Operating System": "operatingSystem",
    "Architecture": "architecture", "Container Runtime Version": "containerRuntimeVersion",
    "Kubelet Version": "kubeletVersion", "Kube-Proxy Version": "kubeProxyVersion",
}
_AMOUNT = re.compile(r"^(?P<amount>\S+)(?: \((?P<percent>\d+)%\))?$")
# Non-terminated Pods columns -> (requests|limits, resource).
_POD_RESOURCES = {
    "CPU Requests": ("requests", "cpu"), "CPU Limits": ("limits", "cpu"),
    "Memory Requests": ("requests", "memory"), "Memory Limits": ("limits", "memory"),
}


def read_node(root: Entry, body: dict[str, Any], facts: dict[str, Any],
              ctx: DescribeContext) -> list[TextObject]:
    """Fill a Node from its describe; its Non-terminated Pods become partial Pods."""
    spec: dict[str, Any] = {}
    status: dict[str, Any] = {}
    if roles := cell(root.child_value("Roles")):
        facts["roles"] = roles
    if (entry := root.child("Taints")) and (found := taints(entry.values)):
        spec["taints"] = found
    if boolean(root.child_value("Unschedulable")):
        spec["unschedulable"] = True
    for key, target in (("PodCIDR", "podCIDR"), ("ProviderID", "providerID")):
        if value := cell(root.child_value(key)):
            spec[target] = value
    if cidrs := csv(root.child_value("PodCIDRs")):
        spec["podCIDRs"] = cidrs
    if lease := root.child("Lease"):
        holder = cell(lease.child_value("HolderIdentity"))
        renewed = describe_time(lease.child_value("RenewTime"))
        acquired = lease.child_value("AcquireTime")
        # (kubectl's `<unset>`: the lease holds none, which is said, not unknown)
        acquired = "<unset>" if (acquired or "").strip() == "<unset>" else describe_time(acquired)
        facts["lease"] = {k: v for k, v in (("holderIdentity", holder), ("acquireTime", acquired),
                                            ("renewTime", renewed)) if v}
    if conditions := node_conditions(root.child("Conditions"), ctx):
        status["conditions"] = conditions
    if addresses := root.child("Addresses"):
        found = [{"type": c.key, "address": c.value} for c in addresses.children if cell(c.value)]
        if found:
            status["addresses"] = found
    for key, target in (("Capacity", "capacity"), ("Allocatable", "allocatable")):
        if values := child_map(root.child(key)):
            status[target] = values
    if info := root.child("System Info"):
        node_info = {_NODE_INFO[c.key]: c.value for c in info.children
                     if c.key in _NODE_INFO and cell(c.value)}
        if node_info:
            status["nodeInfo"] = node_info
    if allocated := _allocated(root.child("Allocated resources"), ctx):
        facts["allocated"] = allocated
    if spec:
        body["spec"] = spec
    if status:
        body["status"] = status
    return _pods(root.child("Non-terminated Pods"), body["metadata"].get("name"), ctx)


def node_conditions(entry: Entry | None, ctx: DescribeContext) -> list[dict[str, str]]:
    """The node Conditions table, times in RFC 3339."""
    if entry is None:
        return []
    found = condition_rows(entry, ctx.catalog)
    if not found and any(line.text.strip() for line in entry.raw):
        ctx.unread.append((entry.line, entry.key, "its Conditions table could not be read; "
                           "the node's conditions (Ready, pressure) are unknown"))
    return found


def _amount(text: str | None) -> tuple[str, int | None] | None:
    match = _AMOUNT.match(cell(text) or "")
    if not match:
        return None
    percent = match.group("percent")
    return match.group("amount"), int(percent) if percent else None


def _allocated(entry: Entry | None, ctx: DescribeContext) -> dict[str, dict[str, Any]]:
    """Allocated resources rows: resource -> requests/limits and their share of allocatable."""
    if entry is None:
        return {}
    found: dict[str, dict[str, Any]] = {}
    for _, row in table_rows(entry, ctx.catalog).rows:
        resource = cell(row.get("Resource"))
        if not resource:
            continue
        item: dict[str, Any] = {}
        for column in ("Requests", "Limits"):
            if amount := _amount(row.get(column)):
                item[column.lower()] = amount[0]
                if amount[1] is not None:
                    item[f"{column.lower()}_percent"] = amount[1]
        found[resource] = item
    return found


def _pods(entry: Entry | None, node: str | None, ctx: DescribeContext) -> list[TextObject]:
    """Non-terminated Pods rows as Pods on this node; summed requests/limits stay facts."""
    if entry is None:
        return []
    pods = []
    table = table_rows(entry, ctx.catalog)
    if not table.rows and any(line.text.strip() for line in entry.raw) and \
            not (entry.value or "").strip().startswith("(0 "):
        ctx.unread.append((entry.line, entry.key, "its Non-terminated Pods table could not be read; "
                           "the pods on this node are not in the tables"))
    for line, row in table.rows:
        name, namespace = cell(row.get("Name")), cell(row.get("Namespace"))
        if not name:
            continue
        metadata = {"name": name, **({"namespace": namespace} if namespace else {})}
        body: dict[str, Any] = {"apiVersion": "v1", "kind": "Pod", "metadata": metadata}
        if node:
            body["spec"] = {"nodeName": node}
        facts: dict[str, Any] = {}
        for column, (part, resource) in _POD_RESOURCES.items():
            if amount := _amount(row.get(column)):
                facts.setdefault(part, {})[resource] = amount[0]
        if (age := age_seconds(row.get("Age"))) is not None:
            facts["age_seconds"] = age
        facts["columns"] = {k: v for k, v in row.items() if v is not None}
        # a row states requests, limits and age only: over an earlier sighting of the pod (a
        # `kubectl get pods` row), it adds to it and never erases its status
        facts["row_of"] = f"node {node}'s Non-terminated Pods" if node else "a node's Non-terminated Pods"
        body[TEXT_FACTS_KEY] = facts
        pods.append(TextObject(body=body, line=line, origin=DESCRIBE_ORIGIN))
    return pods


READERS = {"Node": read_node}
