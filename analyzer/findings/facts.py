"""Small readers the rules share: evidence from an object, containers of a pod, times, selectors."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from analyzer.findings.types import Evidence
from analyzer.ingest.records import KubeObject
from analyzer.ingest.result import capture_is_lower_bound as capture_is_lower_bound
from analyzer.kube.time import parse_time
from analyzer.memo import once_per
from analyzer.model.namespaces import is_dump_tool_namespace, is_platform_namespace
from analyzer.model.normalize import as_dict, as_list, ready_counts
from analyzer.printing.timefmt import human_duration

if TYPE_CHECKING:
    from analyzer.findings.dump import AnalyzedDump


# Asked of every pod by several rules, of a few hundred namespaces at most.
@lru_cache(maxsize=4096)
def is_system_namespace(namespace: str) -> bool:
    """Whether a namespace belongs to the platform or to the tool that made the dump, rather than to
    applications: host access and the like are their job, so checks that would only be noise there
    skip them (analyzer/model/data/system_namespaces.yaml, the list the distributions read too).

    >>> is_system_namespace("kube-system"), is_system_namespace("sonobuoy"), is_system_namespace("shop")
    (True, True, False)
    """
    return is_platform_namespace(namespace) or is_dump_tool_namespace(namespace)


# What a paste is read as: a session (prompts, prose) or kubectl's output alone.
_PASTES = ("transcript", "kubectl-text")


def holds_a_paste(cluster: AnalyzedDump) -> bool:
    """Whether the dump holds pasted text: only a paste quotes what the API server answered a
    command, or shows a command typed against the cluster; objects never do."""
    return any(f.format in _PASTES for f in getattr(cluster.ingest, "files", None) or ())


def quoted_pod(namespace: str, name: str) -> str:
    """A pod a paste quotes as a finding's message names it: `ns/name`, or the name and that the
    paste does not say its namespace."""
    return f"{namespace}/{name}" if namespace else f"{name} (its namespace not in the paste)"


def ev(obj: KubeObject, field: str, seen: Any, expected: Any = None) -> Evidence:
    """Evidence read from `obj` at `field`, located by the object's provenance (the line as read:
    a JSON List item's is not looked for in its file for every finding; see `Provenance`)."""
    return Evidence(field=field, seen=seen, expected=expected,
                    source=obj.provenance.source, line=obj.provenance.known_line)


# A findings run's pairing of each pod's containers (id(pod) -> (pod, pairs)): a dozen rules
# walk the containers of every pod. Only while `shared_containers()` is open.
_PAIRED: ContextVar[dict[int, tuple[KubeObject, tuple[tuple[str, Any, Any], ...]]] | None] = ContextVar(
    "paired_containers", default=None)


# The same run's containers of each pod that are waiting (id(pod) -> (pod, (type, status, reason)
# of each)): three rules and the replica checks ask every pod, and nearly none waits.
_WAITING: ContextVar[dict[int, tuple[KubeObject, tuple[tuple[str, Any, Any], ...]]] | None] = ContextVar(
    "waiting_containers", default=None)


@contextmanager
def shared_containers() -> Iterator[None]:
    """While open, each pod's containers are paired once and shared by every rule that reads them."""
    token, waiting = _PAIRED.set({}), _WAITING.set({})
    try:
        yield
    finally:
        _WAITING.reset(waiting)
        _PAIRED.reset(token)


def pod_containers(pod: KubeObject, *types: str) -> Iterator[tuple[str, Any, Any]]:
    """(container_type, spec, status) of a pod's containers; types among init/container/ephemeral.

    A status without a spec (a pasted table knows only statuses) comes with spec None, and the
    other way round.
    """
    every = _per_pod(_PAIRED, pod, _paired_containers)
    if every is None:
        return _paired_containers(pod, types)
    if not types:
        return iter(every)
    return (c for c in every if c[0] in types)


def _per_pod(memo: ContextVar, pod: KubeObject,
             compute: Callable[[KubeObject, tuple[str, ...]], Iterable[tuple[str, Any, Any]]]) -> tuple | None:
    """What `compute(pod, ())` gives, kept for the findings run (None outside one): a dozen
    rules ask the same of every pod. Kept by id with the pod itself, so a reused id is not a hit."""
    known_pods = memo.get()
    if known_pods is None:
        return None
    known = known_pods.get(id(pod))
    if known is None or known[0] is not pod:
        known = known_pods[id(pod)] = (pod, tuple(compute(pod, ())))
    return known[1]


def _paired_containers(pod: KubeObject, types: tuple[str, ...]) -> Iterator[tuple[str, Any, Any]]:
    spec, status = pod.view.spec, pod.view.status
    groups = (
        ("init", spec.initContainers, status.initContainerStatuses),
        ("container", spec.containers, status.containerStatuses),
        ("ephemeral", spec.ephemeralContainers, status.ephemeralContainerStatuses),
    )
    for ctype, specs, statuses in groups:
        if types and ctype not in types:
            continue
        if not statuses:
            for c in specs or ():
                yield ctype, c, None
            continue
        if specs and len(specs) == len(statuses):
            # Nearly every pod: the statuses name the specs' containers in their order, each
            # once (then pairing them by position is pairing them by name).
            names = [c.name for c in specs]
            if names == [s.name for s in statuses] and len(set(names)) == len(names):
                for c, s in zip(specs, statuses, strict=True):
                    yield ctype, c, s
                continue
        by_name = {s.name: s for s in statuses}
        seen: set[str] = set()
        for c in specs or ():
            seen.add(c.name)
            yield ctype, c, by_name.get(c.name)
        for s in statuses:
            if s.name not in seen:
                yield ctype, None, s


def container_path(ctype: str, name: str, status: bool = False) -> str:
    """The API field path of a container (or its status), for evidence."""
    if status:
        base = {"init": "initContainerStatuses", "ephemeral": "ephemeralContainerStatuses"}
        return f"status.{base.get(ctype, 'containerStatuses')}[name={name}]"
    base = {"init": "initContainers", "ephemeral": "ephemeralContainers"}
    return f"spec.{base.get(ctype, 'containers')}[name={name}]"


def knows_container_specs(pod: KubeObject) -> bool:
    """Whether the dump holds the pod's container specs (a pasted table or describe may not)."""
    return bool(pod.view.spec.containers) and all(c.image for c in pod.view.spec.containers)


def is_manifest(obj: KubeObject) -> bool:
    """Whether the object is a manifest someone wrote (a write-up's `kubectl apply -f` file), not
    what the API server returned: nothing the server fills in (uid, creation time, resource
    version, status) and no table row either. Its spec says what was asked, never what runs."""
    meta = obj.view.metadata
    return (obj.view.text is None and not meta.uid and not meta.creationTimestamp and not meta.resourceVersion
            and not _has_status(obj))


def _has_status(obj: KubeObject) -> bool:
    status = getattr(obj.view, "status", None)
    if status is None:
        return False
    fields = getattr(status, "__struct_fields__", ())
    return any(getattr(status, f) not in (None, [], {}, "") for f in fields)


def knows_labels(pod: KubeObject) -> bool:
    """Whether the dump holds the pod's labels: a pasted table has them only with --show-labels
    (or -L), a pod read whole has them (or truly none)."""
    return pod.view.text is None or pod.view.metadata.labels is not None


def knows_taints(node: KubeObject) -> bool:
    """Whether the dump holds the node's taints: a pasted `kubectl get nodes` row never shows
    them; `kubectl describe node` does (`Taints: <none>` too), as does a node read whole."""
    return node.view.text is None or node.view.spec.taints is not None or node.provenance.format == "describe"


def labels_unknown_in(pods: dict[str, list[KubeObject]], namespace: str) -> bool:
    """Whether some live pod of the namespace was read without its labels, so that no selector
    can be said to match nothing there."""
    return any(not knows_labels(p) and not is_terminal(p) for p in pods.get(namespace, ()))


def age_text(delta: timedelta | None) -> str:
    """A short human age as kubectl prints one (apimachinery's HumanDuration: "45s", "4m53s",
    "12m", "6h59m", "30h", "5d2h"), so a finding's age reads as the pasted table beside it does;
    "unknown age" when None.

    >>> age_text(timedelta(hours=50)), age_text(timedelta(hours=6, minutes=59, seconds=59)), age_text(None)
    ('2d2h', '6h59m', 'unknown age')
    """
    if delta is None:
        return "unknown age"
    return human_duration(max(delta.total_seconds(), 0))


def capture_of(cluster: AnalyzedDump, obj: KubeObject | None = None) -> datetime | None:
    """The capture time of `obj` (of the period its file was captured in, for a stitched dump),
    or of the dump."""
    if obj is None:
        return cluster.capture_time
    estimate = getattr(cluster, "capture", None)
    return estimate.time_for(obj.provenance.source) if estimate is not None else cluster.capture_time


def stitched_reason(cluster: AnalyzedDump) -> str:
    """Why objects of this dump may not be compared with each other ('' when they may): it was
    put together from captures of different times, maybe of different clusters."""
    estimate = getattr(cluster, "capture", None)
    if estimate is None or not getattr(estimate, "stitched", False):
        return ""
    return (f"the dump is stitched from {len(estimate.periods)} captures far apart in time, so its "
            "nodes may belong to different clusters or moments")


# A time this far after the capture was written by a clock ahead (seconds of skew are common).
AHEAD_SLACK = timedelta(minutes=5)


def age_at_capture(cluster: AnalyzedDump, when: datetime | None,
                   obj: KubeObject | None = None) -> timedelta | None:
    """How long before the capture time (of `obj`'s file, in a stitched dump) something
    happened (None if either is unknown)."""
    capture = capture_of(cluster, obj)
    if capture is None or when is None:
        return None
    return capture - when


def object_age(cluster: AnalyzedDump, obj: KubeObject) -> timedelta | None:
    """How old an object was at the capture: its AGE where a pasted table gives one, else from
    its creation (None if neither is known)."""
    text = obj.view.text
    if text is not None and text.age_seconds is not None:
        return timedelta(seconds=text.age_seconds)
    return age_at_capture(cluster, parse_time(obj.view.metadata.creationTimestamp), obj)


def lasted_text(cluster: AnalyzedDump, age: timedelta) -> str:
    """How long a wait had lasted at the capture, as a message says it: "12m", or "at least 12m"
    where the capture is a lower bound (see `capture_is_lower_bound`)."""
    return f"at least {age_text(age)}" if capture_is_lower_bound(cluster) else age_text(age)


def known_age(cluster: AnalyzedDump, obj: KubeObject) -> timedelta | None:
    """How old an object was at the capture where that is known: its pasted AGE, or its creation
    under a capture dated by more than creations, writes and status times (its own creation, or
    its pod's start, may be the capture: "0s old" by construction). None else; for "how young"
    questions."""
    text = obj.view.text
    if text is not None and text.age_seconds is not None:
        return timedelta(seconds=text.age_seconds)
    if capture_is_lower_bound(cluster):
        return None
    return object_age(cluster, obj)


def newest_time_text(cluster: AnalyzedDump, when: datetime | None, obj: KubeObject | None = None) -> str | None:
    """ "<when> UTC, the newest time the dump holds" where `when` is the capture time itself (a
    paste holding no later time): "0s before capture" would say it just happened, when all the
    dump says is that it happened then, or earlier. None otherwise."""
    age = age_at_capture(cluster, when, obj)
    if age is None or when is None or age > timedelta(0):
        return None
    return f"{when:%Y-%m-%d %H:%M:%S} UTC, {newest_time_words(cluster, when)}"


def newest_time_words(cluster: AnalyzedDump, when: datetime | None) -> str:
    """ "the newest time the dump holds" for a capture time (the dump's, or its file's period's),
    or, where a stitched dump holds later times, of which capture it is the newest."""
    estimate = getattr(cluster, "capture", None)
    return estimate.newest_words(when) if estimate is not None and when is not None else "the newest time the dump holds"


def ago(cluster: AnalyzedDump, when: datetime | None, obj: KubeObject | None = None) -> str:
    """ "12m before capture" ("at least 12m" under a capture that is a lower bound: it came at the
    dump's newest write or status time, or later), or why the age cannot be told."""
    if when is None:
        return "at an unknown time"
    age = age_at_capture(cluster, when, obj)
    if age is not None and age < -AHEAD_SLACK:
        # written by a clock ahead of the heartbeats and events (a node's), not "just now"
        return f"at {when:%Y-%m-%d %H:%M}Z, {age_text(-age)} after the capture (a clock ahead of the cluster's)"
    if age is None:
        return f"at {when.isoformat()} (capture time unknown)"
    return f"{lasted_text(cluster, age) if age > timedelta(0) else age_text(age)} before capture"


def when_text(cluster: AnalyzedDump, when: datetime | None, obj: KubeObject | None = None) -> str:
    """ "12m before capture" (ago), or "at <when> UTC, the newest time the dump holds" where the
    time is the capture itself: "0s before capture" would read as just now, when the capture may
    be any time later (portainer/portainer#5314: a describe's Last State its newest time)."""
    age = age_at_capture(cluster, when, obj)
    newest = newest_time_text(cluster, when, obj) if age is not None and age >= -AHEAD_SLACK else None
    return f"at {newest}" if newest is not None else ago(cluster, when, obj)


def selector_matches(selector: dict[str, Any] | None, labels: dict[str, Any] | None) -> bool:
    """Whether a label selector (a plain map, or matchLabels/matchExpressions) selects labels.

    An empty or absent selector selects nothing here: rules only ask about real selectors.

    >>> selector_matches({"app": "web"}, {"app": "web", "tier": "x"})
    True
    >>> selector_matches({"matchExpressions": [{"key": "app", "operator": "In", "values": ["a"]}]}, {"app": "b"})
    False
    """
    # a hand-edited dump's selector or expression may be no mapping: it selects nothing
    if not selector or not isinstance(selector, dict):
        return False
    labels = as_dict(labels)
    if "matchLabels" in selector or "matchExpressions" in selector:
        match_labels = as_dict(selector.get("matchLabels"))
        expressions = as_list(selector.get("matchExpressions"))
    else:
        match_labels, expressions = selector, []
    if not match_labels and not expressions:
        return False
    if any(str(labels.get(k)) != str(v) for k, v in match_labels.items()):
        return False
    for expr in expressions:
        if not isinstance(expr, dict):
            return False
        key, op, values = expr.get("key"), expr.get("operator"), [str(v) for v in as_list(expr.get("values"))]
        present = key in labels
        if (op == "In" and not (present and str(labels[key]) in values)) \
                or (op == "NotIn" and present and str(labels[key]) in values) \
                or (op == "Exists" and not present) or (op == "DoesNotExist" and present):
            return False
    return True


def owner(obj: KubeObject) -> tuple[str, str] | None:
    """(kind, name) of the controlling owner reference, if any."""
    refs = obj.view.metadata.ownerReferences or ()
    for ref in refs:
        if ref.controller:
            return ref.kind, ref.name
    return (refs[0].kind, refs[0].name) if refs else None


def is_static_pod(pod: KubeObject) -> bool:
    """A mirror pod of a kubelet static manifest (annotation, or owned by its Node)."""
    annotations = pod.view.metadata.annotations or {}
    if "kubernetes.io/config.mirror" in annotations:
        return True
    own = owner(pod)
    return own is not None and own[0] == "Node"


def uses_claim(pod: KubeObject, claim: str) -> bool:
    """Whether a pod's volumes name the PersistentVolumeClaim `claim` (of its own namespace)."""
    return any(as_dict(v.get("persistentVolumeClaim")).get("claimName") == claim for v in pod.view.spec.volumes or ())


def is_terminal(pod: KubeObject) -> bool:
    """A pod that finished (Succeeded/Failed): its containers are not expected to run."""
    return pod.view.status.phase in ("Succeeded", "Failed")


def text_status(obj: KubeObject) -> str | None:
    """The STATUS column of a pasted `kubectl get` row, when the object came from one."""
    text = obj.view.text
    return text.status if text is not None else None


def states_no_container(pod: KubeObject) -> bool:
    """Whether no container status of the pod says what its container is doing now (none at all,
    or only a Last State quoted from a describe): a pasted row's STATUS is then the word on it."""
    return not any(s.state for s in pod.view.status.containerStatuses or ())


def container_label(name: str) -> str:
    """A container's name as a finding says it; a quote of its state alone does not name it."""
    return name or "(its name not in the paste)"


def row_sole_container(pod: KubeObject) -> str | None:
    """The container a pasted row's pod state is about, when the row (which names none) stands
    over a spec that has exactly one container and its READY column counts one: a row kept as the
    later sighting over another file's whole record (realdata aks/holmesgpt-fixtures: `get -A`
    says `Error 16 (5m11s ago)`, the `-o yaml` record's spec runs one container, stress). None
    when the pod has container statuses, no row, or not one container."""
    text = pod.view.text
    if text is None or not states_no_container(pod):
        return None
    containers = pod.view.spec.containers or ()
    if len(containers) != 1 or not containers[0].name:
        return None
    _ready, total = ready_counts(text.ready)
    return containers[0].name if total in (None, 1) else None


def waiting_containers(pod: KubeObject, reasons: frozenset[str], *types: str) -> list[Evidence]:
    """Evidence for each container of `pod` waiting with one of `reasons`.

    Falls back to a pasted table's STATUS column when the pod carries no container statuses.
    """
    found = []
    for ctype, status, reason in _waiting(pod, types):
        if reason in reasons:
            found.append(ev(pod, container_path(ctype, status.name, status=True) + ".state.waiting.reason",
                            reason, "running"))
    if not found and states_no_container(pod):
        status_col = text_status(pod)
        if status_col and status_col.split(":")[-1] in reasons and (
                "init" in types or not status_col.startswith("Init:") or not types):
            found.append(ev(pod, "STATUS column", status_col, "Running"))
    return found


def _waiting(pod: KubeObject, types: tuple[str, ...]) -> Iterator[tuple[str, Any, Any]] | tuple:
    """(container_type, status, waiting reason) of the pod's waiting containers of `types`."""
    every = _per_pod(_WAITING, pod, _waiting_of)
    if every is None:
        return _waiting_of(pod, types)
    if not every or not types:
        return every
    return (w for w in every if w[0] in types)


def _waiting_of(pod: KubeObject, types: tuple[str, ...]) -> Iterator[tuple[str, Any, Any]]:
    for ctype, _spec, status in pod_containers(pod, *types):
        state = status.state if status else None
        waiting = state.waiting if state else None
        if waiting:
            yield ctype, status, waiting.reason


@once_per
def objects_by_identity(cluster: AnalyzedDump) -> dict[tuple[str, str, str], KubeObject]:
    """(kind, namespace, name) -> object, the last in dump order where two share it (built once
    per cluster: owners, components and rules look objects up by what a table or graph names)."""
    return {(o.kind, o.namespace, o.name): o for o in cluster.objects}


@once_per
def objects_by_id(cluster: AnalyzedDump) -> dict[str, KubeObject]:
    """`group/kind/namespace/name` (the graph's node ids) -> object (built once per cluster)."""
    return {o.key.id: o for o in cluster.objects}


def objects_named(cluster: AnalyzedDump, kind: str) -> dict[tuple[str, str], KubeObject]:
    """(namespace, name) -> object of a kind, the last in dump order where two share them
    (indexed once per cluster and kind: rules, events and incidents look pods up by name)."""
    by_kind = _named(cluster)
    found = by_kind.get(kind)
    if found is None:
        found = by_kind[kind] = {(o.namespace, o.name): o for o in cluster.objects_of(kind)}
    return found


@once_per
def _named(cluster: AnalyzedDump) -> dict[str, dict[tuple[str, str], KubeObject]]:
    return {}


class PodsByNamespace(dict[str, list[KubeObject]]):
    """Namespace -> its pods, with a per-namespace label index so a Service's selector is
    matched against the few pods that carry its labels, not against every pod."""

    def __init__(self) -> None:
        super().__init__()
        # (namespace, label key) -> value -> pods: only the keys selectors ask about are indexed
        self._label_index: dict[tuple[str, str], dict[str, list[KubeObject]]] = {}
        # id(service) -> (service, the pods it selects): three rules ask about every Service.
        self.selected: dict[int, tuple[KubeObject, tuple[KubeObject, ...]]] = {}

    def with_label(self, namespace: str, key: str, value: Any) -> list[KubeObject]:
        index = self._label_index.get((namespace, key))
        if index is None:
            index = self._label_index[(namespace, key)] = {}
            for pod in self.get(namespace, ()):
                labels = pod.view.metadata.labels
                if labels and key in labels:
                    index.setdefault(str(labels[key]), []).append(pod)
        return index.get(str(value), [])


@once_per
def pods_by_namespace(cluster: AnalyzedDump) -> PodsByNamespace:
    """Namespace -> its pods, in dump order (built once per cluster, shared by the rules)."""
    index = PodsByNamespace()
    for pod in cluster.objects_of("Pod"):
        index.setdefault(pod.namespace, []).append(pod)
    return index


def selected_pods(service: KubeObject, pods: dict[str, list[KubeObject]]) -> list[KubeObject]:
    """The live (not finished) pods a Service's selector matches, in its own namespace only."""
    if isinstance(pods, PodsByNamespace):
        known = pods.selected.get(id(service))
        if known is None or known[0] is not service:
            known = pods.selected[id(service)] = (service, tuple(_selected_pods(service, pods)))
        return list(known[1])
    return _selected_pods(service, pods)


def _selected_pods(service: KubeObject, pods: dict[str, list[KubeObject]]) -> list[KubeObject]:
    selector = service.view.spec.selector
    candidates = pods.get(service.namespace, ())
    plain = selector and "matchLabels" not in selector and "matchExpressions" not in selector
    if plain and isinstance(pods, PodsByNamespace):
        # The pods carrying the selector's rarest label are the only ones that can match.
        candidates = min((pods.with_label(service.namespace, k, v) for k, v in selector.items()), key=len)
    return [p for p in candidates
            if not is_terminal(p) and selector_matches(selector, p.view.metadata.labels)]


@dataclass(frozen=True, slots=True)
class Deletion:
    """An object marked for deletion and still in the dump: the field that says so, how long it
    has lasted as a message says it, and whether that is past the rule's grace (False: since when
    is not known, or within the grace by a capture that is a lower bound)."""

    evidence: Evidence
    lasted: str
    stuck: bool


def deletion_past(cluster: AnalyzedDump, obj: KubeObject, grace: timedelta) -> Deletion | None:
    """How an object marked for deletion has lasted: by its deletionTimestamp, a describe's
    `Terminating (lasts 31m)`, or a `Terminating` with no age (a table's STATUS, a describe's
    `lasts <invalid>`); None when it is not being deleted or went within `grace`."""
    meta = obj.view.metadata
    text = obj.view.text
    expected = f"gone within {age_text(grace)}"
    if meta.deletionTimestamp is not None:
        age = age_at_capture(cluster, parse_time(meta.deletionTimestamp), obj)
        evidence = ev(obj, "metadata.deletionTimestamp", meta.deletionTimestamp, expected)
        lower_bound = capture_is_lower_bound(cluster)
    elif text is not None and text.deletion_ago_seconds is not None:
        age = timedelta(seconds=text.deletion_ago_seconds)
        evidence = ev(obj, "Status (kubectl describe)", f"Terminating (lasts {age_text(age)})", expected)
        lower_bound = False
    elif "Terminating" in (getattr(obj.view.status, "phase", None), text.status if text is not None else None):
        # (a table's row, or a describe's `Terminating (lasts <invalid>)` under a skewed clock)
        field = "Status (kubectl describe)" if text is not None and text.described else "STATUS (kubectl get)"
        return Deletion(ev(obj, field, "Terminating", "gone"), "a time the dump does not show", False)
    else:
        return None
    if age is None:
        return Deletion(evidence, "a time the dump does not show", False)
    if age < timedelta(0) or (age <= grace and not lower_bound):
        return None
    return Deletion(evidence, lasted_text(cluster, age) if lower_bound else age_text(age), age > grace)
