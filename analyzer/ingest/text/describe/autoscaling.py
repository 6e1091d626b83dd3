"""`kubectl describe hpa`: its target, bounds, replica counts and conditions."""

from __future__ import annotations

import re
from typing import Any

from analyzer.ingest.text.describe.context import DescribeContext
from analyzer.ingest.text.describe.sections import table_rows
from analyzer.ingest.text.describe.tree import Entry
from analyzer.ingest.text.types import TextObject
from analyzer.ingest.text.values import cell, integer, set_path

# `Deployment pods:  1 current / 0 desired` (the key names the target's kind)
_PODS = re.compile(r"(\d+) current / (\d+) desired")


def read_autoscaler(root: Entry, body: dict[str, Any], facts: dict[str, Any],
                    ctx: DescribeContext) -> list[TextObject]:
    """Fill a HorizontalPodAutoscaler from its describe."""
    kind, _, name = (cell(root.child_value("Reference")) or "").partition("/")
    if kind and name:
        set_path(body, "spec.scaleTargetRef", {"kind": kind, "name": name})
    for key, path in (("Min replicas", "spec.minReplicas"), ("Max replicas", "spec.maxReplicas")):
        if (number := integer(root.child_value(key))) is not None:
            set_path(body, path, number)
    for entry in root.children:
        if entry.key.endswith(" pods") and (m := _PODS.search(cell(entry.value) or "")):
            set_path(body, "status.currentReplicas", int(m.group(1)))
            set_path(body, "status.desiredReplicas", int(m.group(2)))
    if metrics := root.child("Metrics"):
        # `resource cpu on pods  (as a percentage of request):  <unknown> / 50%`
        facts["metrics"] = {child.key: child.value for child in metrics.children if cell(child.value)}
    conditions = []
    if entry := root.child("Conditions"):
        for _, row in table_rows(entry, ctx.catalog).rows:
            ctype, status = cell(row.get("Type")), cell(row.get("Status"))
            if ctype and status:
                condition = {"type": ctype, "status": status}
                for column, field in (("Reason", "reason"), ("Message", "message")):
                    if value := cell(row.get(column)):
                        condition[field] = value
                conditions.append(condition)
    if conditions:
        set_path(body, "status.conditions", conditions)
    return []


READERS = {"HorizontalPodAutoscaler": read_autoscaler}
