"""A large List's later chunks decoded by a child on the idle CPU give exactly what this process
reading them all gives; a child that stops at a chunk, fails, or finds no CPU idle for it leaves
the rest to this process.

Fixtures: every JSON file of `shared/realdata` (real kubectl, cluster-info dump and bundle
output) and of the bundled sample dumps; dumps of every shape `benchmarks/generate_dump.py`
writes (seed 1); small hand-written Lists of pods with a custom resource among them.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from conftest import REALDATA, SAMPLE_DUMPS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import analyzer
from analyzer import forked
from analyzer.cluster.tables import table_names
from analyzer.ingest import ingest, jsondocs
from synthetic import benchmark as generate_dump
from synthetic.clusters.scalable import cluster as synthetic_cluster

from .conftest import Children
from .test_jsondocs import _odd_item, _pod, _write_list, item_by_item  # noqa: F401 - a fixture
from .test_mapped import snapshot

pytestmark = pytest.mark.skipif(not forked.fork_supported(), reason="needs fork and a second CPU (Linux)")

JSON_FILES = sorted(
    p for root in (REALDATA, SAMPLE_DUMPS) for p in root.rglob("*")
    if p.is_file() and p.suffix == ".json"
)


@pytest.fixture
def beside(monkeypatch: pytest.MonkeyPatch, children_beside: Children) -> Children:
    """Every List read in chunks of a few items, with a child beside for the later ones."""
    monkeypatch.setattr(jsondocs, "_CHUNKED_FROM_BYTES", 0)
    monkeypatch.setattr(jsondocs, "_CHUNK_BYTES", 3000)
    monkeypatch.setattr(jsondocs, "_BESIDE_FROM_BYTES", 0)
    return children_beside


@pytest.mark.skipif(not JSON_FILES, reason="no JSON fixtures")
def test_real_json_reads_the_same_with_a_child_beside(beside: Children, item_by_item) -> None:  # noqa: F811
    for path in JSON_FILES:
        assert snapshot(ingest(path)) == snapshot(item_by_item(path)), path
    assert beside.started > 20  # most of them are kubectl's Lists
    assert sum(1 for read in beside.chunks_read if read) > 20  # and their children read chunks


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(items=st.lists(_odd_item(), min_size=4, max_size=10))
def test_any_list_reads_the_same_with_a_child_beside(tmp_path_factory, item_by_item, beside: Children,  # noqa: F811
                                                     items: list) -> None:
    # Odd kinds, values of other types, items that are no object: the child stops where the union
    # cannot read a chunk, this process reads the rest, and nothing a reader sees changes.
    path = tmp_path_factory.mktemp("odd") / "dump.json"
    path.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": items}, indent=4))
    with pytest.MonkeyPatch.context() as m:
        m.setattr(jsondocs, "_CHUNK_BYTES", 200)
        with_child = snapshot(ingest(path))
    assert with_child == snapshot(item_by_item(path))


@pytest.mark.parametrize("shape", synthetic_cluster.shape_names())
def test_every_shape_gives_the_same_tables_with_a_child_beside(tmp_path: Path, beside: Children,
                                                               monkeypatch: pytest.MonkeyPatch,
                                                               shape: str) -> None:
    path = tmp_path / "dump.json"
    generate_dump.write_dump(path, pods=40, nodes=15 if shape == "large-cluster" else 8, fmt="json", seed=1,
                             shape=shape)
    with_child = analyzer.load(path)
    assert beside.started == 1 and beside.chunks_read[0]
    monkeypatch.setattr(jsondocs, "_BESIDE_FROM_BYTES", 1 << 60)
    alone = analyzer.load(path)
    assert beside.started == 1
    assert snapshot(with_child.ingest) == snapshot(alone.ingest)
    for name in table_names():  # speed must not change a single cell, nor a dtype
        assert with_child.tables[name].equals(alone.tables[name]), name
        assert list(with_child.tables[name].dtypes) == list(alone.tables[name].dtypes), name


@pytest.mark.parametrize("at", [0.6, 0.75, 1.0])
def test_a_child_stops_at_a_custom_resource_and_this_process_reads_on(
        tmp_path: Path, beside: Children, item_by_item, monkeypatch: pytest.MonkeyPatch, at: float) -> None:  # noqa: F811
    widget = {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w", "namespace": "ns"},
              "spec": {"size": 3}}
    pods = [_pod(f"p{i}") for i in range(80)]
    where = int(at * len(pods))  # in the child's share (the later 45% of the bytes)
    path = _write_list(tmp_path, [*pods[:where], widget, *pods[where:]])
    given: list[list[tuple[int, int]]] = []  # the chunks a child was given
    real_decode_beside = jsondocs._decode_beside

    def decode_beside(data, spans):
        child, later = real_decode_beside(data, spans)
        given.append(spans[later:])
        return child, later

    monkeypatch.setattr(jsondocs, "_decode_beside", decode_beside)
    assert snapshot(ingest(path)) == snapshot(item_by_item(path))
    assert beside.started == 1 and len(given) == 1
    widget_at = path.read_bytes().index(b'"Widget"')
    widget_chunk = next(i for i, (start, stop) in enumerate(given[0]) if start <= widget_at < stop)
    assert beside.chunks_read == [widget_chunk]  # the child read up to the widget's chunk
    env = jsondocs.decode_document(memoryview(path.read_bytes()))
    by_parts = [i for i, item in enumerate(env.items) if type(item).__name__ == "ItemParts"]
    assert where in by_parts and by_parts == list(range(by_parts[0], by_parts[-1] + 1))  # its chunk alone


@pytest.mark.parametrize("how", ["fails", "no-idle-cpu"])
def test_a_child_that_reads_nothing_leaves_the_list_to_this_process(
        tmp_path: Path, beside: Children, item_by_item, monkeypatch: pytest.MonkeyPatch, how: str) -> None:  # noqa: F811
    if how == "fails":
        def views_of(data, spans):
            raise MemoryError("the child ran out of memory")
        monkeypatch.setattr(jsondocs, "_views_of", views_of)
    else:
        monkeypatch.setattr(forked, "_idle_cpu_beside_parent", lambda: False)
    path = _write_list(tmp_path, [_pod(f"p{i}") for i in range(60)])
    assert snapshot(ingest(path)) == snapshot(item_by_item(path))
    assert beside.started == 1 and beside.chunks_read == [None]


def test_no_child_beside_while_another_child_is_at_work(tmp_path: Path, beside: Children,
                                                        item_by_item) -> None:  # noqa: F811
    # `kda report` reads a large dump in a second process while this one reads it too: a third
    # would only compete with them for the two CPUs
    path = _write_list(tmp_path, [_pod(f"p{i}") for i in range(60)])
    report_child = forked.fork_call(lambda: time.sleep(30) or 0, int, own_memory=1)
    assert report_child is not None
    with report_child:
        assert not forked.can_fork_own(1)
        assert snapshot(ingest(path)) == snapshot(item_by_item(path))
        assert beside.started == 0
    assert forked.can_fork_own(1)  # once it is stopped and reaped


def test_a_child_starts_no_child_of_its_own(beside: Children) -> None:
    with forked.fork_call(lambda: forked.can_fork_own(1), bool, own_memory=1) as child:
        assert child.result() is False
    assert forked.can_fork_own(1)
