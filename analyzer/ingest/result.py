"""What ingestion hands on: the objects, logs and rejections of all inputs, with the accounting."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from functools import cache
from importlib import resources
from typing import Any

from analyzer.ingest.records import STAMP_WIDTH, KubeObject, LogRecord, Rejection
from analyzer.kube.autoscaling import hpa_conditions
from analyzer.kube.kinds import CLUSTER_SCOPED_KINDS, is_builtin_group

# Capture-time signals are API timestamps exactly (a date alone or a space for "T" is no signal).
from analyzer.kube.time import parse_strict_time as _parse
from analyzer.safeyaml import load_yaml

# Kinds a support engineer expects a complete dump to have; coverage reports which of these
# the dump did not collect, so later stages can tell "missing" from "not collected".
EXPECTED_KINDS = (
    "Namespace", "Node", "Pod", "Service", "Endpoints", "EndpointSlice", "Deployment",
    "ReplicaSet", "DaemonSet", "StatefulSet", "Job", "CronJob", "ConfigMap", "Secret",
    "ServiceAccount", "PersistentVolumeClaim", "PersistentVolume", "StorageClass", "Ingress",
    "Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding", "Event", "NetworkPolicy",
    "PodDisruptionBudget", "HorizontalPodAutoscaler", "PriorityClass",
)

# What a file can turn out to be that is no dump format: listed in `files`, not in `formats`.
_NOT_FORMATS = frozenset({"ignored", "unreadable", "empty"})


@dataclass(slots=True)
class FileReport:
    """What one file turned out to be and what it gave."""

    source: str
    format: str
    objects: int = 0
    logs: int = 0


@dataclass(slots=True)
class IngestResult:
    """Everything read from the inputs, with exact accounting of what was and was not used."""

    objects: list[KubeObject] = field(default_factory=list)
    # Every rejection, in reading order. It is the union of two kinds, kept apart for accounting:
    #   object_rejections: one per object candidate that could not become an object (a broken
    #     YAML/JSON document or List item, an item with no kind or name). Each counts once in
    #     `objects_read`, so objects_read == len(objects) + duplicates + len(object_rejections).
    #   input_rejections: whole inputs and files that could not be read (missing path, binary,
    #     corrupt archive, not a dump) and pasted-text fragments the text parser could not read
    #     (it cannot say how many objects a fragment held). These are not counted as objects.
    rejections: list[Rejection] = field(default_factory=list)
    object_rejections: list[Rejection] = field(default_factory=list)
    input_rejections: list[Rejection] = field(default_factory=list)
    logs: list[LogRecord] = field(default_factory=list)
    files: list[FileReport] = field(default_factory=list)
    skipped: list[Rejection] = field(default_factory=list)  # text/files that held no object
    # Objects kept as far as their paste goes (a describe cut mid-section): each is one of
    # `objects` (or a duplicate of one), never a rejection; listed so the cut is said.
    truncated: list[Rejection] = field(default_factory=list)
    generic_tables: list[Any] = field(default_factory=list)  # pasted tables of unknown kinds
    collected_kinds: set[str] = field(default_factory=set)
    duplicates: int = 0
    objects_read: int = 0
    server_version: str | None = None
    # The programs a transcript ran kubectl through that name a distribution ("oc", "microk8s
    # kubectl", "k3s kubectl", "minikube kubectl"), with how many commands each ran.
    cli_tools: dict[str, int] = field(default_factory=dict)
    # A transcript's full listings (`kubectl get pods -A`, no names, selector or grep, not cut):
    # (file, line of its command, kinds, namespace or None for all, the command). What one does
    # not show was not there when it was printed.
    full_listings: list[tuple[str, int, tuple[str, ...], str | None, str]] = field(default_factory=list)
    inputs: list[str] = field(default_factory=list)
    # (time, the file that said it): a bundle's metadata, a collector's date or timestamp file
    stated_capture_times: list[tuple[str, str]] = field(default_factory=list)
    # A write-up's dated "Generated:/Captured:/Date:" header: (UTC time, where it was read)
    header_times: list[tuple[str, str]] = field(default_factory=list)
    # times a terminal session printed (`date`): (UTC time, what printed it)
    printed_times: list[tuple[str, str]] = field(default_factory=list)
    # the API server's words a paste quotes for an admission webhook it could not call
    # (analyzer.ingest.refusals.WebhookFailure)
    webhook_failures: list[Any] = field(default_factory=list)
    # its words for a kubelet it could not reach (`kubectl logs` and `exec` through it fail)
    # (analyzer.ingest.refusals.KubeletUnreachable)
    kubelet_unreachable: list[Any] = field(default_factory=list)
    # Objects a transcript showed that a later `kubectl delete` in it deleted: they were in the
    # cluster (what they show of it still holds), and are gone since (DeletedObject)
    deleted: list[Any] = field(default_factory=list)
    # kubectl drain's quoted refusals to evict a pod for its disruption budget
    # (analyzer.ingest.refusals.EvictionRefusal)
    eviction_refusals: list[Any] = field(default_factory=list)
    # aggregated APIs whose group kubectl's discovery quoted failing (`unable to retrieve the
    # complete list of server APIs: metrics.k8s.io/v1beta1: ...`)
    # (analyzer.ingest.refusals.DiscoveryFailure)
    discovery_failures: list[Any] = field(default_factory=list)
    # what kubectl cordon/uncordon/drain said it left a node, in file order: a node the paste
    # shows nothing else of is still known cordoned (analyzer.ingest.sightings.QuotedCordon)
    quoted_cordons: list[Any] = field(default_factory=list)
    # kubectl's refusals to trust the API server's serving certificate (`Unable to connect to the
    # server: x509: certificate has expired ...`) (analyzer.ingest.refusals.ServerCertificateRefused)
    server_certificate_refusals: list[Any] = field(default_factory=list)
    # the certificates a pasted `kubeadm certs check-expiration` listed
    # (analyzer.ingest.kubeadm_certs.CertificateExpiry)
    certificate_expiries: list[Any] = field(default_factory=list)
    # the `kubeadm upgrade plan/apply/node` runs a paste shows: versions, success or why it
    # failed (analyzer.ingest.kubeadm_upgrade.KubeadmUpgrade)
    kubeadm_upgrades: list[Any] = field(default_factory=list)
    # the nodes' journal lines a paste or a node log collector holds (`journalctl -u kubelet`,
    # `systemctl status kubelet`), each with its host and unit (analyzer.ingest.journal.JournalLine)
    node_journal: list[Any] = field(default_factory=list)
    # DNS lookups a pasted `kubectl exec POD -- nslookup ...` ran that no server answered
    # (analyzer.ingest.refusals.DnsFailure)
    dns_failures: list[Any] = field(default_factory=list)
    # kubectl's and Helm's refusals to send a manifest whose kind the API server serves at no
    # such apiVersion (`no matches for kind "Ingress" in version "extensions/v1beta1"`)
    # (analyzer.ingest.refusals.UnservedApi)
    unserved_apis: list[Any] = field(default_factory=list)
    # what `kubectl rollout status` last said of each rollout it watched: timed out, still
    # waiting, done (analyzer.ingest.rollouts.RolloutVerdict)
    rollout_verdicts: list[Any] = field(default_factory=list)
    # A whole object's creation plus the AGE a table row of it showed (the row itself merged
    # away): (UTC time, where it was read)
    table_ages: list[tuple[str, str]] = field(default_factory=list)
    # Files whose place in a layout names the kind they hold (nodes.json -> Node): the kind was
    # collected even when none of it could be read.
    hinted_files: dict[str, list[str]] = field(default_factory=dict)

    @property
    def read_anything(self) -> bool:
        """Whether the inputs gave anything to analyse: objects, logs, or the refusals and
        failures kubectl's output quoted (a paste of one `kubectl exec` and its error), or the
        certificates `kubeadm certs check-expiration` listed, or a `kubeadm upgrade` run."""
        return bool(self.objects or self.logs or self.quotes_refusals or self.rollout_verdicts
                    or self.certificate_expiries or self.kubeadm_upgrades or self.node_journal)

    @property
    def quotes_refusals(self) -> bool:
        """Whether kubectl's output in the inputs quoted what the API server refused or failed
        (a webhook, a kubelet, an eviction, discovery, a kind at an apiVersion it does not serve,
        a DNS lookup), the API server's certificate
        kubectl would not trust, or a cordon it made."""
        return bool(self.webhook_failures or self.kubelet_unreachable or self.eviction_refusals
                    or self.dns_failures or self.discovery_failures or self.server_certificate_refusals
                    or self.quoted_cordons or self.unserved_apis)

    @property
    def formats(self) -> list[str]:
        return sorted({f.format for f in self.files if f.format not in _NOT_FORMATS})

    @property
    def objects_by_kind(self) -> dict[str, int]:
        return dict(sorted(Counter(o.kind for o in self.objects).items()))

    @property
    def objects_by_file(self) -> list[dict[str, Any]]:
        """Each file read, in reading order, with its format, the objects kept from it by kind and
        the rejections it gave: which ticket of a folder of pastes gave what, or nothing."""
        kinds: dict[str, Counter[str]] = {}
        for o in self.objects:
            kinds.setdefault(o.provenance.source, Counter())[o.kind] += 1
        rejected = Counter(x.source for x in self.rejections)
        return [{"source": f.source, "format": f.format, "objects": dict(sorted(kinds.get(f.source, Counter()).items())),
                 "rejected": rejected[f.source]} for f in self.files]

    @property
    def coverage_present(self) -> list[str]:
        return sorted(self.collected_kinds | {o.kind for o in self.objects})

    @property
    def coverage_absent(self) -> list[str]:
        """Kinds the dump did not collect (a kind whose file was there is never one of them)."""
        present = set(self.coverage_present) | set(self.hinted_files)
        return [k for k in EXPECTED_KINDS if k not in present]

    @property
    def coverage_unreadable(self) -> list[str]:
        """Kinds whose files were there but of which nothing could be read."""
        present = set(self.coverage_present)
        return sorted(k for k in self.hinted_files if k not in present)

    @property
    def warnings(self) -> list[str]:
        """Loud messages: a layout that holds Nodes and Pods gave none of them."""
        out: list[str] = []
        by_kind = self.objects_by_kind
        for kind in ("Node", "Pod"):
            files = self.hinted_files.get(kind)
            if not files or by_kind.get(kind):
                continue
            failed = {r.source for r in self.rejections}
            names = sorted({_tail(f) for f in files})
            named = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
            verb = "was" if len(names) == 1 else "were"
            if any(f in failed for f in files):
                out.append(f"{named} {verb} present but no {kind} could be read (see the rejections)")
            elif kind == "Node":
                out.append(f"{named} {verb} present but held no {kind}")
        return out

    def covers(self, kind: str) -> bool:
        """Whether the dump collected this kind at all (even if it holds none of it)."""
        return kind in self.collected_kinds or any(o.kind == kind for o in self.objects)

    @property
    def capture_time(self) -> datetime | None:
        return self.capture.time

    @property
    def capture(self) -> CaptureEstimate:
        """The capture time with the signal that gave it, its confidence and its periods; a
        dump whose objects carry no time (a node's log folders alone) was taken after its
        container runtime's newest log line."""
        estimate = estimate_capture(self.objects, self.stated_capture_times, self.header_times, self.printed_times,
                                    self.table_ages)
        if estimate.time is not None or not self.logs:
            return estimate
        return newest_runtime_log_line(self.logs) or estimate

    @property
    def object_notes(self) -> list[dict[str, str]]:
        """What was noted on objects that were kept (a field of an impossible type ignored, a
        uid shared by two objects, a namespace the dump did not state), one entry per note."""
        return [{"source": o.provenance.source, "location": o.provenance.location,
                 "object": o.key.id, "note": note}
                for o in self.objects for note in o.notes]

    def accounting_holds(self) -> bool:
        """Whether every object read is kept, a duplicate, or an object rejection (exactly once)."""
        return (
            self.objects_read == len(self.objects) + self.duplicates + len(self.object_rejections)
            and len(self.rejections) == len(self.object_rejections) + len(self.input_rejections)
        )


def _tail(source: str) -> str:
    """A file named as its layout names it: `nodes.json`, `pods/kube-system.json`."""
    parts = source.replace("!/", "/").split("/")
    return parts[-1] if parts[-1] in ("nodes.json", "pods.json") else "/".join(parts[-2:])


# An RFC 3339 timestamp as the API prints it (a hand-edited "2025-08-2312:02:32Z" is not one),
# in the years a clock can say (1970 up to 2261, where the tables' nanosecond times end): a
# node whose clock read 3024 must not set the capture time, nor every age from it.
TIMESTAMP_RX = re.compile(r"^(?:19[7-9]\d|2[01]\d\d|22[0-5]\d|226[01])-\d\d-\d\dT\d\d:\d\d:\d\d")

# Every signal that carries time, and how much its newest value says about the moment of capture:
# a heartbeat or lease is renewed every few seconds while the cluster runs ("high"); an event,
# a container start or a condition change happened some time before ("medium"); a write or a
# creation may be long before the capture ("low").
SIGNAL_CONFIDENCE: dict[str, str] = {
    "bundle metadata": "high", "node heartbeat": "high", "lease renewal": "high", "session clock": "medium",
    "event": "medium", "container state": "medium", "condition transition": "medium",
    "taint timeAdded": "medium", "status time": "medium", "age since creation": "medium", "managedFields": "low", "creationTimestamp": "low",
    # a write-up's "Generated: 2025-09-20 17:05:47 CEST": when its outputs were taken, as its
    # author (or script) says; weaker than what the API server wrote (see _estimate)
    "write-up header": "medium",
    # the newest line a container runtime stamped in a log file: only where no object gives a
    # time (a node's log folders alone); the capture came after it, by how much is not known
    "container log line": "low",
}
# Signals read from the dump's files, not from the objects the API server wrote.
_STATED_SIGNALS = frozenset({"bundle metadata", "write-up header", "session clock"})
_CONFIDENCE_ORDER = ("high", "medium", "low")
_SIGNAL_ORDER = tuple(SIGNAL_CONFIDENCE)
# Signals renewed while a cluster runs: a dump whose renewals fall in two periods this far apart
# was put together from captures of different times (or re-used).
_LIVE_SIGNALS = frozenset({"node heartbeat", "lease renewal", "event"})
STITCH_GAP = timedelta(days=2)
# Status times cannot be newer than the capture: far newer than every heartbeat, they come from
# a later capture than the heartbeats.
STATUS_SIGNALS = frozenset({"container state", "condition transition", "status time"})
# Capture signals that are the objects' own writes: a capture they date is the newest creation (or
# write) the dump holds, so an age under it is a lower bound, never "only minutes old".
WRITE_SIGNALS = frozenset({"creationTimestamp", "managedFields"})
# ... with the objects' status times (a container's start, a condition's change, a sync's end), a
# taint's addition and a runtime's newest log line: a capture these date came then or later, by
# how much the dump does not say. An event too: nothing renews it while the cluster is quiet, only
# its lifetime bounds it (the API server keeps an event an hour after its last time by default,
# --event-ttl), so a capture it dates came then or up to about an hour later.
LOWER_BOUND_SIGNALS = WRITE_SIGNALS | STATUS_SIGNALS | {"taint timeAdded", "container log line", "event"}
# A signal within this of the newest one backs the estimate up.
_CORROBORATES = timedelta(minutes=15)


@dataclass(frozen=True, slots=True)
class CapturePeriod:
    """A stretch of time that a dump's live signals (heartbeats, leases, events) fall in."""

    start: datetime
    end: datetime
    signals: int
    sources: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"start": _iso(self.start), "end": _iso(self.end), "signals": self.signals,
                "sources": list(self.sources)}


@dataclass(frozen=True, slots=True)
class CaptureEstimate:
    """When the dump was taken: the newest time it holds, the signal that gave it, how far to
    trust it, and the periods its live signals fall in (two or more: a stitched dump)."""

    time: datetime | None
    signal: str = ""
    confidence: str = "none"  # high | medium | low | none
    where: str = ""  # the object and field that gave the time
    source: str = ""
    periods: tuple[CapturePeriod, ...] = ()
    signals: dict[str, str] = field(default_factory=dict)  # signal -> its newest timestamp
    # Objects whose times run ahead of the heartbeats and events (a node's clock ahead): left
    # out of the estimate, said here ("" when none).
    clock_ahead: str = ""

    @property
    def stitched(self) -> bool:
        return len(self.periods) > 1

    @property
    def lower_bound(self) -> bool:
        """Whether the capture came at this time or later, by how much unknown (its signal is a
        write or status time, LOWER_BOUND_SIGNALS): an age from it is "at least", enough to say
        a wait is stuck, never that it is young."""
        return self.signal in LOWER_BOUND_SIGNALS

    @property
    def newest_held(self) -> datetime | None:
        """The newest time the dump holds: the capture time, or the end of a period after it
        (a stitched dump's later capture, files re-used years on that the estimate left out)."""
        return max((t for t in (self.time, *(p.end for p in self.periods)) if t is not None), default=None)

    def newest_words(self, when: datetime) -> str:
        """What `when`, the capture time of the dump or of one of its periods, is among the
        dump's times: "the newest time the dump holds", unless the dump holds later ones (its
        stitched parts: realdata kubeadm/sbctl-kurl-supportbundle, 2022 statuses beside 2024
        events), then the newest of the capture it was read in, and how late the dump runs.

        >>> at, then = datetime.fromisoformat("2022-04-12T00:59:01+00:00"), datetime.fromisoformat("2024-02-17T06:16:47+00:00")
        >>> later = CapturePeriod(then, then, 3)
        >>> CaptureEstimate(at).newest_words(at)
        'the newest time the dump holds'
        >>> CaptureEstimate(at, periods=(CapturePeriod(at, at, 2), later)).newest_words(at)
        'the newest time of the capture it was read in (the dump, stitched from 2 captures, holds times up to 2024-02-17 06:16:47 UTC)'
        """
        newest = self.newest_held
        if newest is None or when >= newest:
            return "the newest time the dump holds"
        parts = f"stitched from {len(self.periods)} captures" if self.stitched else "with files written later"
        return (f"the newest time of the capture it was read in (the dump, {parts}, holds times up to "
                f"{newest:%Y-%m-%d %H:%M:%S} UTC)")

    def time_for(self, source: str | None) -> datetime | None:
        """The capture time of what was read from `source`: in a stitched dump, the end of the
        period that file's signals fall in (else the dump's capture time)."""
        if self.stitched and source:
            holding = [p for p in self.periods if source in p.sources]
            if len(holding) == 1:  # (a file of several periods has no one time)
                end = holding[0].end
                # The capture's own period: its time is the capture's (its last heartbeat may
                # be seconds before a container's end).
                near = self.time is not None and abs(self.time - end) <= STITCH_GAP
                return self.time if near else end
        return self.time

    def to_dict(self) -> dict[str, Any]:
        return {"time": _iso(self.time), "signal": self.signal, "confidence": self.confidence,
                "where": self.where, "source": self.source, "stitched": self.stitched,
                "periods": [p.to_dict() for p in self.periods],
                "signals": dict(sorted(self.signals.items())), "clock_ahead": self.clock_ahead}

    # What a notebook shows of cluster.capture: its one line, not every signal's newest time.
    def __repr__(self) -> str:
        return f"<CaptureEstimate {self.describe()}>"

    def describe(self) -> str:
        """One line: "2021-04-11T14:33:30Z (node heartbeat, high confidence)"."""
        if self.time is None:
            return "unknown (no timestamp in the dump)"
        text = f"{_iso(self.time)} ({self.signal}, {self.confidence} confidence)"
        if self.signal == "write-up header":
            text += f": {self.where}"
        if self.signal == "event":
            text += "; the capture came then or later, within about an hour where events are kept an hour (the default)"
        elif self.lower_bound:
            text += "; the capture came then or later"  # (a write, a status or log time: no heartbeat)
        if self.stitched:
            spans = "; ".join(f"{_iso(p.start)} .. {_iso(p.end)}{_files(p.sources)}" for p in self.periods)
            text += f"; stitched: its signals fall in {len(self.periods)} periods far apart ({spans})"
        if self.clock_ahead:
            text += f"; left out: {self.clock_ahead}"
        return text


# A line the container runtime wrote to a container's log file (CRI: time, stream, P(artial) or
# F(ull) tag, then the container's own text).
_RUNTIME_LOG_LINE = re.compile(r"^(\S+) (?:stdout|stderr) [PF] ")


def capture_is_lower_bound(dump: Any) -> bool:
    """Whether a dump's capture is dated only by its own writes, status times, log lines or events
    (LOWER_BOUND_SIGNALS): it came then or later, by how much is not known, so an age measured from
    it is "at least", enough to say stuck, never to say young."""
    estimate = getattr(dump, "capture", None)
    return estimate is not None and estimate.lower_bound


def newest_runtime_log_line(logs: Iterable[LogRecord]) -> CaptureEstimate | None:
    """The time of the newest line the container runtime stamped in the dump's logs (each log's
    last line), as a capture estimate of low confidence; None when no log is in that format.

    >>> log = LogRecord("kube-system", "etcd-0", "etcd", "2021-05-26T01:55:24.49Z stderr F a\\n"
    ...                 "2021-05-26T05:58:11.2Z stderr F b\\n", "node/pods/x/etcd/0.log")
    >>> newest_runtime_log_line([log]).describe()
    '2021-05-26T05:58:11Z (container log line, low confidence); the capture came then or later'
    """
    best: tuple[datetime, LogRecord] | None = None
    for log in logs:
        if log.stamps:  # (a node's log file, its times kept apart from the text)
            stamp = log.stamps.rstrip()[-STAMP_WIDTH:]
        else:
            m = _RUNTIME_LOG_LINE.match(log.text.rstrip().rsplit("\n", 1)[-1])
            stamp = m[1] if m else ""
        when = _parse(stamp) if stamp and TIMESTAMP_RX.match(stamp) else None
        if when is not None and (best is None or when > best[0]):
            best = (when, log)
    if best is None:
        return None
    when, log = best[0].replace(microsecond=0), best[1]
    where = f"the last line of {log.namespace}/{log.pod} container {log.container}'s log"
    return CaptureEstimate(when, "container log line", "low", where, log.source,
                           signals={"container log line": _iso(when) or ""})


def _files(sources: tuple[str, ...]) -> str:
    """ " in cluster-info-dump.json" (at most two file names, then how many more)."""
    names = sorted({s.split("!/")[-1].rsplit("/", 1)[-1] for s in sources})
    if not names:
        return ""
    more = f" and {len(names) - 2} more" if len(names) > 2 else ""
    return " in " + ", ".join(names[:2]) + more


def _iso(when: datetime | None) -> str | None:
    return when.isoformat().replace("+00:00", "Z") if when is not None else None


class _Newest:
    """The newest timestamp per signal, with the object and field it was read from; and the
    times of the live signals (heartbeats, leases, events)."""

    def __init__(self) -> None:
        # signal -> (timestamp, object or None, field)
        self.best: dict[str, tuple[str, KubeObject | None, str]] = {}
        self.live: list[tuple[str, str]] = []  # (timestamp, source file)
        self.ready_beats: list[tuple[str, str]] = []  # heartbeats of nodes that say Ready=True
        # Filled by a second walk, only when the maxima say a dump may be stitched:
        self.status: list[tuple[str, str]] = []  # container and condition times, with source
        self.writes: list[tuple[str, str]] = []  # creations and managedFields times, with source

    def see(self, signal: str, ts: str | None, obj: KubeObject | None, field: str) -> None:
        if not ts or not isinstance(ts, str):
            return
        current = self.best.get(signal)
        live = signal in _LIVE_SIGNALS
        if current is not None and ts <= current[0] and not live:
            return  # the hot path: most timestamps are older than the newest of their signal
        if not TIMESTAMP_RX.match(ts):
            return
        if current is None or ts > current[0]:
            self.best[signal] = (ts, obj, field)
        if live:
            self.live.append((ts, obj.provenance.source if obj is not None else ""))

    def where(self, signal: str) -> tuple[str, str]:
        """(object and field, source file) of a signal's newest time."""
        _ts, obj, field = self.best[signal]
        if obj is None:
            return field, ""
        ref = f"{obj.kind}/{obj.namespace + '/' if obj.namespace else ''}{obj.name}"
        return f"{ref} {field}", obj.provenance.source


class _Collect:
    """A second walk's visitor: every status and write time with its file (rarely needed)."""

    def __init__(self, seen: _Newest) -> None:
        self.seen = seen

    def see(self, signal: str, ts: str | None, obj: KubeObject | None, field: str) -> None:
        if not ts or not isinstance(ts, str) or not TIMESTAMP_RX.match(ts):
            return
        source = obj.provenance.source if obj is not None else ""
        if signal in STATUS_SIGNALS:
            self.seen.status.append((ts, source))
        elif SIGNAL_CONFIDENCE[signal] == "low":
            self.seen.writes.append((ts, source))


def estimate_capture(objects: Iterable[KubeObject], stated: Iterable[tuple[str, str]] = (),
                     headers: Iterable[tuple[str, str]] = (),
                     printed: Iterable[tuple[str, str]] = (),
                     table_ages: Iterable[tuple[str, str]] = ()) -> CaptureEstimate:
    """When the dump was taken, from every signal that carries time (a dump is never older than
    its newest status timestamp), with the signal, a confidence and the periods of its live
    signals. `stated`: times a bundle's own files state, (UTC time, the file); `headers`: a write-up's dated header lines, (UTC time, where it was read);
    `printed`: times a pasted session printed (`date`), (UTC time, what printed it);
    `table_ages`: a whole object's creation plus the AGE its table row showed, (UTC time, where)."""
    objects = objects if isinstance(objects, list) else list(objects)
    stated = list(stated)
    seen = _Newest()
    for ts, source in stated:
        seen.see("bundle metadata", ts, None, source or "bundle metadata")
    for ts, where in headers:
        seen.see("write-up header", ts, None, where)
    for ts, what in printed:
        seen.see("session clock", ts, None, what)
    table_ages = list(table_ages)
    _walk(objects, seen.see, seen.ready_beats)
    _see_ages(seen, table_ages, objects)
    ahead = _clock_ahead(objects, seen)
    if ahead is not None:
        skewed, note = ahead
        objects = [o for o in objects if id(o) not in skewed]
        seen = _Newest()
        for ts, source in stated:
            seen.see("bundle metadata", ts, None, source or "bundle metadata")
        _walk(objects, seen.see, seen.ready_beats)
        _see_ages(seen, table_ages, objects)
    if _may_be_stitched(seen):
        _walk(objects, _Collect(seen).see, None)
    estimate = _estimate(seen)
    return replace(estimate, clock_ahead=ahead[1]) if ahead is not None else estimate


# A pod's status times come from its node's kubelet, on that node's clock. Newer than the
# newest heartbeat of a Ready node (renewed at least every 5 minutes) and the newest event by
# more than this, from the pods of one node only, they are that node's clock running ahead,
# not a later capture (which STITCH_GAP and the periods handle).
CLOCK_AHEAD = timedelta(minutes=30)


def _clock_ahead(objects: list[KubeObject], seen: _Newest) -> tuple[set[int], str] | None:
    """The pods (ids) of one node whose times run ahead of the live signals, and what to say
    of them; None when the times agree (the usual case: two comparisons)."""
    beats = [t for ts, _src in seen.ready_beats if (t := _parse(ts)) is not None]
    event = _parse(seen.best["event"][0]) if "event" in seen.best else None
    if not beats or event is None or abs(max(beats) - event) > _CORROBORATES:
        return None
    live = max(max(beats), event)
    newest = max((t for k in STATUS_SIGNALS if k in seen.best and (t := _parse(seen.best[k][0])) is not None),
                 default=None)
    if newest is None or not CLOCK_AHEAD < newest - live < STITCH_GAP:
        return None
    late: dict[int, tuple[str, datetime]] = {}
    for obj in objects:
        if obj.kind != "Pod":
            continue
        status = obj.view.status
        times = [c.lastTransitionTime for c in status.conditions or ()]
        for group in (status.containerStatuses, status.initContainerStatuses):
            for cs in group or ():
                for state in (cs.state, cs.lastState):
                    for detail in ((state.running, state.terminated) if state is not None else ()):
                        if detail is not None:
                            times += [detail.startedAt, detail.finishedAt]
        when = max((t for ts in times if ts and (t := _parse(ts)) is not None), default=None)
        if when is not None and when - live > CLOCK_AHEAD:
            late[id(obj)] = (obj.view.spec.nodeName or "", when)
    nodes = {node for node, _when in late.values()}
    if len(nodes) != 1 or "" in nodes:
        return None
    (node,) = nodes
    latest = max(when for _node, when in late.values())
    hours = (latest - live).total_seconds() / 3600
    note = (f"{len(late)} pod(s) of node {node} carry times up to {_iso(latest)}, {hours:.1f}h after the "
            f"newest heartbeat and event ({_iso(live)}): that node's clock runs ahead")
    return set(late), note


def _may_be_stitched(seen: _Newest) -> bool:
    """Whether the newest status or write is far newer than the newest live or status signal
    (so the per-file times are needed)."""
    def newest(signals: Iterable[str]) -> datetime | None:
        times = [_parse(seen.best[k][0]) for k in signals if k in seen.best]
        return max((t for t in times if t is not None), default=None)

    live = newest(_LIVE_SIGNALS)
    status = newest(STATUS_SIGNALS)
    low = newest(k for k, level in SIGNAL_CONFIDENCE.items() if level == "low")
    trusted = newest(k for k, level in SIGNAL_CONFIDENCE.items() if level != "low")
    return bool((live and status and status - live > STITCH_GAP)
                or (trusted and low and low - trusted > STITCH_GAP))


def _walk(objects: list[KubeObject], see: Any, ready_beats: list[tuple[str, str]] | None) -> None:
    """The newest time of each signal of every object, to `see(signal, timestamp, object,
    field)` (one call per object and signal: the walk runs over every object of a dump)."""
    for obj in objects:
        v = obj.view
        meta = v.metadata
        see("creationTimestamp", meta.creationTimestamp, obj, "metadata.creationTimestamp")
        managed = meta.managedFields
        if managed:
            newest = ""
            for mf in managed:
                t = mf.time
                if t and t > newest:
                    newest = t
            see("managedFields", newest or None, obj, "metadata.managedFields.time")
        kind = obj.kind
        group = obj.key.group
        if kind not in _TIMED_KINDS or not is_builtin_group(kind, group):
            # A custom resource's status times (an Argo CD sync's end) were written before the
            # capture too; built-in kinds without a group are none (most objects of a dump).
            if group and not is_builtin_group(kind, group):
                _see_custom_status(obj, see)
            elif (paths := _builtin_status_times().get(kind)) is not None and is_builtin_group(kind, group):
                # a Deployment's conditions, a CronJob's last schedule: written before the capture
                _see_builtin_status(obj, paths, see)
            continue  # a custom resource named like a built-in kind has fields of its own
        if kind == "Pod":
            status = v.status
            see("condition transition", _newest_transition(status.conditions), obj,
                "status.conditions.lastTransitionTime")
            newest = ""
            for group in (status.containerStatuses, status.initContainerStatuses):
                for cs in group or ():
                    for state in (cs.state, cs.lastState):
                        if state is None:
                            continue
                        for detail in (state.running, state.terminated):
                            if detail is not None:
                                t = detail.finishedAt or detail.startedAt
                                if t and t > newest:
                                    newest = t
            field = "status.containerStatuses.state"
            # An evicted or failed pod can keep no container status, only when it started
            # (a Qovery EKS pod evicted for ephemeral storage: created 14:33:21, started 14:34:59).
            started = status.startTime
            if isinstance(started, str) and started > newest:
                newest, field = started, "status.startTime"
            see("container state", newest or None, obj, field)
        elif kind == "Node":
            newest = ""
            conditions = v.status.conditions or ()
            for c in conditions:
                # (a pasted describe cut mid-time leaves text such as "Tue, 05 Jun 2018 16:41:54 +02")
                if c.lastHeartbeatTime and c.lastHeartbeatTime > newest and TIMESTAMP_RX.match(c.lastHeartbeatTime):
                    newest = c.lastHeartbeatTime
            see("condition transition", _newest_transition(conditions), obj,
                "status.conditions.lastTransitionTime")
            # One heartbeat per node counts as a live signal (its conditions share it), unless
            # the kubelet stopped posting: its last heartbeat says nothing of when the dump was
            # taken, any time after (kubernetes/kubernetes#32522: a GKE node Unknown for days)
            if not any(c.status == "Unknown" and c.reason == "NodeStatusUnknown" for c in conditions):
                see("node heartbeat", newest or None, obj, "status.conditions.lastHeartbeatTime")
            if ready_beats is not None and newest and TIMESTAMP_RX.match(newest) and any(
                    c.type == "Ready" and c.status == "True" for c in conditions):
                ready_beats.append((newest, obj.provenance.source))
            for t in v.spec.taints or ():
                see("taint timeAdded", t.timeAdded, obj, "spec.taints.timeAdded")
            if v.text is not None:
                # `kubectl describe node` prints the node's Lease; its RenewTime is renewed
                # every few seconds, newer than the heartbeats (which move only on a change).
                see("lease renewal", _described_lease_renewal(obj), obj, "describe node Lease.RenewTime")
        elif kind == "Event":
            last = max((ts for ts in (v.lastTimestamp, v.eventTime, v.deprecatedLastTimestamp,
                                      v.series.lastObservedTime if v.series else None)
                        if isinstance(ts, str) and TIMESTAMP_RX.match(ts)), default=None)
            see("event", last or v.firstTimestamp, obj, "lastTimestamp")
        elif kind == "Lease":
            body = obj.body()
            spec = body.get("spec") if isinstance(body, dict) else None
            if isinstance(spec, dict):
                see("lease renewal", spec.get("renewTime"), obj, "spec.renewTime")


# Signals a paste prints as times, not as ages: what the capture cannot be earlier than.
_ABSOLUTE_SIGNALS = ("container state", "condition transition", "node heartbeat", "lease renewal", "event")


def _see_ages(seen: _Newest, table_ages: list[tuple[str, str]], objects: list[KubeObject]) -> None:
    """The captures that a paste's ages imply, given to `seen`: those of one clock. kubectl
    prints a `get`'s ages as the server counts them and a describe's as the client does, so a
    session run against a dump served offline (`kda serve`, sbctl) counts its describes'
    ages from today, years after its tables' (and its times'). When the implied captures fall
    more than STITCH_GAP apart, the clock kept is the one nearest the newest time the paste
    prints (a container's start, a condition's change); without one, the latest."""
    implied: list[tuple[str, KubeObject | None, str]] = [(ts, None, where) for ts, where in table_ages]
    _ages_since_creation(objects, lambda _signal, ts, obj, where: implied.append((ts, obj, where)))
    for ts, obj, where in _one_clock(implied, max((seen.best[s][0] for s in _ABSOLUTE_SIGNALS if s in seen.best),
                                                 default=None)):
        seen.see("age since creation", ts, obj, where)


def _one_clock(implied: list[tuple[str, Any, str]], anchor: str | None) -> list[tuple[str, Any, str]]:
    """`implied` captures (ISO time first) of the clock nearest `anchor` when they fall into
    groups more than STITCH_GAP apart (all of them otherwise).

    >>> rows = [("2022-07-31T04:54:34Z", None, "get"), ("2022-07-31T05:18:12Z", None, "get"),
    ...         ("2026-11-22T21:19:59Z", None, "describe")]
    >>> [w for _, _, w in _one_clock(rows, "2022-07-31T05:14:14Z")], len(_one_clock(rows, None))
    (['get', 'get'], 3)
    """
    times = sorted((t, i) for i, (ts, _obj, _where) in enumerate(implied) if (t := _parse(ts)) is not None)
    if anchor is None or len(times) < 2 or times[-1][0] - times[0][0] <= STITCH_GAP:
        return implied
    groups: list[list[tuple[datetime, int]]] = [[times[0]]]
    for item in times[1:]:
        if item[0] - groups[-1][-1][0] > STITCH_GAP:
            groups.append([])
        groups[-1].append(item)
    if len(groups) < 2 or (at := _parse(anchor)) is None:
        return implied
    nearest = min(groups, key=lambda g: abs(g[-1][0] - at))
    return [implied[i] for _t, i in nearest]


def _ages_since_creation(objects: list[KubeObject], see: Any) -> None:
    """What pasted text implies of the capture: an object's creation time (describe prints it)
    plus an age the same paste counts back from the capture (its table's AGE, its events'
    "x6 over 29m": they came after its creation). kubectl rounds ages down, so the capture is
    at least that late; a describe whose newest absolute time is its creation says no more."""
    texts = [o for o in objects if o.view.text is not None]
    if not texts:
        return
    created = {(o.kind, o.namespace, o.name): ts
               for o in texts if o.kind != "Event" and (ts := _created_or_started(o))}
    for obj in texts:
        v, facts = obj.view, obj.view.text
        if obj.kind == "Event":
            about = v.involvedObject or v.regarding
            if about is None or not about.kind:
                continue
            namespace = "" if about.kind in CLUSTER_SCOPED_KINDS else (about.namespace or obj.namespace or "")
            ts = created.get((about.kind, namespace, about.name or ""))
            age = facts.first_seen_ago_seconds or facts.last_seen_ago_seconds
        else:
            ts, age = _created_or_started(obj), facts.age_seconds
        when = _parse(ts) if ts and age else None
        if when is not None:
            field = ("metadata.creationTimestamp" if ts == v.metadata.creationTimestamp
                     else "status.startTime")
            see("age since creation", _iso(when + timedelta(seconds=age)), obj,
                f"{field} + its age in the paste")


def _created_or_started(obj: KubeObject) -> str | None:
    """When an object was created, as its paste says: `kubectl describe pod` prints no creation
    time, only the Start Time (the kubelet took the pod, seconds after its creation as a rule),
    so a pod's table AGE counts back to that instead (helm#12189: a pod described at Start Time
    14:17:04 +0530 whose `get pods` AGE read 43m was captured 43 minutes later, not at its
    start)."""
    v = obj.view
    created = v.metadata.creationTimestamp
    if created or obj.kind != "Pod":
        return created
    started = v.status.startTime
    return started if isinstance(started, str) and TIMESTAMP_RX.match(started) else None


def _described_lease_renewal(obj: KubeObject) -> str | None:
    body = obj.body()
    facts = body.get("x-kda-text") if isinstance(body, dict) else None
    lease = facts.get("lease") if isinstance(facts, dict) else None
    renewed = lease.get("renewTime") if isinstance(lease, dict) else None
    return renewed if isinstance(renewed, str) else None


def _newest_transition(conditions: Any) -> str | None:
    newest = ""
    for c in conditions or ():
        t = c.lastTransitionTime
        if t and t > newest:
            newest = t
    return newest or None


_TIMED_KINDS = frozenset({"Node", "Event", "Pod", "Lease"})


@cache
def _status_times() -> dict[str, Any]:
    """status_times.yaml: the paths under `status` of the times custom resources state (`custom`),
    and of the built-in kinds read besides Pod, Node, Event and Lease (`builtin`: kind -> paths)."""
    text = resources.files("analyzer.ingest").joinpath("status_times.yaml").read_text("utf-8")
    return load_yaml(text)


@cache
def _custom_status_times() -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(str(path).split(".")) for path in _status_times()["custom"])


@cache
def _builtin_status_times() -> dict[str, tuple[tuple[str, ...], ...]]:
    return {str(kind): tuple(tuple(str(path).split(".")) for path in paths)
            for kind, paths in _status_times()["builtin"].items()}


def _see_custom_status(obj: KubeObject, see: Any) -> None:
    """A custom resource's newest condition transition and newest status time (status_times.yaml)."""
    body = obj.body()
    status = body.get("status") if isinstance(body, dict) else None
    if not isinstance(status, dict):
        return
    _see_status(obj, status, (("conditions",), *_custom_status_times()), see)


def _see_builtin_status(obj: KubeObject, paths: tuple[tuple[str, ...], ...], see: Any) -> None:
    """A built-in object's newest condition transition and newest status time (status_times.yaml
    `builtin`), read from its typed view where the view has every field named, else from the
    object decoded (a kind without a view of its status: a CertificateSigningRequest)."""
    status = getattr(obj.view, "status", None)
    if status is None or not all(_has_field(status, path) for path in paths):
        body = obj.body()
        status = body.get("status") if isinstance(body, dict) else None
    conditions_at = "status.conditions"
    if obj.kind == "HorizontalPodAutoscaler" and isinstance(status, dict) and not status.get("conditions"):
        # an autoscaling/v1 HPA keeps its conditions in an annotation (rudr#324's, 31 s after its creation)
        conditions, at = hpa_conditions(obj.body())
        if conditions:
            status, conditions_at = {**status, "conditions": conditions}, at
    if status is not None:
        _see_status(obj, status, paths, see, conditions_at)


def _has_field(status: Any, path: tuple[str, ...]) -> bool:
    """Whether a view's status has the path's first field (a dict status has any)."""
    return isinstance(status, dict) or path[0] in getattr(status, "__struct_fields__", ())


def _get(value: Any, step: str) -> Any:
    return value.get(step) if isinstance(value, dict) else getattr(value, step, None)


def _see_status(obj: KubeObject, status: Any, paths: tuple[tuple[str, ...], ...], see: Any,
                conditions_at: str = "status.conditions") -> None:
    """The newest condition transition (or update) and the newest other time of `paths` under a
    status (a typed view's or a dict), to `see`; `conditions_at` names where its conditions were read."""
    newest, field = "", ""
    transition, written = "", ""
    for path in paths:
        value = status
        for step in path:
            value = _get(value, step)
        if path == ("conditions",):
            for c in value if isinstance(value, list) else ():
                for name in ("lastTransitionTime", "lastUpdateTime"):
                    t = _get(c, name)
                    if isinstance(t, str) and t > transition and TIMESTAMP_RX.match(t):
                        transition, written = t, f"{conditions_at}.{name}"
        elif isinstance(value, str) and value > newest and TIMESTAMP_RX.match(value):
            newest, field = value, "status." + ".".join(path)
    see("condition transition", transition or None, obj, written)
    see("status time", newest or None, obj, field)


def _estimate(seen: _Newest) -> CaptureEstimate:
    if not seen.best:
        return CaptureEstimate(None)
    late = _late_writes(seen)
    # Writes far newer than every status of the cluster come from files re-used later (a
    # fixture refreshed years on): the status signals say when the cluster was captured.
    trusted = {k: v for k, v in seen.best.items() if not late or SIGNAL_CONFIDENCE[k] != "low"}
    if _header_outdated(seen):
        del trusted["write-up header"]
    signal, (ts, _obj, _field) = max(trusted.items(), key=lambda kv: (kv[1][0], kv[0]))
    when = _parse(ts)
    if when is None:
        return CaptureEstimate(None)
    # Named by the most trusted signal that agrees with the newest time (a heartbeat 30 s
    # before an event names the capture better than the event does); among as trusted ones the
    # newest (an event at the newest time, not a condition's change 2 minutes before it), then
    # the one SIGNAL_CONFIDENCE lists first: never by the signals' names.
    agreeing = [(other, other_when) for other, (other_ts, _o, _f) in trusted.items()
                if (other_when := _parse(other_ts)) is not None and when - other_when <= _CORROBORATES]
    signal = min(agreeing, key=lambda sw: (_CONFIDENCE_ORDER.index(SIGNAL_CONFIDENCE[sw[0]]), when - sw[1],
                                           _SIGNAL_ORDER.index(sw[0])))[0]
    confidence = SIGNAL_CONFIDENCE[signal]
    where, source = seen.where(signal)
    periods = _periods(seen.live, seen.status, seen.ready_beats)
    if late:
        periods = (*periods, _period(late)) if periods else (_period(late),)
    return CaptureEstimate(
        when, signal, confidence, where, source, periods=periods,
        signals={k: v[0] for k, v in seen.best.items()})


def _header_outdated(seen: _Newest) -> bool:
    """A write-up's header far newer than every time the API server wrote (other than a mere
    creation): it dates the write-up (posted, edited later), not the outputs it quotes."""
    header = seen.best.get("write-up header")
    if header is None:
        return False
    api = [_parse(ts) for k, (ts, _o, _f) in seen.best.items()
           if k not in _STATED_SIGNALS and SIGNAL_CONFIDENCE[k] != "low"]
    newest = max((t for t in api if t is not None), default=None)
    when = _parse(header[0])
    return newest is not None and when is not None and when - newest > STITCH_GAP


def _late_writes(seen: _Newest) -> list[tuple[datetime, str]]:
    """Creations and writes more than STITCH_GAP newer than every status signal (a status can
    only be older than its capture), when there are status signals to compare with."""
    status = [_parse(ts) for k, (ts, _o, _f) in seen.best.items() if SIGNAL_CONFIDENCE[k] != "low"]
    newest = max((t for t in status if t is not None), default=None)
    if newest is None:
        return []
    return sorted((when, src) for ts, src in seen.writes
                  if (when := _parse(ts)) is not None and when - newest > STITCH_GAP)


def _period(group: list[tuple[datetime, str]]) -> CapturePeriod:
    return CapturePeriod(group[0][0], group[-1][0], len(group),
                         tuple(sorted({s for _t, s in group if s})))


def _periods(live: list[tuple[str, str]], status: list[tuple[str, str]],
             ready_beats: list[tuple[str, str]] = ()) -> tuple[CapturePeriod, ...]:  # type: ignore[assignment]
    """The periods a dump's live signals fall in: split where two neighbours are STITCH_GAP
    apart and each side was read from files the other side was not (one file cannot be two
    captures: a cluster that was stopped for days leaves old events in one dump). Status
    times far newer than every live signal make a period of their own."""
    times = sorted((when, src) for ts, src in live if (when := _parse(ts)) is not None)
    if not times:
        return ()
    groups: list[list[tuple[datetime, str]]] = [[times[0]]]
    for item in times[1:]:
        if item[0] - groups[-1][-1][0] > STITCH_GAP:
            groups.append([])
        groups[-1].append(item)
    merged: list[list[tuple[datetime, str]]] = [groups[0]]
    for group in groups[1:]:
        before = {s for g in merged for _t, s in g}
        after = {s for _t, s in group}
        if before & after:
            merged[-1].extend(group)  # a file shared by both sides: one capture
        else:
            merged.append(group)
    periods = [_period(g) for g in merged]
    newest_live = times[-1][0]
    later = sorted((when, src) for ts, src in status
                   if (when := _parse(ts)) is not None and when - newest_live > STITCH_GAP)
    if len(later) >= 2:
        periods.append(_period(later))
    if len(periods) == 1:
        # Nodes that all say Ready=True cannot have heartbeats days apart in one capture (the
        # node controller marks a silent node Unknown within a minute): a file put together
        # from several captures.
        beats = sorted((when, src) for ts, src in ready_beats if (when := _parse(ts)) is not None)
        split: list[list[tuple[datetime, str]]] = [beats[:1]] if beats else []
        for item in beats[1:]:
            if item[0] - split[-1][-1][0] > STITCH_GAP:
                split.append([])
            split[-1].append(item)
        if len(split) > 1:
            periods = [_period(g) for g in split]
            if newest_live > periods[-1].end:
                last = periods[-1]
                periods[-1] = CapturePeriod(last.start, newest_live, last.signals, last.sources)
    return tuple(periods)


def estimate_capture_time(objects: Iterable[KubeObject], stated: Iterable[tuple[str, str]] = (),
                          headers: Iterable[tuple[str, str]] = ()) -> datetime | None:
    """Newest timestamp the dump holds (see `estimate_capture` for the signal behind it)."""
    return estimate_capture(objects, stated, headers).time
