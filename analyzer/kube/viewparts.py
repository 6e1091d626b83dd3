"""Views assembled from an item's top-level parts, for decoding a whole List in one scan.

Decoding a List's envelope with its items as raw bytes, then each item into its view, reads
every byte twice. `ItemParts` is every view's top-level fields at once: metadata typed (all
views share it), the rest kept as raw slices. One decode of the List into `ItemParts` reads
the bytes once; `view_from_parts` then decodes only the parts the item's own view has. Both
are derived from `VIEW_BY_KIND`, so a field added to a view is picked up here.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, NamedTuple

import msgspec

from analyzer.kube.views import VIEW_BY_KIND, Meta, ObjectView, TextFacts

# Top-level fields every view has and ItemParts decodes itself.
_COMMON = ("apiVersion", "kind", "metadata", "text")
# Top-level keys of old kubectl shapes (flattened metadata, internal structs): an item with
# any of them is read the slow way, which maps it onto the API shape.
LEGACY_KEYS = ("name", "Spec", "Status")


class _Assembly(NamedTuple):
    """How one view is made from parts: its class, its parts' raw values, their decoders."""

    view: type[ObjectView]
    raws: Callable[[Any], tuple[msgspec.Raw, ...]]
    decoders: tuple[tuple[str, msgspec.json.Decoder], ...]  # (view attribute, decoder), in order


def _assembly(view: type[ObjectView]) -> _Assembly:
    fields = [f for f in msgspec.structs.fields(view) if f.name not in _COMMON]
    getter = operator.attrgetter(*(f"x_{f.encode_name}" for f in fields)) if fields else None
    raws = (lambda _: ()) if getter is None else getter if len(fields) > 1 else (lambda p: (getter(p),))
    return _Assembly(view, raws, tuple((f.name, msgspec.json.Decoder(f.type, strict=False)) for f in fields))


_ASSEMBLIES = {view: _assembly(view) for view in {ObjectView, *VIEW_BY_KIND.values()}}
_ASSEMBLY_BY_KIND = {kind: _ASSEMBLIES[view] for kind, view in VIEW_BY_KIND.items()}
_GENERIC = _ASSEMBLIES[ObjectView]


def _item_parts_type() -> type[msgspec.Struct]:
    keys = {f.encode_name for view in _ASSEMBLIES for f in msgspec.structs.fields(view) if f.name not in _COMMON}
    keys = sorted(keys | set(LEGACY_KEYS))
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


def located_part(parts: Any) -> msgspec.Raw | None:
    """One of the item's large raw parts (spec, status or data), to tell where the item lies."""
    for raw in _LARGE_PARTS(parts):
        if raw:
            return raw
    return None


_LEGACY_PARTS = operator.attrgetter(*(f"x_{key}" for key in LEGACY_KEYS))


def is_legacy(parts: Any) -> bool:
    """Whether the item has a key only old kubectl shapes have."""
    return any(_LEGACY_PARTS(parts))


def view_from_parts(kind: str, parts: Any) -> ObjectView:
    """The kind's view from the item's parts (raises msgspec.ValidationError as decoding would)."""
    how = _ASSEMBLY_BY_KIND.get(kind, _GENERIC)
    values = {attr: decoder.decode(raw)
              for (attr, decoder), raw in zip(how.decoders, how.raws(parts), strict=True) if raw}
    return how.view(apiVersion=parts.apiVersion, kind=parts.kind, metadata=parts.metadata,
                    text=parts.text, **values)
