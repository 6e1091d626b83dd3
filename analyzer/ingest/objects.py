"""Raw items (JSON bytes or parsed dicts) to KubeObjects: kind, identity, typed view, hygiene.

This is the one place every object passes through, whatever format it came in, so Secret
values are dropped here and legacy kubectl shapes are mapped onto the API shape here.
"""

from __future__ import annotations

import copy
import re
from typing import Any

import msgspec
import orjson

from analyzer.ingest.jsondocs import TOO_DEEP
from analyzer.ingest.layouts import parse_self_link
from analyzer.ingest.legacy import looks_legacy, modernize
from analyzer.ingest.records import KubeObject, LazyRaw, NotAnObject, Provenance, Rejection
from analyzer.ingest.shapes import configuration_file, kind_from_shape
from analyzer.kube.keys import ObjectKey
from analyzer.kube.kinds import (
    KIND_GROUPS,
    group_of,
    group_of_kind,
    is_builtin_group,
    is_cluster_scoped,
)
from analyzer.kube.viewparts import is_legacy, view_from_parts
from analyzer.kube.views import VIEW_BY_KIND, ObjectView, json_decoder, view_from_dict
from analyzer.kube.viewunion import ItemUnion, is_legacy_item, item_kind, view_from_item

LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"


class Hints(msgspec.Struct, frozen=True):
    """What the context says about an item: the List's kind, the file's path, the format."""

    kind: str | None = None
    api_version: str | None = None
    namespace: str | None = None
    name: str | None = None
    # The items of a typed List (`kind: PodList`, lowercase `items`): each is of the List's
    # kind and in today's shape, so their kind need not be looked for in their bytes.
    typed: bool = False
    # The path keeps cluster-scoped objects (layouts.PathHint.cluster_scoped).
    cluster_scoped: bool = False


def list_item_kind(list_kind: str | None) -> str | None:
    """Kind of the items of a typed list: "PodList" -> "Pod"; None for a plain "List"."""
    if list_kind and list_kind.endswith("List") and list_kind != "List":
        return list_kind[:-4]
    return None


class _Head(msgspec.Struct):
    """The top-level keys that say what an item is (for JSON not pretty-printed)."""

    kind: str | None = None
    apiVersion: str | None = None
    metadata: msgspec.Raw = msgspec.Raw()
    name: msgspec.Raw = msgspec.Raw()
    Spec: msgspec.Raw = msgspec.Raw()
    Status: msgspec.Raw = msgspec.Raw()


_HEAD_DECODER = msgspec.json.Decoder(_Head)
_TOP_KEY_RX: dict[bytes, re.Pattern[bytes]] = {}


# `{`, then apiVersion and kind as the first two keys (sorted keys, as kubectl prints
# unstructured objects; or kind first, as it prints typed ones), on their own lines.
_COMMON_HEAD = re.compile(
    rb'\{[ \t]*\r?\n(?P<ind>[ \t]+)(?:'
    rb'"apiVersion": "(?P<a1>[^"\\]+)",\r?\n(?P=ind)"kind": "(?P<k1>[^"\\]+)",'
    rb'|"kind": "(?P<k2>[^"\\]+)",\r?\n(?P=ind)"apiVersion": "(?P<a2>[^"\\]+)",)'
)


def _top_key_rx(indent: bytes) -> re.Pattern[bytes]:
    rx = _TOP_KEY_RX.get(indent)
    if rx is None:
        # A top-level key is a line with exactly the item's first indentation; nested keys are
        # deeper, and JSON strings cannot hold a raw newline, so nothing else matches.
        rx = _TOP_KEY_RX[indent] = re.compile(
            rb"\n" + re.escape(indent) + rb'"(kind|apiVersion|metadata|name|[A-Z]\w*)"\s*:\s*(?:"([^"\\]*)")?')
    return rx


def peek_item(raw: memoryview) -> tuple[str | None, str | None, bool]:
    """An item's own kind and apiVersion, and whether it is in an old kubectl shape.

    kubectl prints unstructured objects with sorted keys, so an Event's `involvedObject.kind`
    comes before its own `kind`: only top-level keys count. For pretty-printed JSON they are
    found by indentation, without decoding; compact JSON is decoded for its top-level keys.

    >>> peek_item(memoryview(b'{\\n  "involvedObject": {\\n    "kind": "Pod"\\n  },\\n  "kind": "Event",\\n  "metadata": {}\\n}'))
    ('Event', None, False)
    >>> peek_item(memoryview(b'{"name": "n1", "Spec": {}}'))
    (None, None, True)
    """
    head = bytes(raw[:256])
    m = _COMMON_HEAD.match(head)
    if m is not None:  # most objects: apiVersion and kind are the first two keys
        api, kind = (m["a1"], m["k1"]) if m["a1"] is not None else (m["a2"], m["k2"])
        return kind.decode(), api.decode(), False
    i = 1
    while head[i:i + 1] in (b" ", b"\t", b"\r"):
        i += 1
    if head[:1] == b"{" and head[i:i + 1] == b"\n":
        j = i + 1
        while head[j:j + 1] in (b" ", b"\t"):
            j += 1
        found: dict[bytes, bytes | None] = {}
        legacy_marker = False
        for m in _top_key_rx(head[i + 1:j]).finditer(raw):
            key = m.group(1)
            if key in (b"kind", b"apiVersion", b"metadata"):
                found.setdefault(key, m.group(2))
                if len(found) == 3:
                    break
            else:
                legacy_marker = True
        kind, api = found.get(b"kind"), found.get(b"apiVersion")
        # A flattened `name` or a Capitalised key before kind/apiVersion/metadata were all seen:
        # the dict path maps old shapes (and is merely slower for anything else odd).
        return (kind.decode() if kind else None, api.decode() if api else None, legacy_marker)
    try:
        h = _HEAD_DECODER.decode(raw)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError, UnicodeDecodeError):
        return None, None, True  # the dict path reports what is wrong with it
    legacy = (not len(h.metadata) and len(h.name) > 0) or len(h.Spec) > 0 or len(h.Status) > 0
    return h.kind, h.apiVersion, legacy


def view_kind(kind: str, api_version: str | None) -> str:
    """The kind whose view reads an object: the object's own, except for a custom resource
    named like a built-in kind (longhorn.io's Node, a Knative Service), which has fields of its
    own and is read as any object ("": the generic view).

    Examples:
        >>> view_kind("Node", "v1"), view_kind("Node", "longhorn.io/v1beta2"), view_kind("Node", None)
        ('Node', '', 'Node')
        >>> view_kind("Deployment", "extensions/v1beta1"), view_kind("Service", "serving.knative.dev/v1")
        ('Deployment', '')
    """
    if api_version and not is_builtin_group(kind, group_of(api_version)):
        return ""
    return kind


def object_from_json(
    raw: bytes | memoryview, hints: Hints, provenance: Provenance
) -> KubeObject | Rejection:
    """Build an object from one item's JSON bytes, decoding only what the view needs."""
    raw = memoryview(raw)
    if hints.typed:
        kind, api_version, legacy = hints.kind, hints.api_version, False
    else:
        kind, api_version, legacy = peek_item(raw)
    if legacy:
        return _object_from_json_dict(raw, hints, provenance)
    kind = kind or hints.kind
    if kind is None or kind == "Secret":
        # Unknown kind, or a Secret (its values must go before anything keeps them).
        return _object_from_json_dict(raw, hints, provenance)
    try:
        view = json_decoder(view_kind(kind, api_version or hints.api_version)).decode(raw)
    except msgspec.ValidationError:
        return _object_from_json_dict(raw, hints, provenance)
    except msgspec.DecodeError as exc:
        return _reject(provenance, f"invalid JSON ({exc})")
    except UnicodeDecodeError as exc:
        return _reject(provenance, f"invalid JSON (not UTF-8 at byte {exc.start})")
    except RecursionError:
        return _reject(provenance, TOO_DEEP)
    return _finish(view, kind, api_version or hints.api_version or "", hints, provenance, raw)


def object_from_parts(parts: Any, hints: Hints, provenance: Provenance, raw: LazyRaw) -> KubeObject | Rejection | None:
    """Build an object from an item read in one scan with its List (`viewparts.ItemParts`).

    None where the item needs more than its parts: an old kubectl shape, no kind, a Secret
    (scrubbed from its whole body), a part that does not fit its view. The caller then reads
    the item's raw bytes with `object_from_json`, which decides as it always does.
    """
    if hints.typed:
        kind, api_version = hints.kind, hints.api_version
    else:
        if is_legacy(parts):
            return None
        kind, api_version = parts.kind or hints.kind, parts.apiVersion
    if kind is None or kind == "Secret":
        return None
    try:
        view = view_from_parts(view_kind(kind, api_version or hints.api_version), parts)
    except (msgspec.ValidationError, RecursionError, UnicodeDecodeError):
        return None
    return _finish(view, kind, api_version or hints.api_version or "", hints, provenance, raw)


def object_from_item(union: ItemUnion, item: Any, hints: Hints, provenance: Provenance,
                     raw: LazyRaw) -> KubeObject | Rejection | None:
    """Build an object from an item decoded with its List by its kind's variant
    (`viewunion`); None where `object_from_parts` would need more than the parts, or the
    variant is not the view's (then the caller reads the item's raw bytes)."""
    if hints.typed:
        kind, api_version = hints.kind, hints.api_version
    else:
        if is_legacy_item(item):
            return None
        kind, api_version = item_kind(union, item), item.apiVersion
    if kind is None or kind == "Secret":
        return None
    view = view_from_item(union, item, view_kind(kind, api_version or hints.api_version))
    if view is None:
        return None
    return _finish(view, kind, api_version or hints.api_version or "", hints, provenance, raw)


def _object_from_json_dict(
    raw: bytes | memoryview, hints: Hints, provenance: Provenance
) -> KubeObject | Rejection:
    try:
        body = orjson.loads(bytes(raw))
    except orjson.JSONDecodeError as exc:
        # orjson refuses nesting past 1024 levels with this same error type
        return _reject(provenance, TOO_DEEP if "recursion" in str(exc) else f"invalid JSON ({exc})")
    return object_from_dict(body, hints, provenance)


def object_from_dict(body: Any, hints: Hints, provenance: Provenance) -> KubeObject | Rejection:
    """Build an object from an already-parsed item (YAML, pasted text, legacy JSON)."""
    if not isinstance(body, dict):
        return _reject(provenance, f"item is a {type(body).__name__}, not an object")
    if looks_legacy(body):
        body = modernize(body)
    kind = body.get("kind") if isinstance(body.get("kind"), str) and body.get("kind") else None
    kind = kind or hints.kind
    if not kind:
        # Old dumps name neither kind nor apiVersion; their selfLink is the object's API path.
        link = parse_self_link(_self_link_of(body))
        if link is not None:
            kind = link.kind
            hints = Hints(kind, link.api_version, hints.namespace or link.namespace, hints.name,
                          cluster_scoped=hints.cluster_scoped)
    inferred = None
    if not kind:
        shaped = kind_from_shape(body)
        if shaped is None:
            return _reject(provenance, "object has no kind, and neither its list, its path nor its shape says it")
        kind, fields = shaped
        inferred = f"kind not stated: {kind} inferred from its shape ({fields})"
    if kind == "Secret":
        body = scrub_secret(body)
    api_version = body.get("apiVersion") if isinstance(body.get("apiVersion"), str) else None
    try:
        view, dropped, read = _convert_lenient(view_kind(kind, api_version or hints.api_version), body)
    except RecursionError:
        return _reject(provenance, TOO_DEEP)
    if view is None:
        return _reject(provenance, f"{kind} does not fit the API shape ({dropped[-1]})")
    # the body as read: its YAML timestamps as text again when nothing else was dropped (what
    # prints it, `kda get`, reads the body's times as kubectl's strings)
    raw = read if not dropped else body
    obj = _finish(view, kind, api_version or hints.api_version or "", hints, provenance, raw)
    if isinstance(obj, KubeObject) and dropped:
        obj.notes.extend(f"field ignored: {d}" for d in dropped)
    if isinstance(obj, KubeObject) and inferred:
        obj.notes.append(inferred)
    return obj


# msgspec's words for a YAML timestamp where the API has a string
_YAML_TIME = "got `datetime`"
_PATH_RX = re.compile(r"at `\$((?:\.[^.`\[]+|\[\d+\])+)`")


def _convert_lenient(kind: str, body: dict) -> tuple[ObjectView | None, list[str], dict]:
    """Convert to the view; a field of the wrong type is dropped (and named) instead of the
    object. Also returns the body converted (a copy when anything was changed)."""
    dropped: list[str] = []
    work = body
    for _ in range(20):
        try:
            return view_from_dict(kind, work), dropped, work
        except msgspec.ValidationError as exc:
            msg = str(exc)
            dropped.append(msg)
            m = _PATH_RX.search(msg)
            if not m:
                return None, dropped, work
            if work is body:
                try:  # a private copy to delete from
                    work = orjson.loads(orjson.dumps(body, option=orjson.OPT_NON_STR_KEYS, default=str))
                except (orjson.JSONEncodeError, TypeError):  # e.g. an integer past 64 bits
                    work = copy.deepcopy(body)
                else:
                    if _YAML_TIME in msg:
                        # kubectl before 1.14 printed its times unquoted (`creationTimestamp:
                        # 2018-09-16T22:05:49Z`), which YAML reads as timestamps: the copy has
                        # them as RFC 3339 text again, nothing to drop
                        dropped.pop()
                        continue
            if not _delete_path(work, m.group(1)):
                return None, dropped, work
    return None, dropped, work


def _delete_path(doc: Any, path: str) -> bool:
    steps = re.findall(r"\.([^.\[]+)|\[(\d+)\]", path)
    cur = doc
    for i, (key, idx) in enumerate(steps):
        last = i == len(steps) - 1
        try:
            if key:
                if last:
                    del cur[key]
                    return True
                cur = cur[key]
            else:
                if last:
                    del cur[int(idx)]
                    return True
                cur = cur[int(idx)]
        except (KeyError, IndexError, TypeError):
            return False
    return False


def _self_link_of(body: dict[str, Any]) -> str | None:
    meta = body.get("metadata")
    link = meta.get("selfLink") if isinstance(meta, dict) else None
    return link if isinstance(link, str) else None


# Groups that old clusters served well-known kinds from; keyed under today's group so that one
# object has one identity whichever version of kubectl printed it.
_RETIRED_GROUPS = frozenset({"extensions"})


def _finish(
    view: ObjectView,
    kind: str,
    api_version: str,
    hints: Hints,
    provenance: Provenance,
    raw: Any,
) -> KubeObject | Rejection:
    meta = view.metadata
    name = meta.name or hints.name or ""
    if not name:
        what = configuration_file(group_of(api_version) if api_version else "", kind)
        if what is not None:
            return NotAnObject(provenance.source, provenance.location,
                               f"{what}, kind {kind}: a configuration file, not Kubernetes objects")
        return _reject(provenance, f"{kind} has no metadata.name")
    group = group_of(api_version) if api_version else group_of_kind(kind)
    if group in _RETIRED_GROUPS and kind in KIND_GROUPS:
        group = KIND_GROUPS[kind]
    if api_version and not is_builtin_group(kind, group) and kind in VIEW_BY_KIND and (
            "." not in group or group.endswith(".k8s.io")):
        # "apiVersion: v1, kind: Deployment", "apps/v1, ReplicationController": Kubernetes' own
        # groups serve no such thing (the API would answer "no matches for kind"), so no stage
        # can read it as that kind. (A custom resource named like a built-in kind has a group
        # of its own, with a dot: read with the generic view.)
        served = KIND_GROUPS.get(kind, "")
        return _reject(provenance, f"{kind} is not served by apiVersion {api_version} (it is "
                                   f"{served + '/...' if served else 'v1'}): an edited object the API would refuse")
    cluster_scoped = is_cluster_scoped(kind, group)
    namespace = "" if cluster_scoped else meta.namespace or hints.namespace or ""
    if kind == "ConfigMap" and is_helm_release_storage(meta.labels, getattr(view, "data", None)):
        view, raw = _scrub_helm_release(view, raw)
    view.kind = kind
    view.apiVersion = api_version
    meta.name = name
    meta.namespace = namespace or None
    obj = KubeObject(
        key=ObjectKey(group, kind, namespace, name),
        api_version=api_version,
        uid=meta.uid,
        view=view,
        provenance=provenance,
        raw=raw,
        json_types=isinstance(raw, bytes | memoryview | LazyRaw),
    )
    if not namespace and not cluster_scoped and not hints.cluster_scoped and kind != "Namespace":
        obj.notes.append("namespace not stated by the dump")
    return obj


def _reject(provenance: Provenance, reason: str) -> Rejection:
    return Rejection(provenance.source, provenance.location, reason)


def scrub_secret(body: dict[str, Any]) -> dict[str, Any]:
    """A Secret with every value replaced by its size in bytes; key names and type kept.

    >>> scrub_secret({"kind": "Secret", "data": {"password": "aHVudGVyMg=="}})["data"]
    {'password': '<redacted: 7 bytes>'}
    """
    import base64
    import binascii
    import contextlib

    out = dict(body)
    for field_name in ("data", "stringData"):
        values = body.get(field_name)
        if isinstance(values, dict):
            scrubbed = {}
            for k, v in values.items():
                size = len(str(v)) if v is not None else 0
                if field_name == "data" and isinstance(v, str):
                    with contextlib.suppress(binascii.Error, ValueError):
                        size = len(base64.b64decode(v, validate=False))
                scrubbed[str(k)] = f"<redacted: {size} bytes>"
            out[field_name] = scrubbed
        elif values is not None:
            out[field_name] = "<redacted>"
    meta = body.get("metadata")
    if isinstance(meta, dict):
        meta = dict(meta)
        ann = meta.get("annotations")
        if isinstance(ann, dict):
            meta["annotations"] = _scrub_secret_annotations(ann)
        out["metadata"] = meta
    return out


def is_helm_release_storage(labels: Any, data: Any) -> bool:
    """Whether a ConfigMap is where Helm keeps a release (Tiller's default storage in Helm 2,
    labelled OWNER=TILLER; Helm 3's configmap driver, owner=helm): its `release` is the chart's
    whole values, passwords included, gzipped and base64-encoded, as a release Secret holds it.

    >>> is_helm_release_storage({"OWNER": "TILLER", "NAME": "kube-ops-view"}, {"release": "H4sI"})
    True
    >>> is_helm_release_storage({"owner": "helm"}, {"app.conf": "x"}), is_helm_release_storage(None, None)
    (False, False)
    """
    return (isinstance(labels, dict) and isinstance(data, dict) and "release" in data
            and (labels.get("OWNER") == "TILLER" or labels.get("owner") == "helm"))


def _scrub_helm_release(view: ObjectView, raw: Any) -> tuple[ObjectView, Any]:
    """A Helm release ConfigMap with its `release` replaced by its size, as a Secret's values are
    (dropped when read, so no output and no option can show them); the body as a dict."""
    body = raw if isinstance(raw, dict) else orjson.loads(raw.resolve() if isinstance(raw, LazyRaw) else bytes(raw))
    data = body.get("data") if isinstance(body, dict) else None
    if not isinstance(data, dict):
        return view, raw
    release = data.get("release")
    shown = f"<redacted: Helm release, {len(release) if isinstance(release, str) else 0} bytes>"
    body = {**body, "data": {**data, "release": shown}}
    view.data = {**view.data, "release": shown}  # type: ignore[attr-defined]
    return view, body


_SECRET_COPY = re.compile(r'"(?:data|stringData)"\s*:|^\s*[{\[]')


def _scrub_secret_annotations(ann: dict[str, Any]) -> dict[str, Any]:
    """A Secret's annotations without any copy of its values.

    Besides last-applied itself, a pasted `describe secret` can split last-applied's JSON into
    an annotation of its own: any key or value that looks like a serialised object goes too.

    >>> _scrub_secret_annotations({"a": "b", '{"data":{"k":"djE="}}': ""})
    {'a': 'b', '<redacted annotation 1>': '<redacted: a copy of the Secret>'}
    """
    out: dict[str, Any] = {}
    dropped = 0
    for key, value in ann.items():
        if key == LAST_APPLIED:
            out[key] = "<redacted: last-applied configuration of a Secret>"
        elif _SECRET_COPY.search(str(key)) or _SECRET_COPY.search(str(value or "")):
            dropped += 1
            out[f"<redacted annotation {dropped}>"] = "<redacted: a copy of the Secret>"
        else:
            out[key] = value
    return out
