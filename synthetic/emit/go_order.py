"""Go struct field order: typed clients print fields in the order the Go structs declare them
(the table is data: go_fields.yaml beside this file); maps come out with sorted keys."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from synthetic.objects import Obj

GO_FIELDS_PATH = Path(__file__).with_name("go_fields.yaml")


def _parse_fields(spec: str) -> list[tuple[str, str | None]]:
    out: list[tuple[str, str | None]] = []
    for token in spec.split():
        name, _, kind = token.partition(":")
        out.append((name, kind or None))
    return out


with GO_FIELDS_PATH.open(encoding="utf-8") as _handle:
    GO_ORDER = {type_name: _parse_fields(spec) for type_name, spec in yaml.safe_load(_handle).items()}


def sorted_deep(value: Any) -> Any:
    """Maps with sorted keys all the way down (how Go prints map[string]... and raw fieldsV1)."""
    if isinstance(value, dict):
        return {k: sorted_deep(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [sorted_deep(v) for v in value]
    return value


def go_order(value: Obj, type_name: str) -> Obj:
    """Reorder an object's keys as the Go struct `type_name` declares them; unknown keys fail."""
    fields = GO_ORDER[type_name]
    known = {name for name, _ in fields}
    unknown = set(value) - known
    if unknown:
        raise KeyError(f"{type_name} has no field(s) {sorted(unknown)}")
    out: Obj = {}
    for name, kind in fields:
        if name not in value:
            continue
        item = value[name]
        if kind is None:
            if isinstance(item, dict) or (isinstance(item, list) and any(isinstance(v, dict) for v in item)):
                raise TypeError(f"{type_name}.{name} holds structures but is declared scalar")
            out[name] = item
        elif kind in ("map", "raw"):
            out[name] = sorted_deep(item)
        elif kind.startswith("["):
            out[name] = [go_order(v, kind[1:-1]) for v in item]
        else:
            out[name] = go_order(item, kind)
    return out


def go_order_list(list_obj: Obj, keep_item_type_meta: bool) -> Obj:
    """A typed List in Go order; items keep kind/apiVersion only where the writer printed them."""
    items = []
    for item in list_obj["items"]:
        ordered = go_order(item, item["kind"])
        if not keep_item_type_meta:
            ordered.pop("kind")
            ordered.pop("apiVersion")
        items.append(ordered)
    return {
        "kind": list_obj["kind"],
        "apiVersion": list_obj["apiVersion"],
        "metadata": go_order(list_obj["metadata"], "ListMeta"),
        "items": items,
    }
