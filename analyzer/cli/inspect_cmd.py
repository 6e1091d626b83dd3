"""`kda inspect`: what a dump holds, what could not be read, and what it does not cover."""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Annotated, Any

import typer

from analyzer.cli.common import EXIT_STRICT, err_console, load_cluster, write_output

# A failure of ours on some input: reported in one line, never as a traceback.
EXIT_INTERNAL = 3


class InspectFormat(StrEnum):
    text = "text"
    json = "json"


def inspect_summary(cluster: Any) -> dict[str, Any]:
    """The JSON contract, with the split of rejections into object-level and input-level ones."""
    return cluster.summary()


def inspect(
    inputs: Annotated[list[str], typer.Argument(help="Dump files, folders, archives, or - for stdin.")],
    format: Annotated[InspectFormat, typer.Option("--format", "-f", help="text or json")] = InspectFormat.text,
    strict: Annotated[bool, typer.Option(help="Exit 1 if anything was rejected.")] = False,
) -> None:
    """Summarise what was read: formats, objects by kind, rejections, coverage, logs, distribution.

    Exit codes: 0 something was read; 2 nothing at all could be read; 1 with --strict when
    anything was rejected; 3 on an internal error (reported in one line, please file it).
    """
    from analyzer.model.summary import summary_text

    try:
        cluster = load_cluster(inputs)
        if format is InspectFormat.json:
            text = json.dumps(inspect_summary(cluster), indent=2, sort_keys=True, default=str)
        else:
            text = summary_text(cluster)
    except typer.Exit:
        raise
    except Exception as exc:  # the user gets one line, not a traceback
        err_console.print(f"[bold red]internal error[/bold red] reading {', '.join(inputs)}: "
                          f"{type(exc).__name__}: {exc}")
        raise typer.Exit(EXIT_INTERNAL) from None
    write_output(text, None)
    if strict and cluster.ingest.rejections:
        raise typer.Exit(EXIT_STRICT)


def register(app: typer.Typer) -> None:
    app.command("inspect")(inspect)
