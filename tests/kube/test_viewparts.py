"""Views assembled from an item's parts equal the views decoded from the item's bytes.

Fixtures: small hand-written objects of every kind that has a view (the real dumps are
compared end to end in tests/ingest/test_jsondocs.py).
"""

from __future__ import annotations

import msgspec
import pytest

from analyzer.kube.viewparts import (
    LEGACY_KEYS,
    ItemParts,
    is_legacy,
    located_part,
    view_from_parts,
)
from analyzer.kube.views import VIEW_BY_KIND, json_decoder

_PARTS = msgspec.json.Decoder(ItemParts, strict=False)


def test_item_parts_hold_every_top_level_key_of_every_view() -> None:
    keys = {f.encode_name for f in msgspec.structs.fields(ItemParts)}
    for view in VIEW_BY_KIND.values():
        assert {f.encode_name for f in msgspec.structs.fields(view)} <= keys, view.__name__
    assert set(LEGACY_KEYS) <= keys


@pytest.mark.parametrize("kind", sorted(VIEW_BY_KIND))
def test_a_view_from_parts_is_the_view_from_bytes(kind: str) -> None:
    # Every field the view has, with a value of its type: the view's defaults, encoded, and
    # a part the view does not have (it must be ignored, as decoding ignores it).
    view = VIEW_BY_KIND[kind]
    fields = {f.encode_name: msgspec.to_builtins(getattr(view(), f.name))
              for f in msgspec.structs.fields(view) if f.name not in ("apiVersion", "kind", "metadata")}
    body = {"apiVersion": "v1", "kind": kind, "metadata": {"name": "x", "labels": {"a": "1"}},
            "unrelatedPart": {"k": [1, 2]}, **fields}
    raw = msgspec.json.encode(body)
    assert view_from_parts(kind, _PARTS.decode(raw)) == json_decoder(kind).decode(raw)


def test_absent_parts_keep_their_defaults() -> None:
    view = view_from_parts("Pod", _PARTS.decode(b'{"kind": "Pod", "metadata": {"name": "p"}}'))
    assert view == json_decoder("Pod").decode(b'{"kind": "Pod", "metadata": {"name": "p"}}')


def test_a_part_that_does_not_fit_raises_as_decoding_does() -> None:
    raw = b'{"kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": "nope"}}'
    with pytest.raises(msgspec.ValidationError):
        json_decoder("Pod").decode(raw)
    with pytest.raises(msgspec.ValidationError):
        view_from_parts("Pod", _PARTS.decode(raw))


@pytest.mark.parametrize(("raw", "legacy"), [
    (b'{"kind": "Pod", "metadata": {"name": "p"}}', False),
    (b'{"name": "p", "Spec": {}}', True),
    (b'{"metadata": {"name": "p"}, "Status": {}}', True),
])
def test_old_kubectl_shapes_are_told_apart(raw: bytes, legacy: bool) -> None:
    assert is_legacy(_PARTS.decode(raw)) is legacy


def test_an_item_is_located_by_its_first_large_part() -> None:
    with_spec = _PARTS.decode(b'{"kind": "Pod", "metadata": {"name": "p"}, "status": {"phase": "Running"}}')
    assert bytes(located_part(with_spec)) == b'{"phase": "Running"}'
    assert located_part(_PARTS.decode(b'{"kind": "Namespace", "metadata": {"name": "n"}}')) is None
