"""The model: typed pandas tables built from the ingested objects, one builder per kind family.

This package imports nothing heavy at load time (`kda --help` and `kda inspect` need no pandas):
the registry and the builders load on first use. The Cluster adds the tables other stages build
(`analyzer/cluster/tables.py`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

    from analyzer.ingest.dump import Dump

__all__ = ["build_table", "table_names"]


def table_names() -> list[str]:
    """Every table name that can be built, in a stable order."""
    from analyzer.model.registry import table_names as names

    return names()


def build_table(name: str, cluster: Dump) -> pd.DataFrame:
    """Table `name` of the cluster (built once per cluster, together with its family)."""
    from analyzer.model.registry import build_table as build

    return build(name, cluster)
