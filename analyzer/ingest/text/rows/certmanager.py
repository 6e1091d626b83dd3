"""cert-manager's Certificate rows (`kubectl get certificates`): READY is the status of the Ready
condition and STATUS (`-o wide`) its message, the CRD's printer columns, so a pasted table is
judged as the objects are."""

from __future__ import annotations

from typing import Any

from analyzer.ingest.text.rows.context import RowContext
from analyzer.ingest.text.values import cell, set_path

_STATUSES = frozenset({"True", "False", "Unknown"})


def read_certificate(body: dict[str, Any], cells: dict[str, str | None], facts: dict[str, Any],
                     ctx: RowContext | None) -> None:
    """Fill a Certificate from its row: READY and STATUS as its Ready condition.

    >>> body = {}
    >>> read_certificate(body, {"READY": "False", "SECRET": "web-tls", "ISSUER": "letsencrypt-prod",
    ...     "STATUS": "Issuing certificate as Secret does not exist"}, {}, None)
    >>> body["status"]["conditions"]
    [{'type': 'Ready', 'status': 'False', 'message': 'Issuing certificate as Secret does not exist'}]
    """
    status = cell(cells.get("READY"))
    if status not in _STATUSES:
        return  # (a blank READY: the certificate has no Ready condition yet)
    condition: dict[str, Any] = {"type": "Ready", "status": status}
    if message := cell(cells.get("STATUS")):
        condition["message"] = message
    set_path(body, "status.conditions", [condition])


READERS = {"Certificate": read_certificate}
