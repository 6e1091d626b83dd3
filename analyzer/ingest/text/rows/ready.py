"""Rows of custom resources whose CRDs print their Ready condition: READY its status, STATUS its
message (cert-manager's Certificate at -o wide; Flux's Kustomization and HelmRelease), so a
pasted table is judged as the objects are."""

from __future__ import annotations

from typing import Any

from analyzer.ingest.text.rows.context import RowContext
from analyzer.ingest.text.values import cell, set_path

_STATUSES = frozenset({"True", "False", "Unknown"})


def read_ready_condition(body: dict[str, Any], cells: dict[str, str | None], facts: dict[str, Any],
                         ctx: RowContext | None) -> None:
    """Fill the object's Ready condition from READY and STATUS.

    >>> body = {}
    >>> read_ready_condition(body, {"READY": "False", "SECRET": "web-tls",
    ...     "STATUS": "Issuing certificate as Secret does not exist"}, {}, None)
    >>> body["status"]["conditions"]
    [{'type': 'Ready', 'status': 'False', 'message': 'Issuing certificate as Secret does not exist'}]
    """
    status = cell(cells.get("READY"))
    if status not in _STATUSES:
        return  # (a blank READY: the object has no Ready condition yet)
    condition: dict[str, Any] = {"type": "Ready", "status": status}
    if message := cell(cells.get("STATUS")):
        condition["message"] = message
    set_path(body, "status.conditions", [condition])


READERS = {"Certificate": read_ready_condition, "Kustomization": read_ready_condition,
           "HelmRelease": read_ready_condition}
