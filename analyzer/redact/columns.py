"""Pasted `kubectl get` tables keep their columns when values inside them change length.

kubectl prints tables with a tab writer: every column starts where its header starts. A
pseudonym can be longer than its original (an IP address, above all), so a table whose cells
changed is laid out again the way kubectl would: each column as wide as before, or wider if a
new value needs it, with the same padding.
"""

from __future__ import annotations

import re
from collections.abc import Callable

# A header row: upper-case words (single spaces inside: NOMINATED NODE), columns 2+ spaces apart.
_HEADER = re.compile(r"^[A-Z][A-Z0-9_()./-]*(?: [A-Z0-9_()./-]+)*(?: {2,}[A-Z][A-Z0-9_()./-]*(?: [A-Z0-9_()./-]+)*)+ *$")
_CELL_START = re.compile(r"(?:^| {2,})(\S)")


def column_starts(header: str) -> list[int]:
    """Where each column of a header row starts.

    >>> column_starts("NAME      STATUS   AGE")
    [0, 10, 19]
    """
    return [m.start(1) for m in _CELL_START.finditer(header)]


def realign(lines: list[str], replace: Callable[[str], str]) -> list[str] | None:
    """A table (header first) with every cell replaced and columns laid out again; None if the
    lines are not an aligned table (a cell does not start where its header does)."""
    if not lines or not _HEADER.match(lines[0]):
        return None
    starts = column_starts(lines[0])
    rows: list[list[str]] = []
    for line in lines:
        cells = []
        for i, start in enumerate(starts):
            end = starts[i + 1] if i + 1 < len(starts) else len(line)
            if start and start < len(line) and line[start - 1] != " ":
                return None  # not aligned on the header: leave it to the line-by-line pass
            cells.append(line[start:end].rstrip() if i + 1 < len(starts) else line[start:])
        rows.append(cells)
    new_rows = [[replace(c) for c in row] if r else row for r, row in enumerate(rows)]
    widths = []
    for i in range(len(starts) - 1):
        old_width = starts[i + 1] - starts[i]
        pad = old_width - max(len(row[i]) for row in rows)
        widths.append(max(old_width, max(len(row[i]) for row in new_rows) + max(pad, 1)))
    out = []
    for row in new_rows:
        text = "".join(cell.ljust(widths[i]) for i, cell in enumerate(row[:-1])) + row[-1]
        out.append(text.rstrip() if not row[-1] else text)
    return out
