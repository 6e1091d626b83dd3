"""`kubectl describe pod`: spec, container statuses, conditions, owner, addresses."""

from __future__ import annotations

import re
from typing import Any

from analyzer.ingest.text.describe.context import DescribeContext
from analyzer.ingest.text.describe.podspec import containers, pod_spec
from analyzer.ingest.text.describe.sections import (
    annotation_separator,
    being_deleted,
    key_values,
    owner_reference,
    table_rows,
)
from analyzer.ingest.text.describe.tree import Entry
from analyzer.ingest.text.rows.pods import POD_PHASES
from analyzer.ingest.text.types import TextObject
from analyzer.ingest.text.values import cell, describe_time, integer, set_path


def read_pod(root: Entry, body: dict[str, Any], facts: dict[str, Any],
             ctx: DescribeContext) -> list[TextObject]:
    """Fill a Pod from its describe."""
    spec = pod_spec(root)
    node, _, host_ip = (cell(root.child_value("Node")) or "").partition("/")
    if node:
        spec["nodeName"] = node
    if (priority := integer(root.child_value("Priority"))) is not None:
        spec["priority"] = priority
    grace = re.fullmatch(r"(\d+)s", cell(root.child_value("Termination Grace Period")) or "")
    if grace:
        spec["terminationGracePeriodSeconds"] = int(grace.group(1))
    if spec:
        body["spec"] = spec
    if owner := owner_reference(root.child_value("Controlled By"), ctx.catalog):
        body["metadata"]["ownerReferences"] = [owner]
    status: dict[str, Any] = {}
    if phase := cell(root.child_value("Status")):
        if phase in POD_PHASES:
            status["phase"] = phase
        else:
            facts["status"] = phase
            being_deleted(phase, facts)
    for key, target in (("Reason", "reason"), ("Message", "message"),
                        ("QoS Class", "qosClass"), ("NominatedNodeName", "nominatedNodeName")):
        if value := cell(root.child_value(key)):
            status[target] = value
    if host_ip:
        status["hostIP"] = host_ip
    if pod_ip := cell(root.child_value("IP")):
        status["podIP"] = pod_ip
    if (ips := root.child("IPs")) and (found := [c.value for c in ips.children if c.key == "IP"]):
        status["podIPs"] = [{"ip": ip} for ip in found]
    if started := describe_time(root.child_value("Start Time")):
        status["startTime"] = started
    if conditions := pod_conditions(root.child("Conditions"), ctx):
        status["conditions"] = conditions
    _, init_statuses = containers(root.child("Init Containers"))
    if init_statuses:
        status["initContainerStatuses"] = init_statuses
    _, main_statuses = containers(root.child("Containers"))
    if main_statuses:
        status["containerStatuses"] = main_statuses
    if status:
        body["status"] = status
    return []


def pod_conditions(entry: Entry | None, ctx: DescribeContext) -> list[dict[str, str]]:
    """A Conditions table (`Type  Status [Reason]`) as API conditions."""
    if entry is None:
        return []
    found = []
    for _, row in table_rows(entry, ctx.catalog).rows:
        kind, state = cell(row.get("Type")), cell(row.get("Status"))
        if kind and state:
            condition = {"type": kind, "status": state}
            if reason := cell(row.get("Reason")):
                condition["reason"] = reason
            found.append(condition)
    return found


def set_template(body: dict[str, Any], root: Entry) -> None:
    """A workload's `Pod Template:` section as spec.template."""
    template = root.child("Pod Template")
    if template is None:
        return
    if (entry := template.child("Labels")) and (found := key_values(entry.values, "=")):
        set_path(body, "spec.template.metadata.labels", found)
    if (entry := template.child("Annotations")) and (found := key_values(
            entry.values, annotation_separator(entry.values))):
        set_path(body, "spec.template.metadata.annotations", found)
    if spec := pod_spec(template):
        # Merge: a DaemonSet's Node-Selector may already be in the template spec.
        body.setdefault("spec", {}).setdefault("template", {}).setdefault("spec", {}).update(spec)


READERS = {"Pod": read_pod}

