"""The plain records ingestion hands to the rest of the pipeline: objects, rejections, logs."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Any

import orjson

from analyzer.kube.keys import ObjectKey
from analyzer.sensitive.masking import mask_sensitive

# A log line's time as the container runtime stamped it, as `kubectl logs --timestamps` prints
# it (2021-05-26T01:55:24.492589599Z): the width of each line's entry in LogRecord.stamps.
STAMP_WIDTH = 30


class Provenance:
    """Where an object was read: file (with `archive!/member`), document index, 1-based line.

    An item of a JSON List carries its index in the List and the List's lines (`lines`, a
    `jsondocs.ItemLines`), which find its line when it is first asked for: the one scan that
    reads a List sees no lines. Never changed once made.
    """

    __slots__ = ("source", "format", "document", "item", "_line", "_lines")

    def __init__(self, source: str, format: str, document: int | None = None, line: int | None = None,
                 item: int | None = None, lines: Any = None) -> None:
        self.source = source
        self.format = format
        self.document = document
        self.item = item
        self._line = line
        self._lines = lines

    @property
    def line(self) -> int | None:
        """The 1-based line the object opens on (None where no line is known)."""
        return self._line if self._lines is None else self._lines.line(self.item)

    @property
    def known_line(self) -> int | None:
        """The line as read, without looking for a List item's line in its file (None then)."""
        return self._line

    @property
    def location(self) -> str:
        parts = []
        if self.document is not None:
            parts.append(f"document {self.document}")
        if (line := self.line) is not None:
            parts.append(f"line {line}")
        return ", ".join(parts)

    def derived(self, format: str) -> Provenance:
        """The same place, for an object made from the one read there (its line found as that one's)."""
        return Provenance(self.source, format, self.document, self._line, self.item, self._lines)

    def _key(self) -> tuple[str, str, int | None, int | None, int | None]:
        return self.source, self.format, self.document, self.line, self.item

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Provenance) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"Provenance(source={self.source!r}, format={self.format!r}, document={self.document!r}, "
                f"line={self.line!r}, item={self.item!r})")


@dataclass(frozen=True, slots=True)
class Rejection:
    """Something read that could not become an object, with where and why. The reason may quote
    what was read (a pasted command, a line): its credential-looking values are masked, as
    every output shows it (`kda inspect` and the report have no `--show-sensitive`)."""

    source: str
    location: str
    reason: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "reason", mask_sensitive(self.reason))

    def to_dict(self) -> dict[str, str]:
        return {"source": self.source, "location": self.location, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class NotAnObject(Rejection):
    """A document that states a kind but is a configuration file's, not an object of the API (a
    kubeconfig, kubeadm's ClusterConfiguration): skipped as what it is, not counted as an object
    read and rejected."""


@dataclass(frozen=True, slots=True)
class Truncated(Rejection):
    """An object kept as far as its paste goes: the text ends inside it (a describe cut
    mid-section). Not a rejection, since the object is kept, and not a duplicate: the
    accounting lists it as truncated, so what the object does not say reads as unknown."""


@dataclass(frozen=True, slots=True)
class DeletedObject:
    """An object a transcript showed that a later `kubectl delete` in it deleted: `command` as
    typed, read at `line` of `source`; `owner`, the deleted object that owned it ("" when it was
    named itself)."""

    obj: KubeObject
    command: str
    source: str
    line: int
    owner: str = ""


@dataclass(frozen=True, slots=True)
class LazyRaw:
    """Raw bytes looked up when first needed: item `index` of a List read in one scan."""

    items: Any  # jsondocs.ListItems
    index: int

    def resolve(self) -> memoryview:
        return self.items.item(self.index)


class JsonItem(bytes):
    """An item of a YAML List as compact JSON (`yamlfast`): what it holds exactly, in a tenth
    of the memory of its dicts, read as an item of a JSON List is. Made only of items yaml-rs
    read (JSON's types only) that JSON holds exactly."""


@dataclass(slots=True)
class KubeObject:
    """One Kubernetes object: identity, a typed partial view for the tables, and the full body.

    The full body is kept as the raw JSON bytes where the object came from JSON (decoded only
    when asked for; for an item of a List read in one scan, even its bytes are looked up only
    then, see `LazyRaw`) or as the dict a YAML/text parser built. Secret values are never in it.
    Raw bytes of a large file are a slice of its mapping (`mapped`), checked before reading.
    """

    key: ObjectKey
    api_version: str
    uid: str | None
    view: Any  # a msgspec Struct from analyzer.kube.views
    provenance: Provenance
    raw: bytes | memoryview | LazyRaw | dict[str, Any] | None = None
    duplicates: int = 0
    notes: list[str] = field(default_factory=list)
    mapped: Any = None  # the tree.MappedFile that `raw` is a slice of, if any
    # Its body holds JSON's types only (read from JSON, or from YAML by the fast parser): no
    # dates, sets or bytes, so equal encodings of its parts mean equal values.
    json_types: bool = False

    @property
    def kind(self) -> str:
        return self.key.kind

    @property
    def namespace(self) -> str:
        return self.key.namespace

    @property
    def name(self) -> str:
        return self.key.name

    def body(self) -> dict[str, Any]:
        """The full object as a dict (decoded on demand from the raw bytes)."""
        if isinstance(self.raw, dict):
            return self.raw
        if self.raw is None:
            return {}
        if self.mapped is not None:
            self.mapped.check_unchanged()
        return orjson.loads(self.raw.resolve() if isinstance(self.raw, LazyRaw) else self.raw)

    def __repr__(self) -> str:
        # What a notebook shows of an object: which one, read where. Never its view or body,
        # which hold what the tables mask (credential-looking env values and annotations) and
        # run to thousands of characters; body() is the explicit way to the whole object.
        kind = f"{self.kind}.{self.key.group}" if self.key.group else self.kind
        where = f"{self.namespace}/{self.name}" if self.namespace else self.name
        at = f" ({self.provenance.location})" if self.provenance.location else ""
        return f"<KubeObject {kind} {where} from {self.provenance.source}{at}>"


@dataclass(frozen=True, slots=True)
class LogRecord:
    """A captured container log, attached to its pod and container."""

    namespace: str
    pod: str
    container: str
    text: str
    source: str
    previous: bool = False
    # The line of `source` where the log's text starts (a cluster-info dump holds many logs).
    line: int = 1
    # Each line's time as the container runtime stamped it in a node's log file, STAMP_WIDTH
    # characters a line (blank where it gave none); "" for a log saved without them.
    stamps: str = ""
    # Where the lines of text stop following those of `source` one for one (a line the runtime
    # split, joined; a rotated file's lines before them): (line of text, line of the file it is,
    # that file or "" for `source`), in order.
    places: tuple[tuple[int, int, str], ...] = ()

    def __repr__(self) -> str:
        # Which log, not its text: a log runs to megabytes and may quote a token that the
        # findings' evidence masks; `.text` is the explicit way to the lines.
        run = " (previous)" if self.previous else ""
        return (f"<LogRecord {self.namespace}/{self.pod}/{self.container}{run}: {self.line_count} lines "
                f"from {self.source} line {self.line}>")

    @property
    def line_count(self) -> int:
        if not self.text:
            return 0
        return self.text.count("\n") + (0 if self.text.endswith("\n") else 1)

    def stamp(self, line: int) -> str | None:
        """The runtime's time of a line of text (1-based), or None."""
        at = (line - 1) * STAMP_WIDTH
        stamp = self.stamps[at:at + STAMP_WIDTH]
        return stamp if stamp.strip() else None

    def place(self, line: int) -> tuple[str, int]:
        """The file and its line a line of text (1-based) starts at.

        >>> log = LogRecord("ns", "p", "c", "a\\nb\\nc\\nd\\n", "0.log", places=((1, 1, "0.log.1"), (3, 1, ""), (4, 3, "")))
        >>> [log.place(n) for n in (1, 2, 3, 4)]
        [('0.log.1', 1), ('0.log.1', 2), ('0.log', 1), ('0.log', 3)]
        """
        at = bisect_right(self.places, line, key=lambda p: p[0]) - 1
        if at < 0:
            return self.source, self.line + line - 1
        text_line, file_line, file = self.places[at]
        if file:
            return file, file_line + line - text_line
        return self.source, self.line + file_line - 1 + line - text_line
