"""Split a table's header and rows into cells: by column start, by tabs, or by cell shape.

kubectl aligns columns with at least three spaces between them, so a header gives each column's
start position and a row's cells are the text between starts; values keep their single spaces
(`Amazon Linux 2`, `3 (12h ago)`). Text copied from a web page often has every run of spaces
collapsed to one; there the words are matched to columns by the shape of each column's cells.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from itertools import combinations

from analyzer.ingest.text.catalog import Catalog, CellShape

# A header column name: upper-case words (`NOMINATED NODE`, `PORT(S)`, `CPU(cores)` allowed).
_HEADER_WORD = re.compile(r"^[A-Z][A-Z0-9()_\-/.%]*(?:\([a-z]+\))?$")
_MIXED_WORD = re.compile(r"^[A-Za-z][A-Za-z0-9()_\-/.%]*$")
_CHUNK = re.compile(r"\S+(?: \S+)*")
# Tree glyphs `kubectl lineage` and k9s draw before names (U+2500-U+257F) and the spaces among them.
TREE_GLYPHS = "".join(chr(c) for c in range(0x2500, 0x2580)) + " "


@dataclass(frozen=True, slots=True)
class Layout:
    """A table header: its column names and how rows under it are split."""

    columns: tuple[str, ...]
    starts: tuple[int, ...] | None  # column start positions; None when split by tabs or shape
    mode: str  # "aligned", "tabs" or "collapsed"


def read_header(line: str, catalog: Catalog, mixed_case: bool = False) -> Layout | None:
    """The layout of a header line, or None when the line is not a table header.

    >>> from analyzer.ingest.text.catalog import catalog
    >>> read_header("NAME   READY   NOMINATED NODE", catalog()).columns
    ('NAME', 'READY', 'NOMINATED NODE')
    >>> read_header("NAME READY NOMINATED NODE", catalog()).mode
    'collapsed'
    >>> read_header("Name of the thing", catalog()) is None
    True
    """
    text = line.rstrip()
    if not text[:1].isupper():
        return None  # every header starts with a capital; most rows do not
    word = _MIXED_WORD if mixed_case else _HEADER_WORD
    if "\t" in text:
        names = [part.strip() for part in re.split(r"\t+", text) if part.strip()]
        layout = Layout(tuple(names), None, "tabs")
    elif re.search(r"\S {2,}\S", text):
        chunks = list(_CHUNK.finditer(text))
        layout = Layout(
            tuple(chunk.group() for chunk in chunks),
            tuple(chunk.start() for chunk in chunks),
            "aligned",
        )
    else:
        layout = Layout(tuple(_group_words(text.split(), catalog)), None, "collapsed")
    if len(layout.columns) < 2:
        return None
    if not all(word.match(part) for name in layout.columns for part in name.split(" ")):
        return None
    return layout


def _group_words(words: list[str], catalog: Catalog) -> list[str]:
    """Join header words kubectl prints as one column name (`NOMINATED NODE`)."""
    names: list[str] = []
    i = 0
    while i < len(words):
        for joined in catalog.multiword_columns:
            size = joined.count(" ") + 1
            if " ".join(words[i : i + size]) == joined:
                names.append(joined)
                i += size
                break
        else:
            names.append(words[i])
            i += 1
    return names


def split_aligned(line: str, starts: tuple[int, ...]) -> tuple[list[str | None], bool]:
    """Cells of a row under an aligned header, and whether every cell began on a column start.

    Each run of text (words with single spaces) goes to the column whose start is at or left
    of it; text in the first column may be indented (tree glyphs of `kubectl lineage`).

    >>> split_aligned("web-1   1/1     3 (12h ago)", (0, 8, 16))
    (['web-1', '1/1', '3 (12h ago)'], True)
    >>> split_aligned("web-1   1/1", (0, 8, 16))
    (['web-1', '1/1', None], True)
    """
    spans: list[list[int] | None] = [None] * len(starts)
    aligned = True
    for chunk in _CHUNK.finditer(line):
        index = _column_at(chunk.start(), starts)
        if index > 0 and chunk.start() != starts[index] and spans[index] is None:
            aligned = False
        span = spans[index]
        if span is None:
            spans[index] = [chunk.start(), chunk.end()]
        else:
            span[1] = chunk.end()
    cells = [line[span[0] : span[1]] if span else None for span in spans]
    return cells, aligned


def _column_at(position: int, starts: tuple[int, ...]) -> int:
    index = 0
    for i, start in enumerate(starts):
        if start <= position:
            index = i
        else:
            break
    return index


def split_tabs(line: str, width: int) -> list[str | None]:
    """Cells of a tab-separated row: None for missing ones, extra ones joined into the last.

    >>> split_tabs("a\\tb", 3), split_tabs("a\\tb\\tc d\\te", 3)
    (['a', 'b', None], ['a', 'b', 'c d\\te'])
    """
    parts = [part.strip() for part in line.split("\t")]
    if len(parts) > width:
        parts = [part for part in parts if part]  # runs of tabs used for alignment
    if len(parts) > width:
        parts = [*parts[: width - 1], "\t".join(parts[width - 1 :])]
    cells: list[str | None] = [part or None for part in parts]
    return cells + [None] * (width - len(cells))


def split_by_shape(line: str, columns: tuple[str, ...], catalog: Catalog) -> list[str | None] | None:
    """Cells of a row whose spacing was lost, found by matching words to each column's shape.

    Returns None when the words cannot be laid out under these columns.

    >>> from analyzer.ingest.text.catalog import catalog
    >>> cols = ("NAME", "STATUS", "ROLES", "AGE", "VERSION", "OS-IMAGE", "KERNEL-VERSION")
    >>> split_by_shape("n1 Ready <none> 49m v1.19.0 Ubuntu 18.04.5 LTS 4.15.0-122-generic",
    ...                cols, catalog())
    ['n1', 'Ready', '<none>', '49m', 'v1.19.0', 'Ubuntu 18.04.5 LTS', '4.15.0-122-generic']
    """
    words = line.split()
    shapes = tuple(catalog.shape(column) for column in columns)
    return _layout_words(tuple(words), shapes)


def split_by_runs(line: str, width: int) -> list[str] | None:
    """Cells of an aligned row with no header above it, when its runs of text match the width.

    >>> split_by_runs("default   web-1   0/1   16 (5m11s ago)", 4)
    ['default', 'web-1', '0/1', '16 (5m11s ago)']
    """
    cells = [chunk.group() for chunk in _CHUNK.finditer(line)]
    return cells if len(cells) == width else None


# Most cells a row may leave blank: `-o wide` pod rows end in two `<none>` (NOMINATED NODE,
# READINESS GATES), a service row may lose EXTERNAL-IP and SELECTOR.
_MOST_BLANK_CELLS = 3
_NONE_WIDTH = len("<none>")


def split_blank_cells(line: str, columns: tuple[str, ...], starts: tuple[int, ...],
                      catalog: Catalog) -> list[str | None] | None:
    """Cells of an aligned row with fewer runs of text than columns, its runs off their starts.

    Two things leave such a row. A table copied from a rendered web page (GitHub, a blog) loses
    every `<none>`: the page took it for an HTML tag, and what followed each lost cell moved
    left by its six characters. And a cell kubectl leaves empty (an event's SUBOBJECT) is no
    run at all; when a person shortened or lengthened a cell before it by hand, the runs after
    it stand a character or two off their columns' starts, so each may seem to begin in the
    column before its own. Each run keeps its order; the blank cells go to columns that can be
    blank (not the first): an empty-shaped one moves nothing, another lost its `<none>`. Every
    cell must fit its column's shape, and of the layouts that fit, the one whose runs sit
    nearest where they should wins. None when no layout fits.

    >>> from analyzer.ingest.text.catalog import catalog
    >>> cols = ("NAME", "TYPE", "CLUSTER-IP", "EXTERNAL-IP", "PORT(S)", "AGE")
    >>> split_blank_cells("kube-dns   ClusterIP   10.96.5.5            53/UDP    3d",
    ...                   cols, (0, 11, 23, 36, 50, 60), catalog())
    ['kube-dns', 'ClusterIP', '10.96.5.5', None, '53/UDP', '3d']
    >>> cols = ("COUNT", "NAME", "KIND", "SUBOBJECT", "TYPE", "REASON")
    >>> split_blank_cells("1       web-7c9.16b2   ReplicaSet              Warning   FailedCreate",
    ...                   cols, (0, 8, 24, 36, 48, 58), catalog())
    ['1', 'web-7c9.16b2', 'ReplicaSet', None, 'Warning', 'FailedCreate']
    """
    runs = list(_CHUNK.finditer(line))
    blank = len(columns) - len(runs)
    if not 0 < blank <= _MOST_BLANK_CELLS or not runs:
        return None
    shapes = [catalog.shape(column) for column in columns]
    may_blank = [i for i in range(1, len(columns))
                 if shapes[i].empty or shapes[i].pattern.fullmatch("<none>")]
    best: tuple[int, int, list[str | None]] | None = None
    for blanks in combinations(may_blank, blank):
        kept = [i for i in range(len(columns)) if i not in blanks]
        cells: list[str | None] = [None] * len(columns)
        distance = 0
        for run, column in zip(runs, kept, strict=True):
            text = run.group()
            if text not in ("<none>", "<unknown>") and not shapes[column].pattern.fullmatch(text):
                break
            cells[column] = text
            moved = sum(_NONE_WIDTH for b in blanks if b < column and not shapes[b].empty)
            distance += abs(run.start() - (starts[column] - moved))
        else:
            # a cell read blank first (a pending claim's VOLUME) stays blank where it can
            filled = sum(1 for i in kept if shapes[i].blank_first)
            if best is None or (filled, distance) < best[:2]:
                best = (filled, distance, cells)
    return best[2] if best is not None else None


def _layout_words(words: tuple[str, ...], shapes: tuple[CellShape, ...]) -> list[str | None] | None:
    """Give each column a number of words so every cell fits its shape (earliest, longest first)."""

    @cache
    def solve(w: int, c: int) -> tuple[int, ...] | None:
        if c == len(shapes):
            return () if w == len(words) else None
        shape = shapes[c]
        last = c == len(shapes) - 1
        most = len(words) - w if last else min(shape.words, len(words) - w)
        for take in (range(most + 1) if shape.blank_first else range(most, -1, -1)):
            if take == 0 and not shape.empty:
                continue
            if last and take != len(words) - w:
                continue
            text = " ".join(words[w : w + take])
            if take and text not in ("<none>", "<unknown>") and not shape.pattern.fullmatch(text):
                continue
            rest = solve(w + take, c + 1)
            if rest is not None:
                return (take, *rest)
        return None

    takes = solve(0, 0)
    if takes is None:
        return None
    cells: list[str | None] = []
    position = 0
    for take in takes:
        cells.append(" ".join(words[position : position + take]) if take else None)
        position += take
    return cells
