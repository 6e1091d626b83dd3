"""`kda inspect`: what a dump holds, what could not be read, and what it does not cover."""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Annotated

import typer

from analyzer.cli.common import EXIT_STRICT, load_cluster, write_output


class InspectFormat(StrEnum):
    text = "text"
    json = "json"


def inspect(
    inputs: Annotated[list[str], typer.Argument(help="Dump files, folders, archives, or - for stdin.")],
    format: Annotated[InspectFormat, typer.Option("--format", "-f", help="text or json")] = InspectFormat.text,
    strict: Annotated[bool, typer.Option(help="Exit 1 if anything was rejected.")] = False,
) -> None:
    """Summarise what was read: formats, objects by kind, rejections, coverage, logs, distribution."""
    from analyzer.model.summary import summary_text

    cluster = load_cluster(inputs)
    if format is InspectFormat.json:
        write_output(json.dumps(cluster.summary(), indent=2, sort_keys=True, default=str), None)
    else:
        write_output(summary_text(cluster), None)
    if strict and cluster.ingest.rejections:
        raise typer.Exit(EXIT_STRICT)


def register(app: typer.Typer) -> None:
    app.command("inspect")(inspect)
