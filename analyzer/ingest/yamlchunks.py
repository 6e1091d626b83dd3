"""A large YAML file read from its mapping, a range of text at a time.

Read whole, a 340 MB kubectl YAML dump held its bytes and its decoded text at once (a copy
each) while it was parsed. Here each document's text is decoded from the mapped file by
itself, and a kubectl List's items a chunk of whole items at a time (about 4 MB): a chunk's
text goes once its items are read, and the file's pages behind it go back to the system. A
List of 24 MiB or more has its later chunks read by a child on the idle CPU meanwhile, their
items sent back as the compact JSON this process would have made of them.

The result is what `yamldocs.read_yaml_file` gives for the file's whole text, exactly. The
file is cut only where that reader cuts it: at document markers (found as it finds them), and
a List's items at the column-0 `- ` lines `yamlfast._split_list` finds over the whole text;
each chunk is checked for what would make the whole text read otherwise (markers, directives,
a BOM, a second `items:` key, anchors), and an item that does not read as one item of its own
sends the document to be read whole, as that reader does. What the whole file would need
first (UTF-16, lone carriage returns, junk lines before the YAML, YAML pasted indented) makes
`MappedText.open` or `read_yaml_buffer` say None: the caller then reads the file whole.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgspec

from analyzer.collector import collector_paused
from analyzer.forked import Forked
from analyzer.ingest import yamlfast
from analyzer.ingest.beside import read_later_beside
from analyzer.ingest.records import JsonItem
from analyzer.ingest.textcodec import _mostly_binary
from analyzer.ingest.yamldocs import (
    YamlDocument,
    YamlFile,
    _skip_leading_junk,
    _strip_trailing_junk,
    has_anchor,
    lacks_list_end,
    read_piece,
)

# A List's items are read this many bytes of the file at a time (whole items; an item longer
# than this is a chunk by itself); a document smaller than twice this is decoded whole.
CHUNK_BYTES = 4 * 1024**2
# A List's items this large are read by two processes where a second CPU is idle
# (`_read_beside`): a child reads the later chunks while this process reads the earlier ones.
BESIDE_FROM_BYTES = 24 * 1024**2
# This process's share of the items' bytes: the child starts later (it first checks that a CPU
# is idle for it) and this process makes the child's items its own (a little work per item).
_OWN_SHARE = 0.52
# How much of the file's start is decoded to decide what the file is (the checks before the
# YAML reader look at most 1 MiB: datasniff's sniff).
_HEAD_BYTES = 3 * 1024**2 // 2
# How much of a document's end is decoded to look for junk after it (a prompt, prose).
_TAIL_BYTES = 64 * 1024

# yamldocs' document markers (`_SEP_CANDIDATE`, `_DOC_SEP`), over bytes that may end lines
# with CRLF (which the text reader sees as LF).
_DOC_SEP = re.compile(rb"---[ \t]*(?:#[^\n]*)?(?=\r?\n|\Z)|\.\.\.[ \t]*(?=\r?\n|\Z)")
_LONE_CR = re.compile(rb"\r(?!\n)")
# yamlfast's List layout (`_ITEMS_KEY`, `_TOP_LEVEL_LINE`, `_ITEM_START`) over such bytes: a
# `\r` there is always followed by `\n` (lone ones are refused), so `\r` stands where the
# text has `\n`.
_ITEMS_KEY = re.compile(rb"\nitems:\r?\n")
_TOP_LEVEL_LINE = re.compile(rb"\n(?![ #\r\n]|-(?:[ \r\n]|\Z))")
_ITEM_START = re.compile(rb"\n-(?=[ \r\n])")


@dataclass(slots=True)
class MappedText:
    """The text of a large file as `collect` would decode it whole (BOM dropped, CRLF as LF),
    decoded a range at a time. `head` is the text of its first bytes (at least 1 MiB of the
    file, cut at a line end), `head_bytes` that text as UTF-8: what the checks that decide what
    a file is look at."""

    buf: Any  # bytes-like: an mmap, or bytes in tests
    start: int  # 3 after a UTF-8 BOM
    head: str
    head_bytes: bytes
    head_end: int  # where in the file the head ends

    @classmethod
    def open(cls, buf: Any) -> MappedText | None:
        """None where the file must be decoded whole first: UTF-16, NUL bytes, binary data, or
        a head that is not plain UTF-8. Only the head is read here."""
        if buf[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE) or b"\x00" in buf[:65536]:
            return None
        start = 3 if buf[:3] == codecs.BOM_UTF8 else 0
        end = min(start + _HEAD_BYTES, len(buf))
        if end < len(buf):
            end = buf.rfind(b"\n", start, end) + 1
            if end <= start:
                return None  # no line ends in the first 1.5 MB: not a dump to read in parts
        source = cls(buf, start, "", b"", end)
        head = source.text(start, end)
        if "\ufffd" in head or (start or b"\r" in buf[:65536]) and _mostly_binary(head):
            return None  # (invalid UTF-8: the checks on raw bytes and on text could differ)
        source.head, source.head_bytes = head, head.encode()
        return source

    def lines_end_plainly(self) -> bool:
        """Whether every carriage return in the file ends a line (CRLF): one that does not is a
        line break to the whole-text reader, which the cuts here do not follow."""
        return self.buf.find(b"\r", self.start) < 0 or _LONE_CR.search(self.buf, self.start) is None

    def text(self, start: int, end: int) -> str:
        """The text of bytes [start, end) of the file, which start and end at line starts."""
        text = str(self.buf[start:end], "utf-8", "replace")
        return text.replace("\r\n", "\n") if "\r" in text else text


def read_yaml_buffer(source: MappedText, release: Callable[[int], None] | None = None,
                     compact_items: bool = True, chunk_bytes: int | None = None) -> YamlFile | None:
    """`yamldocs.read_yaml_file` of the file's whole text, read a range at a time; None if the
    file has junk lines before its YAML or is indented (the whole text is needed to drop or
    dedent them). `release(upto)` lets the file's pages before `upto` go; `chunk_bytes` is
    CHUNK_BYTES unless given."""
    chunk_bytes = chunk_bytes or CHUNK_BYTES
    head = source.head
    whole_head = source.head_end >= len(source.buf)
    if not whole_head and head.count("\n") < 50:
        return None
    probe = YamlFile([], [], [])
    _skip_leading_junk(head, probe)
    lead = len(head) - len(head.lstrip("\n"))
    if probe.skipped or lead == len(head) and not whole_head or head[lead:lead + 1] in (" ", "\t"):
        return None
    if not source.lines_end_plainly():
        return None
    buf, start = source.buf, source.start
    markers = _markers(buf, start)
    if release is not None:
        release(len(buf))  # the scans above touched every page
    out = YamlFile([], [], [])
    index, line, pos = 0, 1, start
    for marker in [*markers, None]:
        end = len(buf) if marker is None else marker.start()
        if pos <= end:
            index, newlines = _read_range(source, out, index, line, pos, end, compact_items, chunk_bytes, release)
        else:  # a marker at the very end, its line end past the file (an empty piece)
            newlines = 0
        if marker is None:
            break
        line += newlines + 1
        after = buf.find(b"\n", marker.end())
        pos = len(buf) + 1 if after < 0 else after + 1
        if release is not None:
            release(min(pos, len(buf)))
    return out


def _markers(buf: Any, start: int) -> list[re.Match[bytes]]:
    """Document marker lines (`---`, `...`), as yamldocs finds them over the whole text."""
    candidates = [start] if buf[start:start + 3] in (b"---", b"...") else []
    for literal in (b"\n---", b"\n..."):
        at = buf.find(literal, start)
        while at >= 0:
            candidates.append(at + 1)
            at = buf.find(literal, at + 1)
    found = (_DOC_SEP.match(buf, at) for at in sorted(candidates))
    return [m for m in found if m is not None]


def _read_range(source: MappedText, out: YamlFile, index: int, line: int, start: int, end: int,
                compact_items: bool, chunk_bytes: int, release: Callable[[int], None] | None) -> tuple[int, int]:
    """One piece between markers into `out`: (the next document's index, the piece's line
    ends). A large List is read a chunk of items at a time, anything else whole."""
    if end - start >= 2 * chunk_bytes:
        read = _read_list_in_chunks(source, start, end, line, compact_items, chunk_bytes, release)
        if read is not None:
            document, newlines = read
            document.index = index
            out.documents.append(document)
            return index + 1, newlines
    piece = source.text(start, end)
    return read_piece(out, index, line, piece, compact_items), piece.count("\n")


class _Whole(Exception):
    """The piece cannot be read in chunks with proof: read it whole."""


def _read_list_in_chunks(source: MappedText, start: int, end: int, line: int, compact_items: bool,
                         chunk_bytes: int, release: Callable[[int], None] | None) -> tuple[YamlDocument, int] | None:
    """A large piece that is a kubectl List, read as `yamldocs.read_piece` reads its whole text
    (a document of the List's keys and its items, each item by itself): the document and the
    piece's line ends, or None where that is not proven (the caller reads it whole)."""
    buf = source.buf
    # Blank lines before the document (read_piece's lead), as bytes.
    doc = start
    lead = 0
    while doc < end and (buf[doc:doc + 1] == b"\n" or buf[doc:doc + 2] == b"\r\n"):
        doc += 1 if buf[doc:doc + 1] == b"\n" else 2
        lead += 1
    # The List's layout, as yamlfast._split_list finds it in the document's text.
    key = _ITEMS_KEY.search(buf, doc, end)
    if key is None or buf[doc:doc + 6] == b"items:" or buf[key.end():key.end() + 2] != b"- ":
        return None
    body = key.end()
    last_item = max(buf.rfind(b"\n- ", doc, end), body - 1)
    for empty_item in (b"\n-\n", b"\n-\r\n"):  # (only past the last `- ` one matters: no pass over the file)
        last_item = max(last_item, buf.rfind(empty_item, last_item + 1, end))
    after = _TOP_LEVEL_LINE.search(buf, last_item + 1, end)
    items_end = after.start() + 1 if after else end
    # No junk after the document (read_piece would cut it off first).
    tail_start = doc
    if end - _TAIL_BYTES > doc:
        tail_start = buf.find(b"\n", end - _TAIL_BYTES, end) + 1
        if tail_start <= 0 or tail_start >= end:
            return None  # (one line, or a last line as long as the look)
    tail = source.text(tail_start, end)
    if not tail.strip("\n") or _strip_trailing_junk(tail)[1]:
        return None
    head = source.text(doc, key.start() + len(b"\nitems:"))
    trailer = source.text(items_end, end)
    skeleton = head + " []\n" + trailer
    first_line = line + lead
    read_before = yamlfast.safe_loader_units()
    newlines = lead + head.count("\n") + 1 + trailer.count("\n")
    beside: Forked[_ItemsBeside] | None = None
    try:
        if not (_is_one_segment(head) and _is_one_segment(trailer)) or trailer.startswith("items:\n") \
                or "\nitems:\n" in trailer:
            raise _Whole
        with collector_paused():
            document = yamlfast._load_unit(skeleton, first_line)
            if not isinstance(document, dict) or document.get("items") != [] or lacks_list_end(document):
                raise _Whole  # (a List without its end keys may be cut off in its last item: read whole)
            items: list[Any] = []
            item_lines: list[int] = []
            line_at = first_line + head.count("\n") + 1  # the line of the chunk being read
            spans = _item_spans(buf, body, items_end, chunk_bytes)
            beside, beside_from = _read_beside(source, spans, first_line) if compact_items else (None, len(spans))
            at = 0
            while at < len(spans):
                if at == beside_from and beside is not None:
                    # The child's chunks, as far as it read them; where it failed, found no CPU
                    # idle for it (None) or stopped at a chunk, this process reads on from there.
                    got, beside = beside.result(), None
                    if got is not None and got.counts and sum(got.counts) == len(got.items):
                        taken = got.items
                        for i, item in enumerate(taken):  # each as it is made: not two copies of all
                            taken[i] = JsonItem(item)
                        items.extend(taken)
                        item_lines.extend(line_at + n for n in got.item_newlines)
                        at += len(got.counts)
                        newlines += got.newlines
                        line_at += got.newlines
                        if release is not None:
                            release(spans[at - 1][1])
                    continue
                chunk = source.text(*spans[at])
                before = _read_items(chunk, first_line, items, compact_items)
                item_lines.extend(line_at + n for n in before)
                chunk_newlines = chunk.count("\n")
                newlines += chunk_newlines
                line_at += chunk_newlines
                if release is not None:
                    release(spans[at][1])
                at += 1
    except (_Whole, yamlfast.YamlError):
        return None
    finally:
        if beside is not None:
            beside.close()
    document["items"] = items
    return YamlDocument(0, first_line, document, yamlfast.safe_loader_units() == read_before,
                        item_lines if len(item_lines) == len(items) else None), newlines


def _item_spans(buf: Any, body: int, items_end: int, chunk_bytes: int) -> list[tuple[int, int]]:
    """The List's chunks, (start, end) each: whole items, about `chunk_bytes` at a time."""
    spans = []
    pos = body
    while pos < items_end:
        cut = items_end
        if pos + chunk_bytes < items_end:
            next_item = _ITEM_START.search(buf, pos + chunk_bytes - 1, items_end)
            cut = next_item.start() + 1 if next_item else items_end
        spans.append((pos, cut))
        pos = cut
    return spans


class _ItemsBeside(msgspec.Struct, array_like=True):
    """What a child read of a List's later chunks: how many items each chunk held, from the
    first it was given, up to one it could not read as JSON items alone (this process reads
    that one and those after it), the items as compact JSON, and the line ends of those chunks."""

    counts: list[int]
    items: list[bytes]
    newlines: int
    item_newlines: list[int]  # before each item, from the start of the first chunk


def _read_beside(source: MappedText, spans: list[tuple[int, int]],
                 first_line: int) -> tuple[Forked[_ItemsBeside] | None, int]:
    """A child started on a large List's later chunks, and the first of those chunks; (None,
    len(spans)) where the List is small or no child can run now (`analyzer.forked`). Reading
    YAML is slow enough that the child pays for its start on a few MB; its items come back as
    the compact JSON this process would have made of them."""
    return read_later_beside(spans, BESIDE_FROM_BYTES, _OWN_SHARE,
                             lambda later: _json_items_of(source, later, first_line), _ItemsBeside)


def _json_items_of(source: MappedText, spans: list[tuple[int, int]], first_line: int) -> _ItemsBeside:
    """The items of the chunks as compact JSON, up to the first chunk with an item that is not
    one (one CSafeLoader read: it may hold dates or sets), or that does not read."""
    counts: list[int] = []
    items: list[bytes] = []
    item_newlines: list[int] = []
    newlines = 0
    for span in spans:
        read: list[Any] = []
        read_before = yamlfast.safe_loader_units()
        chunk = source.text(*span)
        try:
            before = _read_items(chunk, first_line, read, True)
        except (_Whole, yamlfast.YamlError):
            break
        if yamlfast.safe_loader_units() != read_before or not all(isinstance(item, JsonItem) for item in read):
            break
        counts.append(len(read))
        items.extend(map(bytes, read))  # (msgspec writes bytes, not a subclass of them)
        item_newlines.extend(newlines + n for n in before)
        newlines += chunk.count("\n")
    return _ItemsBeside(counts, items, newlines, item_newlines)


def _is_one_segment(text: str) -> bool:
    """Whether a part of a document holds no marker, directive or BOM (yamlfast would read a
    text that does as a stream, not as one document)."""
    segments = yamlfast._segments(text)
    return segments is not None and len(segments) == 1 and not has_anchor(text)


def _read_items(chunk: str, first_line: int, items: list[Any], compact: bool) -> list[int]:
    """The items of a chunk (whole items, each from a column-0 `- ` line) into `items`, each as
    yamlfast._load_list reads it; the line ends before each item in the chunk. (An error here
    only sends the document to be read whole, which says where it is.)"""
    if not _is_one_segment(chunk) or "\nitems:\n" in chunk:
        raise _Whole
    starts = [0] + [m.start() + 1 for m in yamlfast._ITEM_START.finditer(chunk)]
    before = [0]
    for at, nxt in zip(starts, starts[1:], strict=False):
        before.append(before[-1] + chunk.count("\n", at, nxt))
    for first, nxt in zip(starts, starts[1:] + [len(chunk)], strict=True):
        read_before = yamlfast.safe_loader_units()
        value = yamlfast._load_unit(chunk[first:nxt], first_line)
        if not isinstance(value, list) or len(value) != 1:
            raise _Whole
        # Each item compacted as soon as it is read: the List's dicts never all at once.
        items.append(yamlfast._as_json_item(value[0]) if compact and yamlfast.safe_loader_units() == read_before
                     else value[0])
    return before
