"""The shape of `kubectl describe` output as a tree of `Key: value` entries.

kubectl indents each nested level by two spaces and aligns values in a column; a value that takes
several lines (labels, annotations, tolerations) continues on lines indented to that column.
Some sections hold tables or free text (Conditions, Events, Command, Args, Mounts); their lines
are kept raw, with their indentation, for the table reader.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from analyzer.ingest.text.lines import Line

# `Key:` or `Key:  value`; keys are words, never starting with `/`, quotes or a dash.
KEY_LINE = re.compile(r"^(?P<key>[A-Za-z0-9][^:]*?):(?:\s+(?P<value>.*))?$")
# Sections whose lines are text or a table rather than `Key: value` entries.
RAW_SECTIONS = frozenset({
    "Conditions", "Events", "Non-terminated Pods", "Allocated resources", "Command", "Args",
    "Mounts", "Rules", "Ingress Rules", "Readiness Gates", "Environment Variables from",
    "Volume Claims",
})
# The header of a node's Conditions table: distinctive enough to open that section when a paste
# lost its `Conditions:` line (an excerpt cut with `[...]` between Roles and the table).
NODE_CONDITIONS_HEADER = re.compile(r"^Type\s+Status\s+LastHeartbeatTime\s+LastTransitionTime\s+Reason\s+Message$")


@dataclass(slots=True)
class Entry:
    """One `Key: value` line with what continues or nests under it."""

    key: str
    value: str
    line: int
    indent: int
    value_col: int | None  # column the inline value starts at, None when there is none
    more: list[str] = field(default_factory=list)  # continuation values (one per line)
    # of each continuation value, the columns it is indented past the inline value's (kubectl
    # writes a long annotation's value two columns in, under its `key:`)
    more_depth: list[int] = field(default_factory=list)
    children: list[Entry] = field(default_factory=list)
    raw: list[Line] = field(default_factory=list)  # lines of a raw section, as written

    @property
    def values(self) -> list[str]:
        """The inline value and its continuation lines, blank ones dropped."""
        return [v for v in (self.value, *self.more) if v]

    @property
    def indented_values(self) -> list[tuple[str, bool]]:
        """The values, each with whether it was indented past the inline value's column."""
        depths = (0, *self.more_depth, *([0] * (len(self.more) - len(self.more_depth))))
        return [(v, d > 0) for v, d in zip((self.value, *self.more), depths, strict=False) if v]

    def child(self, key: str) -> Entry | None:
        """The first child with this key."""
        return next((c for c in self.children if c.key == key), None)

    def child_value(self, key: str) -> str | None:
        """The inline value of the first child with this key."""
        found = self.child(key)
        return found.value if found else None


def parse_tree(lines: list[Line]) -> Entry:
    """The entries of a describe, under a root entry (key "").

    >>> root = parse_tree([Line(1, "Name:    web"), Line(2, "Labels:  a=b"), Line(3, "         c=d"),
    ...                    Line(4, "IPs:"), Line(5, "  IP:  10.0.0.1")])
    >>> [(e.key, e.values) for e in root.children], root.child("IPs").child_value("IP")
    ([('Name', ['web']), ('Labels', ['a=b', 'c=d']), ('IPs', [])], '10.0.0.1')
    """
    root = Entry("", "", 0, -1, None)
    stack: list[Entry] = [root]
    for line in lines:
        text = line.text.expandtabs(8)
        if not text.strip():
            raw_owner = _open_raw(stack)
            if raw_owner is not None:
                raw_owner.raw.append(Line(line.no, ""))
            continue
        indent = len(text) - len(text.lstrip(" "))
        stripped = text.strip()
        raw_owner = _open_raw(stack)
        if raw_owner is not None and indent > raw_owner.indent:
            raw_owner.raw.append(Line(line.no, text))
            continue
        top = stack[-1]
        if raw_owner is None and indent > 0 and NODE_CONDITIONS_HEADER.match(stripped):
            # the table's own header line stands for its missing `Conditions:` line
            del stack[1:]
            conditions = Entry("Conditions", "", line.no, 0, None, raw=[Line(line.no, text)])
            root.children.append(conditions)
            stack.append(conditions)
            continue
        if top.value_col is not None and indent >= top.value_col and top is not root:
            top.more.append(stripped)  # a multi-line value goes on at its value column
            top.more_depth.append(indent - top.value_col)
            continue
        while len(stack) > 1 and stack[-1].indent >= indent:
            stack.pop()
        parent = stack[-1]
        match = KEY_LINE.match(stripped)
        if match is None:
            # Text that is not a key: a value line kubectl indented less than usual.
            holder = parent if parent is not root else top
            holder.more.append(stripped)
            holder.more_depth.append(0)
            continue
        value = (match.group("value") or "").strip()
        value_col = indent + match.start("value") if match.group("value") is not None else None
        entry = Entry(match.group("key").strip(), value, line.no, indent,
                      value_col if value else None)
        parent.children.append(entry)
        stack.append(entry)
    return root


def _open_raw(stack: list[Entry]) -> Entry | None:
    """The innermost open raw section (Conditions, Events, Command, ...) if any."""
    for entry in reversed(stack):
        if entry.key in RAW_SECTIONS:
            return entry
    return None
