"""`kda serve`: dumps as a read-only Kubernetes API on 127.0.0.1, with a kubeconfig for kubectl."""

from __future__ import annotations

import os
import socket
import tempfile
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from analyzer.cli.common import (
    EXIT_NOTHING_READ,
    SHOW_SENSITIVE_HELP,
    NothingRead,
    err_console,
    fail,
    read_cluster,
    rejected_lines,
)


def serve(
    inputs: Annotated[list[str], typer.Argument(help="Dumps to serve (one kubeconfig context each); - for stdin.")],
    port: Annotated[int, typer.Option("--port", "-p", help="Port on 127.0.0.1; 0 picks a free one.")] = 0,
    kubeconfig: Annotated[Path | None, typer.Option(
        "--kubeconfig", help="Where to write the kubeconfig (default: a new file in a temporary folder).")] = None,
    redact: Annotated[bool, typer.Option(
        "--redact", help="Serve the redacted view, with the same pseudonyms as `kda redact` given the same --key.")] = False,
    key: Annotated[str | None, typer.Option(
        "--key", envvar="KDA_REDACT_KEY", help="Pseudonym key for --redact (default: random per run).")] = None,
    show_sensitive: Annotated[bool, typer.Option("--show-sensitive", help=SHOW_SENSITIVE_HELP)] = False,
) -> None:
    """Serve dumps as a read-only Kubernetes API, so kubectl, client libraries and informer-based
    tools work on them offline. Prints the address and the `export KUBECONFIG=...` line, then
    runs until interrupted (Ctrl-C). Writes are refused; kinds the dump did not collect say so."""
    import uvicorn

    from analyzer.printing.store import DumpStore
    from analyzer.serve import build_app, context_names, write_kubeconfig

    workdir = Path(tempfile.mkdtemp(prefix="kda-serve-"))
    stores = []
    unread = []
    for spec in inputs:
        # one dump that cannot be read is said and passed over: the others are still served
        try:
            source = _redacted_copy(spec, workdir, key) if redact else spec
            cluster = read_cluster([source], name=_dump_name(spec), show_sensitive=show_sensitive)
        except NothingRead as exc:
            for line in exc.lines:
                err_console.print(line)
            err_console.print(f"[bold red]not served:[/bold red] {escape(str(exc))}")
            unread.append(spec)
            continue
        refused = cluster.ingest.rejections
        if refused:
            # served all the same, with what could not be read of it said
            for line in rejected_lines(refused, 5):
                err_console.print(line)
            more = f" ({len(refused) - 5} more: kda inspect lists them)" if len(refused) > 5 else ""
            err_console.print(f"[yellow]served in part:[/yellow] {escape(spec)}: {len(refused)} "
                              f"{'place' if len(refused) == 1 else 'places'} could not be read{more}")
        store = DumpStore.from_cluster(cluster)
        store.warm()
        stores.append(store)
    if not stores:
        fail("nothing could be read from " + ", ".join(inputs), EXIT_NOTHING_READ)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(("127.0.0.1", port))
    except OSError as exc:
        fail(f"cannot listen on 127.0.0.1:{port}: {exc.strerror or exc}", 2)
    address = f"127.0.0.1:{sock.getsockname()[1]}"
    base_url = f"http://{address}"
    contexts = context_names(stores)
    config_path = write_kubeconfig(kubeconfig or workdir / "kubeconfig", base_url, contexts)
    app = build_app(stores, address)
    for ctx, store in zip(contexts, stores, strict=True):
        err_console.print(f"serving {store.name} as context [bold]{ctx}[/bold] at {base_url}/dumps/{ctx}")
    typer.echo(f"export KUBECONFIG={config_path}", err=False)
    if unread:
        err_console.print(f"[bold red]not served[/bold red] (could not be read): {escape(', '.join(unread))}")
    err_console.print("read-only; Ctrl-C stops")
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=1, lifespan="off")
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except KeyboardInterrupt:
        pass  # uvicorn shut down gracefully, then passed the Ctrl-C on
    finally:
        sock.close()
    err_console.print("stopped")


def _dump_name(spec: str) -> str | None:
    if spec == "-":
        return "stdin"
    p = Path(spec.rstrip("/"))
    name = p.name
    for suffix in (".gz", ".tgz", ".xz", ".tar", ".zip", ".json", ".yaml", ".yml", ".txt"):
        name = name.removesuffix(suffix)
    return name or None


def _redacted_copy(spec: str, workdir: Path, key: str | None) -> str:
    """A redacted copy of one dump made as `kda redact` makes it (same key, same pseudonyms)."""
    from analyzer.errors import AnalyzerError
    from analyzer.redact import redact_dump

    if spec == "-":
        fail("--redact needs a dump file or folder, not stdin", 2)
    src = Path(spec)
    out = workdir / f"redacted-{len(list(workdir.iterdir()))}" / (src.name or "dump")
    try:
        redact_dump(src, out, key=key.encode() if key else os.urandom(32))
    except AnalyzerError as exc:
        raise NothingRead(str(exc), []) from exc
    return str(out)


def register(app: typer.Typer) -> None:
    """Add `kda serve`."""
    app.command(name="serve")(serve)
