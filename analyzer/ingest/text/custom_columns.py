"""Tables printed with `-o custom-columns=HEADER:.json.path,...`: each column says its API field."""

from __future__ import annotations

import re
from typing import Any

from analyzer.ingest.text.commands import Command

# `.metadata.name`, `.spec.containers[0].image`: plain fields and list indexes only; wildcards,
# filters and recursive descent name many fields at once and cannot be set back.
_PATH = re.compile(r"^(?:\.[A-Za-z_][\w-]*(?:\[\d+\])?)+$")
_STEP = re.compile(r"\.([A-Za-z_][\w-]*)(?:\[(\d+)\])?")
# Fields the API keeps as integers, so `3` in a REPLICAS:.spec.replicas column stays a number.
_INTEGER_FIELDS = frozenset({
    "replicas", "readyReplicas", "availableReplicas", "updatedReplicas", "restartCount",
    "containerPort", "hostPort", "port", "nodePort", "priority", "minReplicas", "maxReplicas",
    "currentReplicas", "desiredReplicas", "numberReady", "desiredNumberScheduled",
    "currentNumberScheduled", "numberAvailable", "completions", "succeeded", "failed",
    "active", "exitCode", "count", "terminationGracePeriodSeconds",
})


def column_paths(command: Command | None) -> dict[str, str] | None:
    """Header -> JSON path of a `custom-columns` command, when every path can be set back.

    >>> from analyzer.ingest.text.commands import parse_command
    >>> column_paths(parse_command(
    ...     "kubectl get pods -o custom-columns=POD:.metadata.name,IMG:.spec.containers[0].image"))
    {'POD': '.metadata.name', 'IMG': '.spec.containers[0].image'}
    >>> column_paths(parse_command("kubectl get pods -o custom-columns=X:.spec.containers[*].image"))
    """
    output = command.output if command else None
    if not output or not output.startswith("custom-columns="):
        return None
    paths: dict[str, str] = {}
    for spec in output.split("=", 1)[1].split(","):
        header, _, path = spec.partition(":")
        if not header or not _PATH.match(path):
            return None
        paths[header] = path
    return paths


def secret_value_columns(command: Command | None) -> frozenset[str]:
    """Headers of `custom-columns` that print a Secret's values (`PW:.data.password`).

    >>> from analyzer.ingest.text.commands import parse_command
    >>> sorted(secret_value_columns(parse_command(
    ...     "kubectl get secret -o custom-columns=NAME:.metadata.name,PW:.data.password")))
    ['PW']
    """
    output = command.output if command else None
    if not output or not output.startswith("custom-columns=") or not any(
        resource.split(".")[0].lower() in ("secret", "secrets") for resource in command.resources
    ):
        return frozenset()
    found = set()
    for spec in output.split("=", 1)[1].split(","):
        header, _, path = spec.partition(":")
        if ".data" in path or "stringData" in path:
            found.add(header)
    return frozenset(found)


def set_json_path(body: dict[str, Any], path: str, value: str) -> None:
    """Set `.a.b[0].c` in a body, growing lists and dicts on the way.

    >>> body = {}; set_json_path(body, ".spec.containers[0].image", "nginx"); body
    {'spec': {'containers': [{'image': 'nginx'}]}}
    """
    steps = _STEP.findall(path)
    target: Any = body
    for number, (name, index) in enumerate(steps):
        last = number == len(steps) - 1
        if index == "":
            if last:
                target[name] = int(value) if name in _INTEGER_FIELDS and value.isdigit() else value
                return
            target = target.setdefault(name, {})
            continue
        items = target.setdefault(name, [])
        while len(items) <= int(index):
            items.append({})
        if last:
            items[int(index)] = value
            return
        target = items[int(index)]
