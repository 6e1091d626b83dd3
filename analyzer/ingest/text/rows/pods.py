"""Pod rows: READY, STATUS (a phase only when it is one), RESTARTS with the last restart's age."""

from __future__ import annotations

from typing import Any

from analyzer.ingest.text.rows.context import RowContext
from analyzer.ingest.text.values import cell, restarts, set_path

POD_PHASES = frozenset({"Pending", "Running", "Succeeded", "Failed", "Unknown"})


def read_pod(body: dict[str, Any], cells: dict[str, str | None], facts: dict[str, Any],
             ctx: RowContext) -> None:
    """Fill a Pod from its row.

    >>> body, facts = {}, {}
    >>> read_pod(body, {"READY": "0/1", "STATUS": "CrashLoopBackOff", "RESTARTS": "9 (104s ago)"},
    ...          facts, None)
    >>> body, facts
    ({}, {'ready': '0/1', 'status': 'CrashLoopBackOff', 'restarts': 9, 'last_restart_ago_seconds': 104.0})
    """
    if ready := cell(cells.get("READY")):
        facts["ready"] = ready
    if status := cell(cells.get("STATUS")) or _v1_0_status(cells):
        facts["status"] = status
        if status in POD_PHASES:
            set_path(body, "status.phase", status)
    count, ago = restarts(cells.get("RESTARTS"))
    if count is not None:
        facts["restarts"] = count
    if ago is not None:
        facts["last_restart_ago_seconds"] = ago


# kubectl 1.0 headed the pod's status REASON (`NAME  READY  REASON  RESTARTS  AGE`, kubernetes#10560;
# STATUS since #10619), and wrote a container killed for its memory `OOM Killed` (its docker
# manager's reason; OOMKilled since 1.1).
_V1_0_COLUMNS = frozenset({"READY", "REASON", "RESTARTS"})
_V1_0_WORDS = {"OOM Killed": "OOMKilled"}


def _v1_0_status(cells: dict[str, str | None]) -> str | None:
    """The status a kubectl 1.0 pod row gives under REASON, in today's words.

    >>> _v1_0_status({"READY": "0/1", "REASON": "OOM Killed", "RESTARTS": "0"}), _v1_0_status({"REASON": "x"})
    ('OOMKilled', None)
    """
    if "STATUS" in cells or not cells.keys() >= _V1_0_COLUMNS or not (status := cell(cells.get("REASON"))):
        return None
    return _V1_0_WORDS.get(status, status)


READERS = {"Pod": read_pod}
