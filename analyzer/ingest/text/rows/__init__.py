"""Row readers: one per kind family, each turning a table row's cells into API fields."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from analyzer.ingest.text.rows import (
    apiservices,
    config,
    events,
    nodes,
    openshift,
    pods,
    ready,
    services,
    storage,
    workloads,
)
from analyzer.ingest.text.rows.context import RowContext

RowReader = Callable[[dict[str, Any], dict[str, str | None], dict[str, Any], RowContext], None]


def _registry() -> dict[str, RowReader]:
    readers: dict[str, RowReader] = {}
    for module in (apiservices, config, events, nodes, openshift, pods, ready, services, storage, workloads):
        for kind, reader in module.READERS.items():
            if kind in readers:
                raise ValueError(f"two row readers for {kind}: {module.__name__}")
            readers[kind] = reader
    return readers


READERS: dict[str, RowReader] = _registry()

__all__ = ["READERS", "RowContext", "RowReader"]
