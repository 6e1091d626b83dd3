"""What ingestion hands on: the objects, logs and rejections of all inputs, with the accounting."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from analyzer.ingest.records import KubeObject, LogRecord, Rejection, is_builtin_group

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
    generic_tables: list[Any] = field(default_factory=list)  # pasted tables of unknown kinds
    collected_kinds: set[str] = field(default_factory=set)
    duplicates: int = 0
    objects_read: int = 0
    server_version: str | None = None
    inputs: list[str] = field(default_factory=list)
    stated_capture_times: list[str] = field(default_factory=list)  # from bundle metadata files
    # Files whose place in a layout names the kind they hold (nodes.json -> Node): the kind was
    # collected even when none of it could be read.
    hinted_files: dict[str, list[str]] = field(default_factory=dict)

    @property
    def formats(self) -> list[str]:
        return sorted({f.format for f in self.files if f.format not in _NOT_FORMATS})

    @property
    def objects_by_kind(self) -> dict[str, int]:
        return dict(sorted(Counter(o.kind for o in self.objects).items()))

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
        return estimate_capture_time(self.objects, self.stated_capture_times)

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


# An RFC 3339 timestamp as the API prints it (a hand-edited "2025-08-2312:02:32Z" is not one).
TIMESTAMP_RX = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d")
# A whole timestamp that datetime.fromisoformat reads exactly as pandas does.
_PLAIN_TIMESTAMP_RX = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,6})?(?:Z|[+-]\d\d:\d\d)$")


def estimate_capture_time(objects: Iterable[KubeObject], stated: Iterable[str] = ()) -> datetime | None:
    """Newest timestamp the dump holds: bundle creation time where a bundle states it, node
    heartbeats, events, managedFields, creations."""
    best = max((ts for ts in stated if TIMESTAMP_RX.match(ts)), default="")
    for obj in objects:
        v = obj.view
        meta = v.metadata
        for ts in (meta.creationTimestamp,):
            if ts and ts > best and TIMESTAMP_RX.match(ts):
                best = ts
        for mf in meta.managedFields or ():
            if mf.time and mf.time > best and TIMESTAMP_RX.match(mf.time):
                best = mf.time
        kind = obj.kind
        if not is_builtin_group(kind, obj.key.group):
            continue  # a custom resource named like a built-in kind has fields of its own
        if kind == "Node":
            for c in v.status.conditions or ():
                for ts in (c.lastHeartbeatTime, c.lastTransitionTime):
                    if ts and ts > best and TIMESTAMP_RX.match(ts):
                        best = ts
        elif kind == "Event":
            for ts in (v.lastTimestamp, v.eventTime, v.firstTimestamp,
                       v.series.lastObservedTime if v.series else None):
                if ts and ts > best and TIMESTAMP_RX.match(ts):
                    best = ts
    if not best:
        return None
    if _PLAIN_TIMESTAMP_RX.match(best):
        # What the API prints, read without pandas (whose import is most of `kda inspect`).
        try:
            return datetime.fromisoformat(best)
        except ValueError:
            pass  # not a date (a 30th of February): pandas says so as it always did
    import pandas as pd

    try:
        return pd.Timestamp(best).to_pydatetime()
    except ValueError:
        return None
