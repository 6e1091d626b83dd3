"""`kda redact`: a sanitised copy of a dump in the same form, and what was replaced."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated

import typer

from analyzer.cli.common import err_console, fail, write_output
from analyzer.errors import AnalyzerError

EXIT_REDACT_FAILED = 2
EXIT_INTERNAL = 3
EXIT_DIFFERENT = 1  # the copy was written, but does not read like the original


def redact(
    input: Annotated[Path, typer.Argument(help="A dump folder, file or archive.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="Where the redacted copy goes (a new path).")],
    map_file: Annotated[Path | None, typer.Option("--map", help="Also write original -> pseudonym (JSON). SENSITIVE.")] = None,
    names: Annotated[bool, typer.Option("--names", help="Also replace namespace and object names.")] = False,
    key: Annotated[str | None, typer.Option(
        "--key", envvar="KDA_REDACT_KEY",
        help="Secret key for repeatable pseudonyms (same key, same pseudonyms). Default: random per run.")] = None,
    json_report: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Write a redacted copy: Secret values dropped, credentials masked, IPs, host/node/domain
    names, cloud ids and cluster names replaced by consistent pseudonyms, same format and layout.

    The copy is read back: exit 1 (with a warning) if it does not hold the same objects and logs.
    Exit 2: input missing or output taken; 3: internal error (no copy left behind).
    """
    from analyzer.redact import redact_dump

    try:
        report = redact_dump(input, output, map_file=map_file, names=names,
                             key=key.encode() if key else None)
    except AnalyzerError as exc:
        fail(str(exc), EXIT_REDACT_FAILED)
        return
    except OSError as exc:
        fail(f"{exc.filename or input}: {exc.strerror or exc}", EXIT_REDACT_FAILED)
        return
    except Exception as exc:  # a failure of ours: one line, never a traceback, nothing half-shared
        fail(f"internal error redacting {input}: {type(exc).__name__}: {exc} (no copy written; please report it)",
             EXIT_INTERNAL)
        return
    data = report.to_dict()
    if json_report:
        write_output(json.dumps(data, indent=2, sort_keys=True), None)
    else:
        lines = [f"redacted copy: {report.output} ({report.files} files)",
                 f"  secrets scrubbed: {report.secrets_scrubbed}"]
        for category, count in data["replacements"].items():
            if category == "credential":  # masked values are never kept, so never counted apart
                lines.append(f"  {category}: {count} masked")
            else:
                lines.append(f"  {category}: {count} replacements of {data['distinct'].get(category, 0)} values")
        for path in data["dropped"]:
            lines.append(f"  left out (not text, cannot be checked): {path}")
        for path in data["links_skipped"]:
            lines.append(f"  left out (a link out of the dump): {path}")
        for path in data["paths_refused"]:
            lines.append(f"  left out (its path leaves the archive): {path}")
        write_output("\n".join(lines), None)
    for kind, (before, after) in data["differences"].items():
        err_console.print(f"[yellow]warning:[/yellow] the copy reads {after} {kind} where the original has {before}")
    if map_file is not None:
        err_console.print(f"[yellow]warning:[/yellow] {map_file} maps pseudonyms back to the real values: "
                          "keep it as private as the original dump")
        os.chmod(map_file, 0o600)
    if data["differences"]:
        raise typer.Exit(EXIT_DIFFERENT)


def register(app: typer.Typer) -> None:
    """Add `kda redact`."""
    app.command(name="redact")(redact)
