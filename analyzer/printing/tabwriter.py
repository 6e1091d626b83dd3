"""Go's text/tabwriter, which kubectl aligns its tables and describe output with.

A cell ends at a tab; the text after a line's last tab is not aligned. A column block is a run
of consecutive lines that have a cell in that column, so alignment matches kubectl's exactly.
"""

from __future__ import annotations


def align(text: str, minwidth: int, padding: int) -> str:
    """Align tab-separated text as Go's tabwriter does (pad with spaces, flags 0).

    >>> print(align("NAME\\tAGE\\nweb-1\\t5m\\n", 6, 3))
    NAME     AGE
    web-1    5m
    <BLANKLINE>
    """
    out: list[str] = []
    block: list[list[str]] = []
    for line in text.split("\n")[:-1] if text.endswith("\n") else text.split("\n"):
        cells = line.split("\t")
        if len(cells) == 1:
            # a line without tabs ends every column block (Go flushes there)
            out.extend(_format(block, minwidth, padding))
            block = []
            out.append(line)
        else:
            block.append(cells)
    out.extend(_format(block, minwidth, padding))
    result = "\n".join(out)
    return result + "\n" if text.endswith("\n") else result


def _format(lines: list[list[str]], minwidth: int, padding: int) -> list[str]:
    rendered = [[] for _ in lines]  # type: list[list[str]]
    _columns(lines, rendered, 0, 0, len(lines), minwidth, padding)
    return ["".join(parts) + cells[-1] for parts, cells in zip(rendered, lines, strict=True)]


def _columns(lines: list[list[str]], out: list[list[str]], column: int, line0: int, line1: int,
             minwidth: int, padding: int) -> None:
    this = line0
    while this < line1:
        if column >= len(lines[this]) - 1:
            this += 1
            continue
        start = this
        width = minwidth
        while this < line1 and column < len(lines[this]) - 1:
            width = max(width, len(lines[this][column]) + padding)
            this += 1
        for i in range(start, this):
            cell = lines[i][column]
            out[i].append(cell + " " * (width - len(cell)))
        _columns(lines, out, column + 1, start, this, minwidth, padding)
