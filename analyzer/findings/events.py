"""Events read the same way whichever API shape they came in (core/v1 or events.k8s.io/v1)."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from functools import cache
from typing import TYPE_CHECKING

from analyzer.findings.facts import (
    age_at_capture,
    age_text,
    ago,
    capture_is_lower_bound,
    ev,
    known_age,
    lasted_text,
    objects_named,
    when_text,
)
from analyzer.findings.versions import DATA
from analyzer.kube.event_reasons import current_reason
from analyzer.kube.kinds import CLUSTER_SCOPED_KINDS
from analyzer.kube.time import parse_time
from analyzer.memo import once_per
from analyzer.model.normalize import ready_counts
from analyzer.safeyaml import load_yaml

if TYPE_CHECKING:
    from analyzer.findings.dump import AnalyzedDump
    from analyzer.findings.types import Finding, RuleMeta
    from analyzer.ingest.records import KubeObject
    from analyzer.kube.views import TextFacts


# The name a finding gives the object of events that do not name it (a describe's Events pasted
# alone): read as "Pod (not named by its events)", not as an object called "not named".
NOT_NAMED = "(not named by its events)"


@dataclass(frozen=True, slots=True)
class EventFact:
    """One event: what it is about, why, how often, and when it was last seen."""

    event: KubeObject
    type: str
    reason: str
    message: str
    kind: str
    namespace: str
    name: str
    count: int
    last_seen: datetime | None
    # A pasted `kubectl describe` gives ages ("2m (x49 over 12m)"), not timestamps.
    last_seen_ago: timedelta | None = None
    first_seen: datetime | None = None
    uid: str = ""  # of the object the event is about, when the event names it
    # a `kubectl get events` table of kubectl 1.x's later layout has no COUNT column: the count
    # of its rows is not shown, not 1
    count_untold: bool = False
    # the reason as the event wrote it, where Kubernetes 1.0 wrote it in lower case
    # (`failedScheduling`; `reason` is then the word it became): '' when the same
    written_reason: str = ""

    @property
    def as_written(self) -> str:
        """The reason as the event wrote it, for evidence."""
        return self.written_reason or self.reason


def event_fact(obj: KubeObject) -> EventFact:
    """The facts of an Event object, from either API shape."""
    v = obj.view
    about = v.involvedObject or v.regarding
    series = v.series
    when = (v.lastTimestamp or (series.lastObservedTime if series else None) or v.eventTime
            or v.deprecatedLastTimestamp or v.firstTimestamp or v.metadata.creationTimestamp)
    count = v.count or (series.count if series else None) or v.deprecatedCount or 1
    kind = (about.kind if about else None) or _kind_of_source(v)
    # Events about cluster-scoped objects (Nodes) live in some namespace; the object has none.
    namespace = "" if kind in CLUSTER_SCOPED_KINDS else (
        (about.namespace if about else None) or (obj.namespace or ""))
    written = v.reason or ""
    reason = current_reason(written)
    return EventFact(
        event=obj, type=v.type or "", reason=reason,
        message=" ".join((v.message or v.note or "").split()),  # one line, even for probe output
        kind=kind, name=(about.name if about else None) or "", namespace=namespace,
        count=int(count), last_seen=parse_time(when),
        last_seen_ago=timedelta(seconds=v.text.last_seen_ago_seconds)
        if v.text is not None and v.text.last_seen_ago_seconds is not None else None,
        first_seen=parse_time(v.firstTimestamp or v.deprecatedFirstTimestamp or v.eventTime or when),
        uid=(about.uid if about else None) or "",
        count_untold=_count_untold(v, series),
        written_reason=written if written != reason else "",
    )


@cache
def _source_kinds() -> dict[str, str]:
    return load_yaml((DATA / "event_source_kinds.yaml").read_text(encoding="utf-8"))


def _kind_of_source(v) -> str:
    """The kind of object an event that names none is about, when its source records events on
    one kind only (kubernetes/kubernetes#79365: an HPA's describe Events pasted alone, From
    horizontal-pod-autoscaler); '' otherwise."""
    source = v.source
    component = (source.component if source is not None else None) or v.reportingComponent or ""
    return _source_kinds().get(component, "")


def _count_untold(v, series) -> bool:
    """A pasted `kubectl get events` row whose table shows no COUNT (LAST SEEN, TYPE, REASON,
    OBJECT, MESSAGE): how many times it happened is not in the dump."""
    columns = v.text.columns if v.text is not None else None
    return (v.count is None and series is None and v.deprecatedCount is None and columns is not None
            and "LAST SEEN" in columns and "COUNT" not in columns)


@once_per
def event_facts(cluster: AnalyzedDump) -> list[EventFact]:
    """The facts of every Event of the dump, in dump order (read once per cluster: five rules
    and the events index walk them all)."""
    return [event_fact(obj) for obj in cluster.objects_of("Event")]


PROBES = (("liveness", "Liveness probe"), ("readiness", "Readiness probe"), ("startup", "Startup probe"))


def probe_of(fact: EventFact) -> str:
    """Which probe an Unhealthy/ProbeWarning event is about ('' for other events): liveness
    and readiness failures are different stories.

    >>> probe_of(EventFact(None, "Warning", "Unhealthy", "Readiness probe failed: 503", "Pod", "a", "b", 1, None))
    'readiness'
    """
    if fact.reason not in ("Unhealthy", "ProbeWarning"):
        return ""
    return next((name for name, prefix in PROBES if fact.message.startswith(prefix)), "")


# A kubelet event message that says no why: only an error's name (`Error: ErrImagePull`), or
# that it gave up waiting for a pod's volumes (`Unable to attach or mount volumes: unmounted
# volumes=[data] ...: timed out waiting for the condition`; before 1.17 `Unable to mount volumes
# for pod "x": timeout expired waiting for volumes to attach or mount`).
_BARE_ERROR = re.compile(r"^Error: [A-Za-z]+$|^Unable to (?:attach or )?mount volumes\b")
_UNMOUNTED = re.compile(r"unmounted volumes=\[[^\]]*\]")


@dataclass(frozen=True, slots=True)
class EventGroup:
    """Repeats of one story folded together: one object, one reason (one probe), with the
    total count, the first and the last time."""

    kind: str
    namespace: str
    name: str
    reason: str
    probe: str
    facts: tuple[EventFact, ...]  # oldest first

    @property
    def last(self) -> EventFact:
        return self.facts[-1]

    @property
    def count(self) -> int:
        return sum(f.count for f in self.facts)

    @property
    def told_count(self) -> int | str:
        """The count to say: "at least N" where a row's count was not shown."""
        return f"at least {self.count}" if any(f.count_untold for f in self.facts) else self.count

    @property
    def told_message(self) -> str:
        """The newest message, or, where the paste cut it short (it is the start of an earlier
        one of this story), the whole one it begins (amazon-vpc-cni-k8s#2814: the third
        FailedCreatePodSandBox row ends at 'Failed to create pod'; the two before it say
        '... failed to assign an IP address to container')."""
        last = self.facts[-1].message
        whole = next((f.message for f in reversed(self.facts[:-1])
                      if len(f.message) > len(last) and f.message.startswith(last)), None)
        if last and whole:
            return whole
        if _BARE_ERROR.match(last):
            # the kubelet's `Error: ErrImagePull` follows the `Failed to pull image "x": <why>`
            # of the same story, its `Unable to mount volumes` the `MountVolume... failed for
            # volume "v": <why>`: the why is what to say (kubernetes/website#22888: manifest
            # unknown; ceph/ceph-csi#710: rbd.csi.ceph.com not registered on the node)
            said = next((f.message for f in reversed(self.facts[:-1]) if f.message and not _BARE_ERROR.match(f.message)),
                        None)
            if said:
                return f"{said} ({_waited(last)})"
        return last

    @property
    def first_seen(self) -> datetime | None:
        times = [f.first_seen or f.last_seen for f in self.facts if f.first_seen or f.last_seen]
        return min(times) if times else None

    @property
    def label(self) -> str:
        """The reason, with the probe where there is one: "Unhealthy (readiness probe)"."""
        return f"{self.reason} ({self.probe} probe)" if self.probe else self.reason


def _when(fact: EventFact) -> tuple[int, float]:
    """Sort key, oldest first: events with no time at all (a pasted row cut before its age),
    then those a paste gives only an age (how long before the unknown capture), then by time."""
    if fact.last_seen:
        return 2, fact.last_seen.timestamp()
    if fact.last_seen_ago is not None:
        return 1, -fact.last_seen_ago.total_seconds()
    return 0, 0.0


def _waited(message: str) -> str:
    """The kubelet's message that it gave up waiting for volumes, said by the volumes it names
    (the why before it is what the reader needs whole), any other message as it is.

    >>> _waited('Unable to mount volumes for pod "p_default(3e)": timeout expired waiting for volumes to '
    ...         'attach or mount for pod "default"/"p". list of unmounted volumes=[mypvc]. list of unattached volumes=[mypvc t]')
    'then: Unable to mount volumes, unmounted volumes=[mypvc]'
    >>> _waited("Error: ErrImagePull")
    'Error: ErrImagePull'
    """
    return volume_wait(message) or message


def volume_wait(message: str) -> str:
    """The kubelet's bare word that it gave up waiting for a pod's volumes, said by the volumes
    it names ('' for any other message: one that says why).

    >>> volume_wait("Unable to attach or mount volumes: unmounted volumes=[home], unattached volumes=[home t]: "
    ...             "timed out waiting for the condition")
    'then: Unable to mount volumes, unmounted volumes=[home]'
    >>> volume_wait('MountVolume.SetUp failed for volume "nfs" : mount failed: exit status 32')
    ''
    """
    unmounted = _UNMOUNTED.search(message) if _BARE_ERROR.match(message) and message.startswith("Unable to") else None
    return f"then: Unable to mount volumes, {unmounted.group(0)}" if unmounted else ""


def fold_events(facts: list[EventFact]) -> list[EventGroup]:
    """Events folded by object, reason and probe, in a stable order."""
    groups: dict[tuple[str, str, str, str, str], list[EventFact]] = defaultdict(list)
    for f in facts:
        groups[(f.kind, f.namespace, f.name, f.reason, probe_of(f))].append(f)
    return [EventGroup(*key, tuple(sorted(items, key=_when)))
            for key, items in sorted(groups.items())]


# How long after an object's creation its events belong to its start-up, and how recent an
# event must be to count as still repeating at the capture (under a capture that is a lower
# bound: in the last hour the dump shows; an age from it is at least its true age, so one past
# this is past it at the capture too).
STARTUP = timedelta(minutes=5)
RECENT = timedelta(hours=1)


def _object(cluster: AnalyzedDump, kind: str, namespace: str, name: str) -> KubeObject | None:
    return objects_named(cluster, kind).get((namespace, name))


def _pasted_running_and_ready(row: TextFacts | None) -> bool:
    """Whether a pasted `kubectl get pods` row says Running with every container ready (1/1)."""
    if row is None or row.status != "Running":
        return False
    ready, total = ready_counts(row.ready)
    return bool(total) and ready == total


# Pasted STATUS words of a pod not ready that do not say it is broken: done, or going away.
_PASTED_NOT_BROKEN = frozenset({"Completed", "Succeeded", "Terminating"})


def _pasted_not_ready(row: TextFacts | None) -> str:
    """ "ContainerCreating, 0/1 ready in the pasted table" when a pasted `kubectl get pods` row
    shows a container not ready under a status that is neither done nor going away ('' when
    the row does not say so): the pod is not Ready now, as its Ready condition would say."""
    if row is None or not row.status or row.status in _PASTED_NOT_BROKEN:
        return ""
    ready, total = ready_counts(row.ready)
    if not total or ready is None or ready >= total:
        return ""
    return f"{row.status}, {ready}/{total} ready in the pasted table"


def health_now(obj: KubeObject) -> tuple[bool | None, str, datetime | None]:
    """(healthy?, in words, since when) of an object as the dump shows it now; None when this
    kind's health cannot be told."""
    v = obj.view
    kind = obj.kind
    if kind == "Pod":
        status = v.status
        if status.phase == "Succeeded":
            return True, "the pod completed", None
        ready = next((c for c in status.conditions or () if c.type == "Ready"), None)
        if ready is not None and ready.status == "True":
            return True, "Ready", parse_time(ready.lastTransitionTime)
        if status.phase in ("Failed", "Pending") or ready is not None:
            return False, "not Ready", None
        if _pasted_running_and_ready(v.text):
            return True, "running and ready", None
        not_ready = _pasted_not_ready(v.text)
        if not_ready:
            return False, f"not Ready ({not_ready})", None
        return None, "", None
    if kind == "Node":
        ready = next((c for c in v.status.conditions or () if c.type == "Ready"), None)
        if ready is None:
            return None, "", None
        return ready.status == "True", "Ready" if ready.status == "True" else "not Ready", \
            parse_time(ready.lastTransitionTime)
    if kind in ("Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "ReplicationController"):
        from analyzer.model.tables.workloads import counts

        desired, _current, ready, _available, _updated = counts(kind, v)
        if desired is None or ready is None:
            return None, "", None
        if desired == 0:
            return True, "scaled to 0", None
        return ready >= desired, f"{ready} of {desired} ready", None
    if kind == "PersistentVolumeClaim":
        phase = v.status.phase
        return (phase == "Bound", f"phase {phase}", None) if phase else (None, "", None)
    return None, "", None


@once_per
def _node_creations(cluster: AnalyzedDump) -> tuple[dict[str, datetime], datetime | None]:
    """Node name -> its creation, and the first node's creation (built once per cluster)."""
    created = {n.name: t for n in cluster.objects_of("Node")
               if (t := parse_time(n.view.metadata.creationTimestamp)) is not None}
    return created, min(created.values(), default=None)


def _young_node(cluster: AnalyzedDump, obj: KubeObject, when: datetime | None) -> str:
    """ "fired in node n1's first minutes" when the event came within STARTUP of the creation
    of the object's node (a pod's node, or the node itself), or of the cluster's first node."""
    if when is None:
        return ""
    created, first = _node_creations(cluster)
    node_name = obj.name if obj.kind == "Node" else getattr(obj.view.spec, "nodeName", None) if obj.kind == "Pod" else None
    node_created = created.get(node_name) if node_name else None
    if node_created is not None and timedelta(0) <= when - node_created <= STARTUP:
        return f"fired in node {node_name}'s first minutes"
    if first is not None and timedelta(0) <= when - first <= STARTUP * 2:
        return "fired in the cluster's first minutes"
    return ""


@cache
def _successors() -> dict[str, dict[str, frozenset[str]]]:
    """reason -> what the failure is about ('' for anything) -> the Normal reasons that end it."""
    raw = load_yaml((DATA / "event_successors.yaml").read_text(encoding="utf-8"))
    return {str(reason): ({str(about): frozenset(ends) for about, ends in entry.items()}
                          if isinstance(entry, dict) else {"": frozenset(entry)})
            for reason, entry in raw.items()}


def _subject(fact: EventFact) -> str:
    """What a failure whose end depends on its subject is about: its message's last word
    ("Attempting to reclaim ephemeral-storage")."""
    words = fact.message.split()
    return words[-1] if words else ""


def before_capture(cluster: AnalyzedDump, fact: EventFact) -> timedelta | None:
    """How long before the capture the event last fired (from its time or its pasted age)."""
    if fact.last_seen_ago is not None:
        return fact.last_seen_ago
    return age_at_capture(cluster, fact.last_seen, fact.event) if fact.last_seen else None


def first_seen_ago(cluster: AnalyzedDump, fact: EventFact) -> timedelta | None:
    """How long before the capture an event first fired (its repeats' first), where known."""
    text = fact.event.view.text
    if text is not None and text.first_seen_ago_seconds is not None:
        return timedelta(seconds=text.first_seen_ago_seconds)
    if fact.count > 1 and fact.first_seen is not None:
        return age_at_capture(cluster, fact.first_seen, fact.event)
    return before_capture(cluster, fact)


# Pasted event ages are to the minute under a few hours ("51m"): a success printed with the
# same age as the failure may have followed it within that minute.
SAME_PRINTED_AGE_WITHIN = timedelta(hours=3)
# Successes that happen once to their object, after every failure they end: the scheduler binds
# a pod once and reports no FailedScheduling for it after, so a Scheduled pasted with the same
# age as the pod's FailedScheduling followed it.
ONCE = frozenset({"Scheduled"})


def _later_success(cluster: AnalyzedDump, group: EventGroup, same_minute: bool = False) -> str:
    """ "followed by Started 4m before capture" when a Normal event of the same object shows
    the failed step has happened since ('' when none does). `same_minute`: a success pasted
    with the same age as the failure counts too (said so), for an object healthy now."""
    ends = _successors().get(group.reason)
    if not ends:
        return ""
    if "" in ends:
        return _success_after(cluster, group, group.last, ends[""], same_minute)
    # one story per subject (a node reclaiming memory and disk): each must have ended
    newest = {_subject(fact): fact for fact in group.facts}  # (oldest first: the newest stays)
    said = [_success_after(cluster, group, fact, ends.get(subject, frozenset()), same_minute)
            for subject, fact in newest.items()]
    return "; ".join(dict.fromkeys(said)) if all(said) else ""


def _success_after(cluster: AnalyzedDump, group: EventGroup, last: EventFact, successors: frozenset[str],
                   same_minute: bool) -> str:
    """ "followed by X 4m before capture" for the newest of `successors` of the group's object
    after its failure `last` ('' when none came after it)."""
    failed = before_capture(cluster, last) if successors else None
    if failed is None:
        return ""
    pasted = same_minute and last.last_seen_ago is not None and failed < SAME_PRINTED_AGE_WITHIN
    later = [(ago_, f) for f in events_by_object(cluster).get((group.kind, group.namespace, group.name), ())
             if f.type == "Normal" and f.reason in successors
             and (ago_ := before_capture(cluster, f)) is not None
             and (ago_ < failed or (ago_ == failed and (f.reason in ONCE
                                                        or (pasted and f.last_seen_ago is not None))))]
    if not later:
        return ""
    ago_, success = min(later, key=lambda pair: pair[0])
    if ago_ == failed and success.reason in ONCE:
        return f"followed by {success.reason} {age_text(ago_)} before capture (once done, it ends the failures before it)"
    if ago_ == failed:
        return (f"{success.reason} in the same minute, {age_text(ago_)} before capture "
                f"(the pasted ages do not order them finer)")
    return f"followed by {success.reason} {age_text(ago_)} before capture"


def _success_printed_after(cluster: AnalyzedDump, group: EventGroup) -> str:
    """ "followed by Started in the same minute ... (printed after it)" when the object, a pod, is
    not in the dump and a pasted Normal event that ends the group's failure (data/event_successors.yaml)
    has the failure's age, to the minute, and is printed after it in the same table: kubectl
    lists an object's events in the order they were recorded (their names end in the time made)
    and describe in the order last seen, and the kubelet creates the containers only once their
    sandbox and volumes exist ('' otherwise; 2i2c-org/infrastructure#2248: FailedCreatePodSandBox,
    then Pulling, Pulled, Created and Started, all 26m)."""
    ends = _successors().get(group.reason, {}).get("")
    last = group.last
    failed = before_capture(cluster, last)
    said = last.event.provenance
    if group.kind != "Pod" or not ends or failed is None or last.last_seen_ago is None \
            or failed >= SAME_PRINTED_AGE_WITHIN or said.line is None:
        return ""
    after = [(where.line, fact.reason) for fact in events_by_object(cluster).get((group.kind, group.namespace, group.name), ())
             if fact.type == "Normal" and fact.reason in ends and fact.last_seen_ago == last.last_seen_ago
             and (where := fact.event.provenance).source == said.source and where.line is not None
             and where.line > said.line]
    if not after:
        return ""
    line, reason = max(after)  # the furthest step (Started after Pulled)
    return f"followed by {reason} in the same minute, {age_text(failed)} before capture (printed after it, line {line})"


CREATED_POD = re.compile(r"^Created pod: (\S+)")


def _created_pod_runs(cluster: AnalyzedDump, group: EventGroup) -> str:
    """A controller's pasted FailedCreate, the controller not in the dump, whose SuccessfulCreate
    is pasted with the same age or later and names a pod ("Created pod: web-1") that runs with
    every container ready now: what failed to be created exists now ('' otherwise)."""
    failed = before_capture(cluster, group.last)
    if group.reason != "FailedCreate" or failed is None or group.last.last_seen_ago is None \
            or failed >= SAME_PRINTED_AGE_WITHIN:
        return ""
    for fact in events_by_object(cluster).get((group.kind, group.namespace, group.name), ()):
        if fact.type != "Normal" or fact.reason != "SuccessfulCreate":
            continue
        ago_, named = before_capture(cluster, fact), CREATED_POD.match(fact.message or "")
        if ago_ is None or ago_ > failed or named is None:
            continue
        pod = _object(cluster, "Pod", group.namespace, named.group(1))
        healthy, words, _since = health_now(pod) if pod is not None else (None, "", None)
        if healthy:
            return f"SuccessfulCreate {age_text(ago_)} before capture created pod {named.group(1)}, {words} now"
    return ""


# A pod missing from a full listing printed before its events may have been made after the
# listing; one whose events began this long before they were printed was there before it.
LISTED_BEFORE_MARGIN = timedelta(minutes=5)


def _not_in_full_listing(cluster: AnalyzedDump, group: EventGroup) -> str:
    """ "not in the full listing at line 4 (kubectl get pods -A)" when the transcript that pasted
    these events also printed a whole listing of the object's kind and namespace (`get pods -A`,
    no names, selector or grep, not cut) that does not show it: it was gone then. A listing printed
    after the events tells so; one printed before them only when the object's events began
    LISTED_BEFORE_MARGIN before capture (it existed before the listing, which did not show it)."""
    event = group.last.event
    source, line = event.provenance.source, event.provenance.line
    listings = getattr(cluster.ingest, "full_listings", None) or ()
    matching = [(at, ns, command) for src, at, kinds, ns, command in listings
                if src == source and group.kind in kinds and ns in (None, group.namespace)]
    if not matching or line is None:
        return ""
    after = [at for at, _ns, _command in matching if at > line]
    if not after:
        began = [ago_ for f in events_by_object(cluster).get((group.kind, group.namespace, group.name), ())
                 if (ago_ := before_capture(cluster, f)) is not None]
        if not began or max(began) < LISTED_BEFORE_MARGIN:
            return ""
    at = min(after) if after else max(at for at, _ns, _command in matching)
    command = next(command for a, _ns, command in matching if a == at)
    return f"the {group.kind} is not in the full listing at line {at} ('{command}'), so gone"


def _healthy_in_a_later_listing(obj: KubeObject, event: KubeObject, words: str) -> str:
    """A pasted event row printed, in one session, before the listing that shows its object
    healthy: its age counts from its own output, not from the capture, so only the order of the
    outputs places it, before that listing. A container restarted shortly before that listing
    may crash again, so the last restart must be older than STARTUP ('' otherwise)."""
    row, said = obj.view.text, event.provenance
    if row is None or event.view.text is None or obj.provenance.source != said.source \
            or obj.provenance.line is None or said.line is None or obj.provenance.line <= said.line:
        return ""
    restarted = row.last_restart_ago_seconds
    if row.restarts and (restarted is None or restarted <= STARTUP.total_seconds()):
        return ""
    since = f", its last restart {age_text(timedelta(seconds=restarted))} before it" if restarted else ""
    return f"{words} in a later listing (line {obj.provenance.line}) than the events' (line {said.line}){since}"


# The kubelet's and the API server's words for a Secret or ConfigMap a pod needs and cannot find
# (a container's CreateContainerConfigError, a Failed or FailedMount event): 'secret "db" not found',
# 'Error: secrets "db" not found', 'MountVolume.SetUp failed for volume "v" : configmap "c" not found'.
NAMED_NOT_FOUND = re.compile(r'\b(secret|configmap)s? "([a-z0-9][a-z0-9.-]*)" not found', re.I)
NOT_FOUND_KIND = {"secret": "Secret", "configmap": "ConfigMap"}


def _needed_object_made_since(cluster: AnalyzedDump, group: EventGroup) -> str:
    """ "Secret db was created 1m before capture, after the last of these (2m57s before)" where
    the object the group's last words say is not found is in the dump, made after them: the
    kubelet retries and finds it ('' else, and where either time is unknown)."""
    said = NAMED_NOT_FOUND.search(group.last.message)
    if said is None:
        return ""
    kind = NOT_FOUND_KIND[said[1].lower()]
    needed = _object(cluster, kind, group.namespace, said[2])
    failed = before_capture(cluster, group.last)
    made = known_age(cluster, needed) if needed is not None else None
    if failed is None or made is None or made >= failed:
        return ""
    return (f"{kind} {said[2]} was created {age_text(made)} before capture, after the last of these "
            f"({age_text(failed)} before)")


def resolved_reason(cluster: AnalyzedDump, group: EventGroup) -> str:
    """Why a group of warning events no longer describes the present ('' when it still may):
    a later Normal event shows the failed step happened, its object is gone or was re-created,
    is healthy since, or the events fired during its start-up or termination, or they are old
    and nothing shows their object's state."""
    later = _later_success(cluster, group) or _needed_object_made_since(cluster, group)
    if later:
        return later
    last = group.last
    when = last.last_seen
    age = age_at_capture(cluster, when, last.event) if when else last.last_seen_ago
    kind = group.kind
    obj = _object(cluster, kind, group.namespace, group.name) if kind else None
    if obj is None:
        if kind and cluster.covers(kind) and last.event.view.text is None:
            return f"the {kind} is no longer in the dump"
        listed = _not_in_full_listing(cluster, group) if kind else ""
        if listed:
            return listed
        created = _created_pod_runs(cluster, group) or _success_printed_after(cluster, group)
        if created:
            return created
        if age is not None and age > RECENT:
            return not_repeating(cluster, age)
        return ""
    # (The kubelet names its node's events by the node's name where a uid would be.)
    if last.uid and obj.uid and last.uid != obj.uid and last.uid != obj.name:
        return f"the {kind} was re-created since (another uid)"
    healthy, words, since = health_now(obj)
    meta = obj.view.metadata
    deleted = parse_time(meta.deletionTimestamp)
    if deleted is not None and when is not None and when >= deleted - timedelta(minutes=1):
        return f"fired during the {kind}'s termination"
    if healthy:
        if since is not None and when is not None and when <= since:
            return f"{words} since {ago(cluster, since, obj)}"
        # A node or pod Ready since before the event (or since an unknown time) had the event
        # while Ready (an OOM kill, a probe blip): only time makes that history.
        if (since is None and kind not in ("Node", "Pod")) or (age is not None and age > RECENT):
            return f"{words} now" + (f"; last seen {lasted_text(cluster, age)} before capture" if age is not None else "")
        same = _later_success(cluster, group, same_minute=True)
        if same:
            return f"{words} now; {same}"
        listed = _healthy_in_a_later_listing(obj, last.event, words)
        if listed:
            return listed
        if since is None and age is not None and kind == "Pod":
            # a pasted pod running and ready, whose story ended in its first minutes (its AGE
            # says when it was made): a start-up blip, as a Ready-since time would show
            made = known_age(cluster, obj)
            if made is not None and timedelta(0) <= made - age <= STARTUP:
                return f"{words} now; fired during its start-up ({age_text(made - age)} after it was made, {age_text(made)} before capture)"
        return ""
    if healthy is False:
        return ""
    created = parse_time(meta.creationTimestamp)
    if created is not None and when is not None and timedelta(0) <= when - created <= STARTUP:
        return f"fired during the {kind}'s start-up"
    young = _young_node(cluster, obj, when)
    if young:
        return young
    if age is not None and age > RECENT:
        return not_repeating(cluster, age)
    return ""


def not_repeating(cluster: AnalyzedDump, age: timedelta) -> str:
    """A group last seen more than RECENT before the capture, said as history: under a capture
    that is only the dump's newest time (capture_is_lower_bound) its age is "at least", and the
    hour it did not repeat in is the last hour the dump shows, not the hour before the capture."""
    if capture_is_lower_bound(cluster):
        return f"last seen {lasted_text(cluster, age)} before capture, not repeating in the last hour the dump shows"
    return f"last seen {age_text(age)} before capture, not repeating at capture"


def event_ago(cluster: AnalyzedDump, fact: EventFact) -> str:
    """How long before the capture the event last fired, from its timestamp or its pasted age
    (counted from its own table where the session printed other outputs after it)."""
    if fact.last_seen is None and fact.last_seen_ago is not None:
        said = fact.event.provenance
        if said.line is not None and said.line < _last_lines(cluster).get(said.source, 0):
            return f"{age_text(fact.last_seen_ago)} before its table was printed (line {said.line})"
        return f"{age_text(fact.last_seen_ago)} before capture"
    return when_text(cluster, fact.last_seen, fact.event)


@once_per
def _last_lines(cluster: AnalyzedDump) -> dict[str, int]:
    """The last line each pasted file's objects other than events were read from: a listing
    printed after an events table (whose own later rows say nothing of that)."""
    out: dict[str, int] = {}
    for obj in cluster.objects:
        # (a pasted table's rows only: a List item's line is not looked for in its file)
        if obj.kind == "Event" or obj.view is None or obj.view.text is None:
            continue
        line = obj.provenance.line
        if line is not None and line > out.get(obj.provenance.source, 0):
            out[obj.provenance.source] = line
    return out


@once_per
def events_by_object(cluster: AnalyzedDump) -> dict[tuple[str, str, str], list[EventFact]]:
    """(kind, namespace, name) -> its events, newest last (found once per dump: several rules ask)."""
    index: dict[tuple[str, str, str], list[EventFact]] = defaultdict(list)
    for fact in event_facts(cluster):
        index[(fact.kind, fact.namespace, fact.name)].append(fact)
    for facts in index.values():
        facts.sort(key=_when)
    return dict(index)  # (shared: a lookup of an absent object must not add it)


def first_text(cluster: AnalyzedDump, group: EventGroup) -> str:
    """ "first 3d before capture", or '' when the events give no first time; "over 6h" where the
    capture is a lower bound ("first at least 29h before capture, last at least 23h before
    capture" says two bounds where one span and the last's bound say it)."""
    first, last = group.first_seen, group.last.last_seen
    if first is None or last is None or first >= last:
        return ""
    if capture_is_lower_bound(cluster):
        return f"over {age_text(last - first)}, "
    return f"first {ago(cluster, first, group.last.event)}, "


MESSAGE_CHARS = 300
_HEAD_CHARS = 120


def clipped(message: str, limit: int = MESSAGE_CHARS) -> str:
    """An event message cut to `limit` characters by its middle: the head says what failed, the
    tail why (an error chain ends with its cause: "...: AccessDenied: Not authorized to perform
    sts:AssumeRoleWithWebIdentity"). A pod's own volume folder on its node is shortened first,
    and a failed mount keeps what it mounted (server and path, options) beside its output.

    >>> clipped("failed to provision: " + "x" * 400 + ": AccessDenied").endswith("x: AccessDenied")
    True
    >>> len(clipped("a" * 1000)), clipped("short")
    (300, 'short')
    >>> print(clipped('MountVolume.SetUp failed for volume "ws" : mount failed: exit status 32\\nMounting '
    ...     'command: mount\\nMounting arguments: -t nfs -o soft 147.46.92.94:/media/usb/train /var/lib/k0s/'
    ...     'kubelet/pods/3bc570f0-5bc3-478a-9c09-73a8d10d05cb/volumes/kubernetes.io~nfs/ws\\nOutput: mount: '
    ...     + "x" * 200 + ': bad option; you might need a /sbin/mount.<type> helper program.'))
    MountVolume.SetUp failed for volume "ws" : mount failed: exit status 32 Mounting arguments: -t nfs -o soft
    147.46.92.94:/media/usb/train Output: mount: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
    … xxxxxxxxxx: bad option; you might need a /sbin/mount.<type> helper program.
    """
    if len(message) <= limit:
        return message
    message = _POD_VOLUMES.sub("…/", message)
    if len(message) <= limit:
        return message
    if (mount := _MOUNT_ARGUMENTS.search(message)) and mount.start() < _HEAD_CHARS:
        # (the arguments' last word, the mount's target, is the pod's own folder: said by the pod)
        # (systemd-run's wrapper, `--description=... --scope --`, and its `Running scope as unit`
        # line say nothing of the mount: kubo-release#260)
        arguments = re.sub(r"\s+…/\S+$", "", _SYSTEMD_RUN.sub("", mount["arguments"]))
        said = f"{message[:mount.start()].rstrip()} Mounting arguments: {_head(arguments, _MOUNTED_CHARS)} Output: "
        if len(said) < limit - 60:
            return said + clipped(_SCOPE.sub("", message[mount.end():]), limit - len(said))
    head = min(_HEAD_CHARS, limit // 2)
    return f"{message[:head].rstrip()} … {message[-(limit - head - 3):].lstrip()}"[:limit]


# The kubelet's folder of a pod's volumes (`/var/lib/kubelet/pods/<uid>/volumes/`, k0s's under
# /var/lib/k0s): the target of every mount of the pod, which its pod and volume names say.
_POD_VOLUMES = re.compile(r"(?:/[^\s/]+)*/kubelet/pods/[0-9a-f-]{36}/volumes/")
# mount-utils' words for a failed mount: what it ran, with what arguments, and what mount said
# (huggingface/dataset-viewer#270: `-t nfs SERVER:/fsx TARGET`, then `mount.nfs: Connection timed out`)
_MOUNT_ARGUMENTS = re.compile(r"\s*(?:Mounting command: \S+\s+)?Mounting arguments: (?P<arguments>.*?)\s+Output: ", re.S)
_MOUNTED_CHARS = 110
_SYSTEMD_RUN = re.compile(r"^--description=.*? -- ")
_SCOPE = re.compile(r"^Running scope as unit:? \S+\s*")


def _head(text: str, limit: int) -> str:
    """`text` cut after `limit` characters (a mount's type, options and source come first)."""
    return text if len(text) <= limit else f"{text[:limit - 2].rstrip()} …"


def findings_for_reasons(cluster: AnalyzedDump, rule: RuleMeta, reasons: frozenset[str]) -> Iterator[Finding]:
    """One finding per object and reason whose events carry one of `reasons`: the newest such
    event, the total count, the first and the last time; info with the reason when the problem
    is no longer current."""
    facts = [f for f in event_facts(cluster) if f.reason in reasons]
    for group in fold_events(facts):
        last = group.last
        finding = rule.fail(None, ev(last.event, "reason", last.as_written, "no such event"),
                            kind=group.kind, namespace=group.namespace, name=group.name,
                            reason=group.label, count=group.told_count,
                            first=first_text(cluster, group), age=event_ago(cluster, last),
                            last_message=clipped(group.told_message))
        resolved = resolved_reason(cluster, group)
        yield finding.as_info(resolved=resolved) if resolved else finding


# The scheduler's words for where it placed a pod (its Scheduled event): namespace (None before
# Kubernetes 1.11, which named the pod alone: Azure/AKS#122), pod, node.
ASSIGNED_TO = re.compile(r"^Successfully assigned (?:([a-z0-9][a-z0-9.-]*)/)?([a-z0-9][a-z0-9.-]*) to (\S+)$")
# The kubelet's own words for its node (kubelet_node_status.go: "Node %s status is now: %s";
# "Node %s has been rebooted, boot id: %s").
NODE_IN_MESSAGE = re.compile(r"^Node (\S+) (?:status is now: |has been rebooted\b)")


def node_findings_for_reasons(cluster: AnalyzedDump, rule: RuleMeta, reasons: frozenset[str]) -> Iterator[Finding]:
    """findings_for_reasons for reasons recorded on nodes only, each said of its node: events
    that name no object (a describe's Events pasted alone) are the node's whose kubelet (or
    kernel monitor) sent them, by the host in their source, else the one node the kubelet's
    status messages among them name, else a node not named."""
    for finding in findings_for_reasons(cluster, rule, reasons):
        if finding.kind not in ("Node", ""):
            continue
        name = finding.name or unnamed_node(cluster, str(finding.facts.get("reason"))) or NOT_NAMED
        yield replace(finding, kind="Node", namespace="", name=name)


def unnamed_node(cluster: AnalyzedDump, reason: str) -> str:
    """The node whose events of `reason` name no object: the host of the component that
    reported them, else the one node the kubelet's status messages among such events name
    ('' when neither tells)."""
    return _reporting_hosts(cluster).get(reason, "") or _named_by_status_events(cluster)


@once_per
def _reporting_hosts(cluster: AnalyzedDump) -> dict[str, str]:
    """reason -> the host of the component that reported it, for events that name no object."""
    hosts: dict[str, str] = {}
    for obj in cluster.objects_of("Event"):
        view = obj.view
        involved = view.involvedObject
        if view.reason and not (involved and involved.name) and view.source and view.source.host:
            hosts.setdefault(current_reason(view.reason), view.source.host)
    return hosts


@once_per
def _named_by_status_events(cluster: AnalyzedDump) -> str:
    """The one node the kubelet's status messages among events that name no object speak of
    (k3s-io/k3s#6290: a describe's Events pasted alone, From `kubelet` with no host, "Node node1
    status is now: NodeHasNoDiskPressure"); '' when they name none, or more than one."""
    names = set()
    for obj in cluster.objects_of("Event"):
        view = obj.view
        involved = view.involvedObject
        if involved and involved.name:
            continue
        said = NODE_IN_MESSAGE.match(view.message or "")
        if said:
            names.add(said.group(1))
    return next(iter(names)) if len(names) == 1 else ""
