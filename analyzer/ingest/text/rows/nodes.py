"""Node rows: STATUS as the Ready condition (and cordoning), ROLES, addresses."""

from __future__ import annotations

from typing import Any

from analyzer.ingest.text.rows.context import RowContext
from analyzer.ingest.text.values import cell, csv, set_path

# STATUS word -> Ready condition status, as kubectl's node printer derives it.
_READY = {"Ready": "True", "NotReady": "False", "Unknown": "Unknown"}


def read_node(body: dict[str, Any], cells: dict[str, str | None], facts: dict[str, Any],
              ctx: RowContext | None) -> None:
    """Fill a Node from its row.

    >>> body, facts = {}, {}
    >>> read_node(body, {"STATUS": "Ready,SchedulingDisabled", "ROLES": "control-plane",
    ...                  "INTERNAL-IP": "10.0.0.4", "EXTERNAL-IP": "<none>"}, facts, None)
    >>> body["spec"], body["status"]["conditions"], body["status"]["addresses"], facts
    ({'unschedulable': True}, [{'type': 'Ready', 'status': 'True'}], [{'type': 'InternalIP', 'address': '10.0.0.4'}], {'status': 'Ready,SchedulingDisabled', 'roles': 'control-plane'})
    """
    if status := cell(cells.get("STATUS")):
        facts["status"] = status
        words = csv(status)
        if words and words[0] in _READY:
            set_path(body, "status.conditions", [{"type": "Ready", "status": _READY[words[0]]}])
        if "SchedulingDisabled" in words:
            set_path(body, "spec.unschedulable", True)
    if roles := cell(cells.get("ROLES")):
        facts["roles"] = roles
    addresses = [
        {"type": kind, "address": address}
        for header, kind in (("INTERNAL-IP", "InternalIP"), ("EXTERNAL-IP", "ExternalIP"))
        for address in csv(cells.get(header))
    ]
    if addresses:
        set_path(body, "status.addresses", addresses)


READERS = {"Node": read_node}
