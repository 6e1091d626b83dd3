"""Fleet scale: many dumps analysed on Dask into one Parquet dataset and a fleet report.

>>> from analyzer.fleet import run                                   # doctest: +SKIP
>>> result = run(["dumps/a.tar.gz", "dumps/b"], "fleet-out", scheduler="local", workers=2)
>>> import pandas as pd; pd.read_parquet("fleet-out/tables/pods")    # every dump's pods
"""

from __future__ import annotations

from analyzer.fleet.dataset import FleetOutputError
from analyzer.fleet.identity import content_hash, dump_id, dump_name
from analyzer.fleet.report import build_report
from analyzer.fleet.runner import FleetResult, run
from analyzer.fleet.task import DumpResult, process_dump

__all__ = [
    "DumpResult", "FleetOutputError", "FleetResult", "build_report", "content_hash", "dump_id",
    "dump_name", "process_dump", "run",
]
