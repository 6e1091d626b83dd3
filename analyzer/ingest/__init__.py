"""Ingestion: files, folders, archives, stdin or in-memory text -> objects with provenance."""

from __future__ import annotations

import os
from collections.abc import Mapping

from analyzer.errors import InputError
from analyzer.ingest.collect import EXPECTED_KINDS, Ingestor, IngestResult
from analyzer.ingest.records import KubeObject, LogRecord, Provenance, Rejection
from analyzer.ingest.tree import DumpTree, MemoryTree, open_input
from analyzer.kube.keys import ObjectKey

__all__ = [
    "EXPECTED_KINDS", "IngestResult", "KubeObject", "LogRecord", "ObjectKey", "Provenance",
    "Rejection", "ingest", "ingest_text",
]

Input = str | os.PathLike[str] | bytes | Mapping[str, bytes | str] | DumpTree


def ingest(*inputs: Input) -> IngestResult:
    """Read every input (path, "-" for stdin, bytes, {path: content} map, or tree) into one result.

    A path that does not exist is recorded as an input rejection; nothing stops the other
    inputs. The result's accounting holds exactly (`IngestResult.accounting_holds()`):
    objects_read == len(objects) + duplicates + len(object_rejections).
    """
    ing = Ingestor()
    for i, spec in enumerate(inputs):
        try:
            tree = _tree_for(spec, i)
        except InputError as exc:
            ing.result.inputs.append(exc.source)
            ing.reject_input(exc.source, exc.reason)
            continue
        ing.add_tree(tree)
    return ing.result


def ingest_text(text: str | bytes, name: str = "<text>") -> IngestResult:
    """Read one already-read document (YAML, JSON, cluster-info dump or kubectl text)."""
    return ingest(MemoryTree({"": text}, name=name))


def _tree_for(spec: Input, i: int) -> DumpTree:
    if isinstance(spec, DumpTree):
        return spec
    if isinstance(spec, bytes):
        from analyzer.ingest.tree import tree_for_bytes

        return tree_for_bytes(spec, f"<bytes {i}>")
    if isinstance(spec, Mapping):
        return MemoryTree(spec, name=f"<memory {i}>")
    return open_input(spec)
