"""The rejections table: what ingestion could not read, and why."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from analyzer.model.frame import empty_columns, to_frame

if TYPE_CHECKING:
    from analyzer.ingest.dump import Dump


def build(cluster: Dump) -> dict[str, pd.DataFrame]:
    """The rejections table, in the order ingestion met them."""
    r = empty_columns("rejections")
    for rejection in cluster.ingest.rejections:
        r["source"].append(rejection.source)
        r["location"].append(rejection.location)
        r["reason"].append(rejection.reason)
    return {"rejections": to_frame("rejections", r, cluster.capture_time)}
