"""`kda logs`: a container log the dump holds, as `kubectl logs` picks it; or a search of them all."""

from __future__ import annotations

import re
import sys
from typing import Annotated

import typer

from analyzer.cli.common import SHOW_SENSITIVE_HELP, err_console, fail, load_cluster


def logs(
    dump: Annotated[str, typer.Argument(help="The dump (file, folder, archive, or - for stdin).")],
    pod: Annotated[str | None, typer.Argument(help="The pod (or pod/NAME); not with --all.")] = None,
    namespace: Annotated[str | None, typer.Option(
        "--namespace", "-n", help="The pod's namespace (default: the only one that has a pod of that name).")] = None,
    container: Annotated[str | None, typer.Option("--container", "-c", help="The container (default: the pod's default or only one).")] = None,
    previous: Annotated[bool, typer.Option("--previous", "-p", help="The previous instance's log.")] = False,
    tail_lines: Annotated[int | None, typer.Option("--tail", help="Only the last N lines.")] = None,
    grep: Annotated[str | None, typer.Option("--grep", help="Only lines matching this regular expression.")] = None,
    all_logs: Annotated[bool, typer.Option("--all", help="Search every log of the dump (with --grep).")] = False,
    show_sensitive: Annotated[bool, typer.Option("--show-sensitive", help=SHOW_SENSITIVE_HELP)] = False,
) -> None:
    """Print a container log the dump holds, as kubectl logs picks it (the default container, else the only one), or with --all --grep search every log of the dump."""
    from analyzer.printing.logs import LogError, find_log, resolve_pod_namespace, tail
    from analyzer.printing.store import DumpStore
    from analyzer.redact.masking import mask_sensitive

    pattern = None
    if grep is not None:
        try:
            pattern = re.compile(grep)
        except re.error as exc:
            fail(f"--grep {grep!r} is not a regular expression: {exc}", 2)
    if all_logs == (pod is not None):
        fail("give a POD, or --all (with --grep) to search every log", 2)
    store = DumpStore.from_cluster(load_cluster([dump], show_sensitive=show_sensitive))
    color = sys.stdout.isatty()
    if all_logs:
        if pattern is None:
            fail("--all needs --grep RE (to print every log whole, name the pod)", 2)
        found = 0
        for log in store.result.logs:
            if namespace and log.namespace != namespace:
                continue
            where = f"{log.namespace}/{log.pod}/{log.container}{' (previous)' if log.previous else ''}"
            for line in log.text.splitlines():
                if pattern.search(line):
                    found += 1
                    sys.stdout.write(f"{where}: {_shown(mask_sensitive(line, show_sensitive), pattern, color)}\n")
        if not store.result.logs:
            err_console.print("the dump holds no container logs")
        raise typer.Exit(0 if found else 1)
    name = pod.split("/", 1)[1] if pod and pod.startswith(("pod/", "pods/", "po/")) else pod
    try:
        ns = resolve_pod_namespace(store, name, namespace)
        log = find_log(store, ns, name, container, previous)
    except LogError as exc:
        fail(str(exc), 1)
        return
    text = mask_sensitive(tail(log.text, tail_lines), show_sensitive)
    if pattern is not None:
        text = "".join(_shown(line, pattern, color) + "\n" for line in text.splitlines() if pattern.search(line))
    sys.stdout.write(text if not text or text.endswith("\n") else text + "\n")


def _shown(line: str, pattern: re.Pattern[str], color: bool) -> str:
    # matches stand out on a terminal; piped output stays plain text
    if not color:
        return line
    return pattern.sub(lambda m: f"\x1b[1;31m{m.group(0)}\x1b[0m", line)


def register(app: typer.Typer) -> None:
    """Add `kda logs`."""
    app.command(name="logs")(logs)
