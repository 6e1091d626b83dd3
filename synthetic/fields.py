"""managedFields entries (fieldsV1 trees) derived from the fields a manager set, as the API server records them.

Checked against the managedFields in shared/realdata: a struct or map a manager set carries its
own "." entry unless the Go field is a non-pointer struct (spec, template, strategy...); lists
merged by key carry `k:{...}` entries (`containers` without "."), sets `v:...` entries, and atomic
lists and structs are owned whole (`f:args: {}`, `f:fieldRef: {}`).
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from synthetic.times import ts

# Non-pointer struct fields: no "." marker of their own (`f:spec`, `f:template`, `f:strategy`...).
NO_SELF_MARKER = frozenset({
    "metadata", "spec", "status", "template", "strategy", "updateStrategy", "nodeInfo",
    "daemonEndpoints", "kubeletEndpoint", "containers", "regarding",
})
# Lists the API merges by key: their items appear as `k:{"name":"x"}` entries.
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
# Structs and maps a modern API server owns whole (`+structType=atomic`, `+mapType=atomic`): in
# shared/realdata a 1.23 server writes `f:fieldRef: {}`, while 1.18 and 1.20 servers expand them.
ATOMIC_MAPS = frozenset({
    "fieldRef", "resourceFieldRef", "secretKeyRef", "configMapKeyRef", "labelSelector", "nodeSelector",
    "requiredDuringSchedulingIgnoredDuringExecution",
})
# Keys tried, in order, for a list of structs not named above (and not atomic).
_OTHER_LIST_KEYS = (("containerPort", "protocol"), ("port", "protocol"), ("uid",), ("type",), ("mountPath",),
                    ("ip",), ("name",))
# Atomic lists (`+listType=atomic`): owned whole, a bare `f:name: {}`.
ATOMIC_LISTS = frozenset({
    "command", "args", "tolerations", "images", "containerStatuses", "initContainerStatuses",
    "sources", "items", "nodeSelectorTerms", "clusterIPs", "ipFamilies", "subsets",
    "accessModes", "values", "names", "matchExpressions", "matchFields", "taints",
})
# Sets of scalars (`+listType=set`): one `v:<json>` entry per value.
SET_LISTS = frozenset({"finalizers", "podCIDRs"})


def _item_key(field: str, item: dict[str, Any]) -> str | None:
    for names in ASSOCIATIVE_LIST_KEYS.get(field, _OTHER_LIST_KEYS):
        if all(name in item for name in names):
            identity = {name: item[name] for name in names}
            return "k:" + json.dumps(identity, sort_keys=True, separators=(",", ":"))
    return None


def _field(name: str, value: Any, atomic: frozenset[str]) -> dict[str, Any]:
    if isinstance(value, dict):
        if not value or name in atomic:
            return {}
        inner = fields_v1(value, atomic)
        return inner if name in NO_SELF_MARKER else {".": {}, **inner}
    if isinstance(value, list) and value:
        if name in SET_LISTS:
            return {".": {}, **{"v:" + json.dumps(v): {} for v in value}}
        if name not in ATOMIC_LISTS and all(isinstance(v, dict) for v in value):
            tree: dict[str, Any] = {} if name in NO_SELF_MARKER else {".": {}}
            for item in value:
                key = _item_key(name, item)
                if key is None:  # not mergeable after all: the list is atomic
                    return {}
                tree[key] = {".": {}, **fields_v1(item, atomic)}
            return tree
    return {}


def fields_v1(value: dict[str, Any], atomic: frozenset[str] = ATOMIC_MAPS) -> dict[str, Any]:
    """The fieldsV1 tree of the fields present in `value`; structs and maps named in `atomic` are owned whole.

    >>> fields_v1({"labels": {"app": "x"}, "ports": [{"port": 80, "protocol": "TCP"}], "args": ["-v"]})
    {'f:labels': {'.': {}, 'f:app': {}}, 'f:ports': {'.': {}, 'k:{"port":80,"protocol":"TCP"}': {'.': {}, 'f:port': {}, 'f:protocol': {}}}, 'f:args': {}}
    >>> fields_v1({"spec": {"template": {"spec": {"containers": [{"name": "c", "env": []}]}}}})
    {'f:spec': {'f:template': {'f:spec': {'f:containers': {'k:{"name":"c"}': {'.': {}, 'f:name': {}, 'f:env': {}}}}}}}
    """
    return {"f:" + name: _field(name, child, atomic) for name, child in value.items()}


def top_level_fields(sections: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """fieldsV1 for whole sections (`metadata`, `spec`, `data`...), leaving out the empty ones.

    >>> top_level_fields({"metadata": {"labels": {"app": "x"}}, "status": {}})
    {'f:metadata': {'f:labels': {'.': {}, 'f:app': {}}}}
    """
    return fields_v1({name: section for name, section in sections.items() if section})


def managed_entry(
    manager: str, time: str, tree: dict[str, Any], api_version: str = "v1",
    subresource: str | None = None, operation: str = "Update",
) -> dict[str, Any]:
    """One managedFields entry owning the fieldsV1 `tree`, written at `time` (RFC 3339)."""
    entry: dict[str, Any] = {
        "manager": manager,
        "operation": operation,
        "apiVersion": api_version,
        "time": time,
        "fieldsType": "FieldsV1",
        "fieldsV1": tree,
    }
    if subresource:
        entry["subresource"] = subresource
    return entry


def managed(manager: str, when: datetime, owned: dict[str, Any], api_version: str = "v1",
            operation: str = "Update", subresource: str | None = None,
            atomic: frozenset[str] = ATOMIC_MAPS) -> dict[str, Any]:
    """One managedFields entry for `manager`, owning the fields present in `owned`."""
    return managed_entry(manager, ts(when), fields_v1(owned, atomic), api_version, subresource, operation)


def pick_keys(value: dict[str, Any], *keys: str) -> dict[str, Any]:
    """The subset of `value` with the given keys (those present)."""
    return {k: value[k] for k in keys if k in value}
