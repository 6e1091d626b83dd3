"""YAML loading for dumps: exactly what PyYAML's CSafeLoader returns, at the speed of a Rust parser where that is provably the same.

The fast parser is yaml-rs (saphyr, a Rust YAML parser), about 10x CSafeLoader. The two
differ only in how plain scalars are typed (yaml-rs mixes YAML 1.2 with some 1.1 rules, and
reads `_` as a digit separator even in `_1`), in tags, aliases, merge keys, collections used
as keys (tuples for yaml-rs, an error for PyYAML) and duplicate keys (yaml-rs raises). So a
cheap scan looks at every place a plain scalar can start; a unit of text where the two could
read one differently, or that uses a tag, anchor, alias, merge key or explicit key, goes to
CSafeLoader, and so does anything yaml-rs refuses. Where a flow collection may open, yaml-rs's
result is looked at too (collections as keys, block scalar indicators inside a flow). yaml-rs recurses without a
limit on block nesting (it overflows the stack near 10,000 levels), so text that could nest
deeply goes to CSafeLoader too, which checks the depth first. A kubectl `List` is cut into
its items first, so one odd item does not send a whole dump down the slow path.

`tests/ingest/test_yamlfast.py` checks the result against CSafeLoader on real dumps,
generated dumps, fuzzed documents, every short text of numbers and indicators, and the known
traps. One gap is known and left: a multi-line flow whose quoted strings hold unbalanced
brackets can hide a value starting with ":" on its later lines from the scan, and yaml-rs
then reads as a string what PyYAML refuses (see _flow_regions).
"""

from __future__ import annotations

import codecs
import re
import threading
from collections.abc import Iterator
from typing import Any

import msgspec
import orjson
import yaml
import yaml_rs
from yaml.events import CollectionEndEvent, CollectionStartEvent

from analyzer.collector import collector_paused
from analyzer.ingest.records import JsonItem
from analyzer.safeyaml import DumpLoader

__all__ = [
    "JsonItem",
    "YamlError",
    "safe_loader_units",
    "iter_yaml_documents",
    "load_yaml_documents",
    "load_yaml_documents_bytes",
]

# CSafeLoader's composer recurses in C and crashes the interpreter somewhere past 20,000
# levels; nothing real nests past a few dozen, so deeper input is refused.
MAX_NESTING = 1000
# A document whose aliases expand it past this many nodes (and 100x its own size) is refused:
# that is a "billion laughs" document, which expands to far more than memory holds.
MAX_ALIAS_EXPANSION = 1_000_000


class YamlError(ValueError):
    """Invalid (or refused) YAML, with the 1-based line where the problem is, when known."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message if line is None else f"{message} (line {line})")
        self.message = message
        self.line = line


# -- the scan: places where a plain scalar could be read differently by YAML 1.1 and 1.2 --

# A plain scalar ends at a comment, the line end, a flow indicator, or ": " (a key, also
# after spaces: `yes : x` has the key yes).
_END = r"(?=[ \t]*+(?:[,\]}\#]|\r?\n|\r?\Z|:(?:[ \t\r\n]|\Z)))"
# Numbers both read alike (checked by the tests): plain decimal ints and decimals.
_SAME_NUMBER = r"-?(?:0|[1-9][0-9]{0,17})(?:\.[0-9]{1,17})?"
# Everything YAML 1.1 (PyYAML) or yaml-rs may read as a number or a timestamp: a superset.
_TYPED = r"""(?:
    [-+]?0[bB][0-1_]+ | [-+]?0[oO][0-7_]+ | [-+]?0[xX][0-9a-fA-F_]+
  | [-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?
  | [-+]?(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9][0-9_]*)(?:[eE][-+]?[0-9_]+)?
  | [-+]?\.?(?:inf|Inf|INF|nan|NaN|NAN|infinity|Infinity|INFINITY)
  | [0-9]{4}-[0-9]{1,2}-[0-9]{1,2}
    (?:(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)?
)"""
# What may follow a place where a node starts and needs CSafeLoader: tags, anchors, aliases,
# explicit keys, merge keys, YAML 1.1 booleans and `=`, numbers outside _SAME_NUMBER, and
# underscores that yaml-rs skips as digit separators (`_1`, `-_1`, `._1` are strings to PyYAML),
# and an empty key (`- : a`: YAML 1.2 only; kubectl prints `:8080` plain, which both read alike).
# (A `- ` there is a sequence entry, whose own node the `- ` pattern looks at.)
_RISKY_NODE = (
    r"(?=[!&*?<=yYnNoO0-9+._:]|-(?![ \t\r\n]))(?:"
    r"[!&*] | \?(?=[ \t\r\n]|\Z) | << | [-+]?\.?_ | :(?=[ \t\r\n,\]}]|\Z)"
    r" | (?:=|y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF)" + _END
    + r" | (?=[-+.0-9])(?!" + _SAME_NUMBER + _END + r")(?=" + _TYPED + _END + r")"
    r")"
)
# Where a node can start: at a line start, after "- ", and after ": " (in a flow, also right
# after ":", as in `{"key":value}`); in a flow, also after
# `[`, `{` and `,`, where indicators that start no plain scalar (`[|]`, `{?}`, `{:x}`) are
# refused or read otherwise by YAML 1.1. One literal prefix per pattern keeps the regex
# engine on its fast path.
_BLOCK_NODE_STARTS = [
    re.compile(prefix + _RISKY_NODE, re.X) for prefix in (r"\A[ ]*+", r"\n[ ]*+", r":[ ]++", r"-[ ]++")
]
_FLOW_NODE_STARTS = [
    re.compile(prefix + r"(?:[|>?:] | " + _RISKY_NODE + ")", re.X) for prefix in (r"\[[ ]*+", r"\{[ ]*+", r",[ ]*+")
]
# A value in a flow mapping: right after ":" (`{"a":yes}`), and a plain one may not start
# with ":" or "?" there (`{"k": :x}`), though in a block it may (kubectl prints `:8080`
# plain), so this one is looked for only on the lines of a flow (see _flow_regions).
_FLOW_VALUE_START = re.compile(r":[ ]*+(?:[?:] | " + _RISKY_NODE + ")", re.X)
# Tabs (separators the node-start patterns do not follow), line breaks only YAML 1.1 knows,
# a BOM past the start, a lone CR, and characters libyaml rejects.
_ODD_CHARACTER = re.compile(
    "[\t\x85\u2028\u2029\ufeff]|\r(?!\n)|[^\n\r\x20-\x7e\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
)
_PRINTABLE_ASCII = b"\n\r" + bytes(range(0x20, 0x7F))
_LONE_CR = re.compile(rb"\r(?!\n)")
# Block nesting grows by at most two levels per column of a line's indentation and `- `/`? `
# prefixes, and flow nesting is capped by yaml-rs at 256: short prefixes bound the depth.
_DEEP_PREFIX = re.compile(r"\n[ ?:-]{200}")
_DEEP_PREFIX_FIRST = re.compile(r"[ ?:-]{200}")
# A block scalar header; its content must start on the next line, indented deeper.
_BLOCK_SCALARS = [re.compile(c + r"[-+0-9]*[ ]*(?:#[^\n]*)?(?:\n|\Z)") for c in (r"\|", ">")]
_SPACES = re.compile(" *")
# An empty flow collection used as a key (`[]: a`), which needs no other flow to be there.
_EMPTY_FLOW_KEYS = (re.compile(r"\[\][ ]*:"), re.compile(r"\{\}[ ]*:"))
# A key with an empty value right before a flow indicator (`{a:}`, `[a:, b]`, `{a:?}`), and an
# indicator right before one (`{a: >}`): YAML 1.2 reads them, YAML 1.1 refuses them.
_COLON_BEFORE_FLOW_END = re.compile(r":[,\]}?]")
_INDICATORS_BEFORE_FLOW_END = [re.compile(c + r"[ ]*[,\]}]") for c in (r"\|", ">", r"\?")]
# Where a non-empty flow collection may open (see _may_open_flow); one literal prefix each.
_FLOW_OPENS = [re.compile(prefix + r"(?![\]}])") for prefix in (r" \{", r"\n\{", r" \[", r"\n\[")]


def _needs_safe_loader(text: str, flow: bool | None = None) -> bool:
    """True when `text` uses something the fast parser could read differently.

    Tabs and odd characters, scalars the two YAML versions type differently, tags, anchors,
    aliases, merge keys, empty block scalars and deep nesting go to CSafeLoader; what only a
    flow collection can hold is looked for only where a flow collection may open (`flow`,
    worked out here unless given).
    """
    if text.isascii():
        raw = text.encode("ascii")
        if raw.translate(None, _PRINTABLE_ASCII) or (b"\r" in raw and _LONE_CR.search(raw)):
            return True
    elif _ODD_CHARACTER.search(text):
        return True
    if (
        any(pattern.search(text) for pattern in _BLOCK_NODE_STARTS)
        or _DEEP_PREFIX.search(text) is not None
        or _DEEP_PREFIX_FIRST.match(text) is not None
        or any(pattern.search(text) for pattern in _EMPTY_FLOW_KEYS)
        or _has_empty_block_scalar(text)
    ):
        return True
    if not (_may_open_flow(text) if flow is None else flow):
        return False
    return (
        any(pattern.search(text) for pattern in _FLOW_NODE_STARTS)
        or any(_FLOW_VALUE_START.search(text, start, end) for start, end in _flow_regions(text))
        or _COLON_BEFORE_FLOW_END.search(text) is not None
        or any(pattern.search(text) for pattern in _INDICATORS_BEFORE_FLOW_END)
    )


def _may_open_flow(text: str) -> bool:
    """Whether a non-empty flow collection may open in `text`. In a block it opens where a
    node starts, after a space or a line break (`a: [x]`, `- {a: 1}`); one inside a flow
    comes after the outer one. kubectl's managedFields keys (`k:{"uid":"..."}`) and its empty
    `[]` and `{}` values are no such place.

    >>> _may_open_flow('k:{"uid":"x"}: {}\\n'), _may_open_flow("a: [x]\\n")
    (False, True)
    """
    return text.startswith(("[", "{")) or any(pattern.search(text) for pattern in _FLOW_OPENS)


# A block scalar's header line: `key: |` or `- key: >-` (a plain or quoted simple key, no tag,
# anchor or explicit indentation); its key's column is the indentation plus the `- ` prefixes.
_BLOCK_SCALAR_HEADER = re.compile(
    r"^(?P<indent>[ ]*)(?P<dashes>(?:-[ ]+)*)"
    r"(?:\"[^\"\\\n]*\"|'[^'\n]*'|[A-Za-z0-9_][A-Za-z0-9_./-]*):[ ]+[|>][-+]?[ ]*$",
    re.M,
)


# How a header line ends; looked for first (a literal first character keeps the regex engine
# on its fast path), then the header is matched from that line's start.
_BLOCK_SCALAR_TAIL = re.compile(r":[ ]+[|>][-+]?[ ]*$", re.M)


def _block_scalar_headers(text: str) -> Iterator[re.Match[str]]:
    """What `_BLOCK_SCALAR_HEADER.finditer(text)` finds (a header is one line, and one line
    holds at most one), without trying the header's pattern at every line."""
    for tail in _BLOCK_SCALAR_TAIL.finditer(text):
        header = _BLOCK_SCALAR_HEADER.match(text, text.rfind("\n", 0, tail.start()) + 1)
        if header is not None and header.end() == tail.end():
            yield header


def _block_scalar_bodies(text: str) -> list[tuple[int, int]]:
    r"""Where the contents of block scalars lie (start, end), as far as told for sure: the lines
    after a header indented deeper than its key's column (blank lines inside included). Their
    text is literal to both parsers: a flow bracket there opens nothing.

    >>> text = "a: |\n  {\"arn\": \"x::1\"}\nb: 1\n"
    >>> [text[s:e] for s, e in _block_scalar_bodies(text)]
    ['  {"arn": "x::1"}\n']
    """
    if "|" not in text and ">" not in text:
        return []
    bodies = []
    for header in _block_scalar_headers(text):
        column = len(header["indent"]) + len(header["dashes"])
        start = end = header.end() + 1
        while end < len(text):
            line_end = text.find("\n", end)
            line_end = len(text) if line_end < 0 else line_end + 1
            line = text[end:line_end]
            if line.strip(" \r\n") and len(line) - len(line.lstrip(" ")) <= column:
                break
            end = line_end
        if end > start:
            bodies.append((start, end))
    return bodies


def _flow_regions(text: str) -> Iterator[tuple[int, int]]:
    """The lines each flow collection may span: from the line where one may open to the line
    where the brackets counted from there balance (JSON in a block scalar is one line).
    Brackets inside quoted strings count too, so a multi-line flow whose strings hold more
    closing than opening brackets is cut short: a value of its later lines that starts with
    ":" is then read as yaml-rs reads it (a string) where PyYAML refuses the document. A
    bracket in a block scalar's text opens nothing (an ARN's `::` in a last-applied JSON)."""
    opens = [m.start() for pattern in _FLOW_OPENS for m in pattern.finditer(text)]
    if text.startswith(("[", "{")):
        opens.append(0)
    bodies = _block_scalar_bodies(text) if opens else []
    covered = -1
    for at in sorted(opens):
        bracket = at if text[at] in "[{" else at + 1  # an open's pattern starts before it
        if at < covered or any(start <= bracket < end for start, end in bodies):
            continue
        start = end = text.rfind("\n", 0, at) + 1
        depth = 0
        while end < len(text):
            line_end = text.find("\n", end)
            line_end = len(text) if line_end < 0 else line_end + 1
            depth += (text.count("[", end, line_end) + text.count("{", end, line_end)
                      - text.count("]", end, line_end) - text.count("}", end, line_end))
            end = line_end
            if depth <= 0:
                break
        covered = end
        yield start, end


def _has_empty_block_scalar(text: str) -> bool:
    """Whether a block scalar (`|`, `>`) may have no content: yaml-rs reads that as "\\n"
    where YAML says "" (and PyYAML agrees). Its content must start on the very next line,
    deeper than the line of its header; a blank line there is left to CSafeLoader too."""
    headers = (header for pattern in _BLOCK_SCALARS for header in pattern.finditer(text))
    for header in headers:
        at = header.start()
        if at and text[at - 1] not in " \n":
            continue  # inside a plain scalar (`a|b`), not a header
        line_start = text.rfind("\n", 0, at) + 1
        indent = _SPACES.match(text, line_start).end() - line_start
        after = header.end()
        line_end = text.find("\n", after)
        first = text[after:line_end if line_end >= 0 else len(text)]
        content = first.lstrip(" ")
        if not content.strip() or len(first) - len(content) <= indent:
            return True
    return False


# -- the stream: documents, and kubectl Lists cut into items --

_MARKER = re.compile(r"---(?=[ \t\r\n]|\Z)")  # a marker when it starts a line
_MARKER_LINE = re.compile(r"---[ \t]*(?:#[^\n]*)?(?:\r?\n|\Z)")
_DOCUMENT_END = re.compile(r"\.\.\.(?=[ \t\r\n]|\Z)")
_BLANK = re.compile(r"(?:[ \t]*(?:#[^\n]*)?\r?\n)*[ \t]*(?:#[^\n]*)?\Z")


def _segments(text: str) -> list[tuple[int, str, bool]] | None:
    """Split a stream at `---` lines: (first line, text, explicit); None if not that simple."""
    if (
        text.startswith("%") or "\n%" in text or "\ufeff" in text
        or any(m.start() == 0 or text[m.start() - 1] == "\n" for m in _DOCUMENT_END.finditer(text))
    ):
        return None  # directives, "..." ends, or BOMs between documents: CSafeLoader reads it
    segments: list[tuple[int, str, bool]] = []
    position, line, explicit = 0, 1, False
    for marker in _MARKER.finditer(text):
        start = marker.start()
        if start and text[start - 1] != "\n":
            continue
        segments.append((line, text[position:start], explicit))
        line += text.count("\n", position, start)
        end = _MARKER_LINE.match(text, start)
        if end is None:
            return None  # "--- value": content on the marker line
        position = end.end()
        line += text.count("\n", start, position)
        explicit = True
    segments.append((line, text[position:] if position else text, explicit))
    return segments


_ITEMS_KEY = "\nitems:\n"
_TOP_LEVEL_LINE = re.compile(r"\n(?![ #\r\n]|-(?:[ \r\n]|\Z))")
_ITEM_START = re.compile(r"\n-(?=[ \r\n])")


def _split_list(segment: str) -> tuple[str, Iterator[tuple[int, str]]] | None:
    """A kubectl `List` as its other keys (`items: []`) and its items (line offset, text).

    Every line at column 0 that starts with "- " below `items:` begins an item of that one
    indentless sequence. Anything else at column 0 between the first and the last item (a
    stray key, a quoted scalar carried onto such a line) makes a piece fail to parse, and the
    caller then reads the document whole, so the pieces are only looked for, not proven here.
    """
    at = segment.find(_ITEMS_KEY)
    if at < 0 or segment.find(_ITEMS_KEY, at + 1) >= 0 or segment.startswith("items:"):
        return None
    body = at + len(_ITEMS_KEY)
    if not segment.startswith("- ", body):
        return None
    last_item = max(segment.rfind("\n- "), segment.rfind("\n-\n"), segment.rfind("\n-\r\n"), body - 1)
    after = _TOP_LEVEL_LINE.search(segment, last_item + 1)
    end = after.start() + 1 if after else len(segment)
    starts = [body] + [m.start() + 1 for m in _ITEM_START.finditer(segment, body, end)]
    skeleton = segment[: at + len(_ITEMS_KEY) - 1] + " []\n" + segment[end:]
    return skeleton, _item_texts(segment, starts, end)


def _item_texts(segment: str, starts: list[int], end: int) -> Iterator[tuple[int, str]]:
    """Each item's (line offset, text), sliced from the segment as it is read: never a copy
    of the whole region (dumps run to gigabytes)."""
    line = segment.count("\n", 0, starts[0])
    for first, nxt in zip(starts, starts[1:] + [end], strict=True):
        yield line, segment[first:nxt]
        line += segment.count("\n", first, nxt)


# -- loading one unit of text --


_SAFE_LOADS = threading.local()


def safe_loader_units() -> int:
    """How many units of text this thread has given to CSafeLoader so far. What yaml-rs read
    instead holds JSON's types only (no dates, sets or bytes): a caller that sees this count
    unchanged over a document knows that of it."""
    return getattr(_SAFE_LOADS, "count", 0)


def _count_safe_load() -> None:
    _SAFE_LOADS.count = safe_loader_units() + 1


def _safe_load(text: str, first_line: int) -> Any:
    """CSafeLoader, after the guards it needs; errors become YamlError with absolute lines."""
    _count_safe_load()
    _check_nesting(text, first_line)
    try:
        value = yaml.load(text, Loader=DumpLoader)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        message = "; ".join(part for part in (error.context, error.problem) if part) or str(error)
        raise YamlError(message, first_line + mark.line if mark else None) from None
    except yaml.reader.ReaderError as error:
        line = first_line + text.count("\n", 0, error.position)
        raise YamlError(f"{error.reason}: character {error.character!r}", line) from None
    except (yaml.YAMLError, ValueError, OverflowError, TypeError) as error:
        # PyYAML raises plain ValueError for impossible dates such as 2001-13-45.
        raise YamlError(f"invalid value: {error}", first_line) from None
    if "*" in text:
        _check_aliases(value, len(text), first_line)
    return value


def _check_nesting(text: str, first_line: int) -> None:
    # Every level of nesting needs one of these characters, so few of them means shallow.
    if sum(text.count(c) for c in "[{-?:") <= MAX_NESTING:
        return
    loader = yaml.CSafeLoader(text)
    depth = 0
    try:
        while loader.check_event():
            event = loader.get_event()
            if isinstance(event, CollectionStartEvent):
                depth += 1
                if depth > MAX_NESTING:
                    raise YamlError(f"nested more than {MAX_NESTING} levels deep", first_line + event.start_mark.line)
            elif isinstance(event, CollectionEndEvent):
                depth -= 1
    except yaml.MarkedYAMLError as error:
        # The libyaml of PyYAML 6.0.4 on stops at its own limit, the same 1000 levels.
        if error.problem and "maximum nesting depth" in error.problem:
            mark = error.problem_mark
            raise YamlError(f"nested more than {MAX_NESTING} levels deep",
                            first_line + mark.line if mark else None) from None
        return  # the load reports the syntax error itself
    except yaml.YAMLError:
        return  # the load reports the syntax error itself
    finally:
        loader.dispose()


def _check_aliases(value: Any, size: int, first_line: int) -> None:
    """Refuse alias bombs and self-referencing documents (both come only from aliases)."""
    expanded: dict[int, int] = {}
    stack: list[tuple[Any, bool]] = [(value, False)]
    on_path: set[int] = set()
    limit = max(MAX_ALIAS_EXPANSION, 100 * size)
    while stack:
        node, done = stack.pop()
        if not isinstance(node, dict | list):
            continue
        key = id(node)
        children = list(node.keys()) + list(node.values()) if isinstance(node, dict) else node
        if done:
            on_path.discard(key)
            # Strings count by length: one long string behind many aliases is a bomb too.
            total = 1 + sum(expanded.get(id(c), len(c) if isinstance(c, str) else 1) for c in children)
            if total > limit:
                raise YamlError(f"aliases expand the document past {limit:,} nodes", first_line)
            expanded[key] = total
            continue
        if key in on_path:
            raise YamlError("an alias refers to a node that contains it", first_line)
        if key in expanded:
            continue
        on_path.add(key)
        stack.append((node, True))
        stack.extend((child, False) for child in children)


def _load_unit(text: str, first_line: int) -> Any:
    """One document, or one List item, through the fast parser when that is safe."""
    flow = _may_open_flow(text)
    if _needs_safe_loader(text, flow):
        return _safe_load(text, first_line)
    try:
        value = yaml_rs.loads(text, parse_datetime=False)  # kubectl quotes its timestamps
    except (ValueError, TypeError, OverflowError, RecursionError):
        # yaml-rs refuses duplicate keys, flows nested past 256 and bad syntax; CSafeLoader
        # then keeps the last of duplicate keys, or says where the syntax is wrong.
        return _safe_load(text, first_line)
    if flow and _flow_reads_otherwise(value):
        return _safe_load(text, first_line)  # which refuses these, as PyYAML does
    return value


def _flow_reads_otherwise(value: Any) -> bool:
    """What the scan cannot see in a flow, seen in yaml-rs's result: a collection as a key
    (`[a]: b`, `{[a]}`, `{x, {a: 1}}`: a tuple or frozenset key), and a block scalar
    indicator starting a value (`{a: |\n  x}`, `{"k":>x}`: a plain "| x" to yaml-rs, an
    error to PyYAML). A string that merely starts with `|` or `>` is sent too (rare)."""
    try:
        # Fast and in C: JSON takes string and number keys only; anything else is looked at.
        encoded = msgspec.json.encode(value)
    except (TypeError, OverflowError, msgspec.EncodeError):
        return _has_collection_key(value) or _has_string_starting(value, ("|", ">"))
    return b'"|' in encoded or b'">' in encoded


def _has_collection_key(value: Any) -> bool:
    """Whether a parsed value has a mapping key that is a collection (a tuple or frozenset)."""
    return any(type(key) in (tuple, frozenset) for node in _walk(value) if type(node) is dict for key in node)


def _has_string_starting(value: Any, prefixes: tuple[str, ...]) -> bool:
    return any(type(node) is str and node.startswith(prefixes) for node in _walk(value))


def _walk(value: Any) -> Iterator[Any]:
    """Every node of a parsed value, dict keys included."""
    stack = [value]
    while stack:
        node = stack.pop()
        yield node
        if type(node) is dict:
            stack.extend(node)
            stack.extend(node.values())
        elif type(node) is list:
            stack.extend(node)


class _Whole(Exception):
    """A List piece did not parse as a piece: read the document whole instead."""


def _as_json_item(item: Any) -> Any:
    """The item (read by yaml-rs) as a JsonItem, or itself where JSON would not hold it
    exactly: an integer past 64 bits, a key that is not text. (orjson writes a non-finite
    float as null, but yaml-rs reads none: every number but a plain decimal of at most 18
    digits, which is finite, sends its text to CSafeLoader; see _SAME_NUMBER.)"""
    if not isinstance(item, dict):
        return item
    try:
        return JsonItem(orjson.dumps(item))
    except (orjson.JSONEncodeError, TypeError):
        return item


def _load_list(pieces: tuple[str, Iterator[tuple[int, str]]], first_line: int, compact: bool = False) -> Any:
    skeleton, items = pieces
    try:
        document = _load_unit(skeleton, first_line)
        values = []
        for offset, item_text in items:
            read_before = safe_loader_units()
            value = _load_unit(item_text, first_line + offset)
            if not isinstance(value, list) or len(value) != 1:
                raise _Whole
            # Each item compacted as soon as it is read: the List's dicts never all at once.
            values.append(_as_json_item(value[0]) if compact and safe_loader_units() == read_before
                          else value[0])
    except (YamlError, _Whole):
        raise _Whole from None
    if not isinstance(document, dict) or document.get("items") != []:
        raise _Whole
    document["items"] = values
    return document


def _load_document(text: str, first_line: int, compact: bool = False) -> Any:
    pieces = _split_list(text)
    if pieces is not None:
        try:
            return _load_list(pieces, first_line, compact)
        except _Whole:
            pass
    return _load_unit(text, first_line)


def _iter_safe_stream(text: str) -> Iterator[tuple[int, int, Any]]:
    """Documents of a stream the splitter leaves alone, read by CSafeLoader alone."""
    try:
        _check_nesting(text, 1)
    except YamlError as error:
        yield 0, error.line or 1, error
        return
    _count_safe_load()
    loader = yaml.CSafeLoader(text)
    index = 0
    try:
        while True:
            try:
                with collector_paused():  # millions of containers, no cycles
                    if not loader.check_node():
                        return
                    node = loader.get_node()
                    line = node.start_mark.line + 1
                    value = loader.construct_document(node)
            except (yaml.YAMLError, ValueError, OverflowError, TypeError) as error:
                mark = getattr(error, "problem_mark", None)
                yield index, (mark.line + 1 if mark else 1), _as_error(error)
                return
            if "*" in text:
                try:
                    _check_aliases(value, len(text), line)
                except YamlError as error:
                    yield index, line, error
                    return
            yield index, line, value
            index += 1
    finally:
        loader.dispose()


def _as_error(error: Exception) -> YamlError:
    if isinstance(error, yaml.MarkedYAMLError):
        mark = error.problem_mark or error.context_mark
        message = "; ".join(part for part in (error.context, error.problem) if part) or str(error)
        return YamlError(message, mark.line + 1 if mark else None)
    return YamlError(f"invalid value: {error}")


def iter_yaml_documents(text: str, compact_items: bool = False) -> Iterator[tuple[int, int, Any]]:
    """Yield (document index, first line, value or YamlError) for each document of a stream.

    A broken document yields its YamlError and the next documents are still read, when the
    stream can be cut at its `---` lines; otherwise reading stops at the first error.
    With `compact_items`, items of a kubectl List that yaml-rs read come as `JsonItem`s.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    segments = _segments(text)
    if segments is None:
        yield from _iter_safe_stream(text)
        return
    index = 0
    for first_line, segment, explicit in segments:
        if _BLANK.match(segment):
            if explicit:
                yield index, first_line, None
                index += 1
            continue
        try:
            with collector_paused():  # millions of containers, no cycles
                value: Any = _load_document(segment, first_line, compact_items)
        except YamlError as error:
            value = error
        yield index, first_line, value
        index += 1


def load_yaml_documents(text: str, compact_items: bool = False) -> list[Any]:
    """All documents of a YAML stream, as `list(yaml.load_all(text, Loader=yaml.CSafeLoader))`.

    Raises YamlError (with the line) for invalid YAML, a refused alias bomb or excessive nesting.

    >>> load_yaml_documents("a: 1\\n---\\nb: [on, '0755', 0755]\\n")
    [{'a': 1}, {'b': [True, '0755', 493]}]
    """
    documents = []
    for _, _, value in iter_yaml_documents(text, compact_items):
        if isinstance(value, YamlError):
            raise value
        documents.append(value)
    return documents


def load_yaml_documents_bytes(data: bytes) -> list[Any]:
    """load_yaml_documents for raw file bytes: UTF-8, or UTF-16 with a BOM (PowerShell `>`)."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        encoding = "utf-16"
    else:
        encoding = "utf-8-sig" if data.startswith(codecs.BOM_UTF8) else "utf-8"
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise YamlError(f"not valid {encoding.upper().removesuffix('-SIG')} at byte {error.start}", line) from None
    return load_yaml_documents(text)
