"""Views decoded with their List in one scan: one tagged variant per kind, chosen by `kind`.

`viewparts` reads a List once into every item's parts and then decodes the parts a view has:
the bytes of spec and status are read twice (skipped, then decoded). A union of one variant
per kind, tagged by the item's `kind`, decodes each item straight into its view's fields in
the List's one scan. msgspec has no catch-all variant, so a List holding a kind that is not
among the variants (a custom resource) does not fit the union: its reader falls back to the
parts. Both are derived from `VIEW_BY_KIND`, so a field added to a view is picked up here.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple, Union

import msgspec

from analyzer.kube.viewparts import LEGACY_KEYS
from analyzer.kube.views import VIEW_BY_KIND, ObjectView

# Kinds read as any object whatever their view: a Secret's values go before anything keeps
# them (its reader scrubs the item's own bytes), so its variant holds no more than metadata.
_METADATA_ONLY = frozenset({"Secret"})


class _Variant(NamedTuple):
    """One kind's variant: the kind, the view it becomes, and the view's values from it."""

    kind: str
    view: type[ObjectView]
    names: tuple[str, ...]  # the view's fields but kind
    make: Callable[[Any, str], ObjectView]  # (item, kind) -> the view, holding the item's values


def _view_maker(view: type[ObjectView], names: tuple[str, ...]) -> Callable[[Any, str], ObjectView]:
    """`make(item, kind)`: the view of a variant's item, its fields passed by name.

    Runs once per item of a List: written out as a function (from the view's own field names,
    as `dataclasses` writes `__init__`), it is ten times faster than unpacking a dict of the
    fields (2.7 against 0.27 microseconds a call).
    """
    if not all(name.isidentifier() for name in names):  # the view's fields: never a dump's text
        raise ValueError(f"not field names: {names}")
    source = ("def make(item, kind):\n    return View(kind=kind, "
              + ", ".join(f"{name}=item.{name}" for name in names) + ")\n")
    namespace: dict[str, Any] = {"View": view}
    exec(source, namespace)  # noqa: S102 (our own field names; see above)
    return namespace["make"]


def _field_spec(f: msgspec.structs.FieldInfo) -> tuple[str, Any, Any]:
    default = (msgspec.field(default=f.default, name=f.encode_name)
               if f.default is not msgspec.NODEFAULT
               else msgspec.field(default_factory=f.default_factory, name=f.encode_name))
    return f.name, f.type, default


def _variant(kind: str, view: type[ObjectView]) -> tuple[type[msgspec.Struct], _Variant]:
    fields = [f for f in msgspec.structs.fields(view) if f.name != "kind"]
    specs = [_field_spec(f) for f in fields]
    # Keys of old kubectl shapes: an item with any is read the slow way (viewparts). Decoded,
    # not kept raw: nothing decoded by a variant refers to the bytes it was read from, so a
    # reader may decode from a buffer it reuses.
    specs += [(f"x_{key}", Any, msgspec.field(default=msgspec.UNSET, name=key)) for key in LEGACY_KEYS]
    struct = msgspec.defstruct(f"{kind}Item", specs, kw_only=True, tag_field="kind", tag=kind, gc=False)
    names = tuple(f.name for f in fields)
    return struct, _Variant(kind, view, names, _view_maker(view, names))


class ItemUnion(NamedTuple):
    """The union type of a List's items, and each variant's way to its view."""

    type: Any
    variants: dict[type, _Variant]
    kinds: frozenset[str]


def item_union(generic_kinds: Iterable[str]) -> ItemUnion:
    """One variant per kind with a view, and a metadata-only one for each of `generic_kinds`."""
    structs = []
    variants: dict[type, _Variant] = {}
    kinds = {kind: (ObjectView if kind in _METADATA_ONLY else view)
             for kind, view in VIEW_BY_KIND.items()}
    for kind in generic_kinds:
        kinds.setdefault(kind, ObjectView)
    for kind, view in sorted(kinds.items()):
        struct, variant = _variant(kind, view)
        structs.append(struct)
        variants[struct] = variant
    return ItemUnion(Union[tuple(structs)], variants, frozenset(kinds))  # noqa: UP007 (a runtime union of many)


_LEGACY = operator.attrgetter(*(f"x_{key}" for key in LEGACY_KEYS))
_NO_LEGACY = (msgspec.UNSET,) * len(LEGACY_KEYS)


def item_kind(union: ItemUnion, item: Any) -> str:
    """The kind an item was tagged with."""
    return union.variants[type(item)].kind


def is_legacy_item(item: Any) -> bool:
    """Whether the item has a key only old kubectl shapes have."""
    # A tuple compares its items by identity first: UNSET is UNSET, any value read is not.
    return _LEGACY(item) != _NO_LEGACY


def view_from_item(union: ItemUnion, item: Any, view_kind: str) -> ObjectView | None:
    """The view of an item decoded by its kind's variant, as `viewparts.view_from_parts` makes
    it for `view_kind` (the kind whose view reads it: "" for a custom resource named like a
    built-in kind, whose view is the generic one). None if the variant cannot make it (another
    view than the variant's: the caller reads the item's bytes)."""
    variant = union.variants[type(item)]
    view = VIEW_BY_KIND.get(view_kind, ObjectView) if view_kind not in _METADATA_ONLY else None
    if view is ObjectView or view_kind == "":
        return ObjectView(apiVersion=item.apiVersion, kind=variant.kind, metadata=item.metadata,
                          text=item.text)
    if view is not variant.view:
        return None
    return variant.make(item, variant.kind)
