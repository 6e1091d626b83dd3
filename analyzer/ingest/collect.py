"""Ingestion driver: every file of every input, by content, into one accounted IngestResult."""

from __future__ import annotations

import gc
import re
from collections import Counter
from collections.abc import Iterable
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import msgspec

from analyzer.errors import InputError
from analyzer.ingest import jsondocs, layouts, yamldocs
from analyzer.ingest.objects import Hints, list_item_kind, object_from_dict, object_from_json
from analyzer.ingest.records import KubeObject, LogRecord, Provenance, Rejection
from analyzer.ingest.textcodec import decode_text
from analyzer.ingest.tree import DumpTree, Entry, is_archive, iter_entries, tree_for_bytes

# Kinds a support engineer expects a complete dump to have; coverage reports which of these
# the dump did not collect, so later stages can tell "missing" from "not collected".
EXPECTED_KINDS = (
    "Namespace", "Node", "Pod", "Service", "Endpoints", "EndpointSlice", "Deployment",
    "ReplicaSet", "DaemonSet", "StatefulSet", "Job", "CronJob", "ConfigMap", "Secret",
    "ServiceAccount", "PersistentVolumeClaim", "PersistentVolume", "StorageClass", "Ingress",
    "Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding", "Event", "NetworkPolicy",
    "PodDisruptionBudget", "HorizontalPodAutoscaler", "PriorityClass",
)

# How much a provenance is worth when the same object is seen twice: structured beats text.
_FORMAT_RANK = {"text table": 0, "describe": 1}


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
    rejections: list[Rejection] = field(default_factory=list)
    logs: list[LogRecord] = field(default_factory=list)
    files: list[FileReport] = field(default_factory=list)
    skipped: list[Rejection] = field(default_factory=list)  # text/files that held no object
    generic_tables: list[Any] = field(default_factory=list)  # pasted tables of unknown kinds
    collected_kinds: set[str] = field(default_factory=set)
    duplicates: int = 0
    objects_read: int = 0
    server_version: str | None = None
    inputs: list[str] = field(default_factory=list)

    @property
    def formats(self) -> list[str]:
        return sorted({f.format for f in self.files if f.format not in ("ignored", "unreadable")})

    @property
    def objects_by_kind(self) -> dict[str, int]:
        return dict(sorted(Counter(o.kind for o in self.objects).items()))

    @property
    def coverage_present(self) -> list[str]:
        return sorted(self.collected_kinds | {o.kind for o in self.objects})

    @property
    def coverage_absent(self) -> list[str]:
        present = set(self.coverage_present)
        return [k for k in EXPECTED_KINDS if k not in present]

    def covers(self, kind: str) -> bool:
        """Whether the dump collected this kind at all (even if it holds none of it)."""
        return kind in self.collected_kinds or any(o.kind == kind for o in self.objects)

    @property
    def capture_time(self) -> datetime | None:
        return estimate_capture_time(self.objects)


@contextmanager
def gc_paused():
    """Pause the cyclic garbage collector: parsed documents hold no cycles, and on big inputs
    repeated full collections cost more than the parse itself."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


class Ingestor:
    """Reads trees into one IngestResult; objects seen twice are kept once."""

    def __init__(self) -> None:
        self.result = IngestResult()
        self._by_uid: dict[str, int] = {}
        self._by_key: dict[Any, int] = {}

    # -- entry points ---------------------------------------------------------------------

    def add_tree(self, tree: DumpTree, depth: int = 0) -> None:
        self.result.inputs.append(tree.name)
        for path, reason in getattr(tree, "skipped", []):
            self.result.skipped.append(Rejection(path, "", reason))
        with gc_paused():
            for entry, data in iter_entries(tree):
                if isinstance(data, InputError):
                    self._unreadable(entry.display, data.reason)
                    continue
                self.add_file(entry, data, depth)

    def add_file(self, entry: Entry, data: bytes, depth: int = 0) -> None:
        """Read one file by its content."""
        display = entry.display
        if is_archive(data):
            if depth >= 3:
                self._unreadable(display, "archive nested more than 3 deep; not opened")
                return
            try:
                inner = tree_for_bytes(data, display)
            except InputError as exc:
                self._unreadable(display, exc.reason)
                return
            self.add_tree(inner, depth + 1)
            self.result.inputs.pop()
            return
        if not data.strip():
            self.result.files.append(FileReport(display, "empty"))
            return
        hint = layouts.object_hint(entry.path) if entry.path else None
        log_hint = layouts.log_hint(entry.path) if entry.path else None
        if log_hint is not None:
            self._add_log_file(display, data, log_hint)
            return
        if entry.path and layouts.is_not_objects(entry.path):
            self._add_side_file(entry, data, display)
            return
        try:
            data = _normalise_bytes(data, display)
        except InputError as exc:
            self._reject_file(display, exc.reason)
            return
        if jsondocs.looks_like_json(data):
            parsed = jsondocs.read_json_file(data, display)
            # A JSON preamble before pasted kubectl output (tool wrappers) is not a dump.
            if any(_is_object_like(d.envelope) for d in parsed.documents) or not self._add_text(
                display, data.decode("utf-8", "replace")
            ):
                self._add_json(display, parsed, hint)
            return
        text = data.decode("utf-8", "replace")
        if yamldocs.looks_like_yaml(text):
            self._add_yaml(display, text, hint)
            return
        if self._add_text(display, text):
            return
        if entry.path.endswith((".log", ".txt")) and log_hint is None and hint is None:
            self.result.files.append(FileReport(display, "ignored"))
            self.result.skipped.append(Rejection(display, "", "plain text that is neither a dump nor a known log layout"))
            return
        self._reject_file(display, "not a Kubernetes dump: neither JSON, YAML objects, nor kubectl text")

    # -- formats ----------------------------------------------------------------------------

    def _add_json(self, display: str, parsed: jsondocs.JsonFile, hint: layouts.PathHint | None) -> None:
        many = len(parsed.documents) + len(parsed.broken) > 1 or parsed.logs
        fmt = hint.format if hint else ("cluster-info-dump" if many and parsed.logs else "kubectl-json")
        report = FileReport(display, fmt)
        self.result.files.append(report)
        for s in parsed.skipped:
            self.result.skipped.append(Rejection(display, f"line {s.line}", s.reason))
        for log in parsed.logs:
            self._add_log(log)
            report.logs += 1
        for doc in parsed.documents:
            report.objects += self._add_json_document(display, fmt, doc, hint)
        for line, raw, error in parsed.broken:
            items, broken = jsondocs.salvage_items(raw)
            for offset, item in items:
                prov = Provenance(display, fmt, None, line + offset)
                report.objects += self._keep(object_from_json(item, _hints(None, hint), prov))
            for _ in range(broken or (0 if items else 1)):
                self.result.objects_read += 1
                self.result.rejections.append(Rejection(display, f"line {line}", f"broken JSON document: {error}"))

    def _add_json_document(self, display: str, fmt: str, doc: jsondocs.JsonDocument, hint: layouts.PathHint | None) -> int:
        env = doc.envelope
        items = env.items if env.items is not None else env.Items
        if items is None:
            prov = Provenance(display, fmt, doc.index, doc.line)
            return self._keep(object_from_json(doc.raw, _hints(None, hint), prov))
        item_kind = list_item_kind(env.kind) or (hint.kind if hint else None)
        if item_kind:
            self.result.collected_kinds.add(item_kind)
        h = Hints(kind=item_kind, api_version=env.apiVersion if item_kind else None,
                  namespace=hint.namespace if hint else None)
        kept = 0
        for i, raw in enumerate(items):
            prov = Provenance(display, fmt, doc.index, doc.line if i == 0 else None)
            kept += self._keep(object_from_json(raw, h, prov), item_index=i)
        return kept

    def _add_yaml(self, display: str, text: str, hint: layouts.PathHint | None) -> None:
        parsed = yamldocs.read_yaml_file(text)
        fmt = hint.format if hint else "kubectl-yaml"
        report = FileReport(display, fmt)
        self.result.files.append(report)
        for s in parsed.skipped:
            self.result.skipped.append(Rejection(display, f"line {s.line}", s.reason))
        for index, line, error in parsed.broken:
            self.result.objects_read += 1
            self.result.rejections.append(Rejection(display, f"document {index}, line {line}", error))
        for doc in parsed.documents:
            values = doc.value if isinstance(doc.value, list) else [doc.value]
            for value in values:
                report.objects += self._add_value(display, fmt, doc.index, doc.line, value, hint)

    def _add_value(self, display: str, fmt: str, index: int, line: int, value: Any, hint: layouts.PathHint | None) -> int:
        if isinstance(value, dict) and isinstance(value.get("items", value.get("Items")), list):
            items = value.get("items", value.get("Items"))
            item_kind = list_item_kind(value.get("kind")) or (hint.kind if hint else None)
            if item_kind:
                self.result.collected_kinds.add(item_kind)
            h = Hints(kind=item_kind, api_version=value.get("apiVersion") if item_kind else None,
                      namespace=hint.namespace if hint else None)
            kept = 0
            for i, item in enumerate(items):
                prov = Provenance(display, fmt, index, line if i == 0 else None)
                kept += self._keep(object_from_dict(item, h, prov), item_index=i)
            return kept
        prov = Provenance(display, fmt, index, line)
        return self._keep(object_from_dict(value, _hints(None, hint), prov))

    def _add_text(self, display: str, text: str) -> bool:
        try:
            from analyzer.text import looks_like_kubectl_text, parse_kubectl_text
        except ImportError:  # pragma: no cover - the text stage is part of the package
            return False
        if not looks_like_kubectl_text(text):
            return False
        parsed = parse_kubectl_text(text, display)
        report = FileReport(display, "kubectl-text")
        self.result.files.append(report)
        for obj in parsed.objects:
            prov = Provenance(display, obj.origin, None, obj.line)
            report.objects += self._keep(object_from_dict(obj.body, Hints(), prov))
        for rej in parsed.rejections:
            self.result.objects_read += 1
            self.result.rejections.append(rej)
        self.result.generic_tables.extend(parsed.tables)
        return True

    def _add_log_file(self, display: str, data: bytes, hint: layouts.LogHint) -> None:
        try:
            text = decode_text(data, display)
        except InputError as exc:
            self._reject_file(display, exc.reason)
            return
        report = FileReport(display, f"{hint.format} logs", logs=0)
        self.result.files.append(report)
        if hint.container is None:
            # cluster-info --output-directory logs.txt: START/END blocks per container
            parsed = jsondocs.read_json_file(text.encode(), display)
            for log in parsed.logs:
                self._add_log(log)
                report.logs += 1
            if not parsed.logs:
                self._add_log(LogRecord(hint.namespace or "", hint.pod, "", text, display, False))
                report.logs += 1
            return
        self._add_log(LogRecord(hint.namespace or "", hint.pod, hint.container, text, display, hint.previous))
        report.logs += 1

    def _add_side_file(self, entry: Entry, data: bytes, display: str) -> None:
        self.result.files.append(FileReport(display, "ignored"))
        if entry.path.endswith("cluster_version.json"):
            try:
                doc = msgspec.json.decode(data)
                self.result.server_version = doc.get("string") or (doc.get("info") or {}).get("gitVersion")
            except (msgspec.DecodeError, AttributeError):
                pass
        self.result.skipped.append(Rejection(display, "", "bundle metadata, not Kubernetes objects"))

    # -- bookkeeping ------------------------------------------------------------------------

    def _add_log(self, log: LogRecord) -> None:
        self.result.logs.append(log)

    def _keep(self, obj: KubeObject | Rejection, item_index: int | None = None) -> int:
        res = self.result
        res.objects_read += 1
        if isinstance(obj, Rejection):
            if item_index is not None:
                obj = Rejection(obj.source, _join(obj.location, f"item {item_index}"), obj.reason)
            res.rejections.append(obj)
            return 0
        if item_index is not None and obj.provenance.line is None:
            obj.provenance = Provenance(obj.provenance.source, obj.provenance.format,
                                        obj.provenance.document, None)
        slot = None
        if obj.uid and obj.uid in self._by_uid:
            slot = self._by_uid[obj.uid]
        elif obj.key in self._by_key:
            slot = self._by_key[obj.key]
        if slot is not None:
            res.duplicates += 1
            old = res.objects[slot]
            if _rank(obj) > _rank(old):
                obj.duplicates = old.duplicates + 1
                res.objects[slot] = obj
            else:
                old.duplicates += 1
            if obj.uid:
                self._by_uid[obj.uid] = slot
            return 0
        slot = len(res.objects)
        res.objects.append(obj)
        if obj.uid:
            self._by_uid[obj.uid] = slot
        self._by_key[obj.key] = slot
        return 1

    def _unreadable(self, display: str, reason: str) -> None:
        self.result.files.append(FileReport(display, "unreadable"))
        self.result.rejections.append(Rejection(display, "", reason))

    def _reject_file(self, display: str, reason: str) -> None:
        self.result.files.append(FileReport(display, "unreadable"))
        self.result.rejections.append(Rejection(display, "", reason))


def _is_object_like(env: jsondocs.Envelope) -> bool:
    return bool(env.kind) or env.items is not None or env.Items is not None


def _rank(obj: KubeObject) -> int:
    return _FORMAT_RANK.get(obj.provenance.format, 2)


def _join(a: str, b: str) -> str:
    return f"{a}, {b}" if a else b


def _hints(kind: str | None, hint: layouts.PathHint | None) -> Hints:
    if hint is None:
        return Hints(kind=kind)
    return Hints(kind=kind or hint.kind, namespace=hint.namespace, name=hint.name)


def _normalise_bytes(data: bytes, display: str) -> bytes:
    """UTF-8 bytes with "\\n" line ends; plain UTF-8 input is passed through without a copy."""
    if data.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")) or b"\r" in data[:65536] or b"\x00" in data[:4096]:
        return decode_text(data, display).encode("utf-8")
    if b"\r" in data:
        return data.replace(b"\r\n", b"\n")
    return data


_TS_RX = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d")


def estimate_capture_time(objects: Iterable[KubeObject]) -> datetime | None:
    """Newest timestamp the dump holds: node heartbeats, events, managedFields, creations."""
    best = ""
    for obj in objects:
        v = obj.view
        meta = v.metadata
        for ts in (meta.creationTimestamp,):
            if ts and ts > best and _TS_RX.match(ts):
                best = ts
        for mf in meta.managedFields or ():
            if mf.time and mf.time > best and _TS_RX.match(mf.time):
                best = mf.time
        kind = obj.kind
        if kind == "Node":
            for c in v.status.conditions or ():
                for ts in (c.lastHeartbeatTime, c.lastTransitionTime):
                    if ts and ts > best and _TS_RX.match(ts):
                        best = ts
        elif kind == "Event":
            for ts in (v.lastTimestamp, v.eventTime, v.firstTimestamp,
                       v.series.lastObservedTime if v.series else None):
                if ts and ts > best and _TS_RX.match(ts):
                    best = ts
    if not best:
        return None
    import pandas as pd

    try:
        return pd.Timestamp(best).to_pydatetime()
    except ValueError:
        return None
