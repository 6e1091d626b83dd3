"""Conditions, taints or a container's state of one object pasted alone under the command that
names it.

Tickets quote only the lines that matter: the `conditions:` items of `kubectl get no NAME -o yaml`
(no kind, no name: a fragment of the object), the one condition row of `kubectl describe no
NAME` without its `Conditions:` heading, a node's `taints:` (`get no NAME -o yaml | grep -A2
taints:`), or a pod's container state (`describe pod NAME | grep -A5 'Last State'`). The command
names the object; the lines are its conditions, each with type and status, its taints, each with
key and effect, or one container's State / Last State with their detail lines, so the object is
kept with them and nothing else.
"""

from __future__ import annotations

import re
import textwrap
from typing import Any

import yaml

from analyzer.ingest.text.commands import Command
from analyzer.ingest.text.lines import ELISION
from analyzer.ingest.text.values import boolean, cell, describe_time, integer
from analyzer.kube.kinds import CLUSTER_SCOPED_KINDS
from analyzer.safeyaml import load_yaml

# Kinds whose status is mostly their conditions (what a reader judges them by).
_KINDS = {"node": ("v1", "Node"), "pod": ("v1", "Pod"),
          "apiservice": ("apiregistration.k8s.io/v1", "APIService")}
_DESCRIBE_TIME = r"\w{3}, \d{1,2} \w{3} \d{4} \d\d:\d\d:\d\d [+-]\d{4}"
# A describe's node condition row: Type Status LastHeartbeatTime LastTransitionTime Reason Message.
_CONDITION_ROW = re.compile(
    rf"^\s*(?P<type>[A-Z][A-Za-z]+)\s+(?P<status>True|False|Unknown)\s+(?P<heartbeat>{_DESCRIBE_TIME})\s+"
    rf"(?P<transition>{_DESCRIBE_TIME})\s+(?P<reason>\S+)(?:\s+(?P<message>\S.*?))?\s*$")
_HEADED = re.compile(r"^(?:Name|Conditions):", re.MULTILINE)
# An HTML block tag alone on its line (a GitHub comment's <pre> ... </pre> around a paste).
_HTML_TAG = re.compile(r"^\s*</?(?:pre|code|details|summary)>\s*$", re.I)
_OBJECT_KEYS = re.compile(r'^\s*"?(?:apiVersion|kind|metadata|items)"?\s*:', re.MULTILINE)


def condition_rows_said(lines: list[str]) -> list[str]:
    """What a describe's condition rows say, one `Type=Status (Reason, since <transition>)` each,
    for the rows that are not the healthy ones (a Ready that is True, a pressure that is False).

    >>> condition_rows_said(["  Ready   Unknown   Tue, 17 Sep 2024 16:15:10 -0500   Tue, 17 Sep 2024 16:18:13 -0500"
    ...                      "   NodeStatusUnknown   Kubelet stopped posting node status."])
    ['Ready=Unknown (NodeStatusUnknown, since Tue, 17 Sep 2024 16:18:13 -0500)']
    """
    said = []
    for line in lines:
        row = _CONDITION_ROW.match(line)
        if row is None or (row["status"] == "True") == (row["type"] in ("Ready", "NetworkReady")) \
                and row["status"] != "Unknown":
            continue
        said.append(f"{row['type']}={row['status']} ({row['reason']}, since {row['transition']})")
    return said


def pods_listed(lines: list[str]) -> list[str]:
    """NAMESPACE/NAME of the rows of a node describe's Non-terminated Pods table among the lines
    (what a describe quoted without its Name says of the pods on its node).

    >>> pods_listed(["Non-terminated Pods:  (1 in total)", "  Namespace    Name   CPU Requests",
    ...              "  ---------    ----   ------------", "  kube-system  kube-proxy-vrmmc  0 (0%)",
    ...              "Allocated resources:", "  cpu   150m (7%)"])
    ['kube-system/kube-proxy-vrmmc']
    """
    start = next((i for i, line in enumerate(lines) if line.startswith("Non-terminated Pods:")), None)
    if start is None:
        return []
    table: list[str] = []
    for line in lines[start + 1:]:
        if line.strip() and not line[:1].isspace():
            break  # the next section (Allocated resources:)
        if line.strip() and not (set(line.strip()) <= {"-", " "}):
            table.append(line)
    return [f"{cells[0]}/{cells[1]}" for cells in (t.split() for t in table[1:]) if len(cells) >= 2]


def pods_said(lines: list[str]) -> str:
    """ "2 pod(s) on it: ns/a, ns/b" for the pods a Non-terminated Pods table lists ('' when none)."""
    pods = pods_listed(lines)
    return (f"{len(pods)} pod(s) on it: {', '.join(pods[:5])}" + (" ..." if len(pods) > 5 else "")) if pods else ""


def only_condition_rows(lines: list[str]) -> bool:
    """Whether every line that is not blank is a describe's node condition row."""
    rows = [line for line in lines if line.strip()]
    return bool(rows) and all(_CONDITION_ROW.match(line) for line in rows)


def fragment_of_named(command: Command, text: str) -> dict[str, Any] | None:
    """The object the command names (one Node or Pod, or by its `get -o yaml|json` any kind the
    text catalog knows) with the conditions (or, of a Node, the taints) its pasted fragment shows,
    or None when the text is not such a fragment.

    >>> from analyzer.ingest.text.commands import parse_command
    >>> body = fragment_of_named(parse_command("k describe no aks-node1"),
    ...     " Ready  False   Mon, 13 Apr 2026 21:19:14 +0530   Mon, 13 Apr 2026 20:53:14 +0530   KubeletNotReady  cni plugin not initialized")
    >>> body["metadata"], body["status"]["conditions"][0]["lastTransitionTime"]
    ({'name': 'aks-node1'}, '2026-04-13T15:23:14Z')
    >>> fragment_of_named(parse_command("k get no n1 -o yaml | grep -A 2 taints:"),
    ...     "  taints:\\n  - effect: NoSchedule\\n    key: karpenter.sh/not-ready")["spec"]
    {'taints': [{'effect': 'NoSchedule', 'key': 'karpenter.sh/not-ready'}]}
    """
    if len(command.resources) != 1 or len(command.names) != 1:
        return None
    output = (command.output or "").split("=", 1)[0]
    kind = _KINDS.get(_singular(command.resources[0])) or _conditioned_kind(command, output)
    if kind is None:
        return None
    part: dict[str, Any] | None = None
    if command.verb == "get" and output in ("yaml", "json"):
        conditions = _structured_conditions(text)
        if conditions:
            part = {"status": {"conditions": conditions}}
        elif kind[1] == "Node" and (taints := _structured_taints(text)):
            part = {"spec": {"taints": taints}}
    elif command.verb == "describe" and not _HEADED.search(text):
        conditions = _described_conditions(text)
        part = {"status": {"conditions": conditions}} if conditions else None
        if part is None and kind[1] == "Pod" and (status := _described_container_state(text)):
            part = {"status": {"containerStatuses": [status]}}
    if part is None:
        return None
    metadata: dict[str, Any] = {"name": command.names[0]}
    if command.namespace and kind[1] not in CLUSTER_SCOPED_KINDS:
        metadata["namespace"] = command.namespace
    return {"apiVersion": kind[0], "kind": kind[1], "metadata": metadata, **part}


def _conditioned_kind(command: Command, output: str) -> tuple[str, str] | None:
    """Any other kind the text catalog knows, for the `conditions:` items of its `get NAME -o
    yaml|json` alone (`oc get mcp worker -o yaml` quoted from `...` down to its NodeDegraded
    condition, machine-config-operator#4977): the object with them, never a condition taken for
    the object.

    >>> from analyzer.ingest.text.commands import parse_command
    >>> _conditioned_kind(parse_command("oc get mcp worker -o yaml"), "yaml")
    ('machineconfiguration.openshift.io/v1', 'MachineConfigPool')
    """
    from analyzer.ingest.text.catalog import catalog

    info = catalog().for_resource(command.resources[0]) if command.verb == "get" and output in ("yaml", "json") \
        else None
    return (info.api_version, info.kind) if info is not None else None


def fragment_part(body: dict[str, Any]) -> str:
    """What a fragment's object holds, in words: its conditions, its taints or a container's state.

    >>> fragment_part({"status": {"containerStatuses": []}}), fragment_part({"spec": {"taints": []}})
    ("container's state", 'taints')
    """
    status = body.get("status")
    if isinstance(status, dict):
        return "container's state" if "containerStatuses" in status else "conditions"
    return "taints"


def _singular(resource: str) -> str:
    base = resource.lower().split(".", 1)[0].split("/", 1)[0]
    return {"no": "node", "nodes": "node", "po": "pod", "pods": "pod", "apiservices": "apiservice"}.get(base, base)


def _structured_conditions(text: str) -> list[dict[str, Any]] | None:
    """The items of a pasted `conditions:` list (or a mapping holding one), when every item has
    a type and a status and the text holds no object of its own."""
    value = _fragment_list(text, "status", "conditions")
    if value is None:
        return None
    if not all(isinstance(c, dict) and isinstance(c.get("type"), str) and c.get("status") in ("True", "False", "Unknown")
               for c in value):
        return None
    return [{k: v for k, v in c.items() if isinstance(v, str)} for c in value]


def _structured_taints(text: str) -> list[dict[str, Any]] | None:
    """The items of a node's pasted `taints:` list (or `spec:` holding only it), when every item
    has a key and an effect: a grep's `-A N` may cut the last one short, which is left out."""
    value = _fragment_list(text, "spec", "taints")
    if value is None:
        return None
    whole = [t for t in value if isinstance(t, dict) and isinstance(t.get("key"), str)
             and t.get("effect") in ("NoSchedule", "PreferNoSchedule", "NoExecute")]
    if not whole or len(whole) < len(value) - 1 or whole != value[:len(whole)]:
        return None
    return [{k: v for k, v in t.items() if isinstance(v, str)} for t in whole]


def _fragment_list(text: str, parent: str, field: str) -> list[Any] | None:
    """The list a fragment holds: `field:` alone, or `parent:` holding only `field:`, or the bare
    list; None for anything else (an object with more is read whole). The writer's marks of lines
    left out above it (`...`) are no YAML of the object (anchore/kubernetes-admission-controller#17),
    nor is the HTML tag a comment closes its block with (`</pre>`, machine-config-operator#4977).

    >>> _fragment_list("...\\n  - type: NodeDegraded\\n    status: 'True'\\n</pre>", "status", "conditions")
    [{'type': 'NodeDegraded', 'status': 'True'}]
    """
    if _OBJECT_KEYS.search(text):
        return None
    text = "\n".join(line for line in text.splitlines() if not ELISION.match(line) and not _HTML_TAG.match(line))
    try:
        value = load_yaml(textwrap.dedent(text))
    except yaml.YAMLError:
        return None
    if isinstance(value, dict):
        inner = value.get(parent)
        if set(value) == {field}:
            value = value[field]
        elif set(value) == {parent} and isinstance(inner, dict) and set(inner) == {field}:
            value = inner[field]
        else:
            return None
    return value if isinstance(value, list) and value else None


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


# The lines of one container in a pod's describe that a grep for its state quotes: the states
# and their detail lines, then the container's Ready and Restart Count.
_STATE_KEYS = {"State": "state", "Last State": "lastState"}
_STATE_DETAIL = {"Reason": "reason", "Message": "message", "Exit Code": "exitCode", "Signal": "signal",
                 "Started": "startedAt", "Finished": "finishedAt"}
_STATE_FIELD = re.compile(r"^\s*(?P<key>[A-Z][A-Za-z]*(?: [A-Z][a-z]+)?):(?:\s+(?P<value>\S.*?))?\s*$")
_GREP_SEPARATOR = "--"


def _described_container_state(text: str) -> dict[str, Any] | None:
    """One container's State and Last State quoted from a pod's describe without the container's
    name (`describe pod X | grep -A5 'Last State'`), as a container status: every line that is
    not blank is one of those fields, indented as kubectl prints them or flattened by a web page;
    None when any line is something else, or no state is among them. Its name is unknown: the
    quote does not hold it."""
    status: dict[str, Any] = {"name": ""}
    current: dict[str, Any] | None = None
    for line in text.splitlines():
        if not line.strip() or line.strip() == _GREP_SEPARATOR or ELISION.match(line):
            continue
        field = _STATE_FIELD.match(line)
        if field is None:
            return None
        key, value = field["key"], cell(field["value"])
        if key in _STATE_KEYS:
            word = (value or "").split()[0].lower() if value else ""
            if word not in ("waiting", "running", "terminated") or _STATE_KEYS[key] in status:
                return None
            current = {}
            status[_STATE_KEYS[key]] = {word: current}
        elif key in _STATE_DETAIL and current is not None:
            if value is None:
                continue
            if key in ("Started", "Finished"):
                current[_STATE_DETAIL[key]] = describe_time(value) or value
            elif key in ("Exit Code", "Signal"):
                current[_STATE_DETAIL[key]] = integer(value)
            else:
                current[_STATE_DETAIL[key]] = value
        elif key == "Ready" and (ready := boolean(value)) is not None:
            status["ready"], current = ready, None
        elif key == "Restart Count" and (count := integer(value)) is not None:
            status["restartCount"], current = count, None
        else:
            return None
    return status if "state" in status or "lastState" in status else None
