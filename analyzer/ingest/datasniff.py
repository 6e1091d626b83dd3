"""Whether a file looks like Kubernetes data, so that one that yields nothing is never passed over.

Only asked of files that gave no object (bundle side files, files whose reading found nothing):
never on the hot path of a file that gave objects.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec

from analyzer.ingest import yamldocs

# Marks of a List or an object in text that no parser could read as a whole (a damaged file).
_DAMAGED_MARKS = re.compile(
    rb'"(?:items|Items)"\s*:\s*\[\s*\{|"kind"\s*:\s*"[A-Z][A-Za-z0-9]*"\s*,\s*\n?\s*"(?:apiVersion|metadata)"'
    rb'|^(?:items|Items):\s*$|^kind:\s*[A-Z][A-Za-z0-9]*\s*$',
    re.M,
)
_SNIFF_BYTES = 1 << 20

OBJECTS = "objects"
EMPTY_LIST = "empty list"


def data_shape(data: bytes) -> str | None:
    """"objects" if the bytes hold Kubernetes objects (or a List of them), "empty list" for a
    List with no items, None for anything else (version files, analysis results, prose).

    >>> data_shape(b'{"selfLink": "/api/v1/nodes", "Items": [{"name": "n1", "Spec": {}}]}')
    'objects'
    >>> data_shape(b'{"kind": "PodList", "items": []}'), data_shape(b'[{"name": "x", "versions": []}]')
    ('empty list', None)
    >>> data_shape(b'apiVersion: v1\\nkind: Node\\nmetadata:\\n  name: n1\\n')
    'objects'
    """
    head = bytes(data[:_SNIFF_BYTES])
    value: Any = None
    parsed = False
    stripped = head.lstrip()
    if stripped[:1] in (b"{", b"["):
        try:
            value, parsed = msgspec.json.decode(head), True
        except msgspec.DecodeError:
            parsed = False
    else:
        try:
            value, parsed = yamldocs.parse_yaml_document(head.decode("utf-8", "replace")), True
        except Exception:  # noqa: BLE001 - several documents, or not YAML: judged by its marks
            parsed = False
    if parsed:
        return _shape(value)
    return OBJECTS if _DAMAGED_MARKS.search(head) else None


def _shape(value: Any) -> str | None:
    if isinstance(value, list):
        return OBJECTS if any(_is_object(v) for v in value) else None
    if not isinstance(value, dict):
        return None
    for key in ("items", "Items"):
        if key in value:
            items = value[key]
            if not items:
                return EMPTY_LIST
            if isinstance(items, list) and any(_is_object(v) for v in items):
                return OBJECTS
    return OBJECTS if _is_object(value) else None


def _is_object(value: Any) -> bool:
    """An object in the API shape, or in kubectl 1.8/1.9's internal one (flattened metadata)."""
    if not isinstance(value, dict):
        return False
    # (a kind and apiVersion alone make no object: discovery lists, troubleshoot's own specs)
    meta = value.get("metadata")
    if isinstance(meta, dict) and ("name" in meta or "generateName" in meta):
        return True
    return "name" in value and ("Spec" in value or "Status" in value or "selfLink" in value)
