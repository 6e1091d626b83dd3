"""The view of a dump the stages above the model read: the ingested dump and its typed tables."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

from analyzer.ingest.dump import Dump

if TYPE_CHECKING:
    import pandas as pd


class ModeledDump(Dump, Protocol):
    """A dump with its tables: table name -> DataFrame, each built on first access."""

    @property
    def tables(self) -> Mapping[str, pd.DataFrame]: ...
