"""What a describe reader may know beyond the describe's entries."""

from __future__ import annotations

from dataclasses import dataclass, field

from analyzer.ingest.text.catalog import Catalog
from analyzer.ingest.text.lines import Line


@dataclass(frozen=True, slots=True)
class DescribeContext:
    """The catalog, the describe's lines as written, the line of its `Name:`, and what a reader
    could not read (line, section, why), so that no section is dropped silently."""

    catalog: Catalog
    line: int
    lines: tuple[Line, ...] = ()
    unread: list[tuple[int, str, str]] = field(default_factory=list)
