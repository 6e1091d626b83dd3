"""managedFields entries (fieldsV1 trees) derived from the fields a manager set, as the API server records them."""

from __future__ import annotations

import json
from typing import Any

# Lists the API merges by key: their items appear as `k:{"name":"x"}` entries. Other lists
# (args, command, tolerations, images, ...) are atomic and appear as a bare `f:name: {}`.
ASSOCIATIVE_LIST_KEYS: dict[str, tuple[tuple[str, ...], ...]] = {
    "containers": (("name",),),
    "initContainers": (("name",),),
    "ports": (("containerPort", "protocol"), ("port", "protocol")),
    "env": (("name",),),
    "volumeMounts": (("mountPath",),),
    "volumes": (("name",),),
    "imagePullSecrets": (("name",),),
    "ownerReferences": (("uid",),),
    "conditions": (("type",),),
    "podIPs": (("ip",),),
    "hostIPs": (("ip",),),
    "addresses": (("type",),),
    "topologySpreadConstraints": (("topologyKey", "whenUnsatisfiable"),),
}
# Structs and maps the API marks atomic (`+structType=atomic`, `+mapType=atomic`): owned whole.
ATOMIC_MAPS = frozenset({
    "fieldRef", "resourceFieldRef", "secretKeyRef", "configMapKeyRef", "labelSelector", "nodeSelector",
    "requiredDuringSchedulingIgnoredDuringExecution",
})
# Associative lists whose own entry carries no "." (the list itself is not owned).
_LISTS_WITHOUT_DOT = frozenset({"containers", "initContainers"})


def _item_key(field: str, item: dict[str, Any]) -> str | None:
    for names in ASSOCIATIVE_LIST_KEYS.get(field, ()):
        if all(name in item for name in names):
            identity = {name: item[name] for name in names}
            return "k:" + json.dumps(identity, sort_keys=True, separators=(",", ":"))
    return None


def _field(name: str, value: Any) -> dict[str, Any]:
    if isinstance(value, dict):
        return fields_v1(value, owned=True) if value and name not in ATOMIC_MAPS else {}
    if isinstance(value, list) and name in ASSOCIATIVE_LIST_KEYS:
        tree: dict[str, Any] = {} if name in _LISTS_WITHOUT_DOT else {".": {}}
        for item in value:
            key = _item_key(name, item) if isinstance(item, dict) else None
            if key is None:  # not mergeable after all: the list is atomic
                return {}
            tree[key] = fields_v1(item, owned=True)
        return tree
    return {}


def fields_v1(value: dict[str, Any], owned: bool = False) -> dict[str, Any]:
    """The fieldsV1 tree of `value`; `owned` adds the "." entry for the map itself.

    >>> fields_v1({"labels": {"app": "x"}, "ports": [{"port": 80, "protocol": "TCP"}], "args": ["-v"]})
    {'f:labels': {'.': {}, 'f:app': {}}, 'f:ports': {'.': {}, 'k:{"port":80,"protocol":"TCP"}': {'.': {}, 'f:port': {}, 'f:protocol': {}}}, 'f:args': {}}
    """
    tree: dict[str, Any] = {".": {}} if owned else {}
    for name, child in value.items():
        tree["f:" + name] = _field(name, child)
    return tree


def top_level_fields(sections: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """fieldsV1 for whole sections (`metadata`, `spec`, `status`), which carry no "." entry.

    >>> top_level_fields({"metadata": {"labels": {"app": "x"}}, "status": {}})
    {'f:metadata': {'f:labels': {'.': {}, 'f:app': {}}}}
    """
    return {"f:" + name: fields_v1(section) for name, section in sections.items() if section}


def managed_entry(
    manager: str, time: str, tree: dict[str, Any], api_version: str = "v1",
    subresource: str | None = None, operation: str = "Update",
) -> dict[str, Any]:
    """One managedFields entry."""
    entry: dict[str, Any] = {
        "apiVersion": api_version,
        "fieldsType": "FieldsV1",
        "fieldsV1": tree,
        "manager": manager,
        "operation": operation,
        "time": time,
    }
    if subresource:
        entry["subresource"] = subresource
    return entry
