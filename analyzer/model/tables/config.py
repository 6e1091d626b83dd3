"""ConfigMaps and Secrets: key names and sizes only; no value ever enters a table."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pandas as pd

from analyzer.model.frame import empty_columns, to_frame
from analyzer.model.normalize import builtin_objects, joined, source_of, text_age

if TYPE_CHECKING:
    from analyzer.ingest.dump import Dump


def value_bytes(value: Any, base64: bool = False) -> int:
    """Size of a ConfigMap value in bytes (binaryData is base64: its decoded size).

    Examples:
        >>> value_bytes("héllo"), value_bytes("aGVsbG8=", base64=True)
        (6, 5)
    """
    if value is None:
        return 0
    text = value if isinstance(value, str) else str(value)
    if base64:
        stripped = text.strip()
        return len(stripped) * 3 // 4 - stripped[-2:].count("=")
    return len(text.encode())


def _stated_count(view: Any) -> int | None:
    """The DATA count a pasted `kubectl get configmaps/secrets` row states."""
    if view.text is None:
        return None
    if view.text.data_count is not None:
        return view.text.data_count
    data = str((view.text.columns or {}).get("DATA", "")).strip()
    return int(data) if data.isdigit() else None


def build(cluster: Dump) -> dict[str, pd.DataFrame]:
    """configmaps and secrets."""
    cm = empty_columns("configmaps")
    for obj in builtin_objects(cluster, "ConfigMap"):
        view = obj.view
        data = view.data or {}
        binary = view.binaryData or {}
        stated_binary = (view.text.binary_data_bytes if view.text else None) or {}
        keys = sorted({*data, *binary, *stated_binary})
        cm["namespace"].append(obj.namespace)
        cm["name"].append(obj.name)
        cm["uid"].append(obj.uid)
        cm["created"].append(view.metadata.creationTimestamp)
        cm["age"].append(text_age(view))
        cm["keys"].append(joined(keys))
        stated = view.text is not None and not keys
        cm["key_count"].append(_stated_count(view) if stated else len(keys))
        cm["bytes"].append(None if stated else sum(value_bytes(v) for v in data.values())
                           + sum(value_bytes(v, base64=True) for v in binary.values())
                           + sum(int(v) for v in stated_binary.values() if isinstance(v, int)))
        cm["source"].append(source_of(obj))

    sec = empty_columns("secrets")
    for obj in builtin_objects(cluster, "Secret"):
        view = obj.view
        # Only the key names are read; ingestion already replaced the values by their sizes.
        stated_sizes = (view.text.data_bytes if view.text else None) or {}
        keys = sorted({*(view.data or ()), *(view.stringData or ()), *stated_sizes})
        sec["namespace"].append(obj.namespace)
        sec["name"].append(obj.name)
        sec["uid"].append(obj.uid)
        sec["created"].append(view.metadata.creationTimestamp)
        sec["age"].append(text_age(view))
        sec["type"].append(view.type)
        sec["keys"].append(joined(keys))
        stated = view.text is not None and not keys
        sec["key_count"].append(_stated_count(view) if stated else len(keys))
        sec["source"].append(source_of(obj))
    capture = cluster.capture_time
    return {
        "configmaps": to_frame("configmaps", cm, capture, ["namespace", "name"]),
        "secrets": to_frame("secrets", sec, capture, ["namespace", "name"]),
    }
