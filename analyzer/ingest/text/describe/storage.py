"""`kubectl describe pvc`: its phase, class, volume and the pods that use it."""

from __future__ import annotations

from typing import Any

from analyzer.ingest.text.describe.context import DescribeContext
from analyzer.ingest.text.describe.pod import being_deleted
from analyzer.ingest.text.describe.tree import Entry
from analyzer.ingest.text.types import TextObject
from analyzer.ingest.text.values import cell, csv, set_path

# kubectl prints access modes short (`RWO,RWX`).
ACCESS_MODES = {"RWO": "ReadWriteOnce", "RWX": "ReadWriteMany", "ROX": "ReadOnlyMany",
                "RWOP": "ReadWriteOncePod"}


def read_claim(root: Entry, body: dict[str, Any], facts: dict[str, Any],
               ctx: DescribeContext) -> list[TextObject]:
    """Fill a PersistentVolumeClaim from its describe."""
    status = cell(root.child_value("Status"))
    if status and not being_deleted(status, facts):  # (the phase is not printed then)
        set_path(body, "status.phase", status)
    for key, path in (("StorageClass", "spec.storageClassName"),
                      ("Volume", "spec.volumeName"), ("VolumeMode", "spec.volumeMode"),
                      ("Capacity", "status.capacity.storage")):
        if value := cell(root.child_value(key)):
            set_path(body, path, value)
    if modes := [ACCESS_MODES.get(m, m) for m in csv(root.child_value("Access Modes"))]:
        set_path(body, "spec.accessModes", modes)
    # `Used By:` (kubectl 1.20 on), `Mounted By:` before: the pods that mount the claim
    users = root.child("Used By") or root.child("Mounted By")
    if used_by := [name for value in (users.values if users else ()) for name in csv(value)
                   if cell(name) is not None]:
        facts["used_by"] = used_by
    return []


READERS = {"PersistentVolumeClaim": read_claim}
