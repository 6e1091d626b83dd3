"""Conditions of one object pasted alone under the command that names it.

Tickets quote only the lines that matter: the `conditions:` items of `kubectl get no NAME -o yaml`
(no kind, no name: a fragment of the object), or the one condition row of `kubectl describe no
NAME` without its `Conditions:` heading. The command names the object; the lines are its
conditions, each with type and status, so the object is kept with them and nothing else.
"""

from __future__ import annotations

import re
import textwrap
from typing import Any

import yaml

from analyzer.ingest.text.commands import Command
from analyzer.ingest.text.values import describe_time
from analyzer.safeyaml import load_yaml

# Kinds whose status is mostly their conditions (what a reader judges them by).
_KINDS = {"node": ("v1", "Node"), "pod": ("v1", "Pod")}
_DESCRIBE_TIME = r"\w{3}, \d{1,2} \w{3} \d{4} \d\d:\d\d:\d\d [+-]\d{4}"
# A describe's node condition row: Type Status LastHeartbeatTime LastTransitionTime Reason Message.
_CONDITION_ROW = re.compile(
    rf"^\s*(?P<type>[A-Z][A-Za-z]+)\s+(?P<status>True|False|Unknown)\s+(?P<heartbeat>{_DESCRIBE_TIME})\s+"
    rf"(?P<transition>{_DESCRIBE_TIME})\s+(?P<reason>\S+)(?:\s+(?P<message>\S.*?))?\s*$")
_HEADED = re.compile(r"^(?:Name|Conditions):", re.MULTILINE)
_OBJECT_KEYS = re.compile(r'^\s*"?(?:apiVersion|kind|metadata|items)"?\s*:', re.MULTILINE)


def conditions_of_named(command: Command, text: str) -> dict[str, Any] | None:
    """The object the command names (one Node or Pod) with the conditions its pasted fragment
    shows, or None when the text is not such a fragment.

    >>> from analyzer.ingest.text.commands import parse_command
    >>> body = conditions_of_named(parse_command("k describe no aks-node1"),
    ...     " Ready  False   Mon, 13 Apr 2026 21:19:14 +0530   Mon, 13 Apr 2026 20:53:14 +0530   KubeletNotReady  cni plugin not initialized")
    >>> body["metadata"], body["status"]["conditions"][0]["lastTransitionTime"]
    ({'name': 'aks-node1'}, '2026-04-13T15:23:14Z')
    """
    if len(command.resources) != 1 or len(command.names) != 1:
        return None
    kind = _KINDS.get(_singular(command.resources[0]))
    if kind is None:
        return None
    output = (command.output or "").split("=", 1)[0]
    if command.verb == "get" and output in ("yaml", "json"):
        conditions = _structured_conditions(text)
    elif command.verb == "describe" and not _HEADED.search(text):
        conditions = _described_conditions(text)
    else:
        return None
    if not conditions:
        return None
    metadata: dict[str, Any] = {"name": command.names[0]}
    if command.namespace and kind[1] != "Node":
        metadata["namespace"] = command.namespace
    return {"apiVersion": kind[0], "kind": kind[1], "metadata": metadata, "status": {"conditions": conditions}}


def _singular(resource: str) -> str:
    base = resource.lower().split(".", 1)[0].split("/", 1)[0]
    return {"no": "node", "nodes": "node", "po": "pod", "pods": "pod"}.get(base, base)


def _structured_conditions(text: str) -> list[dict[str, Any]] | None:
    """The items of a pasted `conditions:` list (or a mapping holding one), when every item has
    a type and a status and the text holds no object of its own."""
    if _OBJECT_KEYS.search(text):
        return None
    try:
        value = load_yaml(textwrap.dedent(text))
    except yaml.YAMLError:
        return None
    if isinstance(value, dict):
        # only `conditions:` (or `status:` holding only them): an object with more is read whole
        status = value.get("status")
        if set(value) == {"conditions"}:
            value = value["conditions"]
        elif set(value) == {"status"} and isinstance(status, dict) and set(status) == {"conditions"}:
            value = status["conditions"]
        else:
            return None
    if not isinstance(value, list) or not value:
        return None
    if not all(isinstance(c, dict) and isinstance(c.get("type"), str) and c.get("status") in ("True", "False", "Unknown")
               for c in value):
        return None
    return [{k: v for k, v in c.items() if isinstance(v, str)} for c in value]


def _described_conditions(text: str) -> list[dict[str, Any]] | None:
    """A describe's condition rows without their heading: every line that is not blank is one,
    up to an `Events:` section (or the end)."""
    found = []
    for line in text.splitlines():
        if not line.strip():
            continue
        if line.startswith("Events:"):
            break
        row = _CONDITION_ROW.match(line)
        if row is None:
            return None
        condition = {"type": row["type"], "status": row["status"],
                     "lastHeartbeatTime": describe_time(row["heartbeat"]),
                     "lastTransitionTime": describe_time(row["transition"]), "reason": row["reason"]}
        if row["message"]:
            condition["message"] = row["message"]
        found.append(condition)
    return found or None
