"""The logs table: an index of the captured container logs (the text stays in cluster.logs)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from analyzer.model.frame import empty_columns, to_frame

if TYPE_CHECKING:
    from analyzer.ingest.dump import Dump


def build(cluster: Dump) -> dict[str, pd.DataFrame]:
    """The logs table."""
    g = empty_columns("logs")
    for log in cluster.logs:
        g["namespace"].append(log.namespace)
        g["pod"].append(log.pod)
        g["container"].append(log.container)
        g["previous"].append(log.previous)
        g["lines"].append(log.line_count)
        g["bytes"].append(len(log.text.encode()))
        g["source"].append(log.source)
    return {"logs": to_frame("logs", g, cluster.capture_time,
                             ["namespace", "pod", "container", "previous"])}
