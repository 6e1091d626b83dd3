"""ConfigMap, Secret and ServiceAccount rows: only counts, never values (the API keeps the data)."""

from __future__ import annotations

from typing import Any

from analyzer.ingest.text.rows.context import RowContext
from analyzer.ingest.text.values import integer


def read_counted(body: dict[str, Any], cells: dict[str, str | None], facts: dict[str, Any],
                 ctx: RowContext | None) -> None:
    """Keep DATA / SECRETS counts as facts; a Secret's values are never in text tables anyway.

    >>> facts = {}; read_counted({}, {"DATA": "3"}, facts, None); facts
    {'data_count': 3}
    """
    if (data := integer(cells.get("DATA"))) is not None:
        facts["data_count"] = data
    if (secrets := integer(cells.get("SECRETS"))) is not None:
        facts["secrets_count"] = secrets


READERS = {"ConfigMap": read_counted, "Secret": read_counted, "ServiceAccount": read_counted}
