"""Which apiVersion an object was served, applied or written with, and whether it is removed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from analyzer.findings.versions import RemovedApi, removed_apis

if TYPE_CHECKING:
    from analyzer.ingest.records import KubeObject

LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"
# Where an apiVersion was read, in words: a served version only says how the dump was fetched,
# the other two say what a manifest or a client really used.
SERVED = "the served apiVersion"
APPLIED = "the last-applied-configuration annotation"
MANAGED = "managedFields"


@dataclass(frozen=True, slots=True)
class ApiUse:
    """One place an object names a removed API: the field that said so, and details."""

    field: str
    source: str  # one of SOURCES' values
    api: RemovedApi
    detail: str


def removed_api_uses(obj: KubeObject) -> Iterator[ApiUse]:
    """Each distinct (source, apiVersion) of `obj` that names a removed API for its kind."""
    table = removed_apis()
    seen: set[tuple[str, str]] = set()

    def use(field: str, source: str, api_version: str | None, detail: str) -> ApiUse | None:
        api = table.get((api_version or "", obj.kind))
        if api is None or (source, api.api_version) in seen:
            return None
        seen.add((source, api.api_version))
        return ApiUse(field, source, api, detail)

    if (u := use("apiVersion", SERVED, obj.api_version, "the apiVersion the dump was read with")):
        yield u
    annotations = obj.view.metadata.annotations or {}
    if LAST_APPLIED in annotations:
        try:
            applied = json.loads(annotations[LAST_APPLIED])
        except (TypeError, ValueError):
            applied = None
        if isinstance(applied, dict) and (u := use(
                f"metadata.annotations[{LAST_APPLIED}].apiVersion", APPLIED,
                applied.get("apiVersion"), "the manifest last applied with kubectl apply")):
            yield u
    for i, entry in enumerate(obj.view.metadata.managedFields or ()):
        if (u := use(f"metadata.managedFields[{i}].apiVersion", MANAGED, entry.apiVersion,
                     f"written by {entry.manager or '?'} ({entry.operation or '?'}) at {entry.time or '?'}")):
            yield u
