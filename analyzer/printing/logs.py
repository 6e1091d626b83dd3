"""Container logs of a dump as `kubectl logs` picks them: the default container, the only one,
or the one named; the previous instance's log with `--previous`; the last lines with `--tail`."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from analyzer.ingest import LogRecord
from analyzer.ingest.records import STAMP_WIDTH
from analyzer.printing.pasted import containers_unknown, is_placeholder
from analyzer.printing.store import DumpStore, NotCollected

DEFAULT_CONTAINER_ANNOTATION = "kubectl.kubernetes.io/default-container"
_TIMESTAMPED = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d")


class LogError(LookupError):
    """Why no log can be shown, with the HTTP code a real API server would answer."""

    def __init__(self, message: str, code: int, reason: str) -> None:
        super().__init__(message)
        self.code = code
        self.reason = reason


class LogNotSaved(LogError):
    """The pod and its container are known, only the dump did not save this log of it (a
    must-gather or support bundle collects some containers' logs): a gap of the dump, not a
    wrong question."""

    def __init__(self, message: str) -> None:
        super().__init__(message, 404, "NotFound")


@dataclass(slots=True)
class PodLog:
    namespace: str
    pod: str
    container: str
    previous: bool
    text: str
    timestamped: bool  # whether its lines carry their own timestamps
    stamps: str = ""  # the runtime's time of each line (a node's log file: LogRecord.stamps)


def _container_names(pod: dict[str, Any] | None) -> tuple[list[str], list[str]]:
    spec = (pod or {}).get("spec") or {}
    names = [str(c.get("name")) for c in spec.get("containers") or () if isinstance(c, dict)]
    inits = [str(c.get("name")) for c in spec.get("initContainers") or () if isinstance(c, dict)]
    inits += [str(c.get("name")) for c in spec.get("ephemeralContainers") or () if isinstance(c, dict)]
    return names, inits


def find_log(store: DumpStore, namespace: str, pod: str, container: str | None = None,
             previous: bool = False) -> PodLog:
    """The log `kubectl logs` would show, or a LogError saying why there is none."""
    records = store.pod_logs(namespace, pod)
    pods = store.catalog.get("", "Pod")
    body = None
    if pods is not None:
        try:
            obj = store.find(pods, namespace, pod)
        except NotCollected:
            obj = None
        body = store.body(pods, obj) if obj is not None else None
    if body is None and not records:
        raise LogError(f'pods "{pod}" not found', 404, "NotFound")
    if body is not None and containers_unknown(body):
        record = _log_of_unnamed(records, namespace, pod, container, previous)
        return PodLog(namespace, pod, record.container or container or "", previous, record.text,
                      _timestamped(record), record.stamps)
    names, inits = _container_names(body)
    if body is None:
        names = sorted({r.container for r in records})
    annotations = ((body or {}).get("metadata") or {}).get("annotations") or {}
    default = annotations.get(DEFAULT_CONTAINER_ANNOTATION)
    # the container `kubectl logs POD` shows without -c
    default = default if isinstance(default, str) and default in names + inits else (
        names[0] if len(names) == 1 else None)
    if not container:
        if default is not None:
            container = default  # ("" where the one log saved is `kubectl logs POD`'s, no container named)
        else:
            choice = f"choose one of: [{' '.join(names)}]"
            if inits:
                choice += f" or one of the init containers: [{' '.join(inits)}]"
            raise LogError(f"a container name must be specified for pod {pod}, {choice}", 400, "BadRequest")
    if body is not None and container not in names + inits and not any(r.container == container for r in records):
        raise LogError(f"container {container} is not valid for pod {pod}", 400, "BadRequest")
    record = _pick(records, container, previous)
    if record is None and container == default:
        # a log saved from `kubectl logs POD` (no -c: a tool's record, a pasted session) is the
        # default container's
        record = _pick(records, "", previous)
    if record is None:
        if previous and _never_ended(body, container):
            # as the kubelet answers: there is no previous run, which no dump could have saved
            raise LogError(f'previous terminated container "{container}" in pod "{pod}" not found '
                           "(its status shows no restart)", 400, "BadRequest")
        which = "previous log" if previous else "log"
        raise LogNotSaved(f"the dump holds no {which} for container {container} of pod {pod}")
    return PodLog(namespace, pod, container, previous, record.text, _timestamped(record), record.stamps)


def _never_ended(body: dict[str, Any] | None, container: str) -> bool:
    """Whether the pod's status says the container has had no run before its current one (no
    restart, no last state ended): False where its status is not in the dump."""
    status = (body or {}).get("status") or {}
    for key in ("containerStatuses", "initContainerStatuses", "ephemeralContainerStatuses"):
        for c in status.get(key) or ():
            if isinstance(c, dict) and c.get("name") == container:
                last = c.get("lastState") or {}
                return c.get("restartCount") == 0 and not (isinstance(last, dict) and last.get("terminated"))
    return False


def _timestamped(record: LogRecord) -> bool:
    """Whether the log's lines carry their times: the runtime's, or written in each line."""
    text = record.text
    return bool(record.stamps) or (bool(text) and all(_TIMESTAMPED.match(line) for line in text.splitlines()[:5]
                                                      if line))


def with_stamps(text: str, stamps: str) -> str:
    """Each line after the runtime's time of it and a space, as `kubectl logs --timestamps`
    prints a node's log (a line it gave no time keeps none).

    >>> with_stamps("a\\nb\\n", "2024-01-01T00:00:00.100000000Z" + " " * 30)
    '2024-01-01T00:00:00.100000000Z a\\nb\\n'
    """
    if not stamps:
        return text
    # (lines end at "\\n" only, as the stamps count them: a message may hold a "\\r")
    lines = text.split("\n")
    out = [f"{stamp} {line}" if (stamp := stamps[at:at + STAMP_WIDTH]).strip() else line
           for at, line in zip(range(0, len(lines) * STAMP_WIDTH, STAMP_WIDTH), lines, strict=True)]
    return "\n".join(out)


def _log_of_unnamed(records: list[LogRecord], namespace: str, pod: str, container: str | None,
                    previous: bool) -> LogRecord:
    """The log of a pod read from a pasted table row, whose containers the dump does not name:
    the one saved under the container asked for; for a placeholder, the one saved without a
    container's name (`kubectl logs POD`); for none, that one, else the only one saved."""
    wanted = "" if not container or is_placeholder(container) else container
    record = _pick(records, wanted, previous)
    if record is None and not container:
        saved = {r.container for r in records if r.previous == previous}
        record = _pick(records, saved.pop(), previous) if len(saved) == 1 else None
    if record is None:
        which = "previous log" if previous else "log"
        saved_of = sorted({r.container for r in records if r.container})
        also = f" (it holds the logs of {', '.join(saved_of)})" if saved_of else ""
        raise LogError(f"the dump holds pod {namespace}/{pod} only as a row of a pasted kubectl table, and no {which} "
                       f"of {f'container {wanted}' if wanted else 'it'}: the names of its containers are not in the "
                       f"dump{also}", 404, "NotFound")
    return record


def _pick(records: list[LogRecord], container: str, previous: bool) -> LogRecord | None:
    return next((r for r in records if r.container == container and r.previous == previous), None)


def tail(text: str, lines: int | None) -> str:
    """The last `lines` lines (all when None or negative), as `--tail` gives them.

    >>> tail("a\\nb\\nc\\n", 2)
    'b\\nc\\n'
    """
    if lines is None or lines < 0:
        return text
    if lines == 0:
        return ""
    parts = text.splitlines(keepends=True)
    return "".join(parts[-lines:])


def resolve_pod_namespace(store: DumpStore, pod: str, namespace: str | None) -> str:
    """The namespace of a pod named without `-n`: the only one that has it, else "default"."""
    if namespace:
        return namespace
    found = {ns for ns, name in store.logs if name == pod}
    pods = store.catalog.get("", "Pod")
    if pods is not None:
        found |= {o.namespace for o in pods.objects if o.name == pod}
    if len(found) == 1:
        return next(iter(found))
    if len(found) > 1:
        raise LogError(f"pod {pod} is in several namespaces ({', '.join(sorted(found))}): give one with -n", 400,
                       "BadRequest")
    return "default"
