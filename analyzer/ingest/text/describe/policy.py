"""`kubectl describe pdb`: how many pods may be disrupted, of how many, and which pods."""

from __future__ import annotations

from typing import Any

from analyzer.ingest.text.describe.context import DescribeContext
from analyzer.ingest.text.describe.sections import label_selector
from analyzer.ingest.text.describe.tree import Entry
from analyzer.ingest.text.types import TextObject
from analyzer.ingest.text.values import cell, int_or_string, integer, set_path

# The Status lines of k8s.io/kubectl describe.go's describePodDisruptionBudget, by their fields.
_STATUS = {"Allowed disruptions": "disruptionsAllowed", "Current": "currentHealthy",
           "Desired": "desiredHealthy", "Total": "expectedPods"}


def read_disruption_budget(root: Entry, body: dict[str, Any], facts: dict[str, Any],
                           ctx: DescribeContext) -> list[TextObject]:
    """Fill a PodDisruptionBudget from its describe: `Min available` or `Max unavailable` (a
    number or a percentage), its selector, and its Status counts."""
    for key, path in (("Min available", "spec.minAvailable"), ("Max unavailable", "spec.maxUnavailable")):
        if value := cell(root.child_value(key)):
            set_path(body, path, int_or_string(value))
    selector = root.child_value("Selector")
    if cell(selector) != "<unset>" and (found := label_selector(selector)) is not None:
        set_path(body, "spec.selector", found)
    if (status := root.child("Status")) is not None:
        for key, field in _STATUS.items():
            if (number := integer(status.child_value(key))) is not None:
                set_path(body, f"status.{field}", number)
    return []


READERS = {"PodDisruptionBudget": read_disruption_budget}
