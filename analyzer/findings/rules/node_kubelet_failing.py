"""A node's kubelet that its journal shows cannot start (cgroup driver, swap, a flag, its config
or credentials, the runtime's socket) or cannot work (register, CNI, PLEG), once per node and
cause, with the lines that show it; history where a later line of the kubelet shows it got past.

The journal is what a ticket pastes (`journalctl -u kubelet`, `systemctl status kubelet`): its
lines are told to their host and unit at ingest (analyzer.ingest.journal); what each line means
is data (data/kubelet_journal.yaml). A healthy kubelet's start logs errors for seconds (node not
found, CNI not ready): a `lasting` reading counts only where it keeps coming to the journal's end.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from functools import cache

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import holds_a_paste
from analyzer.findings.types import Evidence, Finding, RuleMeta
from analyzer.findings.versions import DATA
from analyzer.ingest.journal import JournalLine, is_host_of
from analyzer.ingest.records import KubeObject
from analyzer.safeyaml import load_yaml

RULE = RuleMeta(
    id="node-kubelet-failing", title="kubelet cannot start or cannot work (node journal)", severity="critical",
    category="nodes",
    message="the kubelet on {host}{via} {state}: {meaning}; {seen}, the last {last}: {quote}",
    remediation="Fix what the line names on the node (the kubelet's config in /var/lib/kubelet/config.yaml and the "
    "unit's drop-ins, swap, the container runtime's config and socket, /etc/cni/net.d, the API server's "
    "address), then `systemctl daemon-reload && systemctl restart kubelet` and read `journalctl -u kubelet` again.",
)
# (a lasting reading's last line this close to the journal's last line of the kubelet: it still came)
_TO_THE_END = timedelta(minutes=1)
_RESTARTS = re.compile(r"restart counter is at (\d+)")


@dataclass(frozen=True, slots=True)
class Signature:
    id: str
    pattern: re.Pattern[str]
    meaning: str
    exits: bool
    generic: bool = False
    before_join: bool = False
    lasting: timedelta = timedelta(0)
    severity: str = "warning"
    cleared_by: re.Pattern[str] | None = None


@cache
def _catalog() -> tuple[frozenset[str], re.Pattern[str], tuple[Signature, ...]]:
    raw = load_yaml((DATA / "kubelet_journal.yaml").read_text(encoding="utf-8"))
    signatures = [Signature(s["id"], re.compile(s["pattern"]), s["meaning"], True, bool(s.get("generic")),
                            bool(s.get("before_join")))
                  for s in raw["exits"]]
    signatures += [Signature(s["id"], re.compile(s["pattern"]), s["meaning"], False,
                             lasting=_duration(s["lasting"]), severity=s.get("severity", "warning"),
                             cleared_by=re.compile(s["cleared_by"]) if s.get("cleared_by") else None)
                   for s in raw["lasting"]]
    return frozenset(raw["units"]), re.compile(raw["started"]), tuple(signatures)


def _duration(text: str) -> timedelta:
    number, unit = int(text[:-1]), text[-1]
    return timedelta(**{{"s": "seconds", "m": "minutes", "h": "hours"}[unit]: number})


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    journal: list[JournalLine] = list(getattr(cluster.ingest, "node_journal", None) or ())
    if not journal:
        if not holds_a_paste(cluster):
            yield RULE.not_applicable("the dump holds no node journal (`journalctl -u kubelet`)")
        return
    units, started, signatures = _catalog()
    nodes = {obj.name: obj for obj in cluster.objects_of("Node")}
    by_host: dict[tuple[str, str], list[JournalLine]] = {}
    for line in journal:
        if line.unit in units:
            by_host.setdefault((line.source, line.host), []).append(line)
    for (_source, host), lines in by_host.items():
        yield from _judge(host, _node_of(host, nodes), lines, started, signatures)


def _node_of(host: str, nodes: dict[str, KubeObject]) -> KubeObject | None:
    """The Node a journal's host is: its name, in any case, or its name's first label
    (analyzer.ingest.journal.is_host_of)."""
    if host in nodes:
        return nodes[host]
    matches = [obj for name, obj in nodes.items() if is_host_of(host, name)]
    return matches[0] if len(matches) == 1 else None


def _judge(host: str, node: KubeObject | None, lines: list[JournalLine], started: re.Pattern[str],
           signatures: tuple[Signature, ...]) -> Iterator[Finding]:
    read: list[tuple[JournalLine, Signature]] = []
    for line in lines:
        signature = next((s for s in signatures if s.pattern.search(line.message)), None)
        if signature is not None:
            read.append((line, signature))
    if not read:
        return
    order = {s: at for at, s in enumerate(signatures)}
    dated = all(line.year for line in lines)
    # One kubelet process is one start: its lines (server.go's line cut short by `systemctl
    # status`, then whole in the journal; a line quoted again) say one failure, by its most
    # telling reading, shown by the first line that says it.
    runs: dict[str, list[tuple[JournalLine, Signature]]] = {}
    for line, s in read:
        if s.exits:
            runs.setdefault(line.pid if line.program != "systemd" else f"systemd {line.line}", []).append((line, s))
    starts = []
    for run in runs.values():
        best = min((s for _, s in run), key=order.__getitem__)
        starts.append((best, [next(line for line, s in run if s is best)]))
    if any(not s.generic for s, _ in starts):
        starts = [(s, shown) for s, shown in starts if not s.generic]
    starts.sort(key=lambda run: run[1][-1].line)
    if starts:
        current = starts[-1][0]
        for signature in dict.fromkeys(s for s, _ in starts):
            failed = [shown for s, shown in starts if s is signature]
            shown = [line for run in failed for line in run]
            if signature is current:
                got_past = _first_after(lines, shown[-1], lambda ln: ln.program != "systemd"
                                        and started.search(ln.message) is not None)
                resolved = f"the kubelet started since: line {got_past.line} ({got_past.when}) says " \
                           f"'{_quote(got_past.message)}'" if got_past else _ready_later(node, shown[-1])
                if not resolved and signature.before_join and _listed_later(node, shown[-1]):
                    resolved = f"the node is registered in a later listing (line {node.provenance.line}): its " \
                               "kubelet started once kubeadm wrote its config"
            else:
                later = next(run for s, run in starts if s is current)
                resolved = f"a later start stopped for another reason (line {later[-1].line})"
            counter = _restart_counter(lines, shown[-1]) if signature is current else ""
            yield _finding(host, node, signature, shown, "cannot start", resolved,
                           f"{len(failed)} failed start(s) in the journal" + counter)
    for signature in dict.fromkeys(s for _, s in read if not s.exits):
        shown = [line for line, s in read if s is signature]
        first, last = _time(shown[0], dated), _time(shown[-1], dated)
        began = _run_began(lines, shown[-1], dated)
        if first is None or last is None or max(last - first, last - (began or last)) < signature.lasting:
            continue  # (seconds of it, seconds after its start: a kubelet starting, not one failing)
        clears = signature.cleared_by
        cleared = _first_after(lines, shown[-1], lambda ln, clears=clears: clears is not None
                               and clears.search(ln.message) is not None) if clears is not None else None
        end = _time(lines[-1], dated)
        if cleared is not None:
            resolved = f"over since line {cleared.line} ({cleared.when}): '{_quote(cleared.message)}'"
        elif ready := _ready_later(node, shown[-1]):
            resolved = ready
        elif end is not None and end - last > _TO_THE_END:
            resolved = f"the kubelet's lines go on without it for {_span(end - last)} after its last"
        else:
            resolved = ""
        if began is not None and last - began > last - first:
            state = f"still logs this {_span(last - began)} after it started"
        else:
            state = f"has logged this for {_span(last - first)}" if last > first else "logs this"
        finding = _finding(host, node, signature, shown,
                           state + ("" if resolved or state == "logs this" else ", to the end of the journal shown"),
                           resolved, f"{len(shown)} line(s) of it in the journal")
        yield finding if resolved else replace(finding, severity=signature.severity)


def _restart_counter(lines: list[JournalLine], last: JournalLine) -> str:
    """systemd's count of the unit's restarts, as of the last it printed up to `last`."""
    counts = [m.group(1) for ln in lines if ln.program == "systemd" and ln.line <= last.line
              and (m := _RESTARTS.search(ln.message)) is not None]
    return f" (systemd's restart counter at {counts[-1]})" if counts else ""


def _listed_later(node: KubeObject | None, last: JournalLine) -> bool:
    """Whether the paste lists the node after the journal's line."""
    return node is not None and node.provenance.source == last.source and (node.provenance.line or 0) > last.line


def _ready_later(node: KubeObject | None, last: JournalLine) -> str:
    """The node listed Ready after the journal's line in the same paste (its kubelet reports
    again: what kept it from starting is fixed)."""
    if node is None or not _listed_later(node, last):
        return ""
    conditions = getattr(getattr(node.view, "status", None), "conditions", None) or ()
    ready = next((c for c in conditions if c.type == "Ready"), None)
    if ready is None or ready.status != "True":
        return ""
    return f"the node is Ready in a later listing (line {node.provenance.line})"


def _finding(host: str, node: KubeObject | None, signature: Signature, shown: list[JournalLine], state: str,
             resolved: str, seen: str) -> Finding:
    last = shown[-1]
    evidence = Evidence(f"journal of {last.unit} on {host}", _quote(last.message, 300), None,
                        source=last.source, line=last.line)
    subject = {"kind": "Node", "namespace": "", "name": host} if node is None else {}
    finding = RULE.fail(node, evidence, **subject, host=host if node is None else node.name, state=state,
                        meaning=signature.meaning, seen=seen, last=f"at {last.when} (line {last.line})",
                        quote=f"'{_quote(last.message)}'", signature=signature.id, unit=last.unit,
                        via="" if last.unit == "kubelet" else f" (unit {last.unit})",
                        first_line=shown[0].line)
    return finding.as_info(resolved=resolved) if resolved else finding


def _first_after(lines: list[JournalLine], after: JournalLine,
                 test: Callable[[JournalLine], bool]) -> JournalLine | None:
    return next((ln for ln in lines if ln.line > after.line and test(ln)), None)


def _run_began(lines: list[JournalLine], line: JournalLine, dated: bool) -> datetime | None:
    """When the kubelet process that wrote `line` began: `systemctl status` says so of its main
    process; else its first line the journal shows."""
    own = [ln for ln in lines if ln.pid == line.pid and ln.program == line.program]
    said = next((ln.since for ln in own if ln.since is not None), None)
    if said is not None:
        try:
            return datetime(said[0] if dated else 2000, *said[1:])
        except ValueError:
            return None
    return _time(own[0], dated) if own else None


def _time(line: JournalLine, dated: bool) -> datetime | None:
    """The line's time for spans within one journal: with its year where every line of the
    journal has one (`dated`), else all in one year (a paste's year-less lines beside its dated ones)."""
    moment = line.moment
    if moment is None:
        return None
    year, *rest = moment
    try:
        return datetime(year if dated else 2000, *rest)
    except ValueError:
        return None


def _span(delta: timedelta) -> str:
    seconds = int(delta.total_seconds())
    if seconds < 120:
        return f"{seconds}s"
    if seconds < 7200:
        return f"{seconds // 60}m"
    return f"{seconds // 3600}h{seconds % 3600 // 60}m"


def _quote(message: str, width: int = 200) -> str:
    message = message.strip()
    return message if len(message) <= width else message[:width - 3] + "..."
