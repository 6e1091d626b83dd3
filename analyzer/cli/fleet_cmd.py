"""`kda fleet`: many dumps on Dask into a Parquet dataset, fleet.json and fleet.html."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from analyzer.cli.common import err_console, fail

EXIT_USAGE = 2
EXIT_SOME_FAILED = 1


def fleet(
    dumps: Annotated[list[str], typer.Argument(
        help="Dumps: files, folders or archives; each one is one cluster.")],
    output: Annotated[Path, typer.Option(
        "--output", "-o", help="Output folder: tables/, findings/, dumps.parquet, "
        "manifest.json, fleet.json, fleet.html.")],
    scheduler: Annotated[str, typer.Option(
        "--scheduler", help="'local' starts a LocalCluster; otherwise a Dask scheduler "
        "address such as tcp://10.0.0.5:8786.")] = "local",
    workers: Annotated[int | None, typer.Option(
        "--workers", "-w", min=1, help="Worker processes of the local cluster "
        "(default: one per core).")] = None,
    force: Annotated[bool, typer.Option(
        "--force", help="Analyse every dump again, even those the manifest has done.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Analyse many dumps on Dask: one task per dump, results as a Parquet dataset and a report.

    Re-running skips the dumps already in the output's manifest (by content hash) unless --force.
    Query the dataset with pandas (pd.read_parquet("OUT/tables/pods")), Dask, or DuckDB
    (read_parquet('OUT/tables/pods/*/*.parquet', hive_partitioning=true)).
    """
    from analyzer.errors import AnalyzerError
    from analyzer.fleet import run

    if scheduler != "local" and workers is not None:
        fail("--workers applies to --scheduler local only; an existing scheduler has its own",
             EXIT_USAGE)
    try:
        result = run(dumps, output, scheduler=scheduler, workers=workers, force=force,
                     progress=not quiet)
    except AnalyzerError as exc:
        fail(str(exc), EXIT_USAGE)
    except OSError as exc:  # e.g. the scheduler address does not answer
        fail(f"{scheduler}: {exc}", EXIT_USAGE)
    for bad in result.failed:
        err_console.print(f"[red]failed[/red] {bad.path}: {bad.error_type}: {bad.error}")
    err_console.print(
        f"{len(result.ok)} analysed, {len(result.skipped)} skipped (already done), "
        f"{len(result.duplicates)} identical copies, "
        f"{len(result.failed)} failed in {result.seconds:.1f}s; dataset of "
        f"{result.report['dumps']} dump(s) in {output} (fleet.html, fleet.json, tables/)")
    if result.failed:
        raise typer.Exit(EXIT_SOME_FAILED)


def register(app: typer.Typer) -> None:
    app.command("fleet")(fleet)
