"""`kda inspect`: what a dump holds, what could not be read, and what it does not cover."""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Annotated, Any

import typer

from analyzer.cli.common import EXIT_NOTHING_READ, EXIT_STRICT, err_console, write_output

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

    The summary is printed whatever happens (with --format json, always one JSON document).
    Exit codes: 0 objects (or only container logs, nothing rejected) were read; 2 no object could be read; 1 with --strict
    when anything was rejected (a file that looks like data among it); 3 on an internal error
    (reported in one line, please file it).
    """
    from analyzer.cluster import Cluster
    from analyzer.cluster.summary import summary_text
    from analyzer.ingest import ingest

    try:
        result = ingest(*inputs)
        cluster = Cluster(result)
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
    for warning in result.warnings:
        err_console.print(f"[bold yellow]warning:[/bold yellow] {warning}", markup=True)
    if not result.objects:
        for r in result.rejections[:20]:
            err_console.print(f"[red]rejected[/red] {r.source} {r.location}: {r.reason}")
        # logs alone are a dump, and so are kubectl's quoted refusals; beside lost objects not
        if not result.read_anything or result.rejections:
            err_console.print("[bold red]error:[/bold red] no object could be read from " + ", ".join(inputs))
            raise typer.Exit(EXIT_NOTHING_READ)
        if result.logs:
            err_console.print(f"[bold yellow]note:[/bold yellow] no object in {', '.join(inputs)}, only container "
                              "logs: `kda logs DUMP POD` prints one, `kda logs --all --grep RE DUMP` searches them")
        else:
            said = " and ".join(["what kubectl quoted the API server refusing"] * result.quotes_refusals
                                + ["what `kubectl rollout status` said of the rollouts it watched"]
                                * bool(result.rollout_verdicts)
                                + ["the certificates `kubeadm certs check-expiration` listed"]
                                * bool(result.certificate_expiries)
                                + ["what `kubeadm upgrade` said of its runs"] * bool(result.kubeadm_upgrades)
                                + ["the nodes' journal lines (`journalctl -u kubelet`)"] * bool(result.node_journal))
            err_console.print(f"[bold yellow]note:[/bold yellow] no object in {', '.join(inputs)}, only {said}: "
                              "`kda findings DUMP` reads it")
    if strict and result.rejections:
        raise typer.Exit(EXIT_STRICT)


def register(app: typer.Typer) -> None:
    app.command("inspect")(inspect)
