"""Views decoded by their kind's variant in a List's one scan equal the views decoded from the
item's bytes.

Fixtures: small hand-written objects of every kind that has a view (whole Lists, real and
generated, are compared with reading item by item in tests/ingest/test_jsondocs.py).
"""

from __future__ import annotations

import msgspec
import pytest

from analyzer.ingest.jsondocs import ITEM_UNION
from analyzer.kube.views import VIEW_BY_KIND, ObjectView, json_decoder
from analyzer.kube.viewunion import is_legacy_item, item_kind, view_from_item

_ITEMS = msgspec.json.Decoder(list[ITEM_UNION.type], strict=False)


def _body(kind: str) -> dict:
    # Every field the view has, with a value of its type (the view's defaults, encoded), and
    # a part the view does not have (it must be ignored, as decoding ignores it).
    view = VIEW_BY_KIND[kind]
    fields = {f.encode_name: msgspec.to_builtins(getattr(view(), f.name))
              for f in msgspec.structs.fields(view) if f.name not in ("apiVersion", "kind", "metadata")}
    return {"apiVersion": "v1", "kind": kind, "metadata": {"name": "x", "labels": {"a": "1"}},
            "unrelatedPart": {"k": [1, 2]}, **fields}


@pytest.mark.parametrize("kind", sorted(set(VIEW_BY_KIND) - {"Secret"}))
def test_a_view_from_its_variant_is_the_view_from_bytes(kind: str) -> None:
    raw = msgspec.json.encode(_body(kind))
    [item] = _ITEMS.decode(b"[" + raw + b"]")
    assert item_kind(ITEM_UNION, item) == kind
    assert view_from_item(ITEM_UNION, item, kind) == json_decoder(kind).decode(raw)


def test_a_custom_resource_named_like_a_built_in_kind_gets_the_generic_view() -> None:
    raw = b'{"apiVersion": "longhorn.io/v1beta2", "kind": "Node", "metadata": {"name": "n"}, "spec": {}}'
    [item] = _ITEMS.decode(b"[" + raw + b"]")
    assert view_from_item(ITEM_UNION, item, "") == json_decoder("").decode(raw)
    assert type(view_from_item(ITEM_UNION, item, "")) is ObjectView


def test_a_view_of_another_kind_than_the_variant_is_not_made() -> None:
    [item] = _ITEMS.decode(b'[{"kind": "Service", "metadata": {"name": "s"}}]')
    assert view_from_item(ITEM_UNION, item, "Pod") is None


def test_built_in_kinds_without_a_view_have_a_variant_and_custom_resources_do_not() -> None:
    [lease] = _ITEMS.decode(b'[{"kind": "Lease", "metadata": {"name": "l"}, "spec": {"holderIdentity": "x"}}]')
    assert view_from_item(ITEM_UNION, lease, "Lease") == json_decoder("Lease").decode(
        b'{"kind": "Lease", "metadata": {"name": "l"}}')
    with pytest.raises(msgspec.ValidationError, match="Widget"):
        _ITEMS.decode(b'[{"kind": "Widget", "metadata": {"name": "w"}}]')


def test_a_secret_variant_keeps_no_value() -> None:
    [item] = _ITEMS.decode(b'[{"kind": "Secret", "metadata": {"name": "s"}, "data": {"pw": "aHVudGVyMg=="}}]')
    assert "aHVudGVyMg==" not in repr(item)


@pytest.mark.parametrize(("raw", "legacy"), [
    (b'{"kind": "Pod", "metadata": {"name": "p"}}', False),
    (b'{"kind": "Pod", "name": "p", "Spec": {}}', True),
    (b'{"kind": "Pod", "metadata": {"name": "p"}, "Status": {}}', True),
])
def test_old_kubectl_shapes_are_told_apart(raw: bytes, legacy: bool) -> None:
    [item] = _ITEMS.decode(b"[" + raw + b"]")
    assert is_legacy_item(item) is legacy
