"""A read-only Kubernetes API over one dump: discovery, get/list/watch, tables, logs.

Answers are shaped as a real API server's (APIResourceList, List, Table, Status, watch events)
so kubectl and client libraries work unchanged. Nothing is ever written.
"""

from __future__ import annotations

import asyncio
import base64
import re
import time
from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from analyzer.printing.derived import add_derived_endpoint_slices
from analyzer.printing.logs import LogError, LogNotSaved, find_log, tail, with_stamps
from analyzer.printing.resources import Resource
from analyzer.printing.selectors import SelectorError
from analyzer.printing.store import DumpStore, NotCollected
from analyzer.printing.tables import build_table
from analyzer.serve.protobuf import ProtobufError
from analyzer.serve.protobuf import access_review as access_review_from_protobuf

READ_ONLY = "read-only: this is a saved dump"
# What a Table row carries of its object's metadata (includeObject=Metadata): what kubectl reads of
# it (namespace for -A, labels for --show-labels and -L) and the identity. Annotations and owner
# references would triple what kubectl decodes per row (2.4 s of its CPU for 20,000 pods against
# 0.8 s); a client that wants them asks includeObject=Object or lists the objects.
ROW_METADATA = ("name", "namespace", "uid", "resourceVersion", "creationTimestamp", "deletionTimestamp", "labels")
JSON = "application/json"
# The kinds of the category `all` (kubectl get all), as the API server gives it.
_KINDS_IN_ALL = frozenset({"Pod", "Service", "Deployment", "DaemonSet", "ReplicaSet", "StatefulSet", "Job",
                           "CronJob", "ReplicationController", "HorizontalPodAutoscaler"})
BOOKMARK_EVERY = 5.0  # seconds between watch bookmarks
DEFAULT_WATCH_SECONDS = 1800  # a real API server ends a watch after 30-60 minutes


def status(code: int, reason: str, message: str, details: dict[str, Any] | None = None) -> Response:
    """A `Status` failure, as kubectl prints it ("Error from server (Reason): message")."""
    body: dict[str, Any] = {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                            "message": message, "reason": reason, "code": code}
    if details:
        body["details"] = details
    return Response(orjson.dumps(body), status_code=code, media_type=JSON)


def ok(body: Any, headers: dict[str, str] | None = None) -> Response:
    return Response(orjson.dumps(body), media_type=JSON, headers=headers)


class DumpAPI:
    """The API of one dump; `handle` answers any request under its URL prefix."""

    def __init__(self, store: DumpStore, server_address: str = "127.0.0.1") -> None:
        self.store = store
        self.server_address = server_address
        # kubectl describe service reads only EndpointSlices: a dump of Endpoints alone serves
        # the slices derived from them, so that it does not say "<none>" for every Service
        add_derived_endpoint_slices(store.catalog)
        rvs = []
        for obj in store.result.objects:
            rv = obj.view.metadata.resourceVersion if obj.view is not None else None
            if isinstance(rv, str) and rv.isdigit():
                rvs.append(int(rv))
        # every list and watch is "as of" the dump: one resource version for all of it
        self.resource_version = str(max(rvs) if rvs else 1)

    # -- entry ----------------------------------------------------------------------------

    async def handle(self, request: Request, path: str) -> Response:
        if request.method == "POST" and path.rstrip("/").endswith(
                ("authorization.k8s.io/v1/selfsubjectaccessreviews", "authorization.k8s.io/v1/selfsubjectrulesreviews")):
            return await self._access_review(request, path)
        if request.method not in ("GET", "HEAD"):
            return status(405, "MethodNotAllowed", READ_ONLY)
        parts = [p for p in path.split("/") if p]
        try:
            return self._route(request, parts)
        except NotCollected as exc:
            res = exc.resource
            if res.plural == "pods" and "spec.nodeName=" in request.query_params.get("fieldSelector", ""):
                # `kubectl describe node` lists the node's pods so and fails on any error but
                # Forbidden, which it prints as "Pods: not authorized" after the node: the node
                # of a dump without pods is then still shown
                return status(403, "Forbidden", str(exc), {"group": res.group, "kind": res.plural})
            if res.kind == "Event" and _describes_events_of_one_object(request.query_params.get("fieldSelector", "")):
                # `kubectl describe configmap` fails on any error of its events search (other
                # describers ignore it): the object is still shown, the gap said on stderr
                return ok({"kind": "EventList", "apiVersion": res.group_version,
                           "metadata": {"resourceVersion": self.resource_version}, "items": []},
                          {"Warning": f'299 - "{exc}"'})
            return status(404, "NotFound", str(exc), {"group": res.group, "kind": res.plural})
        except SelectorError as exc:
            return status(400, "BadRequest", str(exc))

    def _route(self, request: Request, parts: list[str]) -> Response:
        if parts == ["version"]:
            said = self._version_warning()
            return ok(self.version(), {"Warning": f'299 - "{said}"'} if said else None)
        if parts in ([], ["healthz"], ["livez"], ["readyz"]):
            return Response("ok", media_type="text/plain")
        if parts == ["api"]:
            return ok({"kind": "APIVersions", "versions": ["v1"], "serverAddressByClientCIDRs": [
                {"clientCIDR": "0.0.0.0/0", "serverAddress": self.server_address}]})
        if parts == ["apis"]:
            return ok(self.group_list())
        if parts[:1] == ["api"] and len(parts) >= 2:
            return self._resource_request(request, "", parts[1], parts[2:])
        if parts[:1] == ["apis"] and len(parts) == 2:
            group = self._group(parts[1])
            return ok(group) if group else status(404, "NotFound", "the server could not find the requested resource")
        if parts[:1] == ["apis"] and len(parts) >= 3:
            return self._resource_request(request, parts[1], parts[2], parts[3:])
        if parts[:1] == ["metrics"]:
            # `kubectl get --raw /metrics`: the API server's own metrics exist only live
            return status(404, "NotFound", "the dump did not collect the API server's metrics (/metrics): "
                                           "they are read from a live API server")
        if parts[:1] == ["openapi"]:
            # kubectl reads the schema raw and prints its own words for any 404, not the Status's:
            # the reason goes in a warning, which it prints (once) on stderr before the error
            why = self._no_openapi()
            answer = status(404, "NotFound", why)
            answer.headers["Warning"] = f'299 - "{why}"'
            return answer
        return status(404, "NotFound", "the server could not find the requested resource")

    # -- discovery ------------------------------------------------------------------------

    def version(self) -> dict[str, Any]:
        git = self.store.server_version() or "v0.0.0"
        m = re.match(r"v?(\d+)\.(\d+)", git)
        major, minor = (m.group(1), m.group(2)) if m else ("0", "0")
        return {"major": major, "minor": minor, "gitVersion": git, "gitCommit": "", "gitTreeState": "",
                "buildDate": "", "goVersion": "", "compiler": "gc", "platform": "linux/amd64"}

    def _version_warning(self) -> str | None:
        """What `kubectl version` should know of a version the dump does not state."""
        if self.store.result.server_version:
            return None
        inferred = self.store.server_version()
        if inferred:
            return (f"the dump states no API server version: {inferred} is its newest node's kubeletVersion, "
                    "and an API server is that version or newer")
        return "the dump states no API server version and holds no node to tell it by: v0.0.0 stands for unknown"

    def _no_openapi(self) -> str:
        """Why `kubectl explain` (the schema at /openapi/v3, then /openapi/v2) has nothing here."""
        version = self.store.server_version()
        where = f"a live cluster of version {version}" if version else "a live cluster"
        return ("the dump did not collect the API's OpenAPI schema, which kubectl explain reads: "
                f"run kubectl explain against {where}")

    def _group(self, name: str) -> dict[str, Any] | None:
        versions = self.store.catalog.group_versions().get(name)
        if not versions or not name:
            return None
        gvs = [{"groupVersion": f"{name}/{v}", "version": v} for v in versions]
        return {"kind": "APIGroup", "apiVersion": "v1", "name": name, "versions": gvs, "preferredVersion": gvs[0]}

    def _category_all(self) -> list[Any]:
        """The resources `kubectl get all` lists: only kinds the dump collected, so that it shows
        the dump instead of an error per kind the dump never asked for; where it collected none
        of them (a node's describe alone), Pods, so that kubectl says the dump did not collect
        them rather than that the server has no resource type "all"."""
        catalog = self.store.catalog
        kinds = [res for res in catalog.resources if res.builtin and res.kind in _KINDS_IN_ALL]
        collected = [res for res in kinds if catalog.collected(res)]
        return collected or [res for res in kinds if res.kind == "Pod" and not res.group]

    def group_list(self) -> dict[str, Any]:
        groups = [g for name in self.store.catalog.group_versions() if name and (g := self._group(name))]
        return {"kind": "APIGroupList", "apiVersion": "v1", "groups": groups}

    def resource_list(self, group: str, version: str) -> dict[str, Any] | None:
        entries = []
        in_all = {id(res) for res in self._category_all()}
        for res in self.store.catalog.resources:
            if res.group != group or version not in res.versions:
                continue
            entry: dict[str, Any] = {"name": res.plural, "singularName": res.singular, "namespaced": res.namespaced,
                                     "kind": res.kind, "verbs": list(res.verbs)}
            if res.short_names:
                entry["shortNames"] = list(res.short_names)
            if id(res) in in_all:
                entry["categories"] = ["all"]
            entries.append(entry)
            if res.kind == "Pod" and not res.group:
                entries.append({"name": "pods/log", "singularName": "", "namespaced": True, "kind": "Pod",
                                "verbs": ["get"]})
        if not entries:
            return None
        gv = f"{group}/{version}" if group else version
        return {"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": gv, "resources": entries}

    # -- resources ------------------------------------------------------------------------

    def _resource_request(self, request: Request, group: str, version: str, rest: list[str]) -> Response:
        if not rest:
            found = self.resource_list(group, version)
            if found is None:
                return status(404, "NotFound", "the server could not find the requested resource")
            return ok(found)
        namespace = ""
        if rest[0] == "namespaces" and len(rest) >= 3:
            namespace, rest = rest[1], rest[2:]
        plural, name, sub = rest[0], rest[1] if len(rest) > 1 else None, rest[2] if len(rest) > 2 else None
        res = self.store.catalog.by_plural(group, version, plural)
        if res is None or len(rest) > 3 or (namespace and not res.namespaced):
            return status(404, "NotFound", "the server could not find the requested resource")
        q = request.query_params
        if sub is not None:
            if res.kind == "Pod" and not res.group and sub == "log" and name:
                return self._log(namespace, name, q)
            return status(404, "NotFound", "the server could not find the requested resource")
        if name is not None:
            if q.get("watch") in ("1", "true"):
                return self._watch(request, res, namespace, f"metadata.name={name}")
            return self._get(request, res, namespace, name)
        if q.get("watch") in ("1", "true"):
            return self._watch(request, res, namespace, q.get("fieldSelector"))
        answer = self._list(request, res, namespace)
        if res.kind == "Event" and self.store.capture_time is not None and \
                _describes_events_of_one_object(q.get("fieldSelector", "")):
            # kubectl describe words its Events' ages itself, from its own clock: the server
            # cannot move them (the times it serves are the dump's), only say from when to read
            answer.headers["Warning"] = (
                f'299 - "kubectl describe counts event ages from now, not from the dump\'s capture at '
                f'{self.store.capture_time:%Y-%m-%dT%H:%M:%SZ}: kda describe counts them from the capture"')
        return answer

    def _get(self, request: Request, res: Resource, namespace: str, name: str) -> Response:
        obj = self.store.find(res, namespace, name)
        if obj is None:
            return status(404, "NotFound", f'{res.qualified} "{name}" not found',
                          {"name": name, "group": res.group, "kind": res.plural})
        body = self.store.body(res, obj)
        if _wants_table(request):
            return ok(self._table(request, res, [body], None))
        return ok(body)

    def _list(self, request: Request, res: Resource, namespace: str) -> Response:
        q = request.query_params
        objs = self.store.select(res, namespace or None, q.get("labelSelector"), q.get("fieldSelector"))
        start = _decode_continue(q.get("continue"))
        if start is None:
            return status(410, "Expired", "the continue token is not valid for this dump")
        limit = int(q.get("limit") or 0) if (q.get("limit") or "0").isdigit() else 0
        end = start + limit if limit > 0 else len(objs)
        page = objs[start:end]
        cont = _encode_continue(end) if end < len(objs) else None
        if _wants_table(request) and request.query_params.get("includeObject") != "Object":
            bodies = self.store.row_bodies(res, page)
            return ok(self._table(request, res, bodies, cont, remaining=len(objs) - end if cont else None,
                                  cells=self.store.table_cells(res, page)))
        bodies = self.store.bodies(res, page)
        if _wants_table(request):
            return ok(self._table(request, res, bodies, cont, remaining=len(objs) - end if cont else None))
        meta: dict[str, Any] = {"resourceVersion": self.resource_version}
        if cont:
            meta["continue"] = cont
            meta["remainingItemCount"] = len(objs) - end
        return ok({"kind": f"{res.kind}List", "apiVersion": res.group_version, "metadata": meta, "items": bodies})

    def _table(self, request: Request, res: Resource, bodies: list[dict[str, Any]], cont: str | None,
               remaining: int | None = None, definitions: bool = True,
               cells: list[list[Any]] | None = None) -> dict[str, Any]:
        from analyzer.printing.tables import printer_for

        columns = printer_for(res).columns
        if cells is None:
            cells = build_table(res, bodies, self.store.clock).rows
        include = request.query_params.get("includeObject") or "Metadata"
        rows = []
        for row_cells, body in zip(cells, bodies, strict=True):
            row: dict[str, Any] = {"cells": row_cells}
            if include == "Object":
                row["object"] = body
            elif include != "None":
                meta = body.get("metadata") or {}
                row["object"] = {"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1",
                                 "metadata": {k: meta[k] for k in ROW_METADATA if meta.get(k) is not None}}
            rows.append(row)
        meta: dict[str, Any] = {"resourceVersion": self.resource_version}
        if cont:
            meta["continue"] = cont
            if remaining is not None:
                meta["remainingItemCount"] = remaining
        # meta.k8s.io/v1 unless the client asked for the Table of v1beta1 only (kubectl before 1.15)
        accept = request.headers.get("accept", "")
        api_version = "meta.k8s.io/v1beta1" if "v=v1beta1" in accept and ";v=v1;" not in accept + ";" \
            and not re.search(r";v=v1(,|$)", accept) else "meta.k8s.io/v1"
        out: dict[str, Any] = {"kind": "Table", "apiVersion": api_version, "metadata": meta, "rows": rows}
        out["columnDefinitions"] = [c.definition() for c in columns] if definitions else []
        return out

    # -- access reviews -------------------------------------------------------------------

    async def _access_review(self, request: Request, path: str) -> Response:
        """"Can I?" answered for a saved dump: reading yes, changing no. UIs (k9s) ask before they
        list; nothing is created by answering."""
        body = await request.body()
        try:
            if "protobuf" in request.headers.get("content-type", ""):
                # kubectl 1.32 and later post reviews as protobuf (and accept JSON back)
                review = access_review_from_protobuf(body)
            else:
                review = orjson.loads(body)
        except ProtobufError as exc:
            return status(400, "BadRequest", f"the access review is not a protobuf review: {exc}")
        except orjson.JSONDecodeError:
            return status(400, "BadRequest", "the access review is not JSON")
        if not isinstance(review, dict):
            return status(400, "BadRequest", "the access review is not an object")
        if path.rstrip("/").endswith("selfsubjectrulesreviews"):
            review["status"] = {"resourceRules": [{"verbs": list(("get", "list", "watch")), "apiGroups": ["*"],
                                                   "resources": ["*"]}],
                                "nonResourceRules": [{"verbs": ["get"], "nonResourceURLs": ["*"]}],
                                "incomplete": False}
            return Response(orjson.dumps(review), status_code=201, media_type=JSON)
        attrs = (review.get("spec") or {}).get("resourceAttributes") or (review.get("spec") or {}).get(
            "nonResourceAttributes") or {}
        allowed = str(attrs.get("verb", "")).lower() in ("get", "list", "watch", "")
        review["status"] = {"allowed": allowed} if allowed else {"allowed": False, "denied": True, "reason": READ_ONLY}
        return Response(orjson.dumps(review), status_code=201, media_type=JSON)

    # -- logs -----------------------------------------------------------------------------

    def _log(self, namespace: str, pod: str, q: Any) -> Response:
        try:
            log = find_log(self.store, namespace, pod, q.get("container") or None,
                           q.get("previous") in ("true", "1"))
        except NotCollected:
            raise
        except LogNotSaved as exc:
            # kubectl logs --all-containers (and a pod's logs in k9s) stop at the first error: a
            # log the dump did not save is an empty log and a warning, which kubectl prints on
            # stderr and goes on to the next container (a real server answers a container's empty
            # log so too); a pod or container the dump does not know stays an error
            return Response("", media_type="text/plain", headers={"Warning": f'299 - "{exc}"'})
        except LogError as exc:
            return status(exc.code, exc.reason, str(exc))
        lines = q.get("tailLines")
        timestamps = q.get("timestamps") in ("true", "1")
        text = with_stamps(log.text, log.stamps) if timestamps else log.text
        text = tail(text, int(lines) if lines and lines.lstrip("-").isdigit() else None)
        if not self.store.show_sensitive:
            from analyzer.sensitive.masking import mask_sensitive

            text = mask_sensitive(text)  # credentials in a log are masked as in every other output
        limit = q.get("limitBytes")
        if limit and limit.isdigit():
            text = text.encode()[: int(limit)].decode(errors="ignore")
        headers = {}
        if timestamps and not log.timestamped:
            # a saved log has no times of its own to add; say so rather than invent them
            headers["Warning"] = '299 - "the dump\'s log has no timestamps; lines are shown as saved"'
        return Response(text, media_type="text/plain", headers=headers)

    # -- watch ----------------------------------------------------------------------------

    def _watch(self, request: Request, res: Resource, namespace: str, fields: str | None) -> Response:
        q = request.query_params
        objs = self.store.select(res, namespace or None, q.get("labelSelector"), fields)
        rv = q.get("resourceVersion")
        initial = q.get("sendInitialEvents") == "true"
        replay = initial or not rv or rv == "0"
        timeout = float(q.get("timeoutSeconds") or DEFAULT_WATCH_SECONDS)
        bookmarks = q.get("allowWatchBookmarks") == "true"
        table = _wants_table(request)
        api = self

        def event(kind: str, obj: dict[str, Any]) -> bytes:
            return orjson.dumps({"type": kind, "object": obj}) + b"\n"

        def bookmark(initial_end: bool = False) -> bytes:
            meta: dict[str, Any] = {"resourceVersion": api.resource_version}
            if initial_end:
                meta["annotations"] = {"k8s.io/initial-events-end": "true"}
            return event("BOOKMARK", {"kind": res.kind, "apiVersion": res.group_version, "metadata": meta})

        async def stream() -> Any:
            deadline = time.monotonic() + timeout
            if replay:
                for i, body in enumerate(api.store.bodies(res, objs)):
                    obj = api._table(request, res, [body], None, definitions=i == 0) if table else body
                    yield event("ADDED", obj)
                if initial and bookmarks:
                    yield bookmark(initial_end=True)
            while True:
                left = deadline - time.monotonic()
                if left <= 0 or await request.is_disconnected():
                    return
                await asyncio.sleep(min(BOOKMARK_EVERY, left))
                if bookmarks and time.monotonic() < deadline:
                    yield bookmark()

        return StreamingResponse(stream(), media_type=JSON)


def _describes_events_of_one_object(fields: str) -> bool:
    """The field selector kubectl describe searches an object's events with: its name, namespace,
    and kind or uid (kubectl 1.32 names a pod by uid, a node by kind); a user's own `get events
    --field-selector` is told the kind is missing."""
    return "involvedObject.name=" in fields and ("involvedObject.kind=" in fields or "involvedObject.uid=" in fields)


def _wants_table(request: Request) -> bool:
    return "as=Table" in request.headers.get("accept", "")


def _encode_continue(offset: int) -> str:
    return base64.urlsafe_b64encode(orjson.dumps({"offset": offset})).decode()


def _decode_continue(token: str | None) -> int | None:
    if not token:
        return 0
    try:
        offset = orjson.loads(base64.urlsafe_b64decode(token.encode()))["offset"]
    except (ValueError, KeyError, TypeError):
        return None
    return offset if isinstance(offset, int) and offset >= 0 else None
