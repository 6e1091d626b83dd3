"""`kda logs`: a container log the dump holds, as `kubectl logs` picks it, a node's journal; or a search of them all."""

from __future__ import annotations

import re
import sys
from typing import Annotated

import typer

from analyzer.cli.common import SHOW_SENSITIVE_HELP, err_console, fail, load_cluster


def logs(
    dump: Annotated[str, typer.Argument(help="The dump (file, folder, archive, or - for stdin).")],
    pod: Annotated[str | None, typer.Argument(
        help="The pod (or pod/NAME), or node/NAME for the node's journal the dump holds (-c UNIT: one unit); not with --all.")] = None,
    namespace: Annotated[str | None, typer.Option(
        "--namespace", "-n", help="The pod's namespace (default: the only one that has a pod of that name).")] = None,
    container: Annotated[str | None, typer.Option("--container", "-c", help="The container (default: the pod's default or only one).")] = None,
    previous: Annotated[bool, typer.Option("--previous", "-p", help="The previous instance's log.")] = False,
    tail_lines: Annotated[int | None, typer.Option("--tail", help="Only the last N lines.")] = None,
    timestamps: Annotated[bool, typer.Option(
        "--timestamps", help="Each line after the time the container runtime stamped it with (a node's log files).")] = False,
    grep: Annotated[str | None, typer.Option("--grep", help="Only lines matching this regular expression.")] = None,
    all_logs: Annotated[bool, typer.Option("--all", help="Search every log of the dump (with --grep).")] = False,
    show_sensitive: Annotated[bool, typer.Option("--show-sensitive", help=SHOW_SENSITIVE_HELP)] = False,
) -> None:
    """Print a container log the dump holds, as kubectl logs picks it (the default container, else the only one), or a node's journal (node/NAME), or with --all --grep search every log and journal of the dump. Lines of known log signatures are coloured on a terminal and named on stderr."""
    from analyzer.printing.logs import LogError, find_log, resolve_pod_namespace, tail, with_stamps
    from analyzer.printing.store import DumpStore
    from analyzer.sensitive.masking import mask_sensitive

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
            known = None
            for number, line in enumerate(_lines(log.text), 1):
                if pattern.search(line):
                    if known is None:
                        known = _known_lines(log.text)
                    found += 1
                    shown = _shown(mask_sensitive(line, show_sensitive), pattern, color, known.get(number))
                    stamp = log.stamp(number) if timestamps else None
                    sys.stdout.write(f"{where}: {stamp + ' ' if stamp else ''}{shown}\n")
        for line in store.result.node_journal:
            if pattern.search(line.message):
                found += 1
                shown = _shown(mask_sensitive(_journal_text(line), show_sensitive), pattern, color, None)
                sys.stdout.write(f"node/{line.host} ({line.unit}): {shown}\n")
        if not store.result.logs and not store.result.node_journal:
            err_console.print("the dump holds no container logs and no node journal")
        raise typer.Exit(0 if found else 1)
    if pod and pod.startswith(("node/", "nodes/", "no/")):
        _node_journal(store.result.node_journal, pod.split("/", 1)[1], container, pattern, tail_lines, color,
                      show_sensitive)
        return
    name = pod.split("/", 1)[1] if pod and pod.startswith(("pod/", "pods/", "po/")) else pod
    try:
        ns = resolve_pod_namespace(store, name, namespace)
        log = find_log(store, ns, name, container, previous)
    except LogError as exc:
        fail(str(exc), 1)
        return
    if timestamps and not log.timestamped:
        err_console.print("the dump's log has no timestamps; lines are shown as saved")
    text = mask_sensitive(tail(with_stamps(log.text, log.stamps) if timestamps else log.text, tail_lines),
                          show_sensitive)
    known = _known_lines(text)
    out = []
    for number, line in enumerate(_lines(text), 1):
        if pattern is not None and not pattern.search(line):
            continue
        out.append(_shown(line, pattern, color, known.get(number)) + "\n")
    sys.stdout.write("".join(out))
    where = "/".join(part for part in (ns, name, log.container) if part)
    _summarise(known, f"{where}{' (previous)' if previous else ''}")


def _journal_text(line: object) -> str:
    """A journal line as journalctl printed it (its host, program and pid before the message), or
    as the component's own log file held it (klog's line alone)."""
    if getattr(line, "bare", False):
        return line.message  # type: ignore[attr-defined]
    pid = f"[{line.pid}]" if line.pid else ""  # type: ignore[attr-defined]
    return f"{line.stamp} {line.host} {line.program}{pid}: {line.message}"  # type: ignore[attr-defined]


def _node_journal(journal: list, node: str, unit: str | None, pattern: re.Pattern[str] | None,
                  tail_lines: int | None, color: bool, show_sensitive: bool) -> None:
    """Print the journal lines the dump holds of a node (its name, or the short hostname a
    journal prints for it, in any case), of one unit with -c; exit 1 naming the hosts it does hold."""
    from analyzer.ingest.journal import is_host_of
    from analyzer.sensitive.masking import mask_sensitive

    hosts = sorted({line.host for line in journal})
    host = node if node in hosts else next((h for h in hosts if is_host_of(h, node)), None)
    if host is None:
        fail(f"the dump holds no journal of node {node}" + (f" (it holds {', '.join(hosts)}'s)" if hosts else ""), 1)
    lines = [line for line in journal if line.host == host and (unit is None or line.unit == unit)]
    if not lines:
        units = sorted({line.unit for line in journal if line.host == host})
        fail(f"the journal of node {host} holds no line of unit {unit} (it holds {', '.join(units)})", 1)
    if tail_lines is not None and tail_lines >= 0:
        lines = lines[len(lines) - tail_lines:] if tail_lines else []
    sys.stdout.write("".join(_shown(mask_sensitive(_journal_text(line), show_sensitive), pattern, color, None) + "\n"
                             for line in lines if pattern is None or pattern.search(line.message)))


# How a line that a log signature matches is marked on a terminal, by the signature's severity.
_SEVERITY_STYLE = {"critical": "\x1b[1;31m", "warning": "\x1b[33m", "info": "\x1b[36m"}
_GREP_STYLE = "\x1b[1;4m"
_RESET = "\x1b[0m"


def _lines(text: str) -> list[str]:
    """A log's lines as its signatures and runtime times number them: split at "\\n" only (a
    line may hold a "\\r" of a progress bar, printed as kubectl prints it)."""
    lines = text.split("\n")
    return lines[:-1] if lines[-1] == "" else lines


def _known_lines(text: str) -> dict[int, object]:
    """Line number -> the catalogued log signature it matches (analyzer/model/data/log_signatures.yaml)."""
    from analyzer.model.logsignatures import match_log

    return {m.line: m for m in match_log(text)}


def _shown(line: str, pattern: re.Pattern[str] | None, color: bool, known: object | None) -> str:
    # On a terminal, a line of a known signature is coloured by its severity and --grep matches are
    # underlined; piped output stays the log's own text.
    if not color:
        return line
    if pattern is not None:
        line = pattern.sub(lambda m: f"{_GREP_STYLE}{m.group(0)}{_RESET}", line)
    if known is not None:
        style = _SEVERITY_STYLE.get(known.signature.severity, "")
        line = f"{style}{line.replace(_RESET, _RESET + style)}{_RESET}"
    return line


def _summarise(known: dict[int, object], where: str) -> None:
    """Name the known signatures of a log on stderr (stdout keeps the log alone)."""
    if not known:
        return
    from rich.markup import escape

    by_id: dict[str, list[int]] = {}
    for number, m in sorted(known.items()):
        by_id.setdefault(m.signature.id, []).append(number)
    err_console.print(f"{len(known)} line(s) of {escape(where)} match known log signatures:")
    for sig_id, numbers in by_id.items():
        sig = known[numbers[0]].signature
        lines = ", ".join(map(str, numbers[:5])) + (f" and {len(numbers) - 5} more" if len(numbers) > 5 else "")
        err_console.print(f"  {escape(sig_id)} ({sig.severity}), line {lines}: {escape(known[numbers[0]].meaning)}")


def register(app: typer.Typer) -> None:
    """Add `kda logs`."""
    app.command(name="logs")(logs)
