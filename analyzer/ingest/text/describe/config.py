"""`kubectl describe` of ConfigMaps, Secrets, Namespaces, and of kinds read for metadata only."""

from __future__ import annotations

import re
from typing import Any

from analyzer.ingest.text.describe.context import DescribeContext
from analyzer.ingest.text.describe.sections import condition_rows
from analyzer.ingest.text.describe.tree import Entry
from analyzer.ingest.text.lines import Line
from analyzer.ingest.text.types import TextObject
from analyzer.ingest.text.values import cell, set_path

_SIZE = re.compile(r"^(\d+) bytes$")


def data_section(lines: list[Line], heading: str) -> dict[str, str]:
    """The `Data` (or `BinaryData`) section of a describe: key -> text under its `----` rule.

    >>> lines = [Line(1, "Data"), Line(2, "===="), Line(3, "a.conf:"), Line(4, "----"),
    ...          Line(5, "x: 1"), Line(6, ""), Line(7, "Events:  <none>")]
    >>> data_section(lines, "Data")
    {'a.conf': 'x: 1'}
    """
    texts = [line.text for line in lines]
    try:
        start = next(i for i in range(len(texts) - 1)
                     if texts[i] == heading and texts[i + 1].startswith("===="))
    except StopIteration:
        return {}
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    index = start + 2
    while index < len(texts):
        text = texts[index]
        if text.startswith(("Events:", "BinaryData")) and not text[:1].isspace():
            break
        if index + 1 < len(texts) and texts[index + 1] == "----" and text.endswith(":"):
            current = found.setdefault(text[:-1], [])
            index += 2
            continue
        if current is not None:
            current.append(text)
        elif match := re.match(r"^(\S+):\s+(.*)$", text):  # Secret: `key:  12 bytes`
            found[match.group(1)] = [match.group(2)]
        index += 1
    return {key: "\n".join(value).strip("\n") for key, value in found.items()}


def read_configmap(root: Entry, body: dict[str, Any], facts: dict[str, Any],
                   ctx: DescribeContext) -> list[TextObject]:
    """Fill a ConfigMap's data (binary data only by size)."""
    if data := data_section(list(ctx.lines), "Data"):
        body["data"] = data
    if binary := data_section(list(ctx.lines), "BinaryData"):
        facts["binary_data_bytes"] = _sizes(binary)
    return []


def read_secret(root: Entry, body: dict[str, Any], facts: dict[str, Any],
                ctx: DescribeContext) -> list[TextObject]:
    """Fill a Secret's type and the sizes of its keys; values are never kept."""
    if kind := cell(root.child_value("Type")):
        body["type"] = kind
    if data := data_section(list(ctx.lines), "Data"):
        facts["data_bytes"] = _sizes(data)
    return []


def read_namespace(root: Entry, body: dict[str, Any], facts: dict[str, Any],
                   ctx: DescribeContext) -> list[TextObject]:
    """Fill a Namespace's phase and the conditions its controller sets while it deletes it
    (what holds the deletion: kubeshop/kusk-gateway#599's NamespaceContentRemaining)."""
    if phase := cell(root.child_value("Status")):
        set_path(body, "status.phase", phase)
    if (entry := root.child("Conditions")) is not None:
        if conditions := condition_rows(entry, ctx.catalog):
            set_path(body, "status.conditions", conditions)
        elif any(line.text.strip() for line in entry.raw):
            ctx.unread.append((entry.line, entry.key, "its Conditions table could not be read; what holds "
                               "the namespace's deletion is unknown"))
    return []


def _sizes(data: dict[str, str]) -> dict[str, int | None]:
    return {key: int(m.group(1)) if (m := _SIZE.match(v.strip())) else None for key, v in data.items()}


READERS = {"ConfigMap": read_configmap, "Secret": read_secret, "Namespace": read_namespace}
