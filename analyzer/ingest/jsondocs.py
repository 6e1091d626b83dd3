"""JSON dump files: one document, or many concatenated (cluster-info dump), with log blocks.

The fast path reads a List in one scan: each item straight into its view's fields by a
variant of its kind (`analyzer.kube.viewunion`), a large List a chunk of items at a time (a
very large one with its later chunks decoded by a child on the idle CPU meanwhile). A
List (or a chunk) holding a kind without a variant (a custom resource) is read in one scan
into parts instead: each item's metadata decoded, its other top-level parts kept as zero-copy
raw slices (`analyzer.kube.viewparts.ItemParts`), from which the item's view is assembled.
An item's own raw bytes are found only if something asks for them (`ListItems`). Where that
one scan cannot type the items, the envelope is decoded with each item as raw bytes (a
zero-copy `msgspec.Raw`), and items are decoded one by one.
Concatenated documents, `==== START logs ... ====` blocks and junk around them are split by
lines first, since every whole-document parser fails on them.
"""

from __future__ import annotations

import bisect
import mmap
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple

import msgspec

from analyzer.forked import Forked
from analyzer.ingest import jsonscan
from analyzer.ingest.beside import read_later_beside
from analyzer.ingest.records import LogRecord
from analyzer.kube.kinds import KIND_GROUPS
from analyzer.kube.viewparts import ItemParts
from analyzer.kube.viewunion import item_union


class ListMeta(msgspec.Struct):
    selfLink: str | None = None


class Envelope(msgspec.Struct):
    """A document's top level: a List's items as raw bytes, or a single object."""

    kind: str | None = None
    apiVersion: str | None = None
    # UNSET when the key is absent; `"items": null` is how Go prints an empty list.
    items: list[msgspec.Raw] | None | msgspec.UnsetType = msgspec.UNSET
    Items: list[msgspec.Raw] | None | msgspec.UnsetType = msgspec.UNSET  # kubectl <= 1.13
    selfLink: str | None = None  # kubectl 1.9 lists: flattened ListMeta
    metadata: msgspec.Raw = msgspec.Raw()  # (msgspec cannot decode `Raw | None`)

    def list_items(self) -> list[msgspec.Raw] | None:
        """The items if this document is a List (an empty list for `items: null`), else None."""
        for items in (self.items, self.Items):
            if isinstance(items, list):
                return items
            if items is None and (self.kind is None or self.kind.endswith("List")):
                return []
        return None

    def list_self_link(self) -> str | None:
        """The List's API path, from kubectl 1.9's flattened form or from `metadata.selfLink`."""
        if self.selfLink:
            return self.selfLink
        if len(self.metadata):
            try:
                return _LIST_META_DECODER.decode(self.metadata).selfLink
            except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError):
                return None
        return None


class PartsEnvelope(Envelope):
    """A List whose items are read in the same scan as their parts (see the module docstring)."""

    items: list[ItemParts] | None | msgspec.UnsetType = msgspec.UNSET  # type: ignore[assignment]

    def item_parts(self) -> list[ItemParts] | None:
        """The items' parts, if this is a List with `items` and nothing of an old shape."""
        return self.items if isinstance(self.items, list) and self.Items is msgspec.UNSET else None


# Built-in kinds without a view of their own, read as any object when a List holds them (core
# kinds here; KIND_GROUPS names those of the other groups).
_CORE_KINDS_WITHOUT_VIEW = ("LimitRange", "ResourceQuota", "PodTemplate", "ComponentStatus", "Binding")
ITEM_UNION = item_union((*KIND_GROUPS, *_CORE_KINDS_WITHOUT_VIEW))


class UnionEnvelope(Envelope):
    """A List whose items were decoded into their views' fields in its one scan (see
    `analyzer.kube.viewunion`): every item has a `kind` among the union's variants."""

    items: list[ITEM_UNION.type] | None | msgspec.UnsetType = msgspec.UNSET  # type: ignore[assignment,name-defined]

    def item_views(self) -> list[Any] | None:
        """The items as decoded, if this is a List with `items` and nothing of an old shape."""
        return self.items if isinstance(self.items, list) and self.Items is msgspec.UNSET else None


ENVELOPE_DECODER = msgspec.json.Decoder(Envelope)
_UNION_DECODER = msgspec.json.Decoder(UnionEnvelope, strict=False)
# Lenient like the views' decoders: the metadata it decodes becomes the views' metadata.
_PARTS_DECODER = msgspec.json.Decoder(PartsEnvelope, strict=False)
_LIST_META_DECODER = msgspec.json.Decoder(ListMeta)
_ANY_DECODER = msgspec.json.Decoder()

# Without a leading `^` the pattern starts with a literal, which the regex engine finds at
# memory speed; that a match starts a line is checked after.
_LOG_START = re.compile(rb"==== START logs for container (\S+) of pod ([^/\s]+)/(\S+) ====(?=\r?\n|$)")


def _log_starts(data: bytes) -> list[re.Match[bytes]]:
    return [m for m in _LOG_START.finditer(data) if m.start() == 0 or data[m.start() - 1:m.start()] == b"\n"]
_LOG_END_FMT = "==== END logs for container {c} of pod {ns}/{pod} ===="


@dataclass(slots=True)
class JsonDocument:
    """One top-level JSON value of a file, with where it started."""

    index: int
    line: int
    envelope: Envelope  # a PartsEnvelope when its List was read in one scan
    raw: memoryview  # the document's bytes (for a single object, the object itself)
    # The line of `raw`'s first byte in the file; None where `raw` is not the file's own bytes
    # (a document whose console-wrapped lines were joined).
    raw_line: int | None = None


class ListItems:
    """The raw bytes of a List document's items, found on first use: a List read in one scan
    did not need them, and most of its objects are never asked for their whole body. A List
    read in chunks (`ChunkedEnvelope`) finds an item's bytes in its chunk alone."""

    __slots__ = ("_document", "_items", "_chunks", "_chunk_items")

    def __init__(self, document: memoryview, chunks: list[tuple[int, int, int]] | None = None) -> None:
        self._document = document
        self._items: list[msgspec.Raw] | None = None
        self._chunks = chunks  # (first item, start, stop) of each chunk, in order
        self._chunk_items: dict[int, list[msgspec.Raw]] = {}

    def item(self, index: int) -> memoryview:
        if self._chunks:
            at = bisect.bisect_right(self._chunks, index, key=lambda chunk: chunk[0]) - 1
            first, start, stop = self._chunks[at]
            items = self._chunk_items.get(at)
            if items is None:
                # The chunk decoded once already, so this cannot fail; its items are slices of
                # a copy of its own (the document's bytes are never changed).
                chunk = b"[" + bytes(self._document[start:stop]) + b"]"
                items = self._chunk_items[at] = _RAW_ITEMS_DECODER.decode(chunk)
            return memoryview(items[index - first])
        if self._items is None:
            # The document decoded once already, so this cannot fail.
            self._items = ENVELOPE_DECODER.decode(self._document).list_items() or []
        return memoryview(self._items[index])


class ItemLines:
    """The line each item of a List document opens on, found when first asked for.

    The one scan that reads a List sees no lines, and counting them costs a pass over the file
    (a quarter of the time that reads a kubectl List of 20,000 pods): they are counted only for
    what is asked (a rejected or noted item, a finding's evidence). A List read in chunks
    counts the line ends before the chunk asked for and finds its items' boundaries in that
    chunk alone; any other List is decoded once more with its items as zero-copy slices.
    `release`, given for a mapped file, lets the pages read go again.

    >>> doc = memoryview(b'{"items": [\\n  {"kind": "Pod"},\\n\\n  {"kind": "Pod"}\\n]}')
    >>> lines = ItemLines(doc, decode_document(doc), 1)
    >>> lines.line(0), lines.line(1), lines.line(2)
    (2, 4, None)
    """

    __slots__ = ("_document", "_first_line", "_chunks", "_count", "_lines", "_chunk_starts", "_chunk_lines",
                 "_release")

    def __init__(self, document: memoryview, envelope: Envelope, first_line: int,
                 release: Callable[[], None] | None = None) -> None:
        self._document = document
        self._first_line = first_line  # the line of the document's first byte
        self._chunks = envelope.chunks if isinstance(envelope, ChunkedEnvelope) else None
        self._count = len(envelope.list_items() or ())
        self._lines: list[int] | None = None
        self._chunk_starts: list[int] = []  # the line each chunk starts on, as far as counted
        self._chunk_lines: dict[int, list[int] | None] = {}
        self._release = release

    def line(self, index: int) -> int | None:
        """The line item `index` opens on; None where it was not found."""
        if not 0 <= index < self._count:
            return None
        if self._chunks:
            return self._line_in_chunk(index)
        if self._lines is None:
            self._lines = _item_lines(self._document, self._count, self._first_line) or []
            self._released()
        return self._lines[index] if index < len(self._lines) else None

    def _line_in_chunk(self, index: int) -> int | None:
        chunks = self._chunks
        at = bisect.bisect_right(chunks, index, key=lambda chunk: chunk[0]) - 1
        if at not in self._chunk_lines:
            starts = self._chunk_starts
            if not starts:
                starts.append(self._first_line + _newlines(self._document, 0, chunks[0][1]))
            while len(starts) <= at:
                _, start, stop = chunks[len(starts) - 1]
                starts.append(starts[-1] + _newlines(self._document, start, chunks[len(starts)][1]))
            first, start, stop = chunks[at]
            count = (chunks[at + 1][0] if at + 1 < len(chunks) else self._count) - first
            lines = _chunk_item_newlines(self._document, start, stop)
            self._chunk_lines[at] = [starts[at] + n for n in lines] if len(lines) == count else None
            self._released()
        lines = self._chunk_lines[at]
        return lines[index - chunks[at][0]] if lines is not None else None

    def _released(self) -> None:
        if self._release is not None:
            self._release()


def _newlines(data: memoryview, start: int, stop: int) -> int:
    """The line ends in data[start:stop], counted a few MB at a time (numpy: at memory speed)."""
    import numpy as np  # (numpy comes with pandas)

    step = 1 << 22
    return sum(int(np.count_nonzero(np.frombuffer(data[at:min(at + step, stop)], np.uint8) == 10))
               for at in range(start, stop, step))


def _chunk_item_newlines(data: memoryview, start: int, stop: int) -> list[int]:
    """The line ends before each item of a chunk of a List's items (from the chunk's start).

    An item opens on a line `{` at the items' indentation (see `_decode_in_chunks`), the
    indentation the chunk's first `{` has; an empty item is one line `{},` there.

    >>> _chunk_item_newlines(memoryview(b'[\\n  {\\n    "a": 1\\n  },\\n  {\\n    "b": {\\n    }\\n  }'), 4, 42)
    [0, 3]
    >>> _chunk_item_newlines(memoryview(b'[\\n  {},\\n  {\\n    "b": 1\\n  }'), 4, 28)
    [0, 1]
    """
    line_start = bytes(data[max(start - 4096, 0):start]).rfind(b"\n")
    indent = bytes(data[start - (min(start, 4096) - line_start - 1):start]) if line_start >= 0 else b""
    chunk = bytes(data[start:stop])
    opening = b"\n" + indent + b"{"
    before = [0]
    newlines = at = 0
    found = chunk.find(opening, 1)
    while found >= 0:
        newlines += chunk.count(b"\n", at, found + 1)
        before.append(newlines)
        at = found + 1
        found = chunk.find(opening, at)
    return before


def _item_lines(document: memoryview, count: int, first_line: int) -> list[int] | None:
    """The line each of a List document's `count` items opens on, from where the zero-copy
    slices of its items lie in it (`first_line`: the line of the document's first byte)."""
    try:
        raws = ENVELOPE_DECODER.decode(document).list_items() or []
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError, UnicodeDecodeError):
        return None
    if len(raws) != count:
        return None
    import numpy as np  # (numpy comes with pandas) for where a zero-copy slice lies

    base = np.frombuffer(document, np.uint8).ctypes.data
    lines: list[int] = []
    line, at = first_line, 0
    for raw in raws:
        start = np.frombuffer(raw, np.uint8).ctypes.data - base if len(raw) else -1
        if not at <= start < len(document):
            return None  # (not a slice of the document: nothing to count)
        line += _newlines(document, at, start)
        lines.append(line)
        at = start
    return lines


def decode_document(data: memoryview, release: Callable[[int], None] | None = None) -> Envelope:
    """One JSON document: a List in one scan, its items into their views if every item's kind
    has a variant (`UnionEnvelope`), else into `ItemParts`; else its envelope.

    A large pretty-printed List is read in chunks of items (see `_decode_in_chunks`), and
    `release(offset)`, given for a mapped file, lets the pages before `offset` go as it goes:
    its views are then never in memory together with the whole file. Read whole, a mapped
    List goes to `ItemParts`, whose reader lets pages go as it assembles the views.

    Raises what msgspec raises for bytes that are not one JSON document.
    """
    if len(data) >= _CHUNKED_FROM_BYTES:
        chunked = _decode_in_chunks(data, release)
        if chunked is not None:
            return chunked
    try:
        if release is None and not _kind_without_variant(data):
            return _UNION_DECODER.decode(data)
    except msgspec.DecodeError as exc:
        if "trailing characters" in str(exc):
            raise  # several documents: the other decoders fail on them too
    except (msgspec.ValidationError, RecursionError, UnicodeDecodeError):
        pass
    # An item of a kind without a variant (a custom resource), or that does not fit its view.
    try:
        return _PARTS_DECODER.decode(data)
    except msgspec.DecodeError as exc:
        if "trailing characters" in str(exc):
            raise  # several documents: the envelope decoder fails on them too
    except (msgspec.ValidationError, RecursionError, UnicodeDecodeError):
        pass
    # Metadata that does not fit (a value of an unusual type, deep nesting, bytes that are not
    # UTF-8) in some item: the items are read one by one, and each is judged by itself.
    return ENVELOPE_DECODER.decode(data)


# A List this large is read in chunks of about _CHUNK_BYTES (a whole number of items each).
_CHUNKED_FROM_BYTES = 16 * 1024**2
_CHUNK_BYTES = 4 * 1024**2
# A List this large is read by two processes where a second CPU is idle (`_decode_beside`):
# the child takes a share of the scanning, which is about half of the decoding.
_BESIDE_FROM_BYTES = 256 * 1024**2  # below, the child's start and its idle-CPU check cost what it saves
# This process's share of such a List's bytes: it also decodes the child's items from msgpack
# (two fifths of what decoding them from JSON costs), and the child starts later (it first checks
# that a CPU is idle for it).
_OWN_SHARE = 0.55
# `"items": [` and the first item's `{` of a pretty-printed List (kubectl's, 4-space indents).
_TOP_KEY_INDENT = re.compile(rb'\{\n([ \t]+)"')
_ITEMS_OPEN = re.compile(rb'\n([ \t]*)"items": \[\n([ \t]+)\{\n')
_ITEM_UNION_DECODER = msgspec.json.Decoder(list[ITEM_UNION.type], strict=False)  # type: ignore[name-defined]
_ITEM_PARTS_DECODER = msgspec.json.Decoder(list[ItemParts], strict=False)
_RAW_ITEMS_DECODER = msgspec.json.Decoder(list[msgspec.Raw])


class ChunkedEnvelope(UnionEnvelope):
    """A List read in chunks of items: where each chunk lies, to find an item's bytes."""

    chunks: list[tuple[int, int, int]] | None = None  # (first item, start, stop); never decoded


class _ChunkReader:
    """Decodes chunks of a List's items, each copied into one reused buffer as a JSON array."""

    def __init__(self, data: memoryview) -> None:
        self._data = data
        self._buffer = bytearray(_CHUNK_BYTES * 2)

    def views(self, start: int, stop: int) -> list[Any] | None:
        """The chunk's items decoded by the union (nothing a variant decodes refers to the
        buffer's bytes); None where an item has no variant or does not fit its view.
        Raises msgspec.DecodeError for bytes that are not JSON."""
        size = stop - start + 2
        if size > len(self._buffer):
            self._buffer = bytearray(size)
        view = memoryview(self._buffer)
        try:
            self._buffer[0] = 0x5B  # [
            view[1:size - 1] = self._data[start:stop]
            self._buffer[size - 1] = 0x5D  # ]
            return _ITEM_UNION_DECODER.decode(view[:size])
        except (msgspec.ValidationError, RecursionError, UnicodeDecodeError):
            return None
        finally:
            view.release()

    def items(self, start: int, stop: int) -> list[Any] | None:
        """The chunk's items as views, else as parts (a chunk holding a kind without a variant:
        the parts' raw slices refer to a copy of the chunk's own); None where neither decodes."""
        try:
            views = self.views(start, stop)
            if views is not None:
                return views
            return _ITEM_PARTS_DECODER.decode(b"[" + bytes(self._data[start:stop]) + b"]")
        except (msgspec.DecodeError, msgspec.ValidationError, RecursionError, UnicodeDecodeError):
            return None


class _ViewsBeside(msgspec.Struct, array_like=True):
    """What a child decoded of a List's later chunks: how many items each chunk held, from the
    first it was given, up to one it could not read by the union alone (this process reads that
    one and those after it), and the items."""

    counts: list[int]
    items: list[ITEM_UNION.type]  # type: ignore[name-defined]


def _decode_in_chunks(data: memoryview, release: Callable[[int], None] | None) -> ChunkedEnvelope | None:
    """A pretty-printed List read a chunk of whole items at a time, each by the union
    (`_ChunkReader`); a chunk holding a kind without a variant is decoded into `ItemParts`
    instead, so a custom resource costs its chunk a second scan, not the List. A large List's
    later chunks are decoded by a child on the idle CPU meanwhile (`_decode_beside`). None where
    the layout is not kubectl's or a chunk does not decode: the caller reads the List whole.

    An item boundary is a line `},` then a line `{` at the items' indentation: a JSON string
    holds no raw newline, and anything nested in an item is indented deeper. A chunk cut
    anywhere else would not balance its brackets, and would not decode.
    """
    head = bytes(data[:4096])
    top = _TOP_KEY_INDENT.match(head)
    opened = _ITEMS_OPEN.search(head)
    if top is None or opened is None or opened.group(1) != top.group(1):
        return None  # not a List, or not laid out as kubectl does (`items` nested deeper)
    indent = opened.group(2)
    first = opened.end() - 2  # the first item's `{`
    items_open = head.rindex(b"[", 0, first)
    tail_from = max(len(data) - 65536, first)
    tail = bytes(data[tail_from:])
    closing = tail.rfind(b"\n" + indent + b"}\n" + opened.group(1) + b"]")
    if closing < 0:
        return None
    end = tail_from + closing + 1 + len(indent) + 1  # after the last item's `}`
    items_close = end + 1 + len(opened.group(1))
    outside = head[:items_open] + bytes(data[items_close:])
    if outside.count(b'"items"') != 1 or b'"Items"' in outside:
        return None  # a key twice or the old one as well: the List read whole decides
    try:
        envelope = _UNION_DECODER.decode(head[:items_open + 1] + bytes(data[items_close:]))
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError, UnicodeDecodeError):
        return None
    spans = []  # each chunk's (start, stop)
    pos = first
    while pos < end:
        stop = _chunk_end(data, pos + _CHUNK_BYTES, end, indent)
        spans.append((pos, stop))
        pos = stop + 2 + len(indent)  # past `,\n` and the indentation: the next `{`
    items: list[Any] = []
    chunks: list[tuple[int, int, int]] = []
    reader = _ChunkReader(data)
    beside, beside_from = _decode_beside(data, spans)
    try:
        at = 0
        while at < len(spans):
            if at == beside_from and beside is not None:
                # The child's chunks, as far as it read them; where it failed or found no CPU
                # idle for it (None), or stopped at a chunk, this process reads on from there.
                got, beside = beside.result(), None
                if got is not None and sum(got.counts) == len(got.items) and got.counts:
                    first_item = len(items)
                    for count in got.counts:
                        chunks.append((first_item, *spans[at]))
                        first_item += count
                        at += 1
                    items.extend(got.items)
                    if release is not None:
                        release(spans[at - 1][1])
                continue
            decoded = reader.items(*spans[at])
            if decoded is None:
                return None
            chunks.append((len(items), *spans[at]))
            items.extend(decoded)
            if release is not None:
                release(spans[at][1])
            at += 1
    finally:
        if beside is not None:
            beside.close()
    return ChunkedEnvelope(kind=envelope.kind, apiVersion=envelope.apiVersion, items=items,
                           Items=envelope.Items, selfLink=envelope.selfLink, metadata=envelope.metadata,
                           chunks=chunks)


def _decode_beside(data: memoryview, spans: list[tuple[int, int]]) -> tuple[Forked[_ViewsBeside] | None, int]:
    """A child started on a large List's later chunks (its items' views come back as msgpack),
    and the first of those chunks; (None, len(spans)) where the List is small or no child can
    run now (`analyzer.forked`: no second CPU, another child of this process at work, too
    little memory). The child reads the chunks from the same mapped pages or bytes."""
    return read_later_beside(spans, _BESIDE_FROM_BYTES, _OWN_SHARE, lambda later: _views_of(data, later),
                             _ViewsBeside)


def _views_of(data: memoryview, spans: list[tuple[int, int]]) -> _ViewsBeside:
    """The views of the chunks' items, up to the first chunk the union cannot read."""
    reader = _ChunkReader(data)
    counts: list[int] = []
    items: list[Any] = []
    for start, stop in spans:
        views = reader.views(start, stop)
        if views is None:
            break
        counts.append(len(views))
        items.extend(views)
    return _ViewsBeside(counts, items)


def _chunk_end(data: memoryview, at: int, end: int, indent: bytes) -> int:
    """The end (after its `}`) of the item that `at` falls in, or `end`."""
    boundary = b"\n" + indent + b"},\n" + indent + b"{\n"
    window = 1 << 20
    while at < end:
        found = bytes(data[at:min(at + window + len(boundary), end)]).find(boundary)
        if found >= 0:
            return at + found + 1 + len(indent) + 1  # the newline, the indentation, the `}`
        at += window
    return end


# The first item of a pretty-printed List, to learn the indentation of its items' keys.
_FIRST_ITEM_KEY = re.compile(rb'\n[ \t]*"[Ii]tems": \[\r?\n[ \t]*\{\r?\n([ \t]+)"')
_SAMPLES = 16
_SAMPLE_BYTES = 1 << 16


def _kind_without_variant(data: memoryview) -> bool:
    """Whether a pretty-printed List is seen to hold an item of a kind the union has no variant
    for, by the items' own `kind` lines in a few windows across it and at its end (a List of
    custom resources, or one that ends with them, as a dump of every resource type does).
    Decoding it by the union would fail there after reading all before; what the windows miss
    costs that once. (A line at the items' key indentation holds a top-level key of an item:
    keys nested deeper are indented deeper, and a JSON string holds no raw newline.)"""
    head = _FIRST_ITEM_KEY.search(bytes(data[:4096]))
    if head is None:
        return False
    line = b"\n" + head.group(1) + b'"kind": "'
    size = len(data)
    starts = {min(size * k // _SAMPLES, max(size - _SAMPLE_BYTES, 0)) for k in range(_SAMPLES)}
    starts.add(max(size - _SAMPLE_BYTES, 0))
    for start in starts:
        window = bytes(data[start:start + _SAMPLE_BYTES])
        at = window.find(line)
        while at >= 0:
            begin = at + len(line)
            end = window.find(b'"', begin)
            if end < 0:
                break
            if window[begin:end].decode("utf-8", "replace") not in ITEM_UNION.kinds:
                return True
            at = window.find(line, end)
    return False


@dataclass(slots=True)
class Skipped:
    """Text in a file that held no object (junk, a broken document)."""

    line: int
    reason: str


@dataclass(slots=True)
class JsonFile:
    documents: list[JsonDocument]
    logs: list[LogRecord]
    skipped: list[Skipped]
    broken: list[tuple[int, int, memoryview, str]]  # (index, line, bytes, error) of undecodable documents


# A line that opens a JSON document the way kubectl prints one: `{` or `[` at column 0, alone
# or followed by a quoted key / a nested value (JSON Lines, compact output).
# A brace typed twice (`{ {`, a hand edit) still opens one: its document is salvaged.
_JSON_OPENER = re.compile(rb'^(?:[{\[][ \t]*$|\{[ \t]*["{]|\[[ \t]*[{\["])', re.M)


def looks_like_json(data: bytes) -> bool:
    """Whether a file holds JSON documents: its first meaningful line opens one, or a line near
    the top does after some prose (`here is the output:`).

    >>> looks_like_json(b'$ kubectl get pods -o json\\n{\\n'), looks_like_json(b'note:\\n{\\n')
    (True, True)
    >>> looks_like_json(b'apiVersion: v1\\nkind: Pod\\n'), looks_like_json(b'[INFO] started\\n')
    (False, False)
    """
    head = data[:65536]
    for line in head.splitlines():
        s = line.strip()
        if not s or s.startswith((b"#", b"$ ", b"> ", b"Warning:", b"%")):
            continue
        if s[:1] in (b"{", b"[") and _JSON_OPENER.match(line.lstrip()):
            return True
        break
    m = _JSON_OPENER.search(head, 0, 4096)
    return m is not None


def has_log_blocks(data: bytes) -> bool:
    return bool(_log_starts(data))


# A top-level JSON array whose first element is an object: a List's items written without
# their List (client-go's `[]T`, as sonobuoy's resources/ and troubleshoot's custom-resources
# files hold them, or `jq .items`). Read as the List it was cut from.
_OBJECT_ARRAY = re.compile(rb"\A\s*\[\s*(?:\{|\])")
_AS_LIST_OPEN = b'{"items":'


def as_list(data: bytes | memoryview | mmap.mmap) -> bytes | None:
    """The bytes of a top-level array of objects wrapped as a List (`{"items": [...]}`; no line
    break added, so lines keep their numbers), or None for anything else.

    >>> as_list(b'[{"metadata": {"name": "a"}}]')
    b'{"items":[{"metadata": {"name": "a"}}]}'
    >>> as_list(b'["an error"]') is None, as_list(b'{"kind": "Pod"}') is None
    (True, True)
    """
    if _OBJECT_ARRAY.match(bytes(data[:256])) is None:
        return None
    return _AS_LIST_OPEN + bytes(data) + b"}"


def read_single_document(data: bytes | memoryview | mmap.mmap) -> JsonFile | None:
    """The file as exactly one JSON document (the fast path: items stay slices of `data`),
    or None if it is not that."""
    wrapped = as_list(data)
    if wrapped is not None:
        data = wrapped
    mv = memoryview(data)
    release = _releaser(data) if isinstance(data, mmap.mmap) else None
    try:
        env = decode_document(mv, release)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError, UnicodeDecodeError):
        return None
    return JsonFile([JsonDocument(0, _first_printed_line(mv), env, mv, 1)], [], [], [])


def _first_printed_line(mv: memoryview) -> int:
    """The 1-based line a document opens on: blank lines before it (a transcript's block set at
    its own lines, the rest blank) are not the document's.

    >>> _first_printed_line(memoryview(b'\\n\\n  {"kind": "Pod"}')), _first_printed_line(memoryview(b'{}'))
    (3, 1)
    """
    shown = _NON_SPACE.search(mv)
    return 1 + bytes(mv[:shown.start()]).count(b"\n") if shown else 1


def _releaser(mapped: mmap.mmap) -> Callable[[int], None] | None:
    """Lets the pages of a map's first bytes go from the process's memory (they stay in the
    file and come back when read again), in steps of a few MB."""
    if not hasattr(mapped, "madvise") or not hasattr(mmap, "MADV_DONTNEED"):
        return None

    def release(upto: int) -> None:
        upto -= upto % mmap.PAGESIZE
        if upto > 0:
            mapped.madvise(mmap.MADV_DONTNEED, 0, upto)
    return release


def read_json_file(data: bytes, source: str) -> JsonFile:
    """Split a JSON file into documents, log blocks and skipped text."""
    single = read_single_document(data)
    if single is not None:
        return single
    mv = memoryview(data)
    out = JsonFile([], [], [], [])
    lines = LineCounter(data)
    regions = list(_split_logs(data, source, out, LineCounter(data)))
    index = 0
    for start, end in regions:
        for seg_start, seg_end in _segments(data, start, end):
            index = _decode_segment(data, mv, seg_start, seg_end, index, out, lines)
    return out


def _split_logs(data: bytes, source: str, out: JsonFile, lines: LineCounter) -> Iterator[tuple[int, int]]:
    """Yield the byte ranges outside log blocks; collect the log blocks as LogRecords."""
    pos = 0
    starts = _log_starts(data)
    for i, m in enumerate(starts):
        if m.start() < pos:
            continue
        container, ns, pod = (g.decode("utf-8", "replace") for g in m.groups())
        yield pos, m.start()
        end_marker = _LOG_END_FMT.format(c=container, ns=ns, pod=pod).encode()
        body_start = m.end() + 1
        # The END marker is looked for only up to the next START (not to the end of the file
        # for every block that lacks one).
        limit = starts[i + 1].start() if i + 1 < len(starts) else len(data)
        end = data.find(end_marker, body_start, limit)
        if end < 0:
            # A block cut off by truncation, or the next START: keep what is there.
            end = after = limit
            out.skipped.append(Skipped(lines.at(m.start()), f"log block of {ns}/{pod} {container} has no END marker"))
        else:
            after = data.find(b"\n", end)
            after = len(data) if after < 0 else after + 1
        text = data[body_start:end].decode("utf-8", "replace") if body_start < end else ""
        out.logs.append(LogRecord(ns, pod, container, text, source, line=lines.at(m.start()) + 1))
        pos = after
    yield pos, len(data)


# Lines opening / closing a document at column 0. Searched as "newline + brace" (a literal
# first byte) rather than a multiline `^`, which the regex engine tries at every line.
_DOC_START = re.compile(rb"\n[\[{]")
_DOC_END = re.compile(rb"\n[\]}]")
_NON_SPACE = re.compile(rb"\S")
# How many closing lines from each side of a segment are tried as its document's end.
_MAX_END_CANDIDATES = 4


def _segments(data: bytes, start: int, end: int) -> Iterator[tuple[int, int]]:
    """Candidate documents: from a line opening at column 0 to the next such line."""
    starts = [m.start() + 1 for m in _DOC_START.finditer(data, max(start - 1, 0), end)]
    if start == 0 and data[:1] in (b"{", b"["):
        starts.insert(0, 0)
    starts = [s for s in starts if s >= start]
    if not starts:
        if _NON_SPACE.search(data, start, end):
            yield start, end
        return
    if _NON_SPACE.search(data, start, starts[0]):
        yield start, starts[0]
    i = 0
    while i < len(starts):
        s = starts[i]
        if _unindented(data, s):
            # every nested brace is at column 0 too: the document ends where its brackets close
            doc_end = jsonscan.document_end(data, s, end)
            if doc_end is None:
                yield s, end  # cut off: one broken document, never its nested objects as documents
                return
            yield s, doc_end
            i = bisect.bisect_left(starts, doc_end, i + 1)
            following = starts[i] if i < len(starts) else end
            if _NON_SPACE.search(data, doc_end, following):
                yield doc_end, following
            continue
        yield s, starts[i + 1] if i + 1 < len(starts) else end
        i += 1


_UNINDENTED_START = re.compile(rb'[{\[][ \t]*\r?\n(?:\[[ \t]*\r?\n)?(?:\{[ \t]*\r?\n)?"')


def _objectless_value(mv: memoryview, start: int, ends: list[int]) -> str | None:
    """What a well-formed JSON value that holds no object at all is (another CLI's output pasted
    among kubectl's: `az ... --query nodeTaints` prints `["sku=gpu:NoSchedule"]`), else None.

    >>> _objectless_value(memoryview(b'[\\n  "sku=gpu:NoSchedule"\\n]\\n(null)'), 0, [33, 26])
    'a list of 1 value(s)'
    >>> _objectless_value(memoryview(b'[{"kind": "Pod"}]'), 0, [17]) is None
    True
    """
    for cand in ends:
        try:
            value = msgspec.json.decode(mv[start:cand])
        except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
            continue
        if isinstance(value, list) and not any(isinstance(v, (dict, list)) for v in value):
            return f"a list of {len(value)} value(s)"
        return None
    return None


def _unindented(data: bytes, start: int) -> bool:
    """A document opened at `start` whose first key is at column 0 too: its indentation was
    stripped (kubectl indents every key), so column-0 braces inside it are not documents."""
    return _UNINDENTED_START.match(data, start) is not None


def _decode_segment(
    data: bytes, mv: memoryview, start: int, end: int, index: int, out: JsonFile, lines: LineCounter
) -> int:
    line = lines.at(start)
    first = data[start:start + 1]
    if first not in (b"{", b"["):
        text = bytes(mv[start:min(end, start + 80)]).decode("utf-8", "replace").strip().splitlines()
        # (named at its first printed line: blank lines before it are the text's, not the skip's)
        shown = _NON_SPACE.search(data, start, end)
        out.skipped.append(Skipped(lines.at(shown.start()) if shown else line,
                                   f"not JSON, skipped: {text[0][:60] if text else ''!r}"))
        return index
    # Try the whole segment, then each column-0 closing line from the last back: trailing
    # junk (an extra "}", kubectl's warnings) is cut off; the longest valid prefix wins.
    # Tried: the first and the last few closing lines, and the end of the first line (JSON
    # Lines); a bounded number, so junk of many "}" lines costs no quadratic time.
    ends = [m.end() for m in _DOC_END.finditer(data, start, end)]
    first_line_end = data.find(b"\n", start, end)
    picked = {end, *ends[:_MAX_END_CANDIDATES], *ends[-_MAX_END_CANDIDATES:]}
    if first_line_end > start:
        picked.add(first_line_end)
    candidates = sorted(picked, reverse=True)
    error = ""
    for cand in candidates:
        piece = mv[start:cand]
        if first == b"[":
            wrapped = as_list(piece)  # an array of objects: the List it was cut from
            piece = memoryview(wrapped) if wrapped is not None else piece
        try:
            env = decode_document(piece)
        except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError) as exc:
            # (msgspec raises UnicodeDecodeError for bytes that are not UTF-8 inside strings)
            error = error or str(exc)
            continue
        except RecursionError:
            error = error or TOO_DEEP
            continue
        out.documents.append(JsonDocument(index, line, env, piece, line))
        junk = _NON_SPACE.search(data, cand, end)
        if junk:
            rest = data[junk.start():min(end, junk.start() + 40)].strip()
            out.skipped.append(Skipped(lines.at(junk.start()), f"junk after the JSON document skipped: {rest!r}"))
        return index + 1
    if _newline_in_string(data, start, error):
        joined = jsonscan.unwrap_console(bytes(mv[start:end]))
        if joined is not None and _decode_joined(joined, index, line, out, lines.at(start)):
            return index + 1
        error = (f"a line break inside a string at line {lines.at(start + _error_offset(error))}: the line "
                 "was wrapped by the console, and the wrap could not be undone safely (its pieces are not "
                 f"all as wide as the window); {error}")
    elif first == b"{" and _ERROR_AT.search(error):
        # the decoder counts bytes from the document's start; a reader looks for a line of the file
        error = _ERROR_AT.sub(f"invalid character at line {lines.at(start + _error_offset(error))}", error)
    if end - start < _STRAY_MAX and b'"' not in data[start:end]:
        # a stray brace or bracket (an extra `{` typed before the document) holds no object
        text = data[start:end].decode("utf-8", "replace").strip()
        out.skipped.append(Skipped(line, f"not JSON, skipped: {text[:60]!r}"))
        return index
    if (value := _objectless_value(mv, start, candidates)) is not None:
        out.skipped.append(Skipped(line, f"JSON holding no object ({value}): not a Kubernetes object"))
        return index
    out.broken.append((index, line, mv[start:end], error))
    return index + 1


_ERROR_AT = re.compile(r"invalid character \(byte (\d+)\)")


def _error_offset(error: str) -> int:
    m = _ERROR_AT.search(error)
    return int(m.group(1)) if m else 0


def _newline_in_string(data: bytes, start: int, error: str) -> bool:
    """Whether the decoder stopped at a line break (inside a string: nowhere else is a line
    break an invalid character)."""
    return _ERROR_AT.search(error) is not None and data[start + _error_offset(error):][:1] in (b"\n", b"\r")


def _decode_joined(joined: jsonscan.Unwrapped, index: int, line: int, out: JsonFile, first_line: int) -> bool:
    try:
        env = decode_document(memoryview(joined.data))
    except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError, RecursionError):
        return False
    out.documents.append(JsonDocument(index, line, env, memoryview(joined.data)))
    where = ", ".join(str(first_line + n - 1) for n in joined.lines)
    what = f"line {where} was" if len(joined.lines) == 1 else f"lines {where} were"
    out.skipped.append(Skipped(line, f"{what} wrapped by the console at {joined.width} columns inside a "
                               "JSON string: joined back before reading"))
    return True


# A segment this short without a quoted key is a stray brace, not a document that broke.
_STRAY_MAX = 16
TOO_DEEP = "nested deeper than any Kubernetes object; not read"


class LineCounter:
    """1-based line numbers of byte offsets, counted on from the last offset asked about
    (offsets come in increasing order while a file is split, so each byte is counted once).

    >>> lines = LineCounter(b"a\\nb\\nc\\n"); lines.at(0), lines.at(2), lines.at(4), lines.at(1)
    (1, 2, 3, 1)
    """

    def __init__(self, data: bytes | memoryview, first: int = 1) -> None:
        self.data = data
        self.first = first  # the line the data starts on
        self.offset = 0
        self.line = first

    def at(self, offset: int) -> int:
        if offset < self.offset:
            self.offset, self.line = 0, self.first
        self.line += self.data.count(b"\n", self.offset, offset)
        self.offset = offset
        return self.line


_ITEM_OPEN = re.compile(rb"^(?P<indent>[ \t]+)\{[ \t]*$", re.M)


_LIST_KIND = re.compile(rb'"kind"\s*:\s*"([A-Za-z0-9]+List)"')


def list_kind_named(segment: memoryview) -> str | None:
    """The first List kind a (broken) document names, if any."""
    m = _LIST_KIND.search(segment)
    return m.group(1).decode() if m else None


class SalvagedItem(NamedTuple):
    """An intact item of a damaged List."""

    line_offset: int  # its first line, counted from the List's
    raw: memoryview
    list_kind: str | None  # the List kind named nearest before it
    index: int  # its place in the List, from 0 (items of a List on one line share its line)


class BrokenItem(NamedTuple):
    """An item of a damaged List that could not be read."""

    line_offset: int  # its first line, counted from the List's
    index: int  # its place in the List, from 0
    list_kind: str | None  # the List kind named nearest before it
    why: str  # the decoder's error, or CUT_OFF

CUT_OFF = "cut off: the file ends inside this item"
TRUNCATED = "Input data was truncated"  # msgspec's error for a document the text ends inside


class Salvage(NamedTuple):
    """What a broken document's List still gives."""

    items: list[SalvagedItem]
    broken: list[BrokenItem]
    in_items: bool  # the document reached its List's `items` (a List cut before its first item: no item lost)


def salvage_items(segment: memoryview, first_line: int = 1) -> Salvage:
    """Intact items of a broken List, each with its line offset and the List kind named nearest
    before it, and the items that broke, each with its line offset and why (a line it names
    counted from `first_line`, the document's first line in its file).

    kubectl indents every item of `items` the same, so an item is the text between a line
    holding only `{` at that indent and the next line holding only `}` (or `},`) at it. A List
    on one line (`kubectl get --raw`, `jq -c`) or stripped of its indentation has no such lines:
    there an item ends where its brackets close.

    >>> found, broken, _ = salvage_items(memoryview(b'{"kind":"PodList","items":[{"a":1},{"b":2},{"c":'))
    >>> [bytes(i.raw) for i in found], [(i.list_kind, i.index) for i in found], broken
    ([b'{"a":1}', b'{"b":2}'], [('PodList', 0), ('PodList', 1)], [BrokenItem(line_offset=0, index=2, list_kind='PodList', why='cut off: the file ends inside this item')])
    """
    data = bytes(segment)
    list_kinds = [(m.start(), m.group(1).decode()) for m in _LIST_KIND.finditer(data)]
    m = _ITEMS_KEY.search(data)
    if not m:
        return Salvage([], [], False)
    at_column_0 = m.start() == 0 or data[m.start() - 1:m.start()] == b"\n"
    if _ITEMS_ON_LINES.match(data, m.end()) is None or (at_column_0 and _UNINDENTED_ITEM.match(data, m.end())):
        return _salvage_by_brackets(segment, data, m.end(), list_kinds, first_line)
    first = _ITEM_OPEN.search(data, m.end())
    if not first:
        stray = _stray_item(data, m.end(), LineCounter(data, first_line), list_kinds, 0)
        return Salvage([], [stray] if stray else [], True)
    indent = first.group("indent")
    open_rx = re.compile(rb"^" + re.escape(indent) + rb"\{[ \t]*$", re.M)
    close_rx = re.compile(rb"^" + re.escape(indent) + rb"\},?[ \t]*$", re.M)
    found: list[SalvagedItem] = []
    broken: list[BrokenItem] = []
    lines = LineCounter(data, first_line)
    pos = first.start()
    while True:
        o = open_rx.search(data, pos)
        if not o:
            if (stray := _stray_item(data, pos, lines, list_kinds, len(found) + len(broken))) is not None:
                broken.append(stray)
            break
        nxt = open_rx.search(data, o.end())
        c = close_rx.search(data, o.end(), nxt.start() if nxt else len(data))
        if not c:
            # no close before the next item: damaged inside; none at all: the file ends in it
            why = _damaged_item_error(segment, o.start() + len(indent), nxt.start() if nxt else None, lines)
            broken.append(_broken_at(o.start(), lines, list_kinds, len(found) + len(broken), why))
            if not nxt:
                break
            pos = nxt.start()
            continue
        item_end = c.start() + len(indent) + 1
        chunk = segment[o.start() + len(indent):item_end]
        try:
            _ANY_DECODER.decode(chunk)
            found.append(SalvagedItem(lines.at(o.start()) - lines.first, chunk, _named_before(list_kinds, o.start()),
                                      len(found) + len(broken)))
        except (msgspec.DecodeError, RecursionError, UnicodeDecodeError) as exc:
            why = _item_error(exc, o.start() + len(indent), lines)
            broken.append(_broken_at(o.start(), lines, list_kinds, len(found) + len(broken), why))
        pos = c.end()
    return Salvage(found, broken, True)


def _broken_at(offset: int, lines: LineCounter, list_kinds: list[tuple[int, str]], index: int, why: str) -> BrokenItem:
    return BrokenItem(lines.at(offset) - lines.first, index, _named_before(list_kinds, offset), why)


def _named_before(list_kinds: list[tuple[int, str]], offset: int) -> str | None:
    """The List kind named nearest before an offset, if any."""
    named = [kind for at, kind in list_kinds if at < offset]
    return named[-1] if named else None


def _damaged_item_error(segment: memoryview, start: int, end: int | None, lines: LineCounter) -> str:
    """Why an item with no closing line at its indent could not be read: cut off by the file's
    end, or the decoder's error in the text up to the next item."""
    if end is None:
        return CUT_OFF
    try:
        _ANY_DECODER.decode(segment[start:end])
    except (msgspec.DecodeError, RecursionError, UnicodeDecodeError) as exc:
        return _item_error(exc, start, lines)
    return "damaged: its closing bracket is not at its indentation"


def _item_error(exc: Exception, start: int, lines: LineCounter) -> str:
    """The decoder's error on an item, its byte offset told as a line of the document."""
    if isinstance(exc, RecursionError):
        return TOO_DEEP
    error = str(exc)
    if (m := _ERROR_AT.search(error)) is not None:
        error = _ERROR_AT.sub(f"invalid character at line {lines.at(start + int(m.group(1)))}", error)
    return error


# `"items": [` of a List (old kubectl printed `Items`); then whether its items start on lines of their own
_ITEMS_KEY = re.compile(rb'"(?:items|Items)"\s*:\s*\[')
_ITEMS_ON_LINES = re.compile(rb"[ \t]*\r?$", re.M)
_UNINDENTED_ITEM = re.compile(rb"[ \t]*\r?\n\{[ \t]*\r?\n")
_NEXT_ITEM = re.compile(rb"\s*,?\s*(?=\{)")


def _salvage_by_brackets(
    segment: memoryview, data: bytes, pos: int, list_kinds: list[tuple[int, str]], first_line: int
) -> Salvage:
    """The items of a List on one line, or stripped of its indentation: each ends where its
    brackets close (no indent tells where), so one broken item costs only itself."""
    found: list[SalvagedItem] = []
    broken: list[BrokenItem] = []
    lines = LineCounter(data, first_line)
    while (m := _NEXT_ITEM.match(data, pos)) is not None:
        start = m.end()
        end = jsonscan.document_end(data, start, len(data))
        if end is None:
            broken.append(_broken_at(start, lines, list_kinds, len(found) + len(broken), CUT_OFF))
            return Salvage(found, broken, True)  # the rest of the List is this item
        chunk = segment[start:end]
        try:
            _ANY_DECODER.decode(chunk)
            found.append(SalvagedItem(lines.at(start) - lines.first, chunk, _named_before(list_kinds, start),
                                      len(found) + len(broken)))
        except (msgspec.DecodeError, RecursionError, UnicodeDecodeError) as exc:
            broken.append(_broken_at(start, lines, list_kinds, len(found) + len(broken), _item_error(exc, start, lines)))
        pos = end
    stray = _stray_item(data, pos, lines, list_kinds, len(found) + len(broken))
    return Salvage(found, broken + [stray] if stray else broken, True)


_ITEMS_GO_ON = re.compile(rb"[\s,]*")


def _stray_item(data: bytes, pos: int, lines: LineCounter, list_kinds: list[tuple[int, str]],
                index: int) -> BrokenItem | None:
    """What stands in a List's items where no object opens (`[[`, a bare value), as a broken
    item; None where the items end there (their `]`, or the text's end: cut between items)."""
    at = _ITEMS_GO_ON.match(data, pos).end()
    if at >= len(data) or data[at:at + 1] == b"]":
        return None
    cut = data[at:at + 1] in (b"[", b"{") and jsonscan.document_end(data, at, len(data)) is None
    return _broken_at(at, lines, list_kinds, index, CUT_OFF if cut else "not an object")
