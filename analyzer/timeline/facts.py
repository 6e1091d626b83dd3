"""Dated facts of one dump, one collector per family (objects, pods, nodes, events, ...).

Each collector walks the typed views of the objects it knows and adds rows to a `Rows`
accumulator: a time (as the dump printed it), the object, the kind of fact, a detail and the
source the fact was read from. Times are parsed once, for all rows, by `Rows.frame()`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from itertools import chain
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from analyzer.kube.time import parse_time
from analyzer.kube.views import Condition, ObjectView
from analyzer.model.frame import DATETIME, as_nanoseconds
from analyzer.model.normalize import builtin_objects, source_of
from analyzer.sensitive.masking import mask_named_value, mask_sensitive

if TYPE_CHECKING:
    from analyzer.ingest import KubeObject
    from analyzer.model.dump import ModeledDump

# What a row means for the picture: the marks a reader scans for.
MARK_RESTART = "restart"
MARK_WARNING = "warning"
MARK_TRANSITION = "transition"
MARK_SPAN = "span"
MARK_OTHER = ""

COLUMNS = ("time", "end", "kind", "namespace", "name", "fact", "detail", "node", "mark", "source")

# Kinds whose objects carry no dated status of their own beyond metadata: their bodies are
# not decoded to look for conditions (a dump holds thousands of them).
PLAIN_KINDS = frozenset({
    "ConfigMap", "Secret", "ServiceAccount", "Role", "ClusterRole", "RoleBinding",
    "ClusterRoleBinding", "Endpoints", "EndpointSlice", "Event", "ControllerRevision",
    "PodTemplate", "LimitRange", "PriorityClass", "RuntimeClass", "StorageClass",
    "IngressClass", "NetworkPolicy", "MutatingWebhookConfiguration",
    "ValidatingWebhookConfiguration", "CSIDriver", "CSINode", "ComponentStatus",
})
# Conditions whose status "True" is the healthy one, so a False is a warning mark.
GOOD_WHEN_TRUE = frozenset({
    "Ready", "Available", "Established", "Synced", "ContainersReady", "Initialized",
    "PodScheduled", "Progressing", "NamesAccepted", "Healthy", "Complete", "Succeeded",
    "Bound", "Reconciled", "Upgradeable",
})
DETAIL_CHARS = 300


@dataclass(frozen=True, slots=True)
class Before:
    """A time stated only as an age (a pasted AGE, an event's `5m`) when the capture time it
    counts from is unknown: how long before the capture."""

    seconds: float


@dataclass(slots=True)
class Rows:
    """The timeline's facts being collected (a tuple each, in COLUMNS order), plus what could
    not be dated."""

    capture: datetime | None
    show_sensitive: bool = False
    facts: list[tuple[Any, ...]] = field(default_factory=list)
    undated: int = 0  # facts stated only relative to an unknown capture time
    # those facts, as (seconds before capture, of its end or None, kind, namespace, name, fact,
    # detail, node, mark, source): listed in their order, since they cannot be placed in time
    before_capture: list[tuple[Any, ...]] = field(default_factory=list)
    _masked: dict[str, str] = field(default_factory=dict)
    _objects: dict[int, tuple[Any, str, str, str, str]] = field(default_factory=dict)
    # a condition's (type, status, reason, message) -> its masked detail and mark: replicas repeat them
    _conditions: dict[tuple[Any, ...], tuple[str, str]] = field(default_factory=dict)

    def add(self, time: Any, obj: KubeObject | None, fact: str, detail: str = "", *,
            kind: str | None = None, namespace: str | None = None, name: str | None = None,
            end: Any = None, node: str | None = None, mark: str = MARK_OTHER,
            source: str | None = None) -> None:
        """One dated fact; `time` is an RFC 3339 string, a datetime, a Before (an age, then
        listed apart) or None (then skipped)."""
        if time is None or time == "":
            return
        if obj is not None:
            _, own_kind, own_namespace, own_name, own_source = self.identity(obj)
        else:
            own_kind = own_namespace = own_name = ""
            own_source = None
        into = self.facts
        if isinstance(time, Before):
            self.undated += 1  # (once a fact: an event's or a span's end is no second fact)
            into, time = self.before_capture, time.seconds
            end = end.seconds if isinstance(end, Before) and end.seconds != time else None
        into.append((
            time, end,
            kind if kind is not None else own_kind,
            namespace if namespace is not None else own_namespace,
            name if name is not None else own_name,
            fact,
            self.mask(detail) if detail else "",
            node, mark,
            source if source is not None else (own_source if obj is not None else source_of(obj)),
        ))

    def identity(self, obj: KubeObject) -> tuple[Any, str, str, str, str]:
        """(obj, kind, namespace, name, source): an object gives several facts, read once."""
        known = self._objects.get(id(obj))
        if known is None or known[0] is not obj:
            known = self._objects[id(obj)] = (obj, obj.kind, obj.namespace, obj.name, source_of(obj))
        return known

    def table(self) -> np.ndarray:
        """The facts as one 2-D array of Python objects, a row per fact and a column per COLUMNS
        (in one step: no sequence made per column)."""
        # Every fact is a tuple of len(COLUMNS) fields (made in this module): read as one flat
        # run, which numpy takes faster than a list of rows whose shapes it checks one by one
        # (0.09 s instead of 0.15 s for 212,000 facts), then laid out column-major: each column
        # contiguous (Arrow reads a strided one 30 times slower).
        width = len(COLUMNS)
        flat = np.fromiter(chain.from_iterable(self.facts), dtype=object, count=len(self.facts) * width)
        return np.asfortranarray(flat.reshape(len(self.facts), width))

    def condition(self, ctype: str, status: Any, reason: Any, message: Any) -> tuple[str, str]:
        """A condition transition's masked detail and mark."""
        key = (ctype, status, reason, message)
        known = self._conditions.get(key)
        if known is None:
            detail = f"{ctype}={status}"
            if reason or message:
                detail += " (" + ": ".join(str(x) for x in (reason, message) if x) + ")"
            known = self._conditions[key] = (self.mask(detail), _condition_mark(ctype, status))
        return known

    def ago(self, seconds: float | None) -> datetime | Before | None:
        """The time `seconds` before capture (a pasted table's AGE); a Before when the capture
        time is unknown; None when no age is given."""
        if seconds is None:
            return None
        if self.capture is None:
            return Before(float(seconds))
        return self.capture - timedelta(seconds=float(seconds))

    def mask(self, text: str) -> str:
        """Detail text with credential-looking parts masked (messages quote what failed)."""
        if not text:
            return ""
        if len(text) > DETAIL_CHARS:
            text = text[: DETAIL_CHARS - 1] + "…"
        masked = self._masked.get(text)
        if masked is None:
            masked = self._masked[text] = mask_sensitive(text, self.show_sensitive)
        return masked


Collector = Callable[["ModeledDump", Rows, dict[tuple[str, str], str]], None]


def _condition_rows(rows: Rows, obj: KubeObject, conditions: Iterable[Any], node: str | None,
                    identity: tuple[Any, str, str, str, str] | None = None) -> None:
    """A row per condition transition; `identity` is the object's, where the caller read it."""
    _, kind, namespace, name, source = identity or rows.identity(obj)
    add = rows.facts.append
    # (the detail and mark of a condition met before, without a call: replicas repeat them)
    known_conditions = rows._conditions
    for c in conditions:
        if type(c) is Condition:  # the typed views' (pods, nodes, workloads): read directly
            when = c.lastTransitionTime
            if not when:
                continue
            ctype, status, reason, message = c.type or "?", c.status, c.reason, c.message
        elif isinstance(c, dict):
            when = c.get("lastTransitionTime")
            if not when:
                continue
            # a custom resource's conditions are not typed: an edited one may hold a number,
            # a bool (YAML's unquoted `status: True`) or a mapping where the API has text
            ctype, status = _text(c.get("type")) or "?", _text(c.get("status"))
            reason, message = _text(c.get("reason")), _text(c.get("message"))
        else:
            when = getattr(c, "lastTransitionTime", None)
            if not when:
                continue
            ctype, status = getattr(c, "type", None) or "?", getattr(c, "status", None)
            reason, message = getattr(c, "reason", None), getattr(c, "message", None)
        known = known_conditions.get((ctype, status, reason, message))
        detail, mark = known if known is not None else rows.condition(ctype, status, reason, message)
        add((when, None, kind, namespace, name, "condition", detail, node, mark, source))


def _text(value: Any) -> str | None:
    """A condition's field as text (None stays None; a YAML bool as the API writes it).

    >>> _text(True), _text(3), _text(None), _text({"a": 1})
    ('True', '3', None, "{'a': 1}")
    """
    return value if value is None or isinstance(value, str) else str(value)


def _condition_mark(ctype: str, status: Any) -> str:
    if ctype in GOOD_WHEN_TRUE and status == "False":
        return MARK_WARNING
    if ctype not in GOOD_WHEN_TRUE and status == "True" and ctype.endswith(
            ("Pressure", "Unavailable", "Degraded", "Failed", "Failing", "Stalled")):
        return MARK_WARNING
    return MARK_TRANSITION


def metadata_facts(cluster: ModeledDump, rows: Rows, pod_nodes: dict[tuple[str, str], str]) -> None:
    """Creation and deletion of every object (the AGE of a pasted row where that is all there is)."""
    add = rows.facts.append
    for obj in cluster.objects:
        key = obj.key
        kind = key.kind
        if kind == "Event":
            continue  # an Event's own creation is its first occurrence: the events collector
        view = obj.view
        meta = view.metadata
        # a Node's own name, a Pod's node (looked up here, not by a call per object of the dump)
        node = key.name if kind == "Node" else pod_nodes.get((key.namespace, key.name)) if kind == "Pod" else None
        if meta.creationTimestamp:
            _, kind, namespace, name, source = rows.identity(obj)
            add((meta.creationTimestamp, None, kind, namespace, name, "created", "", node, MARK_OTHER,
                 source))
        elif view.text is not None and view.text.age_seconds is not None:
            rows.add(rows.ago(view.text.age_seconds), obj, "created",
                     "from the AGE a pasted table shows", node=node)
        if view.text is not None and view.text.row_changes:
            _row_changes(rows, obj, view.text.row_changes, node)
        if meta.deletionTimestamp:
            asked, held = _deletion_request(meta)
            rows.add(asked, obj, "deletion requested", held, node=node, mark=MARK_TRANSITION)
        elif view.text is not None and view.text.deletion_ago_seconds is not None:
            rows.add(rows.ago(view.text.deletion_ago_seconds), obj, "deletion requested",
                     "its deletion time, from the `Terminating (lasts ...)` a describe shows",
                     node=node, mark=MARK_TRANSITION)


def _row_changes(rows: Rows, obj: KubeObject, changes: list[dict[str, Any]], node: str | None) -> None:
    """What changed between an object's rows in one session, each change spanning from the
    earlier row to the later one (their AGEs place them before the last row, read as the capture)."""
    for change in changes:
        earlier, later = change.get("between") or (None, None)
        cells = change.get("cells") or {}
        if earlier is None or later is None or not cells:
            continue
        said = "; ".join(f"{header} {mask_named_value(header, str(old), rows.show_sensitive)} -> "
                         f"{mask_named_value(header, str(new), rows.show_sensitive)}"
                         for header, (old, new) in cells.items())
        rows.add(rows.ago(earlier), obj, "row changed", f"{said} (its rows at {change.get('rows') or '?'})",
                 end=rows.ago(later), node=node, mark=MARK_TRANSITION)


def _deletion_request(meta: Any) -> tuple[Any, str]:
    """When an object's deletion was asked for, and what holds it: a graceful deletion's
    deletionTimestamp is its deadline (the request time plus deletionGracePeriodSeconds), a
    pod's until its containers stop.

    >>> from analyzer.kube.views import Meta
    >>> _deletion_request(Meta(deletionTimestamp="2024-10-24T14:45:26Z", deletionGracePeriodSeconds=170))
    (datetime.datetime(2024, 10, 24, 14, 42, 36, tzinfo=datetime.timezone.utc), 'graceful: its grace period (170s) ends at 2024-10-24T14:45:26Z')
    >>> _deletion_request(Meta(deletionTimestamp="2024-10-24T14:45:26Z", finalizers=["kubernetes"]))
    ('2024-10-24T14:45:26Z', 'finalizers: kubernetes')
    """
    held = f"finalizers: {', '.join(meta.finalizers)}" if meta.finalizers else ""
    grace = meta.deletionGracePeriodSeconds
    deadline = parse_time(meta.deletionTimestamp) if grace else None
    if deadline is None:
        return meta.deletionTimestamp, held
    detail = f"graceful: its grace period ({grace}s) ends at {meta.deletionTimestamp}"
    return deadline - timedelta(seconds=grace), f"{detail}; {held}" if held else detail


def pod_facts(cluster: ModeledDump, rows: Rows, pod_nodes: dict[tuple[str, str], str]) -> None:
    """Pod start, condition transitions, and each container's start and terminations."""
    # 20,000 pods give 200,000 facts: each appended as a tuple, the pod's identity read once
    add = rows.facts.append
    for obj in builtin_objects(cluster, "Pod"):
        view = obj.view
        status = view.status
        node = view.spec.nodeName or None
        identity = rows.identity(obj)
        _, kind, namespace, name, source = identity
        if status.startTime is not None and status.startTime != "":
            add((status.startTime, None, kind, namespace, name, "pod started", "", node, MARK_OTHER, source))
        if status.conditions:
            _condition_rows(rows, obj, status.conditions, node, identity)
        for group, statuses in (("init container", status.initContainerStatuses),
                                ("container", status.containerStatuses),
                                ("ephemeral container", status.ephemeralContainerStatuses)):
            for cs in statuses or ():
                _container_rows(rows, (kind, namespace, name), source, f"{group} {cs.name}", cs, node)
        facts = view.text
        if facts is not None and facts.last_restart_ago_seconds is not None:
            rows.add(rows.ago(facts.last_restart_ago_seconds), obj, "container restarted",
                     f"last restart, from the RESTARTS column ({facts.restarts} restarts)",
                     node=node, mark=MARK_RESTART)


def _container_rows(rows: Rows, who: tuple[str, str, str], source: str, label: str, cs: Any,
                    node: str | None) -> None:
    kind, namespace, name = who
    add, mask = rows.facts.append, rows.mask

    def fact(time: Any, what: str, detail: str, mark: str = MARK_OTHER) -> None:
        if time is not None and time != "":
            add((time, None, kind, namespace, name, what, mask(detail), node, mark, source))

    state, last = cs.state, cs.lastState
    if state is not None:
        if state.running is not None:
            restarts = f" (restart {cs.restartCount})" if cs.restartCount else ""
            fact(state.running.startedAt, "container started", f"{label}{restarts}")
        if state.terminated is not None:
            t = state.terminated
            fact(t.startedAt, "container started", label)
            fact(t.finishedAt, "container terminated", _termination(label, t),
                 MARK_WARNING if t.exitCode not in (0, None) else MARK_OTHER)
    if last is not None and last.terminated is not None:
        t = last.terminated
        fact(t.startedAt, "container started", f"{label} (previous instance)")
        fact(t.finishedAt, "container terminated",
             _termination(label, t) + f"; restarted ({cs.restartCount or 0} restarts in all)",
             MARK_RESTART)


def _termination(label: str, t: Any) -> str:
    parts = [label]
    if t.reason:
        parts.append(f"reason {t.reason}")
    if t.exitCode is not None:
        parts.append(f"exit code {t.exitCode}")
    if t.signal:
        parts.append(f"signal {t.signal}")
    text = ", ".join(parts)
    if t.message:
        text += f": {' '.join(str(t.message).split())}"
    return text


def node_facts(cluster: ModeledDump, rows: Rows, pod_nodes: dict[tuple[str, str], str]) -> None:
    """Node condition transitions, the newest heartbeat, and when each taint was added."""
    for obj in builtin_objects(cluster, "Node"):
        status = obj.view.status
        conditions = status.conditions or ()
        _condition_rows(rows, obj, conditions, obj.name)
        beats = [c.lastHeartbeatTime for c in conditions if c.lastHeartbeatTime]
        if beats:
            rows.add(max(beats), obj, "heartbeat", "newest condition heartbeat", node=obj.name)
        taints = obj.view.spec.taints or ()
        if any(t.key for t in taints):
            for when, key, value, effect in _taint_times(obj, taints):
                rows.add(when, obj, "taint added", f"{key}{'=' + str(value) if value else ''}:{effect}",
                         node=obj.name, mark=MARK_WARNING)


def _taint_times(obj: KubeObject, taints: Any) -> list[tuple[Any, Any, Any, Any]]:
    """(timeAdded, key, value, effect) of the node's taints that say when they were added."""
    if obj.json_types and all(t.key for t in taints if t.timeAdded):
        # read from JSON, the typed view holds the body's values: no need to find and decode
        # the body (on 5,000 nodes, looking each up in its List is most of the cost)
        return [(t.timeAdded, t.key, t.value, t.effect) for t in taints if t.timeAdded]
    return [(t["timeAdded"], t.get("key"), t.get("value"), t.get("effect"))
            for t in (obj.body().get("spec") or {}).get("taints") or ()
            if isinstance(t, dict) and t.get("timeAdded")]


WORKLOAD_KINDS = ("Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "ReplicationController",
                  "Job", "CronJob")


def workload_facts(cluster: ModeledDump, rows: Rows, pod_nodes: dict[tuple[str, str], str]) -> None:
    """Workload condition transitions; Job start and completion; a CronJob's last schedule."""
    for obj in builtin_objects(cluster, *WORKLOAD_KINDS):
        status = obj.view.status
        _condition_rows(rows, obj, status.conditions or (), None)
        rows.add(status.startTime, obj, "job started")
        rows.add(status.completionTime, obj, "job completed", mark=MARK_TRANSITION)
        rows.add(status.lastScheduleTime, obj, "last scheduled")


def event_facts(cluster: ModeledDump, rows: Rows, pod_nodes: dict[tuple[str, str], str]) -> None:
    """Every event: first occurrence, last occurrence (as `end`) and count."""
    for obj in builtin_objects(cluster, "Event"):
        v = obj.view
        involved = v.involvedObject or v.regarding
        first = v.firstTimestamp or v.eventTime or v.deprecatedFirstTimestamp
        last = (v.lastTimestamp or (v.series.lastObservedTime if v.series else None)
                or v.eventTime or v.deprecatedLastTimestamp)
        facts = v.text
        if not first and not last and facts is not None:
            first = rows.ago(facts.first_seen_ago_seconds)
            last = rows.ago(facts.last_seen_ago_seconds)
        count = v.count or (v.series.count if v.series else None) or v.deprecatedCount
        kind = (involved.kind if involved else None) or ""
        ns = (involved.namespace if involved else None) or ""
        name = (involved.name if involved else None) or ""
        node = (name if kind == "Node" else pod_nodes.get((ns, name)) if kind == "Pod" else None)
        if node is None and v.source is not None and v.source.host:
            node = v.source.host
        what = " ".join(x for x in (v.type or "", v.reason or "") if x)
        times = f" x{count}" if count and count > 1 else ""
        message = " ".join(str(v.message or v.note or "").split())
        detail = f"{what}{times}: {message}" if message else f"{what}{times}"
        if involved is not None and involved.fieldPath:
            detail += f" [{involved.fieldPath}]"
        rows.add(first or last, obj, "event", detail, kind=kind, namespace=ns, name=name,
                 end=last if last and last != first else None, node=node,
                 mark=MARK_WARNING if v.type == "Warning" else MARK_OTHER)


def status_facts(cluster: ModeledDump, rows: Rows, pod_nodes: dict[tuple[str, str], str]) -> None:
    """Conditions of every other object (custom resources too) and lease renewals."""
    handled = {"Pod", "Node", "Event", *WORKLOAD_KINDS}
    for obj in cluster.objects:
        kind = obj.kind
        if kind in PLAIN_KINDS or (kind in handled and _is_builtin_view(obj)):
            continue
        view = obj.view
        status = getattr(view, "status", None)
        if isinstance(status, dict):  # the small-dict views (HPA, PDB, APIService, CRD)
            _dict_conditions(rows, obj, status)
            if kind == "HorizontalPodAutoscaler" and status.get("lastScaleTime"):
                rows.add(status["lastScaleTime"], obj, "scaled",
                         f"to {status.get('desiredReplicas', '?')} replicas "
                         f"(from {status.get('currentReplicas', '?')})", mark=MARK_TRANSITION)
        elif status is not None:
            _condition_rows(rows, obj, getattr(status, "conditions", None) or (), None)
        elif type(view) is ObjectView and obj.raw is not None:
            # a kind without a typed view (custom resources, Leases): read the body
            body = obj.body()
            if not isinstance(body, dict):
                continue
            _dict_conditions(rows, obj, body.get("status"))
            if kind == "Lease":
                _lease_rows(rows, obj, body.get("spec"))


def _dict_conditions(rows: Rows, obj: KubeObject, status: Any) -> None:
    if isinstance(status, dict) and isinstance(status.get("conditions"), list):
        _condition_rows(rows, obj, (c for c in status["conditions"] if isinstance(c, dict)), None)


def _lease_rows(rows: Rows, obj: KubeObject, spec: Any) -> None:
    if not isinstance(spec, dict):
        return
    holder = spec.get("holderIdentity") or "?"
    node = obj.name if obj.namespace == "kube-node-lease" else None
    rows.add(spec.get("acquireTime"), obj, "lease acquired", f"by {holder}", node=node,
             mark=MARK_TRANSITION)
    rows.add(spec.get("renewTime"), obj, "lease renewed", f"by {holder}", node=node)


def _is_builtin_view(obj: KubeObject) -> bool:
    return type(obj.view) is not ObjectView


def log_facts(cluster: ModeledDump, rows: Rows, pod_nodes: dict[tuple[str, str], str]) -> None:
    """Log lines that match the log-signature catalog and carry a time stamp of their own.

    klog's stamps have no year: the capture's is taken, so without a capture time they (and
    lines without any stamp) are not dated facts.
    """
    from analyzer.model.logsignatures import container_log_matches, line_time

    capture = cluster.capture_time
    year = capture.year if capture is not None else 0  # year 0: a year-less stamp is not placed
    for found in container_log_matches(cluster):
        log, match = found.log, found.match
        when = line_time(match.text, year)
        if when is None:
            continue
        sig = match.signature
        line = " ".join(match.text.split())
        container = f"container {log.container}{' (previous instance)' if log.previous else ''}"
        rows.add(when, None, "log line", f"{container}: {sig.id} ({sig.severity}): {match.meaning}: {line}",
                 kind="Pod", namespace=log.namespace, name=log.pod,
                 node=pod_nodes.get((log.namespace, log.pod)),
                 mark=MARK_WARNING if sig.severity in ("critical", "warning") else MARK_OTHER,
                 source=f"{found.file}:{found.file_line}")


# The collectors, in the order their rows are gathered (the frame is sorted afterwards).
COLLECTORS: tuple[Collector, ...] = (
    metadata_facts, pod_facts, node_facts, workload_facts, event_facts, status_facts, log_facts,
)


def parse_times(values: Sequence[Any]) -> pd.Series:
    """RFC 3339 strings and datetimes as UTC timestamps (NaT where a value is not a time)."""
    import numpy as np
    import pyarrow as pa

    try:
        text = pa.array(values, type=pa.string())  # strings and None only, the usual case
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return _parse_times(values)
    # a dump's times repeat (a pod's start, its conditions, its containers' starts): each
    # distinct one is parsed once
    encoded = text.dictionary_encode()
    parsed = _parse_times(encoded.dictionary.to_pylist()).to_numpy(dtype="datetime64[ns]")
    positions = encoded.indices.fill_null(len(parsed)).to_numpy()
    times = np.append(parsed, np.datetime64("NaT", "ns"))[positions]
    return pd.Series(times).dt.tz_localize("UTC").astype(DATETIME)


def _parse_times(values: Sequence[Any]) -> pd.Series:
    text = [v.isoformat() if isinstance(v, datetime) else v for v in values]
    return as_nanoseconds(pd.to_datetime(pd.Series(text, dtype="object"), utc=True,
                                         format="ISO8601", errors="coerce"))
