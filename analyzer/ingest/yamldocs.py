"""YAML dump files: multi-document streams, with kubectl's and shells' junk around them.

Each `---` document is parsed on its own, so one broken document costs only itself. Lines
that are not YAML but often precede it (a shell prompt, kubectl's `Warning:` lines) are
skipped and reported.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import yaml

from analyzer.ingest.jsondocs import Skipped
from analyzer.safeyaml import DumpLoader

# A document marker line: `---` (optionally with a comment) or `...`, at column 0.
_DOC_SEP = re.compile(r"---[ \t]*(?:#[^\n]*)?(?=\n|$)|\.\.\.[ \t]*(?=\n|$)")


# A line holding something other than blanks and a comment.
_CONTENT_LINE = re.compile(r"^[ \t]*[^#\s]", re.M)
_SEP_CANDIDATE = re.compile(r"\n(?:---|\.\.\.)")


def _separators(text: str) -> Iterator[re.Match[str]]:
    """Document marker lines in order. Candidates are found by a literal search (a multiline
    `^` regex tries every line of a 250 MB dump), then checked where they stand."""
    starts = [0] if text.startswith(("---", "...")) else []
    starts.extend(c.start() + 1 for c in _SEP_CANDIDATE.finditer(text))
    for i in starts:
        m = _DOC_SEP.match(text, i)
        if m is not None:
            yield m
_PROMPT = re.compile(r"^(?:\S*[$#>%] )?(?:kubectl|oc|k|kubecolor)\s.*$|^Warning: .*$|^\$ .*$|^PS [^>]*> .*$")
# A line that can start a YAML document: a plain key (no spaces: "here is the output:" is prose),
# a quoted key, a sequence item, a comment, a directive or a document marker.
_YAML_START = re.compile(r"""^(?:(?:[A-Za-z_][\w.\-/]*|"[^"]*"|'[^']*'):(?:\s|$)|-(?:\s|$)|#|---|%|\.\.\.)""")
# More aliases than any kubectl output has: beyond this a document is refused, not expanded.
MAX_ALIASES = 1000


# Beyond this many values once aliases are expanded, a document is refused: shared references
# cost nothing to parse, but every later walk (tables, JSON export) would expand them.
MAX_EXPANDED_NODES = 2_000_000
_AMPERSAND = re.compile("&")
_ALIAS = re.compile(r"(?:^|[\s\[{,])\*[^\s,\]}]+")
# The compiled loader recurses in C once per nesting level and overflows the stack near 30,000
# levels; no Kubernetes object comes near this bound. Brackets inside quoted strings count
# too (the bound is far above what any JSON-in-an-annotation reaches).
MAX_BRACKET_DEPTH = 5000
NESTED_TOO_DEEP = f"brackets nested more than {MAX_BRACKET_DEPTH:,} deep; not parsed"
_NOT_BRACKETS = bytes(c for c in range(256) if c not in b"[]{}")
_BRACKET_STEP = None  # numpy lookup table, built on first use


def has_anchor(text: str) -> bool:
    """Whether a document defines a YAML anchor (`&name` as a value, not `a&b` in a URL).

    >>> has_anchor("a: &x [1]\\nb: *x\\n"), has_anchor("url: http://h/?a=1&b=2\\n")
    (True, False)
    """
    for m in _AMPERSAND.finditer(text):
        i = m.start()
        nxt = text[i + 1:i + 2]
        if (i == 0 or text[i - 1] in " \t\n[{,") and (nxt.isalnum() or nxt in ("_", "-")):
            return True
    return False


def bracket_depth_exceeds(text: str, limit: int = MAX_BRACKET_DEPTH) -> int | None:
    """The offset in the text's brackets-only form where nesting passes `limit`, or None.

    Cheap for ordinary documents: fewer brackets than the limit cannot nest past it; otherwise
    the brackets are extracted at C speed and their running depth summed with numpy.

    >>> bracket_depth_exceeds("[" * 10 + "]" * 10, 5), bracket_depth_exceeds("[[]][[]]", 5)
    (5, None)
    """
    if text.count("[") + text.count("{") <= limit:
        return None
    global _BRACKET_STEP
    import numpy as np

    if _BRACKET_STEP is None:
        step = np.zeros(256, dtype=np.int8)
        step[ord("[")] = step[ord("{")] = 1
        step[ord("]")] = step[ord("}")] = -1
        _BRACKET_STEP = step
    brackets = text.encode("utf-8", "replace").translate(None, _NOT_BRACKETS)
    depth = np.cumsum(_BRACKET_STEP[np.frombuffer(brackets, dtype=np.uint8)], dtype=np.int64)
    over = np.flatnonzero(depth > limit)
    return int(over[0]) if len(over) else None


def expanded_size(value: Any, limit: int) -> int:
    """How many values a parsed document holds once its shared (aliased) parts are expanded.

    Counts each container once per reference, memoised by identity, so it runs in time linear
    in the distinct values; stops early past `limit`.

    >>> a = ["x"] * 10; b = [a] * 10
    >>> expanded_size({"b": b}, 10**6)
    112
    """
    sizes: dict[int, int] = {}
    stack: list[tuple[Any, bool]] = [(value, False)]
    while stack:
        node, done = stack.pop()
        if not isinstance(node, (dict, list)) or (not done and id(node) in sizes):
            continue
        children = node.values() if isinstance(node, dict) else node
        if not done:
            stack.append((node, True))
            stack.extend((c, False) for c in children if isinstance(c, (dict, list)) and id(c) not in sizes)
            continue
        total = 1
        for c in children:
            total += sizes.get(id(c), 1) if isinstance(c, (dict, list)) else 1
        sizes[id(node)] = min(total, limit + 1)
    return sizes.get(id(value), 1)


class YamlDocumentError(Exception):
    def __init__(self, message: str, line: int | None) -> None:
        super().__init__(message)
        self.line = line


@dataclass(slots=True)
class YamlDocument:
    index: int
    line: int
    value: Any
    # Read by the fast parser alone: JSON's types only (no dates, sets or bytes), so equal
    # encodings of its parts mean equal values (the tables pool repeated parts on that).
    json_types: bool = False
    # The line each item of a List (or of a top-level sequence) opens on (see `item_lines`).
    item_lines: list[int] | None = None


@dataclass(slots=True)
class YamlFile:
    documents: list[YamlDocument]
    skipped: list[Skipped]
    broken: list[tuple[int, int, str]]  # (document index, line, error)


# A Kubernetes top-level key at the start of a line, or of a top-level sequence item
# (`- kind:`, as support bundles write custom resources).
_K8S_KEY = re.compile(r"^(?:-[ \t]+)?(?:apiVersion|kind|items|metadata):(?:[ \t]|$)", re.M)
_FIRST_LINE = re.compile(r"^(?:[ \t]*(?:#[^\n]*)?\n)*([ \t]*)\S", re.M)


def looks_like_yaml(text: str) -> bool:
    """Whether a file reads as a Kubernetes YAML document (an apiVersion/kind/items key).

    A document pasted indented (in an issue, a doc, an email) counts when its first line is
    indented and a key stands at that indentation; an indented `kind:` deep inside something
    else (code, prose) does not.

    >>> looks_like_yaml("- apiVersion: v1\\n  kind: Pod\\n"), looks_like_yaml("    kind: Pod\\n")
    (True, True)
    >>> looks_like_yaml("NAME   READY   STATUS\\n"), looks_like_yaml("kind of a note: x\\n")
    (False, False)
    >>> looks_like_yaml('# a script\\ndef f():\\n    kind: 1\\n')
    False
    """
    head = text[:200000]
    if _K8S_KEY.search(head) is not None:
        return True
    first = _FIRST_LINE.match(head)
    if first is None or not first.group(1):
        return False
    indent = re.escape(first.group(1))
    return re.search(rf"^{indent}(?:-[ \t]+)?(?:apiVersion|kind|items|metadata):(?:[ \t]|$)", head, re.M) is not None


def parse_yaml_document(text: str, compact_items: bool = False) -> Any:
    """Parse one YAML document with a compiled safe loader (never the pure-Python one).

    With `compact_items`, the items of a List that the fast parser read come as compact JSON
    (`records.JsonItem`), each as soon as it is read."""
    anchored = "&" in text and "*" in text and has_anchor(text)
    if anchored and len(_ALIAS.findall(text)) > MAX_ALIASES:
        raise YamlDocumentError(f"more than {MAX_ALIASES} aliases (alias bomb?); not expanded", None)
    try:
        from analyzer.ingest.yamlfast import load_yaml_documents
    except ImportError:  # pragma: no cover - only while yamlfast is absent
        load_yaml_documents = None
    # yamlfast bounds nesting itself (and costs no second pass over the text for it)
    if load_yaml_documents is None and bracket_depth_exceeds(text) is not None:
        raise YamlDocumentError(NESTED_TOO_DEEP, None)
    try:
        if load_yaml_documents is not None:
            docs = load_yaml_documents(text, compact_items)
        else:
            docs = list(yaml.load_all(text, Loader=DumpLoader))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise YamlDocumentError(_yaml_message(exc), mark.line + 1 if mark else None) from None
    except RecursionError:
        raise YamlDocumentError("nesting too deep", None) from None
    except Exception as exc:  # a fast parser's own error type (yamlfast.YamlError)
        line = getattr(exc, "line", None)
        message = (getattr(exc, "message", None) or str(exc) or type(exc).__name__).splitlines()[0][:200]
        if not any(w in message for w in ("alias", "nested")):  # refusals are not invalid YAML
            message = f"invalid YAML: {message}"
        raise YamlDocumentError(message, line) from None
    docs = [d for d in docs if d is not None]
    if anchored:
        for d in docs:
            if expanded_size(d, MAX_EXPANDED_NODES) > MAX_EXPANDED_NODES:
                raise YamlDocumentError(
                    f"aliases expand past {MAX_EXPANDED_NODES:,} values (alias bomb?); not expanded", None)
    if len(docs) > 1:
        return docs
    return docs[0] if docs else None


def _yaml_message(exc: yaml.YAMLError) -> str:
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    return f"invalid YAML: {problem}"


def read_yaml_file(text: str, compact_items: bool = False) -> YamlFile:
    """Split a YAML stream into documents and parse each; broken ones are listed, not raised.
    (`compact_items`: see `parse_yaml_document`.)"""
    out = YamlFile([], [], [])
    text = _skip_leading_junk(text, out)
    lead = re.match(r"\n*", text)
    if text[lead.end():lead.end() + 1] in (" ", "\t"):
        # YAML pasted indented (in an issue, a doc, an email): the same lines, dedented.
        text = textwrap.dedent(text)
    pieces: list[tuple[int, str]] = []
    pos = 0
    line = 1
    for m in _separators(text):
        pieces.append((line, text[pos:m.start()]))
        line += text.count("\n", pos, m.end()) + 1
        pos = m.end() + 1
    pieces.append((line, text[pos:]))
    index = 0
    for start_line, piece in pieces:
        index = read_piece(out, index, start_line, piece, compact_items)
    return out


def read_piece(out: YamlFile, index: int, start_line: int, piece: str, compact_items: bool = False) -> int:
    """Read the text between two document markers into `out` (its document, its skipped
    junk, or why it is broken); returns the index the next document gets."""
    if _CONTENT_LINE.search(piece) is None:  # only blank and comment lines
        return index
    # The document starts at its first non-blank line (blank lines stand for removed junk).
    lead = len(piece) - len(piece.lstrip("\n"))
    start_line += lead
    piece = piece[lead:]
    piece, cut = _strip_trailing_junk(piece)
    if cut:
        out.skipped.append(Skipped(start_line + piece.count("\n"), f"not YAML, skipped: {cut[:60]!r}"))
    slow_before = _safe_loader_units()
    try:
        value = parse_yaml_document(piece, compact_items)
    except YamlDocumentError as exc:
        value = _parse_repaired(piece, start_line, out)
        if value is _BROKEN and _salvage_items(out, index, start_line, piece, compact_items):
            return index + 1
        if value is _BROKEN:
            # The parser may notice the problem at the end marker: keep it inside the document.
            last_line = start_line + max(piece.count("\n") - 1, 0)
            where = min(start_line + (exc.line - 1 if exc.line else 0), last_line)
            out.broken.append((index, where, str(exc)))
            return index + 1
    if value is not None:
        json_types = slow_before is not None and _safe_loader_units() == slow_before
        items = value if isinstance(value, list) else value.get("items") if isinstance(value, dict) else None
        lines = item_lines(piece, start_line) if isinstance(items, list) and items else None
        if isinstance(value, dict) and lines is not None and len(lines) == len(items) and _ends_unclosed(value, piece):
            out.broken.append((index, lines[-1], f"item {len(items)} of the List, {CUT_OFF_LIST_END}"))
            items, lines = items[:-1], lines[:-1]
            value = {**value, "items": items}
        out.documents.append(YamlDocument(index, start_line, value, json_types,
                                          lines if lines is not None and len(lines) == len(items) else None))
    return index + 1


_ITEMS_LINE = re.compile(r"(?:\A|\n)items:[ \t]*(?:#[^\n]*)?\r?\n")
_FIRST_ITEM = re.compile(r"(?:[ \t]*(?:#[^\n]*)?\r?\n)*([ \t]*)-(?=[ \r\n]|\Z)")


def item_lines(text: str, first_line: int) -> list[int] | None:
    """The line each item of a document's `items:` sequence opens on, or of the document
    itself where it is a sequence at column 0, `first_line` being the text's first line; None
    where the text has no such sequence or two `items:` keys.

    An item opens on a line of `- ` at the sequence's indentation: anything nested in an item
    is indented deeper (a block scalar too), so such a line is no item's content. The caller
    checks that as many were found as the parser read items.

    >>> item_lines("kind: List\\nitems:\\n- kind: Pod\\n  x: |\\n    - a\\n- kind: Pod\\nmetadata: {}\\n", 1)
    [3, 6]
    >>> item_lines("items:\\n  - a: 1\\n  -\\n    a: 2\\nkind: List\\n", 10)
    [11, 12]
    """
    spans = item_spans(text)
    if spans is None:
        return None
    starts, _ = spans
    lines = [first_line + text.count("\n", 0, starts[0])]
    for before, at in zip(starts, starts[1:], strict=False):
        lines.append(lines[-1] + text.count("\n", before, at))
    return lines


def item_spans(text: str) -> tuple[list[int], int] | None:
    """The offset each item of a document's `items:` sequence (or of the document itself,
    a sequence at column 0) opens at (its `-`), and the offset where the sequence ends; None
    where the text has no such sequence or two `items:` keys (see `item_lines`).

    >>> item_spans("apiVersion: v1\\nitems:\\n- a: 1\\n- b: 2\\nkind: List\\n")
    ([22, 29], 36)
    """
    keys = [m.end() for m in _ITEMS_LINE.finditer(text)]
    if len(keys) > 1:
        return None
    body = keys[0] if keys else 0
    first = _FIRST_ITEM.match(text, body)
    if first is None or (not keys and first.group(1)):
        return None
    indent = first.group(1)
    start = first.end() - 1  # the first item's `-`
    # The sequence ends at its first line that is neither blank, a comment, nor at least as
    # deep as its items (found from its last item, so the items are not looked at twice).
    last = max(text.rfind(f"\n{indent}- ", start), text.rfind(f"\n{indent}-\n", start), start)
    after = re.compile(rf"\n(?!{re.escape(indent)}[ \t-]|[ \t]*(?:#|\r?\n|\Z))").search(text, last + 1)
    end = after.start() + 1 if after else len(text)
    starts = [start]
    starts.extend(m.start() + 1 for m in re.compile(rf"\n{re.escape(indent)}-(?=[ \r\n]|\Z)").finditer(text, start, end))
    return starts, end


CUT_OFF = "cut off: the file ends inside this item"
CUT_OFF_LIST_END = ("may be cut off: the file ends in it, before the kind and metadata kubectl prints after a "
                    "List's items")


def lacks_list_end(value: dict[str, Any]) -> bool:
    """Whether a List lacks the keys kubectl prints after its items (`kind`, `metadata`: its
    keys come sorted, `apiVersion` and `items` first)."""
    return "apiVersion" in value and "kind" not in value and "metadata" not in value


def _ends_unclosed(value: dict[str, Any], piece: str) -> bool:
    """Whether a List that parsed ends in its items without the keys kubectl prints after them,
    so the file was cut inside its last item, or just after it: which one, no line of it can tell."""
    if not lacks_list_end(value):
        return False
    spans = item_spans(piece)
    return spans is not None and not piece[spans[1]:].strip()


def _parsed_or_none(text: str) -> Any:
    try:
        return parse_yaml_document(text)
    except YamlDocumentError:
        return None


def _salvage_items(out: YamlFile, index: int, start_line: int, piece: str, compact_items: bool) -> bool:
    """A List (or top-level sequence) that does not parse as a whole: each item parsed on its
    own, those that parse kept, each that does not rejected with its line (the one a cut-off
    file ends in: cut off). False (nothing added) where the damage is not in the items."""
    spans = item_spans(piece)
    if spans is None:
        return False
    starts, end = spans
    header, tail = piece[:starts[0]], piece[end:]
    envelope: Any = None
    tail_cut = False
    if header.strip():
        keys = list(_ITEMS_LINE.finditer(header))
        if not keys:
            return False
        head = header[:keys[-1].start()] + "\nitems: []\n"
        envelope = _parsed_or_none(head + tail)
        if envelope is None and tail.strip():
            # the keys after the items (kubectl's `kind: List`, `metadata:`) cut off in a line
            envelope, tail_cut = _parsed_or_none(head), True
        if not isinstance(envelope, dict):
            return False
    list_kind = envelope.get("kind") if envelope is not None and isinstance(envelope.get("kind"), str) else None
    items: list[Any] = []
    lines: list[int] = []
    broken: list[tuple[int, int, str]] = []
    for i, at in enumerate(starts):
        line = start_line + piece.count("\n", 0, at)
        text = textwrap.dedent(piece[at:starts[i + 1] if i + 1 < len(starts) else end])
        try:
            parsed = parse_yaml_document(text, compact_items)
        except YamlDocumentError as exc:
            cut = i == len(starts) - 1 and (tail_cut or not tail.strip())
            why = CUT_OFF + (f"; the {i} before it read" if i else "") if cut else str(exc)
            broken.append((index, line, f"item {i + 1} of the {list_kind or 'List'}, {why}"))
            continue
        if not isinstance(parsed, list) or len(parsed) != 1:
            return False
        items.append(parsed[0])
        lines.append(line)
    if not broken and not tail_cut:
        return False  # every item reads: the damage is elsewhere
    value = items if envelope is None else {**envelope, "items": items}
    if tail_cut:
        out.skipped.append(Skipped(start_line + piece.count("\n", 0, end), "the lines after the List's items "
                                   "do not parse (cut off?): skipped, its items read"))
    out.broken.extend(broken)
    out.documents.append(YamlDocument(index, start_line, value, False, lines or None))
    return True


def _safe_loader_units() -> int | None:
    """yamlfast's count of texts read by CSafeLoader (None without yamlfast: all were)."""
    try:
        from analyzer.ingest.yamlfast import safe_loader_units
    except ImportError:  # pragma: no cover - only while yamlfast is absent
        return None
    return safe_loader_units()


# troubleshoot's redactor writes `***HIDDEN***` unquoted, which YAML reads as a broken alias.
_REDACTED = re.compile(r"(?<=: )(\*\*\*HIDDEN\*\*\*[^\n#]*?)[ \t]*$|(?<=- )(\*\*\*HIDDEN\*\*\*[^\n#]*?)[ \t]*$", re.M)
_BROKEN = object()


def _parse_repaired(piece: str, start_line: int, out: YamlFile) -> Any:
    """Parse a document after quoting the redaction markers bundles leave in it; _BROKEN if
    there are none or it still does not parse.

    >>> _parse_repaired("a: ***HIDDEN***:10000\\n", 1, YamlFile([], [], []))
    {'a': '***HIDDEN***:10000'}
    """
    if "***HIDDEN***" not in piece:
        return _BROKEN
    repaired = _REDACTED.sub(lambda m: "'" + (m.group(1) or m.group(2)).replace("'", "''") + "'", piece)
    try:
        value = parse_yaml_document(repaired)
    except YamlDocumentError:
        return _BROKEN
    out.skipped.append(Skipped(start_line, "redaction markers (***HIDDEN***) quoted so the document parses"))
    return value


def _skip_leading_junk(text: str, out: YamlFile) -> str:
    lines = text.split("\n", 50)
    drop = 0
    for i, ln in enumerate(lines[:50]):
        if not ln.strip():
            continue
        if _PROMPT.match(ln) or not (ln[:1].isspace() or _YAML_START.match(ln)):
            out.skipped.append(Skipped(i + 1, f"not YAML, skipped: {ln[:60]!r}"))
            drop = i + 1
            continue
        break
    if not drop:
        return text
    # Keep line numbers: blank out the dropped lines instead of removing them.
    return "\n" * drop + text.split("\n", drop)[drop] if len(lines) > drop else ""


def _strip_trailing_junk(piece: str) -> tuple[str, str]:
    """Cut prompt lines and prose after a document (`Error from server ...`, a sign-off).

    Only the tail is looked at, so a document of hundreds of MB is not split into lines.
    A line at column 0 that is neither a key, an item, a comment nor a marker cannot belong
    to the document: continuation lines of a top-level value are indented.
    """
    end = len(piece)
    while end and piece[end - 1] == "\n":
        end -= 1
    cut: list[str] = []
    while end > 0:
        nl = piece.rfind("\n", 0, end)
        last = piece[nl + 1:end]
        if last.strip() and (_PROMPT.match(last) or not (last[:1].isspace() or _YAML_START.match(last))):
            cut.insert(0, last)
            end = max(nl, 0)
        elif not last.strip() and cut:
            end = max(nl, 0)
        else:
            break
    return (piece[:end] + "\n", "\n".join(cut)) if cut else (piece, "")
