"""Known log lines in container logs: the catalog (data/log_signatures.yaml) and one compiled matcher.

`match_log(text)` yields every line of a log that a catalogued signature matches, with its
line number; `container_log_matches(cluster)` does it for every captured log of a dump and
says which matches are current (still coming at capture, or a crashed container's last words).

Examples:
    >>> [(m.signature.id, m.line) for m in match_log("starting\\nx509: certificate has expired or is not yet valid\\n")]
    [('x509-certificate-expired', 2)]
    >>> [m.signature.id for m in match_log(["ok", "E0101 10:00:00.1 dial tcp 10.0.0.1:443: i/o timeout"])]
    ['io-timeout']
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from analyzer.kube.time import parse_time
from analyzer.memo import once_per
from analyzer.model.normalize import ready_counts
from analyzer.safeyaml import load_yaml

try:  # RE2 runs the alternation of every signature as one automaton: one pass over a log
    import re2 as _engine
except ImportError:  # pragma: no cover - declared dependency; Python's re gives the same matches, slower
    _engine = re

if TYPE_CHECKING:
    from analyzer.ingest.dump import Dump
    from analyzer.ingest.records import KubeObject, LogRecord

CATALOG = Path(__file__).parent / "data" / "log_signatures.yaml"
SEVERITIES = ("critical", "warning", "info")
# A quoted line is cut to this many characters (some logs put a whole config on one line).
QUOTE_CHARS = 300
# How many last lines of a log count as "still happening at capture".
TAIL_LINES = 10


class SignatureCatalogError(Exception):
    """The signature catalog is wrong (bad pattern, duplicate id): a bug in the package's data."""


@dataclass(frozen=True, slots=True)
class Signature:
    """One known log line: what it looks like and what it means."""

    id: str
    pattern: str
    meaning: str
    severity: str
    components: tuple[str, ...] = ()
    persistent: bool = True
    dump_wide: bool = False
    example: str = ""
    dump_wide_severity: str = ""
    unless: str = ""  # a line the pattern matches is not this signature when this also matches
    # Its cause is outside the pod (the API server, etcd, RBAC of the workload's account):
    # every replica of one workload sees it alike while it lasts.
    shared: bool = False
    # The process exits on this line: a log that ends with it is its container's last words,
    # current whatever its time (start-up grace, or a capture time that is only an estimate).
    exits: bool = False
    # Said of the API server (it refused or dropped the connection): a line of it is history
    # once an API server was ready again after it and every API server the dump holds runs
    # ready (a revision rollout restarts them one by one, and their clients log refusals meanwhile).
    api_server: bool = False
    # (pattern, meaning): the words of the matched line (the plugin or program that said it)
    # that tell more than `meaning`, first that matches.
    meanings: tuple[tuple[str, str], ...] = ()

    def meaning_of(self, line: str) -> str:
        """What `line`, a line this signature matched, tells: the first of `meanings` whose
        pattern it matches, else `meaning`.

        >>> sig = Signature("s", "no address", "out of addresses", "warning",
        ...                 meanings=(("aws-cni", "the VPC CNI out of addresses"),))
        >>> sig.meaning_of('plugin type="aws-cni": no address'), sig.meaning_of("no address")
        ('the VPC CNI out of addresses', 'out of addresses')
        """
        return next((meaning for pattern, meaning in self.meanings if re.search(pattern, line)), self.meaning)


@dataclass(frozen=True, slots=True)
class LogMatch:
    """A line of a log that a signature matched: its 1-based number in the text, and the line."""

    signature: Signature
    line: int
    text: str

    @property
    def meaning(self) -> str:
        """What the matched line tells (its signature's meaning, made precise by its words)."""
        return self.signature.meaning_of(self.text)


@dataclass(frozen=True, slots=True)
class ContainerLogMatch:
    """A match in one captured container log, located in its file, and whether it is current."""

    log: LogRecord
    match: LogMatch
    current: bool
    # A later replica of the same workload whose log never has the line: (its pod, its start);
    # the line is then older than that start (see `quiet_replicas`).
    quiet_since: tuple[str, datetime] | None = None
    # The dump holds pods of the log's namespace but not the log's pod: a log left in a
    # `cluster-info dump --output-directory` folder by an earlier run (see `pods_without_logs`).
    orphan: bool = False
    # An API server ready again after the line, with every other one the dump holds: (its pod,
    # since when); the line is history (see `api_servers_restarted`).
    api_server_since: tuple[str, datetime] | None = None

    @property
    def untimed_in_tail(self) -> bool:
        """An untimed line among the last lines of a container's current log: when it came is
        not told, only that little was logged after it."""
        return not self.log.previous and self.match.line > _last_lines(self.log.text) - TAIL_LINES \
            and _time_of(self.log, self.match, 2000) is None

    def time(self, year: int) -> datetime | None:
        """When the matched line was logged, if it says (or a trace just before it does);
        `year` for stamps that name none (klog's `E1204 09:15:58`)."""
        return _time_of(self.log, self.match, year)

    @property
    def file_line(self) -> int:
        """The line of the log's file (a cluster-info dump holds many logs in one file; a
        node's log file has lines the runtime split, joined in the log)."""
        return self.log.place(self.match.line)[1]

    @property
    def file(self) -> str:
        """The file the matched line is in (a run's rotated file, or the log's source)."""
        return self.log.place(self.match.line)[0]


class LogMatcher:
    """All signatures compiled into one alternation (one RE2 automaton): one scan of a text
    finds every match, whatever the number of signatures."""

    def __init__(self, signatures: Iterable[Signature]) -> None:
        self.signatures = tuple(signatures)
        parts = []
        self._unless: dict[int, re.Pattern[str]] = {}
        for i, sig in enumerate(self.signatures):
            try:
                compiled = re.compile(sig.pattern)
                _engine.compile(sig.pattern)
                if sig.unless:
                    self._unless[i] = re.compile(sig.unless)
            except (re.error, _engine.error) as exc:
                raise SignatureCatalogError(f"{CATALOG.name}: {sig.id}: bad pattern ({exc})") from None
            if compiled.groupindex:
                raise SignatureCatalogError(f"{CATALOG.name}: {sig.id}: named groups are not allowed")
            parts.append(f"(?P<s{i}>{sig.pattern})")
        self._regex = _engine.compile("(?m)" + ("|".join(parts) or "[^\\s\\S]"))

    def matches(self, log: str | Iterable[str]) -> Iterator[LogMatch]:
        """Every line of `log` (a text, or its lines) that a signature matches; one match per line."""
        text = log if isinstance(log, str) else "\n".join(line.rstrip("\n") for line in log)
        line, counted, done = 1, 0, -1
        for m in self._regex.finditer(text):
            if m.start() <= done:
                continue  # this line was reported already
            start = text.rfind("\n", 0, m.start()) + 1
            end = text.find("\n", m.end())
            end = len(text) if end < 0 else end
            index = int(m.lastgroup[1:])  # type: ignore[index]
            quoted = text[start:end].rstrip("\r")
            if index in self._unless and self._unless[index].search(quoted):
                continue
            line += text.count("\n", counted, start)
            counted, done = start, end
            yield LogMatch(self.signatures[index], line, quoted[:QUOTE_CHARS])


def _signature(raw: dict, index: int) -> Signature:
    try:
        sig = Signature(
            id=str(raw["id"]), pattern=str(raw["pattern"]), meaning=str(raw["meaning"]),
            severity=str(raw["severity"]), components=tuple(raw.get("components") or ()),
            persistent=bool(raw.get("persistent", True)), dump_wide=bool(raw.get("dump_wide", False)),
            example=str(raw.get("example") or ""),
            dump_wide_severity=str(raw.get("dump_wide_severity") or raw["severity"]),
            unless=str(raw.get("unless") or ""),
            shared=bool(raw.get("shared", False)),
            exits=bool(raw.get("exits", False)),
            api_server=bool(raw.get("api_server", False)),
            meanings=tuple((str(m["pattern"]), str(m["meaning"])) for m in raw.get("meanings") or ()),
        )
    except KeyError as exc:
        raise SignatureCatalogError(f"{CATALOG.name}: entry {index} lacks {exc}") from None
    for pattern, _ in sig.meanings:
        try:
            re.compile(pattern)
        except re.error as exc:
            raise SignatureCatalogError(f"{CATALOG.name}: {sig.id}: bad pattern in meanings ({exc})") from None
    for severity in (sig.severity, sig.dump_wide_severity):
        if severity not in SEVERITIES:
            raise SignatureCatalogError(f"{CATALOG.name}: {sig.id}: severity {severity!r} not in {SEVERITIES}")
    return sig


@cache
def load_signatures() -> tuple[Signature, ...]:
    """The catalog, validated (unique ids, known severities, patterns that compile)."""
    raw = load_yaml(CATALOG.read_text(encoding="utf-8")) or []
    sigs = tuple(_signature(r, i) for i, r in enumerate(raw))
    ids = [s.id for s in sigs]
    duplicated = sorted({i for i in ids if ids.count(i) > 1})
    if duplicated:
        raise SignatureCatalogError(f"{CATALOG.name}: duplicate ids {duplicated}")
    return sigs


@cache
def default_matcher() -> LogMatcher:
    """The matcher of the package's catalog (compiled once per process)."""
    return LogMatcher(load_signatures())


def match_log(log: str | Iterable[str]) -> Iterator[LogMatch]:
    """Every catalogued signature in a log text (or its lines): (signature, line number, line)."""
    return default_matcher().matches(log)


def _last_lines(text: str) -> int:
    """How many lines the text has (a final newline does not open a line)."""
    if not text:
        return 0
    return text.count("\n") + (0 if text.endswith("\n") else 1)


# Time stamps of log lines: RFC 3339 / ISO ("2022-12-21T09:43:10Z", "2021-04-11 12:07:00.467",
# "2019/12/14 20:20:29", also inside time="..." or "ts":"...") and klog's "E1221 09:43:10.853025"
# (no year: the capture's year is taken).
_STAMP = re.compile(
    r"(?P<y>\d{4})[-/](?P<mo>\d\d)[-/](?P<d>\d\d)[T ](?P<h>\d\d):(?P<mi>\d\d):(?P<s>\d\d)"
    r"|^[IWEF](?P<kmo>\d\d)(?P<kd>\d\d) (?P<kh>\d\d):(?P<kmi>\d\d):(?P<ks>\d\d)")
# client-go's trace lines carry their start time inside the line: `... (17-Nov-2024 10:19:48.952)`.
_TRACE_STAMP = re.compile(
    r"\((?P<d>\d\d)-(?P<mon>Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-(?P<y>\d{4}) "
    r"(?P<h>\d\d):(?P<mi>\d\d):(?P<s>\d\d)(?:\.\d+)?\)")
_MONTHS = {m: i for i, m in enumerate(("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov",
                                        "Dec"), 1)}
# How far back an untimed line looks for the trace line that timed the call it reports on.
INHERIT_LINES = 5
# A repeated line is current when its last occurrence is this close to the capture time.
CURRENT_WINDOW = timedelta(minutes=30)
# Lines written this soon after a log's first line are start-up noise (a component that
# starts before the API server or its permissions are ready retries, then recovers).
STARTUP_GRACE = timedelta(minutes=5)
# Without time stamps, a line is current when it is in the last lines and came this many times.
MIN_REPEATS = 5
# ... and when one of its lines came again (numbers aside): a failure still coming is retried,
# the same line again and again; a burst where each watch failed once is not (coredns's
# informers each saying once 'etcdserver: no leader', then 'request timed out', in a leader
# election: 9 lines, none twice).
_NUMBERS = re.compile(r"[0-9a-f]*[0-9][0-9a-f]*")


def line_time(text: str, year: int) -> datetime | None:
    """The time stamp a log line starts with (in its first 80 characters), or a client-go
    trace's start time anywhere in it, as UTC.

    >>> line_time("E1221 09:43:10.853025  1 reflector.go:138] x", 2022).isoformat()
    '2022-12-21T09:43:10+00:00'
    >>> line_time('time="2022-12-20T23:41:05Z" level=error', 2000).isoformat()
    '2022-12-20T23:41:05+00:00'
    >>> line_time('[INFO] Trace[17]: "Reflector ListAndWatch" (17-Nov-2024 10:19:48.952) (total', 2000).isoformat()
    '2024-11-17T10:19:48+00:00'
    """
    m = _STAMP.search(text, 0, 80)
    if m is None:
        trace = _TRACE_STAMP.search(text)
        if trace is None:
            return None
        try:
            return datetime(int(trace["y"]), _MONTHS[trace["mon"]], int(trace["d"]), int(trace["h"]),
                            int(trace["mi"]), int(trace["s"]), tzinfo=UTC)
        except ValueError:
            return None
    try:
        if m["y"]:
            return datetime(int(m["y"]), int(m["mo"]), int(m["d"]), int(m["h"]), int(m["mi"]),
                            int(m["s"]), tzinfo=UTC)
        return datetime(year, int(m["kmo"]), int(m["kd"]), int(m["kh"]), int(m["kmi"]),
                        int(m["ks"]), tzinfo=UTC)
    except ValueError:
        return None


def stamp_time(stamp: str | None) -> datetime | None:
    """A container runtime's time of a line (LogRecord.stamp) as UTC, to the microsecond."""
    return datetime.fromisoformat(stamp[:26]).replace(tzinfo=UTC) if stamp else None


def _first_time(log: LogRecord, year: int, lines: int = 20) -> datetime | None:
    """The time stamp of the first of a log's first lines that has one (when it started): the
    runtime's, where it stamped the lines."""
    if log.stamps:
        return stamp_time(next((log.stamp(n) for n in range(1, lines + 1) if log.stamp(n)), None))
    text = log.text
    pos = 0
    for _ in range(lines):
        end = text.find("\n", pos)
        when = line_time(text[pos:end if end >= 0 else len(text)], year)
        if when is not None or end < 0:
            return when
        pos = end + 1
    return None


def _time_of(log: LogRecord, match: LogMatch, year: int) -> datetime | None:
    """The time of a matched line: the container runtime's where it stamped the lines, else the
    line's own stamp, else that of a client-go trace a few lines before it (coredns's untimed
    `[ERROR] ... Failed to watch` reports the call the trace timed). Other stamped lines lend no
    time: an untimed line after them may come much later."""
    runtime = stamp_time(log.stamp(match.line)) if log.stamps else None
    if runtime is not None:
        return runtime
    text = log.text
    when = line_time(match.text, year)
    if when is not None or match.line <= 1:
        return when
    lines = text.split("\n", match.line - 1)[:match.line - 1]
    for line in reversed(lines[-INHERIT_LINES:]):
        trace = _TRACE_STAMP.search(line)
        if trace is not None:
            return line_time(line, year)
    return None


def _a_line_came_again(matches: list[LogMatch], sig_id: str) -> bool:
    """Whether one of a signature's lines came more than once, numbers (times, ports, resource
    versions, ids) aside.

    >>> from types import SimpleNamespace as NS
    >>> sig = NS(id="s")
    >>> burst = [LogMatch(sig, i, t) for i, t in enumerate(["watch of *v1.Service ended: no leader",
    ...          "watch of *v1.Namespace ended: no leader", "failed to list *v1.Service: timed out"])]
    >>> _a_line_came_again(burst, "s")
    False
    >>> _a_line_came_again(burst + [LogMatch(sig, 9, "watch of *v1.Service ended: no leader")], "s")
    True
    """
    seen: set[str] = set()
    for m in matches:
        if m.signature.id != sig_id:
            continue
        said = _NUMBERS.sub("#", m.text)
        if said in seen:
            return True
        seen.add(said)
    return False


def current_matches(matches: list[LogMatch], log: LogRecord, capture: datetime | None,
                    untimed: set[str] | None = None, crashed: bool = False) -> list[bool]:
    """For each match of one log, whether it describes the state at capture.

    A non-persistent signature (an expired certificate, a full disk) always does. Others do
    only while they keep coming: the signature's last line is among the log's last lines and
    was written within CURRENT_WINDOW of the capture and more than STARTUP_GRACE after the
    log began (or, without time stamps, the signature came MIN_REPEATS times, one line of it again). Lines printed while a component started and then recovered are
    history, and so is a previous container's log (it is evidence of why that one exited).
    The ids of signatures found current by their repeats alone (no time) go into `untimed`.
    `crashed`: the log is that of a container which exited in error and is crashing still
    (CrashLoopBackOff) or stays ended: an untimed line among its last lines is its last words,
    current.
    """
    total = _last_lines(log.text)
    last_of: dict[str, LogMatch] = {}
    count: dict[str, int] = {}
    for m in matches:
        last_of[m.signature.id] = m
        count[m.signature.id] = count.get(m.signature.id, 0) + 1
    live: dict[str, bool] = {}
    started = _first_time(log, capture.year) if capture is not None else None
    for sig_id, last in last_of.items():
        if log.previous or last.line <= total - TAIL_LINES:
            live[sig_id] = False
            continue
        if last.signature.exits and last.line == total:
            live[sig_id] = True  # the current log ends on it: the process exited there
            continue
        when = _time_of(log, last, capture.year) if capture is not None else None
        if when is not None and capture is not None:
            after_startup = started is None or when - started > STARTUP_GRACE
            live[sig_id] = abs(capture - when) <= CURRENT_WINDOW and after_startup
        else:
            live[sig_id] = (count[sig_id] >= MIN_REPEATS and _a_line_came_again(matches, sig_id)) or crashed
            if count[sig_id] >= MIN_REPEATS and untimed is not None:
                untimed.add(sig_id)  # (a later replica that never logged them dates them too)
    return [not m.signature.persistent or live[m.signature.id] for m in matches]


_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _container_start(pod: dict, container: str) -> datetime | None:
    """When a pod's container (its current instance) started, from the pod's status."""
    status = pod.get("status") or {}
    for cs in status.get("containerStatuses") or ():
        if isinstance(cs, dict) and cs.get("name") == container:
            state = cs.get("state") or {}
            for phase in ("running", "terminated"):
                started = parse_time((state.get(phase) or {}).get("startedAt"))
                if started is not None:
                    return started
    return parse_time(status.get("startTime"))


# A pasted row's STATUS when its container's last run ended in an error (kubectl prints the
# waiting reason, else the terminated one).
PASTED_CRASHED = frozenset({"CrashLoopBackOff", "Error"})


def _crashing_containers(cluster: Dump) -> set[tuple[str, str, str]]:
    """(namespace, pod, container) of containers in CrashLoopBackOff whose last run ended in an
    error, and of containers that ended in an error and stay ended (a Job's pod that failed):
    their current log is the one that ended in that error. A pod of one container is also
    listed with no container name (`kubectl logs POD` names none). A pod of one container
    read from a pasted row that says CrashLoopBackOff or Error, and no container status, is one
    too: `kubectl logs` of it prints the run that ended in the error."""
    out: set[tuple[str, str, str]] = set()
    for pod in cluster.objects_of("Pod"):
        statuses = list(pod.view.status.containerStatuses or ())
        row = pod.view.text
        if row is not None and row.status in PASTED_CRASHED and not statuses and ready_counts(row.ready)[1] == 1:
            out.add((pod.namespace, pod.name, ""))
            out.update((pod.namespace, pod.name, c.name) for c in pod.view.spec.containers or () if c.name)
        for cs in (*statuses, *(pod.view.status.initContainerStatuses or ())):
            waiting = cs.state.waiting if cs.state else None
            ended = cs.lastState.terminated if cs.lastState else None
            ended_now = cs.state.terminated if cs.state else None
            if (waiting and waiting.reason == "CrashLoopBackOff" and ended and ended.exitCode) \
                    or (ended_now and ended_now.exitCode):
                out.add((pod.namespace, pod.name, cs.name))
                if len(statuses) == 1:
                    out.add((pod.namespace, pod.name, ""))
    return out


@once_per
def pasted_init_logs(cluster: Dump) -> dict[int, KubeObject]:
    """The logs that can only be a failing init container's, by id, with their pod: a pasted
    row says Init:CrashLoopBackOff or Init:Error and names no container, and a `kubectl logs POD
    -c C` of the session names one that the pod's spec does not run as a main container."""
    pods = {(p.namespace, p.name): p for p in cluster.objects_of("Pod")
            if p.view.text is not None and p.view.text.status in ("Init:CrashLoopBackOff", "Init:Error")
            and not p.view.status.initContainerStatuses}
    out: dict[int, KubeObject] = {}
    for log in cluster.logs if pods else ():
        pod = pods.get((log.namespace, log.pod))
        if pod is not None and log.container and log.container not in {c.name for c in pod.view.spec.containers or ()}:
            out[id(log)] = pod
    return out


def _controller(pod: dict) -> str | None:
    """The uid (or kind/name) of the controller that owns a pod: its replicas share it."""
    for ref in (pod.get("metadata") or {}).get("ownerReferences") or ():
        if isinstance(ref, dict) and ref.get("controller"):
            return str(ref.get("uid") or f"{ref.get('kind')}/{ref.get('name')}")
    return None


def quiet_replicas(cluster: Dump, found: list[tuple[LogRecord, list[LogMatch], list[bool], set[str]]]) -> dict[tuple[int, str], tuple[str, datetime]]:
    """Untimed lines of a shared cause (the API server, etcd: every replica sees it alike)
    that a later replica never logged: (id of the log, signature id) -> (that replica, its
    start). A replica of the same controller and container that started after the log's own
    container, more than CURRENT_WINDOW before the capture, and logged none of the lines shows
    they are older than its start: history, however often they repeat at the log's end."""
    capture = cluster.capture_time
    wanted = [(log, sig) for log, matches, _, untimed in found
              for sig in sorted(untimed) if any(m.signature.id == sig and m.signature.shared for m in matches)]
    if capture is None or not wanted:
        return {}
    pods: dict[tuple[str, str], dict] = {}
    for obj in cluster.objects_of("Pod"):
        pods[(obj.namespace, obj.name)] = obj.body()
    sigs_of = {id(log): {m.signature.id for m in matches} for log, matches, _, _ in found}
    quiet: dict[tuple[int, str], tuple[str, datetime]] = {}
    for log, sig in wanted:
        pod = pods.get((log.namespace, log.pod))
        owner = _controller(pod) if pod else None
        started = _container_start(pod, log.container) if pod else None
        if owner is None or started is None:
            continue
        for other in cluster.logs:
            if (other is log or other.previous or other.namespace != log.namespace
                    or other.container != log.container or sig in sigs_of.get(id(other), ())):
                continue
            sibling = pods.get((other.namespace, other.pod))
            if sibling is None or _controller(sibling) != owner or not other.text.strip():
                continue
            since = _container_start(sibling, other.container)
            if since is None or since <= started or capture - since <= CURRENT_WINDOW:
                continue
            if (id(log), sig) not in quiet or since > quiet[(id(log), sig)][1]:
                quiet[(id(log), sig)] = (other.pod, since)
    return quiet


# The container an API server runs in (the static pods of kubeadm, OpenShift and RKE2; k3s runs
# its API server inside its own process, no pod)
API_SERVER_CONTAINER = "kube-apiserver"


def api_servers_restarted(cluster: Dump, per_log: list[tuple[LogRecord, list[LogMatch], list[bool], set[str]]]
                          ) -> dict[tuple[int, str], tuple[str, datetime]]:
    """(log, signature) of current API-server signatures whose last line came before an API server
    was ready again, when every API server the dump holds runs ready: -> (that server's pod, when
    it was ready). The one on the log's node when there is one there (a component that calls its
    node's own API server at localhost), else the one ready last."""
    wanted = [(log, matches) for log, matches, flags, _ in per_log
              if any(f and m.signature.api_server for m, f in zip(matches, flags, strict=True))]
    capture = cluster.capture_time
    if not wanted or capture is None:
        return {}
    servers: list[tuple[str, str, datetime]] = []  # (pod, node, ready since)
    nodes: dict[tuple[str, str], str] = {}  # (namespace, pod) -> its node
    for pod in cluster.objects_of("Pod"):
        nodes[(pod.namespace, pod.name)] = pod.view.spec.nodeName or ""
        for cs in pod.view.status.containerStatuses or ():
            if cs.name != API_SERVER_CONTAINER:
                continue
            running = cs.state.running if cs.state is not None else None
            started = parse_time(running.startedAt) if running is not None else None
            if not cs.ready or started is None:
                return {}  # an API server not ready, or not running: the refusals may go on
            # it refuses connections from its start until it listens: ready since is the end
            ready = next((parse_time(c.lastTransitionTime) for c in pod.view.status.conditions or ()
                          if c.type == "Ready" and c.status == "True"), None)
            servers.append((pod.name, pod.view.spec.nodeName or "", max(started, ready or started)))
    if not servers:
        return {}
    out: dict[tuple[int, str], tuple[str, datetime]] = {}
    for log, matches in wanted:
        node = nodes.get((log.namespace, log.pod), "")
        local = [s for s in servers if node and s[1] == node]
        pod, _node, started = max(local or servers, key=lambda s: s[2])
        last: dict[str, datetime | None] = {}
        for m in matches:
            if m.signature.api_server:
                last[m.signature.id] = _time_of(log, m, capture.year)
        for sig_id, when in last.items():
            if when is not None and when < started <= capture:
                out[(id(log), sig_id)] = (pod, started)
    return out


def logs_without_pod(cluster: Dump) -> list[LogRecord]:
    """Logs of pods the dump does not hold, in namespaces whose pods it collected: kubectl
    cluster-info dump --output-directory writes into a folder without emptying it, so a pod
    gone since an earlier run leaves its NS/POD/logs.txt. What they say is older than the
    capture. A namespace's pods count as collected when the dump holds pods of it, or objects
    read from the folder the log's pod folder sits in (NS/pods.json of an empty namespace)."""
    if not cluster.logs or not cluster.covers("Pod"):
        return []
    pods = {(o.namespace, o.name) for o in cluster.objects_of("Pod")}
    namespaces = {ns for ns, _ in pods}
    folders = {(o.namespace, o.provenance.source.rsplit("/", 1)[0]) for o in cluster.objects if o.namespace}
    return [log for log in cluster.logs
            if (log.namespace, log.pod) not in pods
            and (log.namespace in namespaces or (log.namespace, log.source.rsplit("/", 2)[0]) in folders)]


def container_log_matches(cluster: Dump) -> list[ContainerLogMatch]:
    """Every signature match in every captured log of a dump (computed once per cluster)."""
    found = _CACHE.get(cluster)
    if found is None:
        matcher = default_matcher()
        per_log = []
        crashing: set[tuple[str, str, str]] | None = None
        crashing_inits: dict[int, KubeObject] = {}
        for log in cluster.logs:
            matches = list(matcher.matches(log.text))
            if matches:
                untimed: set[str] = set()
                if crashing is None:
                    crashing = _crashing_containers(cluster)
                    crashing_inits = pasted_init_logs(cluster)
                crashed = (log.namespace, log.pod, log.container) in crashing or id(log) in crashing_inits
                flags = current_matches(matches, log, cluster.capture_time, untimed, crashed)
                per_log.append((log, matches, flags, untimed))
        quiet = quiet_replicas(cluster, per_log)
        orphans = {id(log) for log in logs_without_pod(cluster)} if per_log else set()
        restarted = api_servers_restarted(cluster, per_log)
        found = []
        for log, matches, flags, _ in per_log:
            orphan = id(log) in orphans
            for m, current in zip(matches, flags, strict=True):
                since = quiet.get((id(log), m.signature.id))
                answered = restarted.get((id(log), m.signature.id)) if current else None
                found.append(ContainerLogMatch(log, m, current and since is None and not orphan and answered is None,
                                               since, orphan, answered))
        _CACHE[cluster] = found
    return found
