"""Object metadata that clients and controllers write: kubectl apply's annotation, owner references."""

from __future__ import annotations

from typing import Any

from synthetic.emit.kubectl_json import compact_json
from synthetic.ids import Ids
from synthetic.times import timestamp

LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"


def last_applied(manifest: dict[str, Any]) -> str:
    """The last-applied-configuration value kubectl apply stores (compact sorted JSON, Go escapes, a newline)."""
    return compact_json(manifest) + "\n"


def last_applied_annotation(manifest: dict[str, Any]) -> dict[str, str]:
    """The annotation `kubectl apply` leaves on what it created."""
    return {LAST_APPLIED: last_applied(manifest)}


def owner_reference(api_version: str, kind: str, name: str, uid: str, block: bool = True) -> dict[str, Any]:
    """An ownerReferences entry pointing at the controller."""
    reference: dict[str, Any] = {"apiVersion": api_version, "controller": True, "kind": kind, "name": name, "uid": uid}
    if block:
        reference["blockOwnerDeletion"] = True
    return reference


def object_metadata(ids: Ids, namespace: str, name: str, age: int, managed: list[dict[str, Any]],
              labels: dict[str, str] | None = None, annotations: dict[str, str] | None = None) -> dict[str, Any]:
    """ObjectMeta of an object the scalable cluster holds: a fresh uid and resourceVersion, created `age` s ago."""
    metadata: dict[str, Any] = {
        "creationTimestamp": timestamp(age),
        "managedFields": managed,
        "name": name,
        "resourceVersion": ids.resource_version(),
        "uid": ids.uid(),
    }
    if namespace:
        metadata["namespace"] = namespace
    if labels:
        metadata["labels"] = labels
    if annotations:
        metadata["annotations"] = annotations
    return metadata
