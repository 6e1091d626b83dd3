"""`kda diff OLD NEW`: what changed between two dumps of one cluster."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from analyzer.cli.common import SHOW_SENSITIVE_HELP, err_console, fail, load_cluster, write_output

EXIT_DIFFERENT_CLUSTERS = 2
SUFFIXES = {"text": "txt", "json": "json", "markdown": "md", "html": "html"}


class DiffFormat(StrEnum):
    text = "text"
    json = "json"
    markdown = "markdown"
    html = "html"


def diff(
    old: Annotated[str, typer.Argument(help="The earlier dump: file, folder, archive, or - for stdin.")],
    new: Annotated[str, typer.Argument(help="The later dump: file, folder, archive, or - for stdin.")],
    format: Annotated[DiffFormat, typer.Option("--format", "-f", help="text, json, markdown or html")] = DiffFormat.text,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write diff.<format> into this folder instead of stdout.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Compare even when the dumps are clearly of different clusters.")] = False,
    show_sensitive: Annotated[bool, typer.Option("--show-sensitive", help=SHOW_SENSITIVE_HELP)] = False,
) -> None:
    """Compare two dumps of one cluster: objects added, removed and changed (field by field),
    pods a controller made again (a rollout, a drained node), versions, capacity, restarts
    gained, findings new/resolved/open.

    First checks that both are the same cluster (kube-system uid, cluster CA, providerIDs,
    cluster-name labels, ...); exit 2 when they are clearly not, unless --force.
    """
    from analyzer.diff import DifferentClusters
    from analyzer.diff import diff as compare
    from analyzer.diff.render import render

    if old == "-" and new == "-":
        fail("only one of OLD and NEW can be read from stdin")
    as_json = format is DiffFormat.json  # an unreadable side still prints its summary as JSON
    before = load_cluster([old], show_sensitive=show_sensitive, json_output=as_json)
    after = load_cluster([new], show_sensitive=show_sensitive, json_output=as_json)
    try:
        result = compare(before, after, force=force)
    except DifferentClusters as exc:
        fail(f"{exc}; pass --force to compare them anyway", EXIT_DIFFERENT_CLUSTERS)
        return
    verdict = result.same_cluster
    if verdict["verdict"] != "same":
        err_console.print(f"[yellow]warning:[/yellow] same cluster? {verdict['verdict']} "
                          f"(confidence {verdict['confidence']:.2f}); read the evidence before the changes")
    then, now = result.old["capture_time"], result.new["capture_time"]
    if then and now and now < then:
        err_console.print(f"[yellow]warning:[/yellow] NEW was captured ({now}) before OLD ({then}): "
                          "added and removed read the other way round")
    text = render(result.to_dict(), format.value)
    if output is not None:
        output.mkdir(parents=True, exist_ok=True)
        write_output(text, output / f"diff.{SUFFIXES[format.value]}")
    else:
        write_output(text, None)


def register(app: typer.Typer) -> None:
    """Add `kda diff`."""
    app.command("diff")(diff)
