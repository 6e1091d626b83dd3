"""Flux's Kustomization and HelmRelease rows (`kubectl get kustomizations`, `kubectl get hr`): READY
is the status of the Ready condition and STATUS its message, the CRDs' printer columns."""

from __future__ import annotations

from typing import Any

from analyzer.ingest.text.rows.context import RowContext
from analyzer.ingest.text.values import cell, set_path

_STATUSES = frozenset({"True", "False", "Unknown"})


def read_flux_object(body: dict[str, Any], cells: dict[str, str | None], facts: dict[str, Any],
                     ctx: RowContext | None) -> None:
    """Fill a Kustomization or HelmRelease from its row: READY and STATUS as its Ready condition.

    >>> body = {}
    >>> read_flux_object(body, {"AGE": "23h", "READY": "False", "STATUS": "kustomize build failed: accumulating resources"}, {}, None)
    >>> body["status"]["conditions"]
    [{'type': 'Ready', 'status': 'False', 'message': 'kustomize build failed: accumulating resources'}]
    """
    status = cell(cells.get("READY"))
    if status not in _STATUSES:
        return
    condition: dict[str, Any] = {"type": "Ready", "status": status}
    if message := cell(cells.get("STATUS")):
        condition["message"] = message
    set_path(body, "status.conditions", [condition])


READERS = {"Kustomization": read_flux_object, "HelmRelease": read_flux_object}
