"""What a describe reader may know beyond the describe's entries."""

from __future__ import annotations

from dataclasses import dataclass

from analyzer.text.catalog import Catalog
from analyzer.text.lines import Line


@dataclass(frozen=True, slots=True)
class DescribeContext:
    """The catalog, the describe's lines as written, and the line of its `Name:`."""

    catalog: Catalog
    line: int
    lines: tuple[Line, ...] = ()
