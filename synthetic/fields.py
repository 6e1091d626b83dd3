"""managedFields entries (fieldsV1 trees) derived from the fields a manager set, as the API server records them."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from synthetic.times import ts

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


# Structs that are not pointers get no "." marker of their own.
NO_SELF_MARKER = {
    "metadata", "spec", "status", "template", "strategy", "updateStrategy", "nodeInfo",
    "daemonEndpoints", "kubeletEndpoint", "containers", "regarding",
}
ATOMIC_LISTS = {
    "command", "args", "tolerations", "images", "containerStatuses", "initContainerStatuses",
    "sources", "items", "nodeSelectorTerms", "clusterIPs", "ipFamilies", "subsets",
    "accessModes", "values", "names", "matchExpressions", "matchFields", "taints",
}
SET_LISTS = {"finalizers", "podCIDRs"}


def _list_key(element: dict[str, Any]) -> dict[str, Any] | None:
    for keys in (("containerPort", "protocol"), ("port", "protocol"), ("uid",), ("type",),
                 ("mountPath",), ("ip",), ("name",)):
        if all(k in element for k in keys):
            return {k: element[k] for k in keys}
    return None


def struct_fields_v1(value: dict[str, Any]) -> dict[str, Any]:
    """The fieldsV1 description of the fields present in `value`."""
    return {f"f:{key}": _field_entry(key, item) for key, item in value.items()}


def _field_entry(key: str, item: Any) -> dict[str, Any]:
    if isinstance(item, dict):
        if not item:
            return {}
        inner = struct_fields_v1(item)
        return inner if key in NO_SELF_MARKER else {".": {}, **inner}
    if isinstance(item, list) and item:
        if key in SET_LISTS:
            return {".": {}, **{"v:" + json.dumps(v): {} for v in item}}
        if key not in ATOMIC_LISTS and all(isinstance(v, dict) for v in item):
            keyed: dict[str, Any] = {} if key in NO_SELF_MARKER else {".": {}}
            for element in item:
                element_key = _list_key(element)
                if element_key is None:
                    return {}
                keyed["k:" + json.dumps(element_key, sort_keys=True, separators=(",", ":"))] = {
                    ".": {}, **struct_fields_v1(element)
                }
            return keyed
    return {}


def managed(manager: str, when: datetime, owned: dict[str, Any], api_version: str = "v1",
            operation: str = "Update", subresource: str | None = None) -> dict[str, Any]:
    """One managedFields entry for `manager`, owning the fields present in `owned`."""
    entry: dict[str, Any] = {
        "manager": manager,
        "operation": operation,
        "apiVersion": api_version,
        "time": ts(when),
        "fieldsType": "FieldsV1",
        "fieldsV1": struct_fields_v1(owned),
    }
    if subresource:
        entry["subresource"] = subresource
    return entry


def pick_keys(value: dict[str, Any], *keys: str) -> dict[str, Any]:
    """The subset of `value` with the given keys (those present)."""
    return {k: value[k] for k in keys if k in value}
