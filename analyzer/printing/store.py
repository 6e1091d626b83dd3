"""One dump as kubectl sees it: resources, their objects as API bodies, logs, capture time.

Shared by `kda get/describe/logs` and `kda serve`. Bodies are decoded once and kept; values that
look like credentials (env values, annotations, event messages) are masked unless asked.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from analyzer.ingest import IngestResult, KubeObject, LogRecord
from analyzer.ingest.records import JsonItem
from analyzer.kube.autoscaling import hpa_at_v2
from analyzer.kube.ingress import ingress_at_v1
from analyzer.kube.time import parse_strict_time, parse_time
from analyzer.printing.pasted import PASTED, served_pasted_pod, with_deletion_time
from analyzer.printing.resources import Resource, ResourceCatalog
from analyzer.printing.selectors import field_selector, label_selector
from analyzer.printing.timefmt import Clock


class NotCollected(LookupError):
    """The dump did not collect this kind, so "none" cannot be told from "not asked for"."""

    def __init__(self, res: Resource) -> None:
        super().__init__(f"the dump did not collect {res.title}")
        self.resource = res


class DumpStore:
    """Objects by resource, bodies on demand, logs by pod and container."""

    def __init__(self, result: IngestResult, name: str = "dump", show_sensitive: bool = False,
                 capture_time: datetime | None = None) -> None:
        self.result = result
        self.name = name
        self.show_sensitive = show_sensitive
        self.catalog = ResourceCatalog(result.objects, result.collected_kinds)
        self.capture_time = capture_time if capture_time is not None else result.capture_time
        self.clock = Clock(self.capture_time)
        self._bodies: dict[int, dict[str, Any]] = {}
        self._rows: dict[int, dict[str, Any]] = {}
        self._cells: dict[tuple[str, str], dict[int, list[Any]]] = {}
        self.logs: dict[tuple[str, str], list[LogRecord]] = {}
        for log in result.logs:
            self.logs.setdefault((log.namespace, log.pod), []).append(log)

    @classmethod
    def from_cluster(cls, cluster: Any) -> DumpStore:
        """The store of a loaded `Cluster` (its capture time, name and masking choice)."""
        return cls(cluster.ingest, name=cluster.name, show_sensitive=cluster.show_sensitive,
                   capture_time=cluster.capture_time)

    # -- bodies ---------------------------------------------------------------------------

    def body(self, res: Resource, obj: KubeObject) -> dict[str, Any]:
        """The object as the API would serve it (apiVersion and kind set, credentials masked)."""
        key = id(obj)
        found = self._bodies.get(key)
        if found is None:
            found = obj.body()
            if not isinstance(found, dict):
                found = {}
            if _may_need_api_types(obj.raw):
                found = api_types(found)
            found = dict(found)
            found["apiVersion"] = res.group_version if res.builtin else (obj.api_version or res.group_version)
            found["kind"] = res.kind
            meta = found.get("metadata")
            if not isinstance(meta, dict):
                meta = found["metadata"] = {}
            meta.setdefault("name", obj.name)
            if obj.namespace and res.namespaced:
                meta.setdefault("namespace", obj.namespace)
            if res.builtin and res.kind == "Pod" and PASTED in found:
                # a pasted row's pod: containers and a phase, as kubectl logs and describe need
                found = served_pasted_pod(found, (r.container for r in self.pod_logs(obj.namespace or "", obj.name)))
            if res.builtin and PASTED in found:
                found = with_deletion_time(found, self.capture_time)
            if res.builtin and res.kind == "HorizontalPodAutoscaler":
                # served at v2 (the version it is listed at): an autoscaling/v1 one's fields converted
                found = hpa_at_v2(found)
            elif res.builtin and res.kind == "Ingress":
                found = ingress_at_v1(found)  # served at v1: a v1beta1 one's backends converted
            if not self.show_sensitive:
                _mask(found)
            self._bodies[key] = found
        return found

    def bodies(self, res: Resource, objs: Iterable[KubeObject]) -> list[dict[str, Any]]:
        return [self.body(res, o) for o in objs]

    def row_body(self, res: Resource, obj: KubeObject) -> dict[str, Any]:
        """What a table row and a field selector need of an object: for Pods read from the raw
        JSON by a narrow decoder (a big dump's pods carry managedFields, env and probes that no
        column shows), else the whole body. Credentials in it are masked as in `body`."""
        key = id(obj)
        found = self._bodies.get(key) or self._rows.get(key)
        if found is not None:
            return found
        if res.builtin and res.kind == "Pod" and obj.raw is not None and not isinstance(obj.raw, dict):
            from analyzer.printing.partial import pod_row_body

            found = pod_row_body(obj)
            if found is not None:
                found["apiVersion"], found["kind"] = res.group_version, res.kind
                meta = found["metadata"]
                meta.setdefault("name", obj.name)
                if obj.namespace:
                    meta.setdefault("namespace", obj.namespace)
                if not self.show_sensitive and isinstance(meta.get("annotations"), dict):
                    meta["annotations"] = {k: _masked_annotation(str(k), v) if isinstance(v, str) else v
                                           for k, v in meta["annotations"].items()}
                self._rows[key] = found
                return found
        return self.body(res, obj)

    def row_bodies(self, res: Resource, objs: Iterable[KubeObject]) -> list[dict[str, Any]]:
        return [self.row_body(res, o) for o in objs]

    def table_cells(self, res: Resource, objs: Iterable[KubeObject]) -> list[list[Any]]:
        """The Table cells of each object, computed once: a dump does not change, so neither
        do its rows (ages are measured from the capture time)."""
        from analyzer.printing.tables import printer_for, row_cells

        cache = self._cells.setdefault((res.group, res.kind), {})
        printer = None
        out = []
        for obj in objs:
            cells = cache.get(id(obj))
            if cells is None:
                printer = printer or printer_for(res)
                cells = cache[id(obj)] = row_cells(printer, self.row_body(res, obj), self.clock)
            out.append(cells)
        return out

    def warm(self, kinds: Iterable[str] = ("Pod",)) -> None:
        """Read the rows of the big kinds ahead, so the first `kubectl get pods -A` is quick."""
        for kind in kinds:
            res = self.catalog.get("", kind)
            if res is not None and res.objects:
                self.table_cells(res, res.objects)

    # -- queries --------------------------------------------------------------------------

    def select(self, res: Resource, namespace: str | None = None, labels: str | None = None,
               fields: str | None = None) -> list[KubeObject]:
        """The objects of a resource in API order, filtered as a list request would be.

        Raises NotCollected when the dump did not collect the kind at all, and SelectorError
        for a selector the API would refuse.
        """
        if not self.catalog.collected(res):
            raise NotCollected(res)
        by_label = label_selector(labels)
        by_field = field_selector(fields, res.kind) if fields else None
        out = []
        for obj in res.objects:
            if namespace and res.namespaced and obj.namespace != namespace:
                continue
            if labels:
                # the typed view holds every object's labels already
                found = obj.view.metadata.labels if obj.view is not None else None
                if found is None and obj.view is None:
                    found = (self.body(res, obj).get("metadata") or {}).get("labels")
                if not by_label(found or {}):
                    continue
            if by_field is not None and not by_field(self.row_body(res, obj)):
                continue
            out.append(obj)
        return out

    def find(self, res: Resource, namespace: str, name: str) -> KubeObject | None:
        if not self.catalog.collected(res):
            raise NotCollected(res)
        for obj in res.objects:
            if obj.name == name and (not res.namespaced or obj.namespace == namespace):
                return obj
        return None

    def server_version(self) -> str | None:
        """The API server's version: as the dump states it, else the newest kubelet's."""
        if self.result.server_version:
            return self.result.server_version
        nodes = self.catalog.get("", "Node")
        versions = []
        for obj in nodes.objects if nodes else ():
            info = (self.body(nodes, obj).get("status") or {}).get("nodeInfo") or {}
            if isinstance(info, dict) and info.get("kubeletVersion"):
                versions.append(str(info["kubeletVersion"]))
        return max(versions, key=_version_key) if versions else None

    def pod_logs(self, namespace: str, pod: str) -> list[LogRecord]:
        return self.logs.get((namespace, pod), [])


def _version_key(v: str) -> tuple[int, ...]:
    import re

    return tuple(int(x) for x in re.findall(r"\d+", v)[:3])


@lru_cache(maxsize=65536)
def _masked_annotation(key: str, value: str) -> str:
    # cached: the pods of one controller repeat the same annotations thousands of times
    from analyzer.sensitive.masking import mask_annotation

    return mask_annotation(key, value)


@lru_cache(maxsize=65536)
def _masked_env(name: str, value: str) -> str:
    from analyzer.sensitive.masking import mask_named_value

    return mask_named_value(name, value)


def _masked_argv(argv: tuple[Any, ...]) -> list[Any]:
    try:
        return list(_masked_argv_of(argv))
    except TypeError:  # (an element that is no scalar: a hand-edited object)
        from analyzer.sensitive.masking import mask_argv

        return mask_argv(list(argv))


@lru_cache(maxsize=65536)
def _masked_argv_of(argv: tuple[Any, ...]) -> tuple[Any, ...]:
    # cached: the pods of one controller repeat the same command and args
    from analyzer.sensitive.masking import mask_argv

    return tuple(mask_argv(list(argv)))


@lru_cache(maxsize=65536)
def _masked_text(value: str) -> str:
    from analyzer.sensitive.masking import mask_sensitive

    return mask_sensitive(value)


# What a collector that wrote objects through untyped maps as YAML (go-yaml) leaves that the API
# never serves: a number as a float (`1.194914199e+09`), a number as `1e+09` (text to YAML 1.1,
# which wants a dot), a null time as the text "null". Go's encoding/json writes none of these, so
# objects read from JSON are served as read; objects read from YAML by the fast parser are
# compact JSON, where those show as `.0,` `.0}` `.0]` (orjson's integral float), `e+` and
# `"null"` (substring searches: a regex over every pod's 30 KB cost more than its decoding).
_COLLECTOR_MARKS = (b".0,", b".0}", b".0]", b"e+", b'"null"')
_DATE_FIRST = re.compile(r"\d{4}-\d\d-\d\d.?\d\d:\d\d")
_GO_YAML_NUMBER = re.compile(r"[-+]?[0-9]+(?:\.[0-9]+)?[eE]\+[0-9]+")
# Fields of free text (any value is the user's): nothing in them is retyped.
_FREE_TEXT = frozenset({"annotations", "data", "stringData", "binaryData", "env", "args", "command"})
_INT64 = 2**63


def _may_need_api_types(raw: Any) -> bool:
    if isinstance(raw, dict):
        return True  # read from YAML by the safe loader, or from text
    if isinstance(raw, memoryview):
        raw = raw.obj  # (an item is kept as a view of its bytes)
    return isinstance(raw, JsonItem) and any(mark in raw for mark in _COLLECTOR_MARKS)


def api_types(value: Any, key: str = "") -> Any:
    """The value as the API server serves it, where a collector wrote objects through untyped
    maps (support-bundle-kit's Harvester bundle): an integral float as an integer (an image's
    `sizeBytes: 1.194914199e+09`: kubectl refused the node, "cannot unmarshal number
    1194914199.0 into ... of type int64"; a JSON integer decodes into a float field as well),
    go-yaml's `1e+09` as that number (`priority: 1e+09`, text to YAML 1.1: "cannot unmarshal
    string into ... priority of type int32"), and a time field's "null" text as null
    (`lastProbeTime: "null"`: "parsing time \"null\""). Free text (annotations, ConfigMap data,
    env, args) stays as written. Containers are copied where they change, never in place.

    >>> api_types({"sizeBytes": 1194914199.0, "ratio": 0.5, "list": [2.0, "3.0"], "priority": "1e+09",
    ...            "conditions": [{"lastProbeTime": "null"}], "labels": {"a": "null"},
    ...            "annotations": {"n": 1.0, "t": "1e+09"}})["priority"]
    1000000000
    >>> api_types({"sizeBytes": 1194914199.0, "ratio": 0.5, "list": [2.0, "3.0"],
    ...            "conditions": [{"lastProbeTime": "null"}], "labels": {"a": "null"},
    ...            "annotations": {"t": "1e+09"}})
    {'sizeBytes': 1194914199, 'ratio': 0.5, 'list': [2, '3.0'], 'conditions': [{'lastProbeTime': None}], 'labels': {'a': 'null'}, 'annotations': {'t': '1e+09'}}
    """
    kind = type(value)
    if kind is float:
        return int(value) if value.is_integer() and -_INT64 <= value < _INT64 else value
    if kind is str:
        if _is_time_field(key):
            return _api_time(value)
        if _GO_YAML_NUMBER.fullmatch(value):
            return api_types(float(value))
        return value
    if kind is dict:
        changed = None
        for name, item in value.items():
            if name in _FREE_TEXT:
                continue
            new = api_types(item, name)
            if new is not item:
                if changed is None:
                    changed = dict(value)
                changed[name] = new
        return value if changed is None else changed
    if kind is list:
        items = [api_types(item, key) for item in value]
        return value if all(a is b for a, b in zip(items, value, strict=True)) else items
    return value


def _api_time(value: str) -> str | None:
    """A time field's text as the API writes it: RFC 3339 as it is; a time in another form the
    analyzer reads (a space for "T", no offset, "+0000") in RFC 3339; a date-time nobody reads
    (a paste hand-edited to "2025-08-2312:02:32Z") or "null" as null, since kubectl refuses a
    whole object for one time it cannot parse; other text (a custom resource's "5m") as it is.

    >>> [_api_time(v) for v in ("2025-08-23T12:02:32Z", "2025-08-23 12:02:32", "2025-08-23T12:02:32.5+0000")]
    ['2025-08-23T12:02:32Z', '2025-08-23T12:02:32Z', '2025-08-23T12:02:32.500000Z']
    >>> [_api_time(v) for v in ("2025-08-2312:02:32Z", "null", "5m")]
    [None, None, '5m']
    """
    if parse_strict_time(value) is not None:
        return value
    when = parse_time(value)
    if when is not None:
        when = when.astimezone(UTC)
        return when.strftime("%Y-%m-%dT%H:%M:%S.%fZ" if when.microsecond else "%Y-%m-%dT%H:%M:%SZ")
    return None if value == "null" or _DATE_FIRST.match(value) else value


def _is_time_field(key: str) -> bool:
    # metav1.Time and MicroTime fields: lastProbeTime, creationTimestamp, startedAt, ...
    return key.endswith(("Time", "Timestamp")) or key in ("startedAt", "finishedAt")


def _mask(body: dict[str, Any]) -> None:
    mask_annotation, mask_named_value, mask_sensitive = _masked_annotation, _masked_env, _masked_text
    meta = body.get("metadata")
    ann = meta.get("annotations") if isinstance(meta, dict) else None
    if isinstance(ann, dict):
        meta["annotations"] = {k: mask_annotation(str(k), v) if isinstance(v, str) else v for k, v in ann.items()}
    if body.get("kind") == "Event" and isinstance(body.get("message"), str):
        body["message"] = mask_sensitive(body["message"])
    if body.get("kind") == "ConfigMap" and isinstance(body.get("data"), dict):
        # (a connection string or an API key in a ConfigMap, read with its key as env is)
        body["data"] = {k: mask_named_value(str(k), v) if isinstance(v, str) else v for k, v in body["data"].items()}
    for spec in _pod_specs(body):
        for key in ("containers", "initContainers", "ephemeralContainers"):
            for c in spec.get(key) if isinstance(spec.get(key), list) else ():
                if not isinstance(c, dict):
                    continue
                for env in c.get("env") if isinstance(c.get("env"), list) else ():
                    if isinstance(env, dict) and isinstance(env.get("value"), str):
                        env["value"] = mask_named_value(str(env.get("name", "")), env["value"])
                for field in ("args", "command"):
                    if isinstance(c.get(field), list):
                        c[field] = _masked_argv(tuple(c[field]))


def _pod_specs(body: dict[str, Any]) -> list[dict[str, Any]]:
    spec = body.get("spec")
    if not isinstance(spec, dict):
        return []
    out = []
    if "containers" in spec:
        out.append(spec)
    tpl = spec.get("template")
    if isinstance(tpl, dict) and isinstance(tpl.get("spec"), dict):
        out.append(tpl["spec"])
    job = spec.get("jobTemplate")
    if isinstance(job, dict):
        jt = ((job.get("spec") or {}).get("template") or {}).get("spec")
        if isinstance(jt, dict):
            out.append(jt)
    return out
