"""APIService rows (`kubectl get apiservices`): the aggregated API's Service and its Available
condition, so a pasted listing is judged as the objects are (metrics.k8s.io unavailable)."""

from __future__ import annotations

import re
from typing import Any

from analyzer.ingest.text.rows.context import RowContext
from analyzer.ingest.text.values import cell, set_path

# kube-aggregator's printer: AVAILABLE is the Available condition's status, its reason in
# parentheses when it is not True (`False (FailedDiscoveryCheck)`, `False (MissingEndpoints)`).
_AVAILABLE = re.compile(r"(True|False|Unknown)(?: \((\w+)\))?")


def read_apiservice(body: dict[str, Any], cells: dict[str, str | None], facts: dict[str, Any],
                    ctx: RowContext | None) -> None:
    """Fill an APIService from its row: SERVICE `ns/name` (or `Local`, served by the API server
    itself), AVAILABLE as the Available condition with its reason.

    >>> body = {}
    >>> read_apiservice(body, {"SERVICE": "kube-system/metrics-server",
    ...                        "AVAILABLE": "False (FailedDiscoveryCheck)"}, {}, None)
    >>> body["spec"], body["status"]
    ({'service': {'namespace': 'kube-system', 'name': 'metrics-server'}}, {'conditions': [{'type': 'Available', 'status': 'False', 'reason': 'FailedDiscoveryCheck'}]})
    >>> body = {}; read_apiservice(body, {"SERVICE": "Local", "AVAILABLE": "True"}, {}, None); body
    {'status': {'conditions': [{'type': 'Available', 'status': 'True'}]}}
    """
    service = cell(cells.get("SERVICE"))
    if service and service != "Local" and service.count("/") == 1:
        namespace, name = service.split("/")
        set_path(body, "spec.service", {"namespace": namespace, "name": name})
    available = _AVAILABLE.fullmatch(cell(cells.get("AVAILABLE")) or "")
    if available is not None:
        condition = {"type": "Available", "status": available.group(1)}
        if available.group(2):
            condition["reason"] = available.group(2)
        set_path(body, "status.conditions", [condition])


READERS = {"APIService": read_apiservice}
