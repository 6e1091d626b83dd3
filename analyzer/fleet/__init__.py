"""Fleet scale: many dumps analysed on Dask into one Parquet dataset and a fleet report.

Usage (a LocalCluster of 2 worker processes; `client=` takes an existing Client)::

    from analyzer.fleet import run
    result = run(["dumps/a.tar.gz", "dumps/b"], "fleet-out", scheduler="local", workers=2)
    pods = pandas.read_parquet("fleet-out/tables/pods")   # every dump's pods, with dump_id
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
