"""OpenShift's ClusterOperator, ClusterVersion and MachineConfigPool rows (`oc get co`, `oc get
clusterversion`, `oc get mcp`): the condition columns as status.conditions, so a pasted table is
judged as the objects are."""

from __future__ import annotations

from typing import Any

from analyzer.ingest.text.rows.context import RowContext
from analyzer.ingest.text.values import age_seconds, cell, set_path

_STATUSES = frozenset({"True", "False", "Unknown"})
# The cluster-version operator words its Progressing message so when applying the payload fails
# (openshift/cluster-version-operator pkg/cvo/status.go), and sets Failing=True with it.
_FAILING_PREFIXES = ("Error while reconciling ", "Unable to apply ")


def _conditions(cells: dict[str, str | None], columns: dict[str, str]) -> list[dict[str, Any]]:
    conditions = []
    for header, ctype in columns.items():
        status = cell(cells.get(header))
        if status in _STATUSES:
            conditions.append({"type": ctype, "status": status})
    return conditions


def _with_message(conditions: list[dict[str, Any]], ctype: str, message: str | None) -> None:
    for condition in conditions:
        if condition["type"] == ctype and message:
            condition["message"] = message


def _message_of(conditions: list[dict[str, Any]]) -> str:
    """The condition whose message a row's MESSAGE shows: Available's unless it is True, then
    Degraded's when True, then Progressing's when True (machine-config `True False True` with
    'Failed to resync 4.16.24 because: ...', its Degraded message; network `True True False` with
    'DaemonSet ... is waiting for other operators', its Progressing one; authentication
    `False False True` with 'OAuthServerRouteEndpointAccessibleControllerAvailable: ...').

    >>> _message_of([{"type": "Available", "status": "True"}, {"type": "Degraded", "status": "True"}])
    'Degraded'
    """
    status = {c["type"]: c["status"] for c in conditions}
    if status.get("Available", "True") != "True":
        return "Available"
    return next((ctype for ctype in ("Degraded", "Progressing") if status.get(ctype) == "True"), "Available")


def read_cluster_operator(body: dict[str, Any], cells: dict[str, str | None], facts: dict[str, Any],
                          ctx: RowContext | None) -> None:
    """Fill a ClusterOperator from its `oc get co` row.

    >>> body, facts = {}, {}
    >>> read_cluster_operator(body, {"VERSION": "4.6.1", "AVAILABLE": "False", "PROGRESSING": "True",
    ...     "DEGRADED": "True", "SINCE": "25h", "MESSAGE": "OAuthServerDeploymentAvailable: no pods"},
    ...     facts, None)
    >>> body["status"]["conditions"][0], facts
    ({'type': 'Available', 'status': 'False', 'message': 'OAuthServerDeploymentAvailable: no pods'}, {'condition_ages': {'Available': 90000.0}})
    """
    conditions = _conditions(cells, {"AVAILABLE": "Available", "PROGRESSING": "Progressing",
                                     "DEGRADED": "Degraded"})
    _with_message(conditions, _message_of(conditions), cell(cells.get("MESSAGE")))
    if conditions:
        set_path(body, "status.conditions", conditions)
    if version := cell(cells.get("VERSION")):
        set_path(body, "status.versions", [{"name": "operator", "version": version}])
    if (since := age_seconds(cells.get("SINCE"))) is not None:
        facts["condition_ages"] = {"Available": since}


def read_cluster_version(body: dict[str, Any], cells: dict[str, str | None], facts: dict[str, Any],
                         ctx: RowContext | None) -> None:
    """Fill a ClusterVersion from its `oc get clusterversion` row; a STATUS the operator words
    for a failed payload also says Failing=True.

    >>> body, facts = {}, {}
    >>> read_cluster_version(body, {"VERSION": "4.5.0", "AVAILABLE": "True", "PROGRESSING": "False",
    ...     "SINCE": "17d", "STATUS": "Error while reconciling 4.5.0: MultipleErrors"}, facts, None)
    >>> [(c["type"], c["status"]) for c in body["status"]["conditions"]]
    [('Available', 'True'), ('Progressing', 'False'), ('Failing', 'True')]
    """
    conditions = _conditions(cells, {"AVAILABLE": "Available", "PROGRESSING": "Progressing"})
    message = cell(cells.get("STATUS"))
    _with_message(conditions, "Progressing", message)
    if message and message.startswith(_FAILING_PREFIXES):
        conditions.append({"type": "Failing", "status": "True", "message": message})
    if conditions:
        set_path(body, "status.conditions", conditions)
    if version := cell(cells.get("VERSION")):
        set_path(body, "status.desired.version", version)
    if (since := age_seconds(cells.get("SINCE"))) is not None:
        facts["condition_ages"] = {"Progressing": since}  # (when Failing began is not printed)


def read_machine_config_pool(body: dict[str, Any], cells: dict[str, str | None], facts: dict[str, Any],
                             ctx: RowContext | None) -> None:
    """Fill a MachineConfigPool's conditions from its `oc get mcp` row (its rendered config and
    machine counts are plain fields of kinds.yaml).

    >>> body = {}
    >>> read_machine_config_pool(body, {"UPDATED": "False", "UPDATING": "True", "DEGRADED": "True"}, {}, None)
    >>> [(c["type"], c["status"]) for c in body["status"]["conditions"]]
    [('Updated', 'False'), ('Updating', 'True'), ('Degraded', 'True')]
    """
    conditions = _conditions(cells, {"UPDATED": "Updated", "UPDATING": "Updating", "DEGRADED": "Degraded"})
    if conditions:
        set_path(body, "status.conditions", conditions)


READERS = {"ClusterOperator": read_cluster_operator, "ClusterVersion": read_cluster_version,
           "MachineConfigPool": read_machine_config_pool}
