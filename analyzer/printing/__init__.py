"""What kubectl shows of a dump: resources, server-side tables, describe, selectors.

One printing code for `kda get/describe/logs` and `kda serve`, so the two cannot drift.
"""

from __future__ import annotations

from analyzer.printing.resources import Resource, ResourceCatalog
from analyzer.printing.store import DumpStore, NotCollected
from analyzer.printing.tables import Table, build_table, render_table

__all__ = ["DumpStore", "NotCollected", "Resource", "ResourceCatalog", "Table", "build_table", "render_table"]
