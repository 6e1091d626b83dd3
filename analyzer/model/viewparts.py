"""Views assembled from an item's top-level parts, for decoding a whole List in one scan.

Decoding a List's envelope with its items as raw bytes, then each item into its view, reads
every byte twice. `ItemParts` is every view's top-level fields at once: metadata typed (all
views share it), the rest kept as raw slices. One decode of the List into `ItemParts` reads
the bytes once; `view_from_parts` then decodes only the parts the item's own view has. Both
are derived from `VIEW_BY_KIND`, so a field added to a view is picked up here.
"""

from __future__ import annotations

import operator
from typing import Any

import msgspec

from analyzer.model.views import VIEW_BY_KIND, Meta, ObjectView, TextFacts, view_type

# Top-level fields every view has and ItemParts decodes itself.
_COMMON = ("apiVersion", "kind", "metadata", "text")
# Top-level keys of old kubectl shapes (flattened metadata, internal structs): an item with
# any of them is read the slow way, which maps it onto the API shape.
LEGACY_KEYS = ("name", "Spec", "Status")


def _part_fields() -> dict[type[ObjectView], list[tuple[str, str, msgspec.json.Decoder]]]:
    """view class -> (view attribute, ItemParts attribute, decoder of the part) of its parts."""
    out = {}
    for view in {ObjectView, *VIEW_BY_KIND.values()}:
        out[view] = [
            (f.name, f"x_{f.encode_name}", msgspec.json.Decoder(f.type, strict=False))
            for f in msgspec.structs.fields(view)
            if f.name not in _COMMON
        ]
    return out


_PARTS_OF = _part_fields()


def _item_parts_type() -> type[msgspec.Struct]:
    keys = sorted({attr[2:] for parts in _PARTS_OF.values() for _, attr, _ in parts} | set(LEGACY_KEYS))
    fields: list[tuple[str, Any, Any]] = [
        ("apiVersion", str, ""),
        ("kind", str, ""),
        ("metadata", Meta, msgspec.field(default_factory=Meta)),
        ("text", TextFacts | None, msgspec.field(default=None, name="x-kda-text")),
    ]
    # Attribute names are the JSON keys, prefixed: `x_` keeps keys like `type` from shadowing.
    fields += [(f"x_{key}", msgspec.Raw, msgspec.field(default=msgspec.Raw(), name=key)) for key in keys]
    return msgspec.defstruct("ItemParts", fields, kw_only=True)


ItemParts = _item_parts_type()


_LARGE_PARTS = operator.attrgetter("x_spec", "x_status", "x_data")


def large_parts_size(parts: Any) -> int:
    """Bytes of the item's largest parts (spec, status, data): at most the item's own size."""
    return sum(map(len, _LARGE_PARTS(parts)))


def is_legacy(parts: Any) -> bool:
    """Whether the item has a key only old kubectl shapes have."""
    return any(len(getattr(parts, f"x_{key}")) for key in LEGACY_KEYS)


def view_from_parts(kind: str, parts: Any) -> ObjectView:
    """The kind's view from the item's parts (raises msgspec.ValidationError as decoding would)."""
    view = view_type(kind)
    values: dict[str, Any] = {}
    for attr, part, decoder in _PARTS_OF[view]:
        raw = getattr(parts, part)
        if raw:
            values[attr] = decoder.decode(raw)
    return view(apiVersion=parts.apiVersion, kind=parts.kind, metadata=parts.metadata,
                text=parts.text, **values)
