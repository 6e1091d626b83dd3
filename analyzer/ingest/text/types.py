"""The results of reading pasted kubectl text: API-shaped objects, unknown tables, rejections."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from analyzer.ingest.records import Rejection

# Top-level body key for facts a table or describe states that the API shape cannot hold.
TEXT_FACTS_KEY = "x-kda-text"


@dataclass(slots=True)
class TextObject:
    """One object read from text: its body in `kubectl get -o json` shape, where it was read, how."""

    body: dict[str, Any]
    line: int
    origin: str  # "text table" or "describe"
    notes: list[str] = field(default_factory=list)  # how it was read, where that was not plain

    @property
    def kind(self) -> str:
        return self.body.get("kind", "")

    @property
    def name(self) -> str:
        return self.body.get("metadata", {}).get("name", "")

    @property
    def namespace(self) -> str | None:
        return self.body.get("metadata", {}).get("namespace")

    @property
    def facts(self) -> dict[str, Any]:
        """The text-only facts (`x-kda-text`), empty when there are none."""
        return self.body.get(TEXT_FACTS_KEY, {})


@dataclass(slots=True)
class GenericTable:
    """A table of a kind we do not know, kept as rows of header -> cell (None for `<none>`)."""

    header: list[str]
    rows: list[dict[str, str | None]]
    line: int
    command: str | None
    # the kind its `kubectl get` names when that kind's listings are kept as tables only
    # (kinds.yaml listed_only): the kind was collected, its objects not read
    kind: str | None = None


@dataclass(slots=True)
class TextParse:
    """Everything read from one pasted text, in the order it appeared."""

    objects: list[TextObject] = field(default_factory=list)
    tables: list[GenericTable] = field(default_factory=list)
    rejections: list[Rejection] = field(default_factory=list)
    # Runs (first, last line number) of lines with text that no table, describe or command line
    # took (prose between outputs, a fragment): the caller names them, so nothing is passed over
    # without a word.
    unread: list[tuple[int, int]] = field(default_factory=list)
    # kubectl's own error lines (`Error from server (NotFound): pods "web-1" not found`), by line
    # number: what was asked for and not there, said as such rather than as prose
    errors: list[tuple[int, str]] = field(default_factory=list)
    # Lines inside a table by which its writer says rows were cut out there (`...`, `<snip>`)
    elided: list[int] = field(default_factory=list)

    def of_kind(self, kind: str) -> list[TextObject]:
        """The objects of one kind, in text order."""
        return [obj for obj in self.objects if obj.kind == kind]

    def find(self, kind: str, name: str, origin: str | None = None) -> TextObject:
        """The first object of this kind and name (optionally of one origin); KeyError if none."""
        for obj in self.objects:
            if obj.kind == kind and obj.name == name and (origin is None or obj.origin == origin):
                return obj
        raise KeyError(f"no {kind} {name!r} in the text")
