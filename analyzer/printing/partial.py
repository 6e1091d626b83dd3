"""Narrow decoders: only what a table row of a kind needs, read straight from an object's raw JSON.

A Pod of a big dump is tens of kilobytes (managedFields, env, probes, volumes); its row needs a
few hundred bytes of it. msgspec skips the rest without building it.
"""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec import Struct

from analyzer.ingest.records import KubeObject, LazyRaw


class _Meta(Struct, omit_defaults=True):
    name: str | None = None
    namespace: str | None = None
    generateName: str | None = None
    uid: str | None = None
    resourceVersion: str | None = None
    generation: int | None = None
    creationTimestamp: str | None = None
    deletionTimestamp: str | None = None
    deletionGracePeriodSeconds: int | None = None
    labels: dict[str, Any] | None = None
    annotations: dict[str, Any] | None = None
    ownerReferences: list[dict[str, Any]] | None = None
    finalizers: list[Any] | None = None


class _Named(Struct, omit_defaults=True):
    name: str | None = None
    restartPolicy: str | None = None


class _PodSpec(Struct, omit_defaults=True):
    nodeName: str | None = None
    containers: list[_Named] | None = None
    initContainers: list[_Named] | None = None
    readinessGates: list[dict[str, Any]] | None = None
    restartPolicy: str | None = None
    schedulerName: str | None = None
    serviceAccountName: str | None = None
    hostNetwork: bool | None = None


class _PodStatus(Struct, omit_defaults=True):
    phase: str | None = None
    reason: str | None = None
    podIP: str | None = None
    podIPs: list[dict[str, Any]] | None = None
    nominatedNodeName: str | None = None
    conditions: list[dict[str, Any]] | None = None
    containerStatuses: list[dict[str, Any]] | None = None
    initContainerStatuses: list[dict[str, Any]] | None = None


class _PodRow(Struct, omit_defaults=True):
    metadata: _Meta | None = None
    spec: _PodSpec | None = None
    status: _PodStatus | None = None


_DECODER = msgspec.json.Decoder(_PodRow)


def pod_row_body(obj: KubeObject) -> dict[str, Any] | None:
    """A Pod trimmed to its row's fields, as plain data; None when its raw JSON cannot be read so."""
    raw = obj.raw
    if obj.mapped is not None:
        obj.mapped.check_unchanged()
    try:
        parsed = _DECODER.decode(raw.resolve() if isinstance(raw, LazyRaw) else raw)
    except (msgspec.DecodeError, TypeError):
        return None  # an odd shape (a legacy dump): the whole body will do
    out = msgspec.to_builtins(parsed)
    out.setdefault("metadata", {})
    return out
