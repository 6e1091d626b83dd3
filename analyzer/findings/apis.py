"""Which apiVersion an object was served, applied or written with, and whether it is removed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from analyzer.findings.versions import RemovedApi, cluster_version, removed_apis
from analyzer.memo import once_per

if TYPE_CHECKING:
    from analyzer.findings.dump import AnalyzedDump
    from analyzer.ingest.records import KubeObject

LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"
# Where a removed apiVersion was claimed, in words (the version the dump was read with is no
# claim: it only says how the dump was fetched).
APPLIED = "the last-applied-configuration annotation"
MANAGED = "managedFields"


@dataclass(frozen=True, slots=True)
class ApiUse:
    """One place an object names a removed API: the field that said so, and details."""

    field: str
    source: str  # one of SOURCES' values
    api: RemovedApi
    detail: str
    # An applied manifest older than the live object (served at a current version): the
    # annotation is a stale copy, not what the object is now.
    stale: bool = False


def removed_api_uses(obj: KubeObject, cluster_version: tuple[int, ...] | None = None) -> Iterator[ApiUse]:
    """Each distinct (source, apiVersion) of `obj` that claims a removed API for its kind.

    The apiVersion the dump was read with is never a claim (it says how the dump was fetched).
    A last-applied copy at another version than the live object, which is served at a current
    one, is a stale applied manifest. A managedFields entry counts only where a newer version
    of the kind already existed at the cluster's version (else its writer had no choice).
    """
    table = removed_apis()
    seen: set[tuple[str, str]] = set()

    def use(field: str, source: str, api_version: str | None, detail: str,
            stale: bool = False) -> ApiUse | None:
        api = table.get((api_version or "", obj.kind))
        if api is None or (source, api.api_version) in seen:
            return None
        seen.add((source, api.api_version))
        return ApiUse(field, source, api, detail, stale)

    live = obj.api_version or ""
    live_is_current = bool(live) and (live, obj.kind) not in table
    annotations = obj.view.metadata.annotations or {}
    if LAST_APPLIED in annotations:
        try:
            applied = json.loads(annotations[LAST_APPLIED])
        except (TypeError, ValueError):
            applied = None
        if isinstance(applied, dict):
            applied_version = applied.get("apiVersion")
            stale = live_is_current and applied_version != live
            detail = (f"a stale applied manifest: the live object is served at {live}" if stale
                      else "the manifest last applied with kubectl apply")
            if (u := use(f"metadata.annotations[{LAST_APPLIED}].apiVersion", APPLIED,
                         applied_version, detail, stale)):
                yield u
    for i, entry in enumerate(obj.view.metadata.managedFields or ()):
        api = table.get((entry.apiVersion or "", obj.kind))
        if api is None or cluster_version is None or api.newer_since is None \
                or tuple(cluster_version[:2]) < api.newer_since:
            continue  # no newer version to write with at this cluster's version (or unknown)
        if (u := use(f"metadata.managedFields[{i}].apiVersion", MANAGED, entry.apiVersion,
                     f"written by {entry.manager or '?'} ({entry.operation or '?'}) at {entry.time or '?'}")):
            yield u


def removed_api_kinds() -> tuple[str, ...]:
    """Every kind some removed API served, sorted."""
    return tuple(sorted({kind for _api, kind in removed_apis()}))


@once_per
def removed_api_users(cluster: AnalyzedDump) -> tuple[tuple[KubeObject, tuple[ApiUse, ...]], ...]:
    """Each object of the dump that claims a removed API, with its claims at the cluster's version
    (`removed_api_uses`), in dump order: two rules ask, and reading an object's last-applied
    manifest once is enough."""
    version = cluster_version(cluster)
    found = []
    for obj in cluster.objects_of(*removed_api_kinds()):
        uses = tuple(removed_api_uses(obj, version.version if version else None))
        if uses:
            found.append((obj, uses))
    return tuple(found)
