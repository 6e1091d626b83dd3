"""`kda timeline`: every dated fact of a dump, in time order, each with its source."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from analyzer.cli.common import SHOW_SENSITIVE_HELP, fail, load_cluster, write_output


class TimelineFormat(StrEnum):
    text = "text"
    json = "json"
    csv = "csv"
    markdown = "markdown"


def timeline(
    inputs: Annotated[list[str], typer.Argument(help="Dump files, folders, archives, or - for stdin.")],
    since: Annotated[str | None, typer.Option("--since", help="Only what happened in this long before the capture (30m, 6h, 2d).")] = None,
    namespace: Annotated[str | None, typer.Option("--namespace", "-n", help="Only facts about objects of this namespace.")] = None,
    format: Annotated[TimelineFormat, typer.Option("--format", "-f", help="text, json, csv or markdown")] = TimelineFormat.text,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write to this file instead of stdout.")] = None,
    show_sensitive: Annotated[bool, typer.Option("--show-sensitive", help=SHOW_SENSITIVE_HELP)] = False,
) -> None:
    """What happened when: creations, deletions, condition transitions, container starts and
    terminations, events, taints, lease renewals, and the spans they add up to (a node
    restarting, an install), oldest first."""
    from analyzer.timeline import parse_duration, select
    from analyzer.timeline.render import render

    try:
        period = parse_duration(since) if since is not None else None
    except ValueError as exc:
        fail(f"--since: {exc}")
        return
    cluster = load_cluster(inputs, show_sensitive=show_sensitive,
                           json_output=format is TimelineFormat.json)
    if period is not None and cluster.capture_time is None:
        fail("--since: the dump's capture time is unknown (it holds no timestamp to count from)")
    frame = select(cluster.timeline, since=period, namespace=namespace,
                   capture=cluster.capture_time)
    write_output(render(frame, format.value), output)


def register(app: typer.Typer) -> None:
    """Add `kda timeline`."""
    app.command("timeline")(timeline)
