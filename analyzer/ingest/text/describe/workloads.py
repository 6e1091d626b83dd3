"""`kubectl describe` of Deployments, ReplicaSets, DaemonSets, StatefulSets: counts, template."""

from __future__ import annotations

import re
from typing import Any

from analyzer.ingest.text.describe.context import DescribeContext
from analyzer.ingest.text.describe.pod import pod_conditions, set_template
from analyzer.ingest.text.describe.sections import key_values, owner_reference
from analyzer.ingest.text.describe.tree import Entry
from analyzer.ingest.text.types import TextObject
from analyzer.ingest.text.values import cell, csv, int_or_string, integer, set_path

# `3 desired | 3 updated | 3 total | 3 available | 0 unavailable` words -> API paths.
_REPLICA_WORDS = {
    "desired": "spec.replicas", "updated": "status.updatedReplicas", "total": "status.replicas",
    "available": "status.availableReplicas", "unavailable": "status.unavailableReplicas",
    "current": "status.replicas", "ready": "status.readyReplicas",
}
_DAEMONSET_COUNTS = {
    "Desired Number of Nodes Scheduled": "status.desiredNumberScheduled",
    "Current Number of Nodes Scheduled": "status.currentNumberScheduled",
    "Number of Nodes Scheduled with Up-to-date Pods": "status.updatedNumberScheduled",
    "Number of Nodes Scheduled with Available Pods": "status.numberAvailable",
    "Number of Nodes Misscheduled": "status.numberMisscheduled",
}


def replica_counts(text: str | None) -> dict[str, int]:
    """A Replicas line's counts by API path.

    >>> replica_counts("3 desired | 2 updated | 3 total | 2 available | 1 unavailable")["spec.replicas"]
    3
    >>> replica_counts("2 current / 2 desired")
    {'status.replicas': 2, 'spec.replicas': 2}
    """
    found: dict[str, int] = {}
    for number, word in re.findall(r"(\d+) (\w+)", cell(text) or ""):
        if word in _REPLICA_WORDS:
            found[_REPLICA_WORDS[word]] = int(number)
    return found


def read_workload(root: Entry, body: dict[str, Any], facts: dict[str, Any],
                  ctx: DescribeContext) -> list[TextObject]:
    """Fill a workload from its describe."""
    if (entry := root.child("Selector")) and (found := key_values(
            [part for value in entry.values for part in csv(value)], "=")):
        if body["kind"] == "ReplicationController":
            set_path(body, "spec.selector", found)
        else:
            set_path(body, "spec.selector", {"matchLabels": found})
    for path, number in replica_counts(root.child_value("Replicas")).items():
        set_path(body, path, number)
    for key, path in _DAEMONSET_COUNTS.items():
        if (number := integer(root.child_value(key))) is not None:
            set_path(body, path, number)
    if strategy := cell(root.child_value("StrategyType")):
        set_path(body, "spec.strategy.type", strategy)
    if strategy := cell(root.child_value("Update Strategy")):
        set_path(body, "spec.updateStrategy.type", strategy)
    if (seconds := integer(root.child_value("MinReadySeconds"))) is not None:
        set_path(body, "spec.minReadySeconds", seconds)
    rolling = re.match(r"^(\S+) max unavailable, (\S+) max surge$",
                       cell(root.child_value("RollingUpdateStrategy")) or "")
    if rolling:
        set_path(body, "spec.strategy.rollingUpdate", {
            "maxUnavailable": int_or_string(rolling.group(1)),
            "maxSurge": int_or_string(rolling.group(2)),
        })
    if (entry := root.child("Node-Selector")) and (found := key_values(entry.values, "=")):
        set_path(body, "spec.template.spec.nodeSelector", found)
    if owner := owner_reference(root.child_value("Controlled By"), ctx.catalog):
        body["metadata"]["ownerReferences"] = [owner]
    if pods_status := cell(root.child_value("Pods Status")):
        facts["pods_status"] = pods_status
    for key, fact in (("NewReplicaSet", "new_replica_set"), ("OldReplicaSets", "old_replica_sets")):
        if value := cell(root.child_value(key)):
            facts[fact] = value
    set_template(body, root)
    if conditions := pod_conditions(root.child("Conditions"), ctx):
        set_path(body, "status.conditions", conditions)
    return []


READERS = {kind: read_workload for kind in (
    "Deployment", "ReplicaSet", "DaemonSet", "StatefulSet", "ReplicationController")}
