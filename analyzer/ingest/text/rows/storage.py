"""Volume rows: access modes, claim references, default storage classes, a CSI driver's token requests."""

from __future__ import annotations

from typing import Any

from analyzer.ingest.text.rows.context import RowContext
from analyzer.ingest.text.values import cell, csv, set_path

ACCESS_MODES = {
    "RWO": "ReadWriteOnce", "ROX": "ReadOnlyMany", "RWX": "ReadWriteMany",
    "RWOP": "ReadWriteOncePod",
}


def access_modes(text: str | None) -> list[str]:
    """kubectl's short access modes in API words.

    >>> access_modes("RWO,RWX")
    ['ReadWriteOnce', 'ReadWriteMany']
    """
    return [ACCESS_MODES.get(mode, mode) for mode in csv(text)]


def read_pv(body: dict[str, Any], cells: dict[str, str | None], facts: dict[str, Any],
            ctx: RowContext | None) -> None:
    """Fill a PersistentVolume's access modes and claim reference (`namespace/name`); a row
    `Terminating` leaves its phase untold (Bound or Released alike keep their claim).

    >>> body = {}
    >>> read_pv(body, {"ACCESS MODES": "RWO", "CLAIM": "web/data-web-0"}, {}, None)
    >>> body
    {'spec': {'accessModes': ['ReadWriteOnce'], 'claimRef': {'namespace': 'web', 'name': 'data-web-0'}}}
    """
    if modes := access_modes(cells.get("ACCESS MODES")):
        set_path(body, "spec.accessModes", modes)
    namespace, slash, name = (cell(cells.get("CLAIM")) or "").partition("/")
    if slash and namespace and name:
        set_path(body, "spec.claimRef", {"namespace": namespace, "name": name})
    _being_deleted(body, facts)


def read_pvc(body: dict[str, Any], cells: dict[str, str | None], facts: dict[str, Any],
             ctx: RowContext | None) -> None:
    """Fill a PersistentVolumeClaim's granted access modes; a row `Terminating` (kubectl prints it
    in place of the phase of a claim being deleted) is Bound where it shows a capacity, which only
    binding grants (runwhen-contrib/runwhen-local#226), its phase untold otherwise.

    >>> body = {"status": {"phase": "Terminating", "capacity": {"storage": "10Gi"}}}
    >>> read_pvc(body, {"ACCESS MODES": "RWO"}, facts := {}, None)
    >>> body["status"], facts
    ({'capacity': {'storage': '10Gi'}, 'accessModes': ['ReadWriteOnce'], 'phase': 'Bound'}, {'status': 'Terminating'})
    >>> read_pvc(body := {"status": {"phase": "Terminating"}}, {}, {}, None); body
    {'status': {}}
    """
    if modes := access_modes(cells.get("ACCESS MODES")):
        set_path(body, "status.accessModes", modes)
    if _being_deleted(body, facts) and (body["status"].get("capacity") or {}).get("storage"):
        body["status"]["phase"] = "Bound"


def _being_deleted(body: dict[str, Any], facts: dict[str, Any]) -> bool:
    """A volume's or claim's STATUS `Terminating`: kept as the row's status, not as its phase
    (no such phase: kubectl prints it for a deletionTimestamp, as a describe does)."""
    status = body.get("status") or {}
    if status.get("phase") != "Terminating":
        return False
    del status["phase"]
    facts["status"] = "Terminating"
    return True


def read_csidriver(body: dict[str, Any], cells: dict[str, str | None], facts: dict[str, Any],
                   ctx: RowContext | None) -> None:
    """Fill a CSIDriver's token requests from their audiences (`<unset>`: none asked for).

    >>> body = {}
    >>> read_csidriver(body, {"TOKENREQUESTS": "vault,sts.amazonaws.com"}, {}, None)
    >>> body
    {'spec': {'tokenRequests': [{'audience': 'vault'}, {'audience': 'sts.amazonaws.com'}]}}
    >>> read_csidriver(body := {}, {"TOKENREQUESTS": "<unset>"}, {}, None); body
    {}
    """
    audiences = cell(cells.get("TOKENREQUESTS"))
    if audiences and audiences != "<unset>":
        set_path(body, "spec.tokenRequests", [{"audience": a} for a in csv(audiences)])


READERS = {"PersistentVolume": read_pv, "PersistentVolumeClaim": read_pvc, "CSIDriver": read_csidriver}
