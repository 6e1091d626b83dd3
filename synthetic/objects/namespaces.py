"""Namespace objects."""

from __future__ import annotations

from typing import Any

from synthetic.fields import managed_entry, top_level_fields
from synthetic.ids import Ids
from synthetic.objects.metadata import object_metadata
from synthetic.times import timestamp


def namespace_object(ids: Ids, name: str, age: int, labels: dict[str, str]) -> dict[str, Any]:
    """A Namespace."""
    all_labels = {"kubernetes.io/metadata.name": name, **labels}
    managed = [managed_entry("kubectl-create", timestamp(age), top_level_fields({"metadata": {"labels": all_labels}}))]
    return {"apiVersion": "v1", "kind": "Namespace",
            "metadata": object_metadata(ids, "", name, age, managed, all_labels),
            "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": "Active"}}
