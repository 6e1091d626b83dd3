"""The `kda` command: thin; each subcommand is a module here that parses options and calls the API.

Every module of this package that defines `register(app)` adds its commands; modules are
registered in name order, so adding a command touches only its own file.
"""

from __future__ import annotations

import atexit
import importlib
import os
import pkgutil
import sys
import threading
import warnings
from typing import NoReturn

import typer

app = typer.Typer(
    name="kda",
    help="kube-dump-analyzer: analyse Kubernetes cluster dumps offline.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # Plain click help: flags read as flags (`--force`, not `--force <bool>`), each description
    # is rewrapped as one paragraph, and `--help` does not import Rich's markdown renderer.
    rich_markup_mode=None,
)


@app.callback(invoke_without_command=True)
def _root(
    ctx: typer.Context,
    version: bool = typer.Option(False, "--version", is_eager=True, help="Print the version and exit."),
) -> None:
    """kube-dump-analyzer: analyse Kubernetes cluster dumps offline."""
    # Without invoke_without_command, click asks for a command before --version is looked at.
    if version:
        from analyzer.version import __version__

        typer.echo(f"kda {__version__}")
        raise typer.Exit()
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())
        raise typer.Exit(2)


def _register_commands() -> None:
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_") or info.name == "common":
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(app)


_register_commands()


def _first_sentences() -> None:
    # The command list shows each command's first sentence whole, on one paragraph; click would
    # cut it at about 45 characters, mid-word.
    for info in app.registered_commands:
        if info.short_help:
            continue
        doc = info.help or (info.callback.__doc__ if info.callback else None) or ""
        paragraph = " ".join(doc.strip().split("\n\n")[0].split())
        cut = paragraph.find(". ")
        info.short_help = paragraph[: cut + 1] if cut > 0 else paragraph


_first_sentences()


# What `kda` exits with when the system refuses a file the user named (an output folder that
# cannot be created, a full disk, no permission): the user's to fix, so no traceback.
EXIT_SYSTEM_REFUSED = 2


_ends_with_command = False


def main() -> None:
    """Entry point of the `kda` console script: runs the command, then exits without the
    interpreter's teardown (`exit_now`)."""
    global _ends_with_command
    _ends_with_command = True
    exit_now(run())


def process_ends_with_command() -> bool:
    """Whether this process ends when the command does (`kda`, not a test's or a notebook's
    call of the app): what the command keeps alive till then need never be collected."""
    return _ends_with_command


def run() -> int:
    """Run the command `sys.argv` names, in this process; its exit status."""
    if sys.argv[1:] == ["--version"]:
        # answered before the CLI library parses anything (its parameter layer imports pydantic)
        from analyzer.version import __version__

        sys.stdout.write(f"kda {__version__}\n")
        return 0
    warnings.formatwarning = _one_line
    try:
        app()
    except SystemExit as done:
        return _status(done.code)
    except OSError as exc:
        from analyzer.cli.common import err_console

        where = f"{exc.filename}: " if exc.filename else ""
        err_console.print(f"[bold red]error:[/bold red] {where}{exc.strerror or exc}", markup=True)
        return EXIT_SYSTEM_REFUSED
    return 0


_python_format = warnings.formatwarning


def _one_line(message: Warning | str, category: type[Warning], filename: str, lineno: int,
              line: str | None = None) -> str:
    """kda's own warnings (a rule that stopped on this dump) as one line for the user, not
    Python's file, line and source."""
    if category.__module__.startswith("analyzer."):
        return f"kda: warning: {message}\n"
    return _python_format(message, category, filename, lineno, line)


def _status(code: object) -> int:
    """The exit status `sys.exit(code)` gives: None is 0, a text is printed and is 1."""
    if code is None or isinstance(code, int):
        return code or 0
    sys.stderr.write(f"{code}\n")
    return 1


def exit_now(status: int) -> NoReturn:
    """Exit with `status` once the exit handlers have run and the output is flushed, skipping
    the rest of the interpreter's teardown: after a report on a 20,000-pod dump, freeing its
    million objects one by one and a last full collection take 0.6-0.7 s, for nothing (mypy
    leaves the same way). With another thread still running, Python's own exit waits for it."""
    if threading.active_count() > 1:
        sys.exit(status)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a reader that went away (`| head`), or a closed stream
            if status == 0:
                status = 1
    os._exit(status)
