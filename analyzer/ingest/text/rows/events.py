"""Event rows (`get events`, old and new layouts, and lineage's `Reason: message` cells)."""

from __future__ import annotations

import re
from typing import Any

from analyzer.ingest.text.catalog import catalog
from analyzer.ingest.text.rows.context import RowContext
from analyzer.ingest.text.values import age_seconds, cell, set_path

GENERATED_NAME = "generated_name"


def event_name(involved_name: str | None, line: int) -> str:
    """A stable name for an event the text shows without one (kubectl's are `<object>.<hex>`).

    >>> event_name("web-1", 12)
    'web-1.line12'
    """
    return f"{involved_name or 'event'}.line{line}"


def involved_object(ctx: RowContext | None, kind_text: str, name: str,
                    namespace: str | None) -> dict[str, str]:
    """An involvedObject for `pod/web-1`-style references, kinds spelled the API's way."""
    info = ctx.catalog.for_resource(kind_text) if ctx else None
    kind = info.kind if info else kind_text[:1].upper() + kind_text[1:]
    ref = {"kind": kind, "name": name}
    if info:
        ref["apiVersion"] = info.api_version
    if namespace and (info is None or info.namespaced):
        ref["namespace"] = namespace
    return dict(sorted(ref.items()))


def placed_in(body: dict[str, Any], namespace: str) -> dict[str, Any]:
    """An Event's body, put in `namespace` its row did not state (kubectl's default, the
    session's), with its involved object there too where that has none and is of a namespaced
    kind: an event is recorded in its object's namespace (a Node's keeps none).

    >>> placed_in({"kind": "Event", "metadata": {"name": "web-1.line7"},
    ...            "involvedObject": {"kind": "Pod", "name": "web-1"}}, "default")["involvedObject"]
    {'kind': 'Pod', 'name': 'web-1', 'namespace': 'default'}
    >>> placed_in({"kind": "Event", "metadata": {"name": "n1.line8"},
    ...            "involvedObject": {"kind": "Node", "name": "n1"}}, "default")["involvedObject"]
    {'kind': 'Node', 'name': 'n1'}
    """
    placed = {**body, "metadata": {**(body.get("metadata") or {}), "namespace": namespace}}
    involved = body.get("involvedObject")
    if body.get("kind") == "Event" and isinstance(involved, dict) and not involved.get("namespace") \
            and isinstance(kind := involved.get("kind"), str):
        info = catalog().for_resource(kind)
        if info is None or info.namespaced:  # as involved_object: a kind not known is namespaced
            placed["involvedObject"] = {**involved, "namespace": namespace}
    return placed


def source_of(text: str | None) -> dict[str, str] | None:
    """An event's From/SOURCE (`kubelet, node01` in old kubectl; `{kubelet node01}`, the struct
    as Go prints it, before 1.10) as `source`.

    >>> source_of("kubelet, node01"), source_of("default-scheduler")
    ({'component': 'kubelet', 'host': 'node01'}, {'component': 'default-scheduler'})
    >>> source_of("{kubelet gke-app-8d801be1-node-d0jh}"), source_of("{default-scheduler }")
    ({'component': 'kubelet', 'host': 'gke-app-8d801be1-node-d0jh'}, {'component': 'default-scheduler'})
    """
    text = cell(text)
    if not text:
        return None
    if (struct := _SOURCE_STRUCT.fullmatch(text)) is not None:
        component, host = struct.group(1), struct.group(2) or ""
        return {"component": component, "host": host} if host else {"component": component}
    component, _, host = text.partition(", ")
    return {"component": component, "host": host} if host else {"component": component}


_REPEATED = re.compile(r"(\S+) \(x(\d+) over (\S+)\)")
_SOURCE_STRUCT = re.compile(r"\{(\S+) ?(\S*)\}")
# An event's name as client-go's recorder makes it: its object's name and the hex of the
# nanosecond it was first recorded (`web-7c9.159c87245ec30f53`)
_EVENT_NAME = re.compile(r"(.+)\.([0-9a-f]{12,})")
# kubectl before 1.10 headed the ages FIRSTSEEN and LASTSEEN
_OLD_AGE_HEADERS = {"LASTSEEN": "LAST SEEN", "FIRSTSEEN": "FIRST SEEN"}


def read_event(body: dict[str, Any], cells: dict[str, str | None], facts: dict[str, Any],
               ctx: RowContext | None) -> None:
    """Fill an Event from its row; its name is NAME in wide output, else made from the line.

    >>> from analyzer.ingest.text.catalog import catalog
    >>> ctx = RowContext(catalog(), "web", 7)
    >>> body = {"metadata": {}}
    >>> read_event(body, {"LAST SEEN": "3m", "OBJECT": "pod/web-1", "MESSAGE": "Back-off"}, {}, ctx)
    >>> body["metadata"], body["involvedObject"]
    ({'name': 'web-1.line7', 'namespace': 'web'}, {'apiVersion': 'v1', 'kind': 'Pod', 'name': 'web-1', 'namespace': 'web'})
    >>> body, facts = {"metadata": {}}, {}
    >>> read_event(body, {"LAST SEEN": "10m (x8 over 12m)", "OBJECT": "Node/kind-control-plane"}, facts, ctx)
    >>> body["count"], facts["last_seen_ago_seconds"], facts["first_seen_ago_seconds"]
    (8, 600.0, 720.0)
    """
    namespace = ctx.namespace if ctx else None
    if "LASTSEEN" in cells:
        cells = {_OLD_AGE_HEADERS.get(k, k): v for k, v in cells.items()}
    last_seen = cell(cells.get("LAST SEEN"))
    if last_seen and (repeated := _REPEATED.fullmatch(last_seen)):
        # `kubectl events`: `10m (x8 over 10m)` is LAST SEEN, COUNT and FIRST SEEN in one cell
        cells = {**cells, "LAST SEEN": repeated.group(1), "FIRST SEEN": repeated.group(3)}
        body["count"] = int(repeated.group(2))
    for header, fact in (("LAST SEEN", "last_seen_ago_seconds"), ("FIRST SEEN", "first_seen_ago_seconds")):
        if (ago := age_seconds(cells.get(header))) is not None:
            facts[fact] = ago
    involved: dict[str, str] | None = None
    if obj := cell(cells.get("OBJECT")):
        kind_text, slash, name = obj.partition("/")
        if slash:
            involved = involved_object(ctx, kind_text, name, namespace)
    elif (kind := cell(cells.get("KIND"))) and (name := cell(cells.get("NAME"))):
        # kubectl 1.10-1.13 prints the event's own name there (`<object>.<hex>`), kubectl
        # before 1.10 the object's
        own_name = _EVENT_NAME.fullmatch(name)
        involved = involved_object(ctx, kind, own_name.group(1) if own_name else name, namespace)
    if involved:
        body["involvedObject"] = involved
        if subobject := cell(cells.get("SUBOBJECT")):
            body["involvedObject"]["fieldPath"] = subobject
    if source := source_of(cells.get("SOURCE")):
        body["source"] = source
    status = cell(cells.get("STATUS"))
    if status and "REASON" not in cells:  # kubectl lineage prints `Reason: message`
        match = re.match(r"^(\w+): (.*)$", status)
        if match:
            body["reason"], body["message"] = match.group(1), match.group(2)
    metadata = body.setdefault("metadata", {})
    if "OBJECT" not in cells and "KIND" in cells:
        metadata.pop("name", None)
        if (name := cell(cells.get("NAME"))) and _EVENT_NAME.fullmatch(name):
            metadata["name"] = name
    if not metadata.get("name"):
        metadata["name"] = event_name(involved["name"] if involved else None, ctx.line if ctx else 0)
        facts[GENERATED_NAME] = True
    if namespace:
        set_path(body, "metadata.namespace", namespace)


READERS = {"Event": read_event}
