"""What a row reader may know beyond its cells: the catalog, the row's namespace and line."""

from __future__ import annotations

from dataclasses import dataclass

from analyzer.ingest.text.catalog import Catalog


@dataclass(frozen=True, slots=True)
class RowContext:
    """The catalog (to name kinds a cell refers to), the row's namespace if told, its line."""

    catalog: Catalog
    namespace: str | None
    line: int = 0
