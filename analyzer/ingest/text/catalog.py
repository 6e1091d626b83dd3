"""The kinds pasted kubectl text can name (kinds.yaml), checked when loaded and indexed for lookup."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from analyzer.kube.kinds import CLUSTER_SCOPED_KINDS
from analyzer.safeyaml import load_yaml

CONVERTERS = frozenset({"str", "int", "bool", "labels", "csv"})


@dataclass(frozen=True, slots=True)
class KindInfo:
    """What the catalog knows of one kind."""

    kind: str
    api_version: str
    names: tuple[str, ...]
    headers: tuple[tuple[str, ...], ...]
    fields: dict[str, tuple[str, str]]  # header -> (api path, converter)
    describe_ends: tuple[str, ...]
    values: dict[str, re.Pattern[str]] = field(default_factory=dict)  # header -> its cells' shape
    # header -> what its cells hold in rows pasted with neither header nor command (kinds.yaml)
    bare_rows: dict[str, re.Pattern[str]] = field(default_factory=dict)
    bare_commands: tuple[str, ...] = ()
    # headers of older kubectl such rows may be in too, tried under the commands without -o wide
    bare_older: tuple[tuple[str, ...], ...] = ()
    # Fields an equality `--field-selector` may name whose value every listed object then holds.
    field_selectors: tuple[str, ...] = ()

    def fits(self, rows: list[dict[str, str | None]]) -> bool:
        """Whether every row's cells hold what this kind prints in the columns it constrains."""
        return bool(rows) and all(
            (cells.get(column) or "") and pattern.fullmatch(cells.get(column) or "")
            for cells in rows for column, pattern in self.values.items()
        )

    @property
    def namespaced(self) -> bool:
        return self.kind not in CLUSTER_SCOPED_KINDS


@dataclass(frozen=True, slots=True)
class CellShape:
    """How a cell looks, to split rows whose column spacing was lost."""

    pattern: re.Pattern[str]
    words: int  # most words the cell can hold (a large number for "many")
    empty: bool
    blank_first: bool = False  # read blank where the words fit either way


@dataclass(frozen=True, slots=True)
class HeaderMatch:
    """A header recognised as a kind's table, with the extra columns kubectl added."""

    info: KindInfo
    namespaced_column: bool
    labels_column: bool


class CatalogError(ValueError):
    """kinds.yaml is inconsistent (a packaging bug, never the user's input)."""


class Catalog:
    """Lookups over kinds.yaml: resource names, header sets, group versions, cell shapes."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.kinds: dict[str, KindInfo] = {}
        self._by_name: dict[str, KindInfo] = {}
        self._by_header: dict[tuple[str, ...], KindInfo] = {}
        self._sharing: dict[tuple[str, ...], list[KindInfo]] = {}  # header -> kinds printing it
        self.namespace_column: str = data["namespace_column"]
        self.labels_column: str = data["labels_column"]
        self.group_versions: dict[str, str] = dict(data["group_versions"])
        for kind, raw in data["kinds"].items():
            info = _kind_info(kind, raw)
            self.kinds[kind] = info
            for name in (*info.names, kind.lower()):
                if self._by_name.setdefault(name, info) is not info:
                    raise CatalogError(f"kinds.yaml: resource name {name!r} is given to two kinds")
            for header in info.headers:
                if len(set(header)) != len(header):
                    raise CatalogError(f"kinds.yaml: {kind} header {header} repeats a column")
                self._sharing.setdefault(header, []).append(info)
        for header, kinds in self._sharing.items():
            # The first kind listed keeps a header two kinds share (ReplicaSet before RC), unless
            # it says what its cells hold: then its rows' values decide (by_values).
            self._by_header[header] = next((k for k in kinds if not k.values), kinds[0])
        self._listed_only: dict[str, str] = {}  # resource name -> kind kept as a table only
        for kind, names in (data.get("listed_only") or {}).items():
            for name in (*names, kind.lower()):
                if name in self._by_name or self._listed_only.setdefault(name, kind) != kind:
                    raise CatalogError(f"kinds.yaml: resource name {name!r} is given to two kinds")
        self.cell_shapes = {name: _shape(name, raw) for name, raw in data["cell_shapes"].items()}
        words = {col for header in self._by_header for col in header if " " in col}
        words |= {name for name in self.cell_shapes if " " in name}
        self.multiword_columns: tuple[str, ...] = tuple(sorted(words, key=lambda w: -len(w)))

    def for_resource(self, name: str) -> KindInfo | None:
        """The kind a command or prefix names: `po`, `pods`, `deployment.apps`, `ReplicaSet`."""
        base = name.lower().split(".", 1)[0]
        return self._by_name.get(base)

    def listed_only(self, name: str) -> str | None:
        """The kind a command names whose listing is kept as a table only (`netpol`, `roles`)."""
        return self._listed_only.get(name.lower().split(".", 1)[0])

    def api_version(self, info: KindInfo, group: str | None) -> str:
        """The apiVersion for a kind, honouring a group a `get all` prefix states."""
        if not group or info.api_version.startswith(group + "/"):
            return info.api_version
        return self.group_versions.get(group, info.api_version)

    def match_header(self, columns: list[str]) -> HeaderMatch | None:
        """The kind whose table has exactly these columns (NAMESPACE/LABELS allowed around it)."""
        cols = list(columns)
        namespaced = bool(cols) and cols[0] == self.namespace_column
        if namespaced:
            cols = cols[1:]
        with_labels = bool(cols) and cols[-1] == self.labels_column
        if with_labels:
            cols = cols[:-1]
        info = self._by_header.get(tuple(cols))
        return HeaderMatch(info, namespaced, with_labels) if info else None

    def by_values(self, match: HeaderMatch | None,
                  rows: list[dict[str, str | None]]) -> HeaderMatch | None:
        """The kind of a table whose header several kinds print, decided by its rows' values.

        >>> cat = catalog()
        >>> old = cat.match_header(["NAME", "STATUS", "AGE"])
        >>> rows = [{"NAME": "n1", "STATUS": "NotReady", "AGE": "6d"}, {"NAME": "n2", "STATUS": "Ready"}]
        >>> old.info.kind, cat.by_values(old, rows).info.kind
        ('Namespace', 'Node')
        >>> cat.by_values(old, [{"NAME": "default", "STATUS": "Active", "AGE": "6d"}]).info.kind
        'Namespace'
        """
        if match is None or not rows:
            return None if match is None else match
        header = tuple(c for c in rows[0] if c not in (self.namespace_column, self.labels_column))
        for info in self._sharing.get(header, ()):
            if info.values and info.fits(rows):
                return HeaderMatch(info, match.namespaced_column, match.labels_column)
        return match

    def named_by(self, match: HeaderMatch | None, named: KindInfo | None,
                 columns: list[str]) -> HeaderMatch | None:
        """The kind the command names where it prints this header too (Flux's Kustomization and
        HelmRelease both print `NAME AGE READY STATUS`), else the match as it was.

        >>> cat = catalog()
        >>> header = ["NAME", "AGE", "READY", "STATUS"]
        >>> match = cat.match_header(header)
        >>> match.info.kind, cat.named_by(match, cat.for_resource("hr"), header).info.kind
        ('Kustomization', 'HelmRelease')
        """
        if match is None or named is None or named is match.info:
            return match
        header = tuple(c for c in columns if c not in (self.namespace_column, self.labels_column))
        if named in self._sharing.get(header, ()):
            return HeaderMatch(named, match.namespaced_column, match.labels_column)
        return match

    def header_for(self, info: KindInfo, wide: bool, namespaced: bool, labels: bool) -> list[str]:
        """The header kubectl prints for a kind with these flags (for rows grep kept headerless)."""
        # kinds.yaml lists the current header first and its `-o wide` form second.
        header = list(info.headers[1] if wide and len(info.headers) > 1 else info.headers[0])
        if namespaced:
            header.insert(0, self.namespace_column)
        if labels:
            header.append(self.labels_column)
        return header

    def shape(self, column: str) -> CellShape:
        """The shape of a column's cells (one non-blank word unless kinds.yaml says otherwise)."""
        return self.cell_shapes.get(column, _DEFAULT_SHAPE)


_DEFAULT_SHAPE = CellShape(re.compile(r"\S+"), 1, False)


def _kind_info(kind: str, raw: dict[str, Any]) -> KindInfo:
    fields: dict[str, tuple[str, str]] = {}
    for header, target in (raw.get("fields") or {}).items():
        path, _, converter = str(target).partition(":")
        converter = converter or "str"
        if converter not in CONVERTERS:
            raise CatalogError(f"kinds.yaml: {kind}.{header} has unknown converter {converter!r}")
        fields[header] = (path, converter)
    headers = tuple(tuple(h) for h in raw["headers"])
    known = {col for header in headers for col in header}
    if unknown := set(fields) - known:
        raise CatalogError(f"kinds.yaml: {kind} maps columns it never prints: {sorted(unknown)}")
    return KindInfo(
        kind=kind,
        api_version=raw["apiVersion"],
        names=tuple(raw["names"]),
        headers=headers,
        fields=fields,
        describe_ends=tuple(raw.get("describe_ends") or ()),
        values=_values(kind, raw.get("values") or {}, known),
        bare_rows=_values(kind, (raw.get("bare_rows") or {}).get("values") or {}, known),
        bare_commands=tuple((raw.get("bare_rows") or {}).get("commands") or ()),
        bare_older=_older(kind, (raw.get("bare_rows") or {}).get("older") or (), headers),
        field_selectors=tuple(raw.get("field_selectors") or ()),
    )


def _older(kind: str, raw: list[list[str]], headers: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, ...], ...]:
    older = tuple(tuple(header) for header in raw)
    if unknown := [list(header) for header in older if header not in headers]:
        raise CatalogError(f"kinds.yaml: {kind} reads bare rows in headers it never prints: {unknown}")
    return older


def _values(kind: str, raw: dict[str, str], known: set[str]) -> dict[str, re.Pattern[str]]:
    if unknown := set(raw) - known:
        raise CatalogError(f"kinds.yaml: {kind} gives values of columns it never prints: {sorted(unknown)}")
    try:
        return {header: re.compile(pattern) for header, pattern in raw.items()}
    except re.error as exc:
        raise CatalogError(f"kinds.yaml: {kind} values: {exc}") from exc


def _shape(name: str, raw: dict[str, Any]) -> CellShape:
    words = raw.get("words", 1)
    words = 10_000 if words == "many" else int(words)
    default = r"\S+(?: \S+)*" if words > 1 else r"\S+"
    try:
        pattern = re.compile(raw.get("pattern", default))
    except re.error as exc:
        raise CatalogError(f"kinds.yaml: cell shape {name!r}: {exc}") from exc
    return CellShape(pattern, words, bool(raw.get("empty", False)), bool(raw.get("blank_first", False)))


@cache
def catalog() -> Catalog:
    """The packaged catalog, loaded and checked once."""
    text = resources.files("analyzer.ingest.text").joinpath("kinds.yaml").read_text(encoding="utf-8")
    return Catalog(load_yaml(text))
