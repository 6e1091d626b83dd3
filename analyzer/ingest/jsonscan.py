"""A string-aware bracket scan of JSON text, for the damaged pastes whole-document parsers fail on.

Two damages come from copying JSON out of a terminal, and both are undone only where the text
itself proves what happened:

- **Indentation stripped** (every line at column 0): the usual split of concatenated documents
  at column-0 braces would cut at every nested object. The end of such a document is found by
  matching its brackets instead (braces inside strings do not count).
- **Lines wrapped by the console** (PowerShell and cmd break every line longer than the window,
  ~120-200 columns, and the copy keeps the breaks): a line break inside a JSON string, which
  JSON forbids, is joined back when every piece has the window's width.

Only called on text that already failed to parse, or that is known to be unindented: never on
the hot path of a well-formed dump.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import msgspec

# Inside a string only an escape or the closing quote matters; outside it, quotes and brackets.
_IN_STRING = re.compile(rb'\\.|"|\n', re.S)
_OUTSIDE = re.compile(rb'["{}\[\]\n]')
# kubectl indents JSON by 4 spaces a level; a stripped copy lost exactly that much.
KUBECTL_INDENT = 4
# Narrower windows than this are not consoles people paste dumps from; a wrap there is not
# trusted (a short line broken inside a string is more likely damage of another kind).
_MIN_WIDTH = 60


def document_end(data: bytes | memoryview, start: int, limit: int) -> int | None:
    """The offset just after the JSON value that opens with the bracket at `start`, or None if
    its brackets are still open at `limit` (a cut-off document).

    >>> document_end(b'{\\n"a": "}{",\\n"b": [\\n{\\n"c": 1\\n}\\n]\\n}\\n{\\n}', 0, 38)
    34
    >>> document_end(b'{\\n"a": [\\n', 0, 9) is None
    True
    """
    # A document that parses ends where the parser first finds more text: a C-speed answer.
    try:
        _VALIDATOR.decode(memoryview(data)[start:limit])
        return limit
    except msgspec.DecodeError as exc:
        trailing = _TRAILING_AT.search(str(exc))
        if trailing is not None:
            # (msgspec counts the first trailing byte from 1; the blanks before it are not the document's)
            end = start + int(trailing.group(1)) - 1
            while end > start and bytes(data[end - 1:end]) in (b" ", b"\t", b"\r", b"\n"):
                end -= 1
            return end
    # A damaged one (a line break inside a string) still ends where its brackets close.
    depth = 0
    pos = start
    while pos < limit:
        # one match per bracket: the text and whole strings before it are skipped in C
        m = _TO_BRACKET.match(data, pos, limit)
        token = m.group(1)
        if token is None or token == b'"':
            return None  # the end, or a string that never closes before it
        pos = m.end()
        if token in (b"{", b"["):
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return pos
    return None


_VALIDATOR = msgspec.json.Decoder(msgspec.Raw)
_TRAILING_AT = re.compile(r"trailing characters \(byte (\d+)\)")
# Text and whole strings up to the next bracket (or an unclosed quote, or the end).
# (an escape the console broke after its backslash is still one: `\\` line break `"`)
_TO_BRACKET = re.compile(rb'(?:[^"{}\[\]]+|"(?:[^"\\]|\\(?:\r?\n)?.)*")*([{}\[\]"])?', re.S)


@dataclass(frozen=True, slots=True)
class Unwrapped:
    """JSON text with console wraps joined back: each wrapped line carries its continuations,
    and the continuation lines are left blank so that line numbers stay the file's."""

    data: bytes
    width: int
    lines: tuple[int, ...]  # 1-based (within the text) lines that were wrapped


@dataclass(frozen=True, slots=True)
class _Break:
    line: int  # 0-based index of the line that ends inside a string
    depth: int  # brackets open where that line starts (its kubectl indentation level)
    pieces: tuple[int, ...]  # the indices of the lines the string runs over, first to last


def wrapped_lines(data: bytes) -> list[_Break]:
    """Lines that end inside a JSON string, with the lines the string runs on to.

    Line by line, strings skipped whole by one regex match each (brackets in them do not count);
    a backslash that ends a piece escapes the first character of the next.

    >>> backslash, newline = bytes([92]), bytes([10])
    >>> text = b'{@"a": "x' + backslash + b'@"y",@"b": "}"@}'
    >>> [b.pieces for b in wrapped_lines(text.replace(b"@", newline))]
    [(1, 2)]
    """
    breaks: list[_Break] = []
    in_string = escaped = False
    depth = 0
    current: list[int] = []
    current_depth = 0
    for index, line in enumerate(data.split(b"\n")):
        line = line.rstrip(b"\r")
        line_depth = depth
        pos = 0
        if in_string:
            pos = _STRING_REST.match(line, 1 if escaped else 0).end()
            if line[pos:pos + 1] != b'"':  # the string runs on past this line too (maybe after a `\\`)
                escaped = _odd_backslashes(line)
                current.append(index)
                continue
            in_string = escaped = False
            current.append(index)
            breaks.append(_Break(current[0], current_depth, tuple(current)))
            current = []
            pos += 1  # its closing quote
        closed = _CLOSED_STRINGS.match(line, pos).end()
        outside = _STRING.sub(b"", line[pos:closed])
        depth += outside.count(b"{") + outside.count(b"[") - outside.count(b"}") - outside.count(b"]")
        if closed < len(line):  # a string opens and does not close on this line
            in_string = True
            escaped = _odd_backslashes(line[closed + 1:])
            current, current_depth = [index], line_depth
    return breaks


_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.S)
_CLOSED_STRINGS = re.compile(rb'(?:[^"]|"(?:[^"\\]|\\.)*")*', re.S)
_STRING_REST = re.compile(rb'(?:[^"\\]|\\.)*', re.S)


def _odd_backslashes(text: bytes) -> bool:
    return (len(text) - len(text.rstrip(b"\\"))) % 2 == 1


def unwrap_console(data: bytes) -> Unwrapped | None:
    """Join lines the console broke inside JSON strings, or None when the text does not prove
    that a console did it.

    The proof: every piece of a broken string but its last is exactly as wide as the window
    (the first piece may instead be narrower by the indentation that was stripped from it,
    kubectl's 4 spaces a level), every break agrees on that width, and at least two pieces
    show it (one piece of some width could be anything). Otherwise nothing is joined and the
    document stays rejected: joining would be a guess. (Consoles do not break every long line
    the same way, so lines wider than the window elsewhere prove nothing either way.)

    >>> w = "x" * 60
    >>> text = ('{\\n"a": "' + w[:50] + '\\n' + w + '\\n' + 'tail",\\n"b": 1\\n}').encode()
    >>> u = unwrap_console(text); u.width, u.lines, u.data.count(b"\\n")
    (60, (2,), 5)
    >>> unwrap_console(('{\\n"a": "' + w + '\\n' + 'tail"\\n}').encode()) is None
    True
    """
    breaks = wrapped_lines(data)
    if not breaks:
        return None
    lines = data.split(b"\n")

    def width_of(i: int) -> int:
        return len(lines[i].rstrip(b"\r").decode("utf-8", "replace"))

    widths: set[int] | None = None
    pieces = 0
    for brk in breaks:
        first, *middle = brk.pieces[:-1]
        pieces += 1 + len(middle)
        mine = {width_of(first), width_of(first) + KUBECTL_INDENT * brk.depth}
        for i in middle:
            mine &= {width_of(i)}
        widths = mine if widths is None else widths & mine
        if not widths:
            return None
    width = max(widths or {0})
    if pieces < 2 or width < _MIN_WIDTH:
        return None
    out = list(lines)
    for brk in breaks:
        out[brk.pieces[0]] = b"".join(lines[i].rstrip(b"\r") for i in brk.pieces[:-1]) + lines[brk.pieces[-1]]
        for i in brk.pieces[1:]:
            out[i] = b""
    return Unwrapped(b"\n".join(out), width, tuple(brk.line + 1 for brk in breaks))
