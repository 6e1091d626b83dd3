"""`kda tables`: the typed tables of a dump as CSV, JSON, Parquet or Markdown."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from analyzer.cli.common import SHOW_SENSITIVE_HELP, err_console, fail, load_cluster, write_output

EXIT_USAGE = 2


class TableFormat(StrEnum):
    csv = "csv"
    json = "json"
    parquet = "parquet"
    markdown = "markdown"


def _overview(cluster) -> str:
    lines = [f"{'table':<18} {'rows':>8} {'columns':>8}"]
    for name in cluster.tables:
        df = cluster.tables[name]
        lines.append(f"{name:<18} {len(df):>8} {len(df.columns):>8}")
    lines.append("(choose one with --table NAME, or --table all -o DIR)")
    return "\n".join(lines)


def tables(
    inputs: Annotated[list[str] | None, typer.Argument(
        help="Dump files, folders, archives, or - for stdin.")] = None,
    table: Annotated[str | None, typer.Option(
        "--table", "-t", help="Table name, or 'all'. Without it, lists the tables.")] = None,
    format: Annotated[TableFormat, typer.Option(
        "--format", "-f", help="csv, json, parquet or markdown")] = TableFormat.csv,
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", help="Directory to write <table>.<ext> files into.")] = None,
    docs: Annotated[bool, typer.Option(
        "--docs", help="Print the tables' documentation (docs/tables.md) and exit.")] = False,
    show_sensitive: Annotated[bool, typer.Option("--show-sensitive", help=SHOW_SENSITIVE_HELP)] = False,
) -> None:
    """Write the typed tables of a dump (one table to stdout, or files into a directory)."""
    from analyzer.cluster.tables import table_names
    from analyzer.model.export import EXTENSIONS, render_table, tables_to

    if docs:
        from analyzer.cluster.tables import render_docs

        write_output(render_docs(), None)
        return
    if not inputs:
        fail("give at least one dump path (or - for stdin)", EXIT_USAGE)
    names = table_names()
    if table is not None and table != "all" and table not in names:
        fail(f"no table {table!r}; tables are: all, {', '.join(names)}", EXIT_USAGE)
    cluster = load_cluster(inputs, show_sensitive=show_sensitive, json_output=format is TableFormat.json)
    if table is None:
        write_output(_overview(cluster), None)
        return
    chosen = names if table == "all" else [table]
    if output is None:
        if len(chosen) > 1 or format is TableFormat.parquet:
            fail(f"--table {table} --format {format.value} writes files: give -o DIRECTORY",
                 EXIT_USAGE)
        write_output(render_table(cluster.tables[table], format.value), None)
        return
    if output.exists() and not output.is_dir():
        fail(f"{output} exists and is not a directory", EXIT_USAGE)
    written = tables_to(cluster, chosen, format.value, output)
    err_console.print(f"wrote {len(written)} table(s) to {output} "
                      f"(*.{EXTENSIONS[format.value]})")


def register(app: typer.Typer) -> None:
    app.command("tables")(tables)
