"""What every command shares: reading inputs with a progress display, errors, output files."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.console import Console

from analyzer.errors import AnalyzerError

if TYPE_CHECKING:
    from analyzer.cluster import Cluster

# Human messages go to stderr so stdout stays clean for JSON and table output.
err_console = Console(stderr=True, highlight=False, soft_wrap=True)

EXIT_NOTHING_READ = 2
EXIT_STRICT = 1


def load_cluster(
    inputs: Sequence[str], name: str | None = None, show_sensitive: bool = False,
    json_output: bool = False,
) -> Cluster:
    """Read the inputs as one cluster; exit 2 with a message when nothing at all was read.

    With `json_output`, stdout still gets JSON then: the `kda inspect --format json` summary
    (objects 0, every rejection with file, place and reason) with an "error" key, so that a
    pipeline always has something to parse."""
    try:
        return read_cluster(inputs, name, show_sensitive)
    except NothingRead as exc:
        if json_output and exc.cluster is not None:
            write_json_summary(exc.cluster, str(exc))
        for line in exc.lines:
            err_console.print(line)
        fail(str(exc), EXIT_NOTHING_READ)
        raise  # (fail exits)


class NothingRead(AnalyzerError):
    """Not one object could be read from the inputs: why, and (as markup lines) what each file
    was refused or passed over for."""

    def __init__(self, message: str, lines: list[str], cluster: Cluster | None = None) -> None:
        super().__init__(message)
        self.lines = lines
        self.cluster = cluster


def read_cluster(inputs: Sequence[str], name: str | None = None, show_sensitive: bool = False) -> Cluster:
    """The inputs read as one cluster, or NothingRead when not one object could be read."""
    from analyzer.cluster import Cluster
    from analyzer.ingest import ingest

    try:
        result = ingest(*inputs)
    except AnalyzerError as exc:
        raise NothingRead(str(exc), []) from exc
    cluster = Cluster(result, name=name, show_sensitive=show_sensitive)
    if result.read_anything:
        return cluster
    # nothing refused, only passed over: say what each file held instead (`az aks show`)
    lines = rejected_lines(result.rejections, 20) if result.rejections else rejected_lines(
        result.skipped, 20, "[yellow]skipped[/yellow]")
    raise NothingRead("nothing could be read from " + ", ".join(inputs), lines, cluster)


def rejected_lines(records: Sequence[Any], limit: int, word: str = "[red]rejected[/red]") -> list[str]:
    """The first `limit` rejections (or skips) as markup lines: the word, file, place and reason."""
    from rich.markup import escape

    return [f"{word} {escape(f'{r.source} {r.location}: {r.reason}')}" for r in records[:limit]]


def write_json_summary(cluster: Cluster, error: str | None = None) -> None:
    """The inspect JSON contract on stdout (with the error, when the command cannot go on)."""
    import json

    summary = cluster.summary()
    if error is not None:
        summary["error"] = error
    write_output(json.dumps(summary, indent=2, sort_keys=True, default=str), None)


class FailOn(StrEnum):
    """How severe a failing finding must be for `--fail-on` to fail the command."""

    warning = "warning"
    critical = "critical"


SHOW_SENSITIVE_HELP = (
    "Show credential-looking values (tokens, passwords in event messages, annotations, "
    "evidence) instead of masking them. Secret data is never shown: it is not kept."
)


def fail(message: str, code: int = 1) -> None:
    """Print an error for the user (no traceback) and exit."""
    from rich.markup import escape

    # escaped: a message quoting "[a b]" (a list of containers, a path) is text, not markup
    err_console.print(f"[bold red]error:[/bold red] {escape(message)}")
    raise typer.Exit(code)


def write_output(text: str, output: Path | None) -> None:
    """Write text to a file, or to stdout when no file is given."""
    if output is None:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
        return
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(text, encoding="utf-8")
    err_console.print(f"wrote {output}")


def lower_bound_note(cluster: Any) -> str | None:
    """What an AGE measured from a capture that is only a lower bound means (kubectl measures it
    from now): None where the capture is dated by a heartbeat, a lease or a bundle."""
    from analyzer.ingest.result import capture_is_lower_bound

    if not capture_is_lower_bound(cluster) or cluster.capture.time is None:
        return None
    estimate = cluster.capture
    return (f"Warning: ages are measured from {estimate.time:%Y-%m-%dT%H:%M:%SZ} ({estimate.signal}), "
            f"{estimate.newest_words(estimate.time)}; it was captured then or later, so each age is at "
            "least what it shows")
