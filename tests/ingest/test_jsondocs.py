"""A JSON List is read in one scan (items as parts) and gives exactly what reading it item by
item gives; items the parts cannot carry are read by themselves.

Fixtures: every JSON file of `shared/realdata` (real kubectl, cluster-info dump and bundle
output) and of the bundled sample dumps; small hand-written Lists for the items that need
their own bytes (Secrets, old kubectl shapes, fields of an unexpected type, broken UTF-8);
generated Lists of pods whose kind and fields hypothesis replaces with odd values.
"""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest
from conftest import REALDATA, SAMPLE_DUMPS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer.ingest import ingest, jsondocs
from analyzer.ingest.records import LazyRaw
from synthetic import benchmark as generate_dump
from synthetic.clusters.scalable import cluster as synthetic_cluster

from .test_mapped import snapshot

JSON_FILES = sorted(
    p for root in (REALDATA, SAMPLE_DUMPS) for p in root.rglob("*")
    if p.is_file() and p.suffix == ".json"
)


@pytest.fixture
def item_by_item(monkeypatch: pytest.MonkeyPatch):
    """Ingestion as it was before the one-scan read: envelope first, then each item."""
    def ingest_item_by_item(path: Path):
        with monkeypatch.context() as m:
            m.setattr(jsondocs, "decode_document", lambda data, release=None: jsondocs.ENVELOPE_DECODER.decode(data))
            return ingest(path)
    return ingest_item_by_item


def _write_list(tmp_path: Path, items: list, raw_items: list[bytes] = ()) -> Path:
    text = json.dumps({"apiVersion": "v1", "kind": "List", "items": items}, indent=4)
    for raw in raw_items:  # spliced in as bytes: what json.dumps cannot write
        text = text.replace('"@@RAW@@"', raw.decode("latin-1"), 1)
    path = tmp_path / "dump.json"
    path.write_bytes(text.encode("latin-1"))
    return path


def _pod(name: str, **extra) -> dict:
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": "ns", "uid": f"u-{name}"},
            "spec": {"nodeName": "n1", "containers": [{"name": "c", "image": "nginx:1.25"}]},
            "status": {"phase": "Running"}, **extra}


@pytest.mark.skipif(not JSON_FILES, reason="no JSON fixtures")
@pytest.mark.parametrize("path", JSON_FILES, ids=lambda p: str(p.relative_to(p.parents[2])))
def test_real_json_reads_the_same_in_one_scan(path: Path, item_by_item) -> None:
    assert snapshot(ingest(path)) == snapshot(item_by_item(path))


def test_a_list_of_usual_objects_is_read_in_one_scan(tmp_path: Path) -> None:
    path = _write_list(tmp_path, [_pod("a"), _pod("b")])
    result = ingest(path)
    assert [o.name for o in result.objects] == ["a", "b"]
    assert all(isinstance(o.raw, LazyRaw) for o in result.objects)
    assert result.objects[1].body() == _pod("b")
    assert result.objects[0].view.spec.nodeName == "n1"


@pytest.mark.parametrize("odd_item", [
    # a Secret: its values go before anything keeps them, so it is read whole and scrubbed
    {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s", "namespace": "ns"},
     "type": "Opaque", "data": {"password": "aHVudGVyMg=="}},
    # kubectl 1.9: metadata flattened, fields Capitalised
    {"name": "old", "namespace": "ns", "Spec": {"NodeName": "n1"}, "Status": {"Phase": "Running"}},
    # a part of an unexpected type: that field is dropped and named, the object kept
    _pod("odd-spec", spec=None),
    _pod("odd-status", status={"phase": "Running", "containerStatuses": "not a list"}),
    # no kind of its own and none from the List
    {"apiVersion": "v1", "metadata": {"name": "nameless-kind"}},
], ids=["secret", "kubectl-1.9", "null-spec", "wrong-type", "no-kind"])
def test_items_the_parts_cannot_carry_are_read_by_themselves(tmp_path: Path, item_by_item, odd_item: dict) -> None:
    path = _write_list(tmp_path, [_pod("a"), odd_item, _pod("b")])
    one_scan = ingest(path)
    assert snapshot(one_scan) == snapshot(item_by_item(path))
    assert one_scan.objects_read == 3
    assert "aHVudGVyMg==" not in repr(snapshot(one_scan))


@pytest.mark.parametrize(("raw", "error"), [
    (b'{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "bad-\xff-bytes", "namespace": "ns"}}',
     UnicodeDecodeError),
    (b'{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "big", "labels": {"a": 1e999}}}',
     msgspec.ValidationError),
    (b'{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "deep", "labels": {"a": '
     + b"[" * 2000 + b"]" * 2000 + b"}}}", RecursionError),
], ids=["not-utf8", "number-out-of-range", "deep-label"])
def test_a_list_whose_metadata_does_not_decode_is_read_item_by_item(
    tmp_path: Path, item_by_item, raw: bytes, error: type[Exception]
) -> None:
    path = _write_list(tmp_path, [_pod("a"), "@@RAW@@", _pod("b")], [raw])
    with pytest.raises(error):
        jsondocs._PARTS_DECODER.decode(path.read_bytes())
    one_scan = ingest(path)
    assert snapshot(one_scan) == snapshot(item_by_item(path))
    assert {"a", "b"} <= {o.name for o in one_scan.objects}


def test_item_bytes_are_found_once_per_list(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _write_list(tmp_path, [_pod(str(i)) for i in range(5)])
    result = ingest(path)
    calls = []
    real = jsondocs.ENVELOPE_DECODER

    class Counting:
        def decode(self, data):
            calls.append(len(data))
            return real.decode(data)

    monkeypatch.setattr(jsondocs, "ENVELOPE_DECODER", Counting())
    assert [o.body()["metadata"]["name"] for o in result.objects] == [str(i) for i in range(5)]
    assert len(calls) == 1


def test_concatenated_documents_are_each_read_in_one_scan(tmp_path: Path) -> None:
    docs = [{"apiVersion": "v1", "kind": "PodList", "items": [_pod(f"{d}-{i}") for i in range(2)]} for d in "ab"]
    path = tmp_path / "dump.json"
    path.write_text("\n".join(json.dumps(d, indent=4) for d in docs) + "\n")
    result = ingest(path)
    assert [o.name for o in result.objects] == ["a-0", "a-1", "b-0", "b-1"]
    assert all(isinstance(o.raw, LazyRaw) for o in result.objects)
    assert result.objects[3].body()["metadata"]["name"] == "b-1"


def test_decode_document_names_trailing_text_as_json_does() -> None:
    with pytest.raises(msgspec.DecodeError, match="trailing"):
        jsondocs.decode_document(memoryview(b'{"kind": "List", "items": []}\n{"kind": "List"}'))


# Values a hand-edited or unusual dump may put anywhere: every JSON type, and the wrong one.
_ODD_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from(["", "x", "1", "true", "Running"]),
    st.lists(st.sampled_from(["a", 1, None]), max_size=2),
    st.dictionaries(st.sampled_from(["name", "a"]), st.sampled_from(["n", 1]), max_size=2),
)
_ITEM_KINDS = st.sampled_from(["Pod", "Node", "Service", "Deployment", "Event", "ConfigMap", "Secret",
                               "Namespace", "PersistentVolumeClaim", "RoleBinding", "Widget", "", None])
_PATHS = st.sampled_from([
    ("spec",), ("status",), ("metadata", "labels"), ("metadata", "annotations"), ("metadata", "name"),
    ("metadata", "ownerReferences"), ("spec", "containers"), ("spec", "nodeName"), ("status", "phase"),
    ("data",), ("type",), ("subsets",), ("roleRef",), ("involvedObject",), ("count",), ("name",), ("Spec",),
])


@st.composite
def _odd_item(draw) -> object:
    if draw(st.integers(0, 9)) == 0:
        return draw(_ODD_VALUES)  # not an object at all
    kind = draw(_ITEM_KINDS)
    item = _pod(draw(st.sampled_from(["a", "b", "c"])))
    if kind is None:
        del item["kind"]
    else:
        item["kind"] = kind
    for path in draw(st.lists(_PATHS, max_size=3)):
        parent = item
        for step in path[:-1]:
            parent = parent.setdefault(step, {}) if isinstance(parent.get(step, {}), dict) else {}
        parent[path[-1]] = draw(_ODD_VALUES)
    return item


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(items=st.lists(_odd_item(), max_size=5), list_kind=st.sampled_from(["List", "PodList"]))
def test_any_list_reads_the_same_in_one_scan(tmp_path_factory, item_by_item, items: list, list_kind: str) -> None:
    # Whatever a List holds, reading it in one scan changes nothing a reader of the result sees.
    path = tmp_path_factory.mktemp("odd") / "dump.json"
    path.write_text(json.dumps({"apiVersion": "v1", "kind": list_kind, "items": items}, indent=4))
    assert snapshot(ingest(path)) == snapshot(item_by_item(path))


def test_a_list_of_built_in_kinds_is_decoded_into_views_in_its_scan(tmp_path: Path) -> None:
    lease = {"apiVersion": "coordination.k8s.io/v1", "kind": "Lease", "metadata": {"name": "l", "namespace": "ns"}}
    path = _write_list(tmp_path, [_pod("a"), lease, _pod("b")])
    assert isinstance(jsondocs.decode_document(memoryview(path.read_bytes())), jsondocs.UnionEnvelope)


@pytest.mark.parametrize("at", ["start", "middle", "end"])
def test_a_list_with_custom_resources_is_read_by_parts_and_the_same(tmp_path: Path, item_by_item, at: str) -> None:
    widget = {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w", "namespace": "ns"},
              "spec": {"size": 3}}
    pods = [_pod(f"p{i}") for i in range(40)]
    items = {"start": [widget, *pods], "middle": [*pods[:20], widget, *pods[20:]], "end": [*pods, widget]}[at]
    path = _write_list(tmp_path, items)
    data = memoryview(path.read_bytes())
    # The windows see the custom resource: the union is not tried.
    assert jsondocs._kind_without_variant(data)
    assert isinstance(jsondocs.decode_document(data), jsondocs.PartsEnvelope)
    assert snapshot(ingest(path)) == snapshot(item_by_item(path))


def test_a_custom_resource_the_windows_miss_costs_a_second_scan_only(tmp_path: Path, item_by_item,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    widget = {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w", "namespace": "ns"}}
    path = _write_list(tmp_path, [_pod("a"), widget, _pod("b")])
    monkeypatch.setattr(jsondocs, "_kind_without_variant", lambda data: False)
    assert isinstance(jsondocs.decode_document(memoryview(path.read_bytes())), jsondocs.PartsEnvelope)
    assert snapshot(ingest(path)) == snapshot(item_by_item(path))


def test_a_custom_resource_named_like_a_built_in_kind_reads_the_same(tmp_path: Path, item_by_item) -> None:
    node = {"apiVersion": "longhorn.io/v1beta2", "kind": "Node", "metadata": {"name": "n1", "namespace": "longhorn"},
            "spec": {"disks": {}}, "status": {"conditions": []}}
    path = _write_list(tmp_path, [_pod("a"), node])
    one_scan = ingest(path)
    assert snapshot(one_scan) == snapshot(item_by_item(path))
    assert {o.key.group for o in one_scan.objects if o.kind == "Node"} == {"longhorn.io"}


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every List read in chunks of a few items (large Lists are, at MBs a chunk)."""
    monkeypatch.setattr(jsondocs, "_CHUNKED_FROM_BYTES", 0)
    monkeypatch.setattr(jsondocs, "_CHUNK_BYTES", 3000)


@pytest.mark.skipif(not JSON_FILES, reason="no JSON fixtures")
@pytest.mark.parametrize("mapped", [False, True], ids=["read", "mapped"])
def test_real_json_reads_the_same_in_chunks(item_by_item, small_chunks, monkeypatch: pytest.MonkeyPatch,
                                            mapped: bool) -> None:
    from analyzer.ingest import tree

    chunked = 0
    real = jsondocs._decode_in_chunks

    def counting(data, release):
        nonlocal chunked
        out = real(data, release)
        chunked += out is not None
        return out

    monkeypatch.setattr(jsondocs, "_decode_in_chunks", counting)
    if mapped:
        monkeypatch.setattr(tree, "MAP_AT_BYTES", 0)
    for path in JSON_FILES:
        assert snapshot(ingest(path)) == snapshot(item_by_item(path)), path
    assert chunked > 20  # most of them are kubectl's Lists


@pytest.mark.parametrize("at", ["start", "middle", "end"])
def test_a_chunk_with_a_custom_resource_is_read_by_parts(tmp_path: Path, item_by_item, small_chunks,
                                                         at: str) -> None:
    widget = {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w", "namespace": "ns"},
              "spec": {"size": 3}}
    pods = [_pod(f"p{i}") for i in range(40)]
    items = {"start": [widget, *pods], "middle": [*pods[:20], widget, *pods[20:]], "end": [*pods, widget]}[at]
    path = _write_list(tmp_path, items)
    env = jsondocs.decode_document(memoryview(path.read_bytes()))
    assert isinstance(env, jsondocs.UnionEnvelope)
    kinds = {type(item).__name__ for item in env.items}
    assert "ItemParts" in kinds and "PodItem" in kinds  # only the custom resource's chunk by parts
    assert snapshot(ingest(path)) == snapshot(item_by_item(path))


@pytest.mark.parametrize("text", [
    # not kubectl's layout: an item's nested list at the items' indentation, a key after items
    '{\n    "items": [\n        {\n            "kind": "Pod", "metadata": {"name": "a"}, "x": [\n        {\n        },\n        {\n        }\n    ]\n        },\n        {\n            "kind": "Pod", "metadata": {"name": "b"}\n        }\n    ],\n    "kind": "List"\n}\n',
    '{\n    "items": [\n        {\n            "kind": "Pod", "metadata": {"name": "a"}\n        },\n        {\n            "kind": "Pod", "metadata": {"name": "b"}\n        }\n    ],\n    "kind": "List",\n    "items": []\n}\n',
], ids=["nested-at-item-indent", "items-twice"])
def test_a_list_not_laid_out_as_kubectl_does_is_read_whole(tmp_path: Path, item_by_item, small_chunks,
                                                           monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    path = tmp_path / "dump.json"
    path.write_text(text)
    monkeypatch.setattr(jsondocs, "_CHUNK_BYTES", 1)  # a chunk ends at every item boundary
    assert jsondocs._decode_in_chunks(memoryview(path.read_bytes()), None) is None
    assert snapshot(ingest(path)) == snapshot(item_by_item(path))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(items=st.lists(_odd_item(), max_size=8), list_kind=st.sampled_from(["List", "PodList"]))
def test_any_list_reads_the_same_in_chunks(tmp_path_factory, item_by_item, items: list, list_kind: str) -> None:
    path = tmp_path_factory.mktemp("odd") / "dump.json"
    path.write_text(json.dumps({"apiVersion": "v1", "kind": list_kind, "items": items}, indent=4))
    with pytest.MonkeyPatch.context() as m:
        m.setattr(jsondocs, "_CHUNKED_FROM_BYTES", 0)
        m.setattr(jsondocs, "_CHUNK_BYTES", 200)
        chunked = snapshot(ingest(path))
    assert chunked == snapshot(item_by_item(path))



@pytest.mark.parametrize("shape", synthetic_cluster.shape_names())
def test_every_shape_reads_the_same_in_chunks(tmp_path: Path, item_by_item, small_chunks, shape: str) -> None:
    # Realistic generated dumps (synthetic/benchmark.py, as benchmarks/generate_dump.py writes them, seed 1), 40 pods of each shape.
    path = tmp_path / "dump.json"
    generate_dump.write_dump(path, pods=40, nodes=15 if shape == "large-cluster" else 8, fmt="json", seed=1,
                             shape=shape)
    env = jsondocs.decode_document(memoryview(path.read_bytes()))
    assert isinstance(env, jsondocs.UnionEnvelope) and len(env.items) > 40
    assert snapshot(ingest(path)) == snapshot(item_by_item(path))


def test_item_bytes_of_a_list_read_in_chunks_are_found_in_their_chunk(
        tmp_path: Path, small_chunks, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _write_list(tmp_path, [_pod(str(i)) for i in range(30)])
    result = ingest(path)
    chunks = []
    real = jsondocs._RAW_ITEMS_DECODER

    class Counting:
        def decode(self, data):
            chunks.append(len(data))
            return real.decode(data)

    monkeypatch.setattr(jsondocs, "_RAW_ITEMS_DECODER", Counting())
    monkeypatch.setattr(jsondocs, "ENVELOPE_DECODER", None)  # the whole List is never decoded again
    assert result.objects[17].body() == _pod("17")
    assert result.objects[16].body() == _pod("16")
    assert [o.body()["metadata"]["name"] for o in result.objects] == [str(i) for i in range(30)]
    assert 1 < len(chunks) < 30 and max(chunks) < path.stat().st_size / 2  # each chunk decoded once


def test_a_broken_document_names_the_line_of_its_fault_not_a_byte_offset() -> None:
    # The shape of a write-up's fenced ServiceAccount "from the K8s API" (an EKS Pulumi project's
    # conversation log in the public code index) whose author elided its secrets as `[...]`:
    # "invalid character (byte 218)" counted from the document's start, not a place to look.
    text = ("prose\n\n{\n  \"kind\": \"ServiceAccount\",\n  \"metadata\": {\"name\": \"x\"},\n"
            "  \"secrets\": [...]\n}\n\n{\n  \"kind\": \"ConfigMap\"\n}\n")
    parsed = jsondocs.read_json_file(text.encode(), "notes.md")
    [(_index, line, _raw, error)] = parsed.broken
    assert line == 3 and "invalid character at line 6" in error and "byte" not in error


def test_an_empty_item_keeps_the_lines_of_the_items_of_its_chunk(tmp_path: Path, item_by_item,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # what test_any_list_reads_the_same_in_chunks found: `{},` (an empty item, on one line) ends
    # its item without the `},` line the others end with, and its chunk's items lost their lines
    path = _write_list(tmp_path, [{"name": "n"}, {}, _pod("a")])
    monkeypatch.setattr(jsondocs, "_CHUNKED_FROM_BYTES", 0)
    monkeypatch.setattr(jsondocs, "_CHUNK_BYTES", 200)
    chunked = snapshot(ingest(path))
    assert [r.location for r in chunked["rejections"]] == ["document 0, line 5, item 0", "document 0, line 8, item 1"]
    assert chunked == snapshot(item_by_item(path))
