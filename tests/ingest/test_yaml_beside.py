"""A large YAML List's later chunks read by a child on the idle CPU give exactly what reading the
whole text gives; a child that stops at a chunk (an item CSafeLoader reads, an item that does not
parse), fails, or finds no CPU idle for it leaves the rest to this process.

Fixtures: every YAML file of `shared/realdata` and of the bundled sample dumps (as they are,
with CRLF line ends and with a UTF-8 BOM); generated dumps (synthetic/benchmark.py, as
benchmarks/generate_dump.py writes them, seed 1); small hand-written Lists of pods.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from analyzer import forked
from analyzer.ingest import ingest, tree, yamlchunks
from synthetic import benchmark as generate_dump

from .conftest import Children
from .test_mapped import snapshot
from .test_yamlchunks import ITEMS, YAML_FILES, as_tuple, read_in_chunks, variants, whole

pytestmark = pytest.mark.skipif(not forked.fork_supported(), reason="needs fork and a second CPU (Linux)")


@pytest.fixture
def beside(monkeypatch: pytest.MonkeyPatch, children_beside: Children) -> list[int | None]:
    """Every chunked List read with a child beside: how many chunks each child read (None: no
    result)."""
    monkeypatch.setattr(yamlchunks, "BESIDE_FROM_BYTES", 0)
    return children_beside.chunks_read


def assert_same(data: bytes, chunk_bytes: int) -> None:
    parsed = read_in_chunks(data, chunk_bytes)
    assert parsed is not None
    assert as_tuple(parsed) == as_tuple(whole(data))


@pytest.mark.skipif(not YAML_FILES, reason="no YAML fixtures")
def test_real_yaml_reads_the_same_with_a_child_beside(beside: list[int | None]) -> None:
    for path in YAML_FILES:
        for data in variants(path.read_bytes()):
            parsed = read_in_chunks(data, 700)
            if parsed is not None:  # (not a List, or one the cuts cannot prove: read whole)
                assert as_tuple(parsed) == as_tuple(whole(data)), path
    assert sum(1 for chunks in beside if chunks) > len(YAML_FILES) / 2  # (most are Lists)


@pytest.mark.parametrize("shape", ["baseline", "production"])
def test_generated_dumps_read_the_same_with_a_child_beside(tmp_path: Path, beside: list[int | None],
                                                            shape: str) -> None:
    path = tmp_path / "dump.yaml"
    generate_dump.write_dump(path, pods=40, nodes=6, fmt="yaml", seed=1, shape=shape)
    # a document after the List: its line counts the List's, the child's chunks' included
    after = b"---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: after\n"
    for data in variants(path.read_bytes() + after):
        assert_same(data, 20_000)
    assert len(beside) == 3 and all(beside)


@pytest.mark.parametrize("odd_item", [
    "- a: yes\n  when: 2001-01-01\n",  # YAML 1.1 scalars: CSafeLoader reads the item, a dict stays
    "- a: [\n",  # does not parse: the document is read whole, and is broken there
], ids=["safe-loader", "broken"])
def test_a_child_stops_at_an_item_it_cannot_make_json_of(beside: list[int | None], odd_item: str) -> None:
    pods = [f"- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: p{i}\n    namespace: a\n" for i in range(60)]
    data = ITEMS.format(items="".join(pods[:50]) + odd_item + "".join(pods[50:])).encode()
    for variant in variants(data):
        parsed = read_in_chunks(variant, 300)
        if parsed is None:  # broken: the whole text says where
            assert whole(variant).broken
        else:
            assert as_tuple(parsed) == as_tuple(whole(variant))
    assert beside and all(chunks is not None and chunks < 20 for chunks in beside)


@pytest.mark.parametrize("how", ["fails", "no-idle-cpu"])
def test_a_child_that_reads_nothing_leaves_the_list_to_this_process(
        beside: list[int | None], monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    if how == "fails":
        def json_items_of(source, spans, first_line):
            raise MemoryError("the child ran out of memory")
        monkeypatch.setattr(yamlchunks, "_json_items_of", json_items_of)
    else:
        monkeypatch.setattr(forked, "_idle_cpu_beside_parent", lambda: False)
    pods = "".join(f"- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: p{i}\n    namespace: a\n" for i in range(60))
    assert_same(ITEMS.format(items=pods).encode(), 300)
    assert beside == [None]


def test_a_broken_item_in_the_childs_chunks_is_named_by_file_document_and_line(
        tmp_path: Path, beside: list[int | None], monkeypatch: pytest.MonkeyPatch) -> None:
    items = "".join(f"- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: p{i}\n    namespace: a\n" for i in range(50))
    path = tmp_path / "pods.yaml"
    path.write_text(ITEMS.format(items=items + items + "- apiVersion: [\n" + items))
    monkeypatch.setattr(yamlchunks, "BESIDE_FROM_BYTES", 1 << 60)
    read = snapshot(ingest(path))
    monkeypatch.setattr(yamlchunks, "BESIDE_FROM_BYTES", 0)
    monkeypatch.setattr(tree, "MAP_AT_BYTES", 0)
    monkeypatch.setattr(yamlchunks, "CHUNK_BYTES", 100)
    result = ingest(path)
    assert snapshot(result) == read
    [rejection] = result.rejections
    assert rejection.source.endswith("pods.yaml") and rejection.location.startswith("document 0, line ")
    assert beside and beside[0] is not None
