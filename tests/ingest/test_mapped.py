"""Large files are mapped, not read: same objects, raw bytes left in the file, pages given back.

Fixtures: the bundled sample dumps (kubectl YAML, `cluster-info dump` stdout with log blocks,
its `--output-directory` tree of JSON files), mapped by lowering the size at which files are
mapped to one byte; and small hand-written JSON files in the shapes that are not mapped.
"""

from __future__ import annotations

import mmap
from pathlib import Path

import msgspec
import pytest
from conftest import SAMPLE_DUMPS

from analyzer.errors import InputError
from analyzer.ingest import IngestResult, collect, ingest, tree
from analyzer.ingest.records import LazyRaw

SAMPLES = sorted(p for p in SAMPLE_DUMPS.iterdir() if p.is_dir())


def snapshot(result: IngestResult) -> dict[str, object]:
    """Everything a reader of the result sees, in comparable form."""
    return {
        "objects": [(o.key, o.provenance, o.duplicates, o.notes, msgspec.json.encode(o.view), o.body())
                    for o in result.objects],
        "read": result.objects_read,
        "rejections": result.rejections,
        "skipped": result.skipped,
        "logs": [(log.namespace, log.pod, log.container, log.text) for log in result.logs],
        "files": [(f.source, f.format, f.objects) for f in result.files],
    }


@pytest.fixture
def map_everything(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tree, "MAP_AT_BYTES", 0)


@pytest.mark.parametrize("dump", SAMPLES, ids=lambda p: p.name)
def test_mapped_files_read_exactly_as_read_ones(dump: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    read = snapshot(ingest(dump))
    monkeypatch.setattr(tree, "MAP_AT_BYTES", 0)
    assert snapshot(ingest(dump)) == read


def test_objects_of_a_mapped_json_file_keep_their_bytes_in_the_map(tmp_path: Path, map_everything: None) -> None:
    path = tmp_path / "nodes.json"
    path.write_bytes((SAMPLE_DUMPS / "kubeadm" / "nodes.json").read_bytes())
    result = ingest(path)
    assert result.objects and all(isinstance(o.mapped, tree.MappedFile) for o in result.objects)
    first = result.objects[0]
    # (a List read in one scan finds an item's bytes only when they are asked for)
    assert isinstance(first.raw, LazyRaw)
    assert bytes(first.raw.resolve()) in path.read_bytes()
    assert first.body()["metadata"]["name"] == first.name


def test_body_of_a_changed_file_is_an_error_not_a_crash(tmp_path: Path, map_everything: None) -> None:
    # Reading a mapped page past the end of a truncated file would kill the process (SIGBUS).
    path = tmp_path / "nodes.json"
    path.write_bytes((SAMPLE_DUMPS / "kubeadm" / "nodes.json").read_bytes())
    result = ingest(path)
    path.write_text("{}")
    with pytest.raises(InputError, match="changed or went away"):
        result.objects[-1].body()


def test_pages_behind_the_decoded_items_are_given_back(tmp_path: Path, map_everything: None,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(collect, "_RELEASE_STEP", 1)
    released: list[int] = []
    real = tree.MappedFile.release
    monkeypatch.setattr(tree.MappedFile, "release",
                        lambda self, upto=None: (released.append(upto), real(self, upto)))
    path = tmp_path / "nodes.json"
    data = (SAMPLE_DUMPS / "kubeadm" / "nodes.json").read_bytes()
    path.write_bytes(data)
    result = ingest(path)
    # the pages behind the parts decoded as they go, all of them at the end
    assert released[-1] is None
    steps = released[:-1]
    assert steps and steps == sorted(steps) and steps[-1] <= len(data)
    # every object is still whole after its pages went
    assert [o.body()["metadata"]["name"] for o in result.objects] == [o.name for o in result.objects]


@pytest.mark.parametrize("content", [
    b'\xef\xbb\xbf{"kind": "List", "items": [{"kind": "Namespace", "apiVersion": "v1", "metadata": {"name": "a"}}]}',
    b'{"kind": "List",\r\n "items": [{"kind": "Namespace", "apiVersion": "v1", "metadata": {"name": "a"}}]}\r\n',
    b'$ kubectl get ns -o json\n{"kind": "List", "items": [{"kind": "Namespace", "apiVersion": "v1", "metadata": {"name": "a"}}]}',
    b'{"kind": "Namespace", "apiVersion": "v1", "metadata": {"name": "a"}}\n{"kind": "Namespace", "apiVersion": "v1", "metadata": {"name": "b"}}\n',
    b"apiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n",
], ids=["bom", "crlf", "prompt", "concatenated", "yaml"])
def test_files_that_are_not_one_plain_json_document_are_read_as_before(
    tmp_path: Path, content: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "dump"
    path.write_bytes(content)
    read = snapshot(ingest(path))
    monkeypatch.setattr(tree, "MAP_AT_BYTES", 0)
    assert isinstance(tree.read_file(path, "dump"), tree.MappedFile)
    assert snapshot(ingest(path)) == read
    assert read["objects"]


def test_an_empty_file_is_read_not_mapped(tmp_path: Path, map_everything: None) -> None:
    empty = tmp_path / "empty.json"
    empty.write_bytes(b"")
    assert tree.read_file(empty, "empty.json") == b""  # (an empty file cannot be mapped)
    assert ingest(empty).files[0].format == "empty"


def test_a_mapped_file_is_mapped_read_only(tmp_path: Path, map_everything: None) -> None:
    path = tmp_path / "a.json"
    path.write_bytes(b'{"kind": "Namespace", "apiVersion": "v1", "metadata": {"name": "a"}}')
    mapped = tree.read_file(path, "a.json")
    assert isinstance(mapped, tree.MappedFile)
    with pytest.raises(TypeError):
        mapped.map[0:1] = b"x"
    assert isinstance(mapped.map, mmap.mmap)


def test_a_raw_slice_of_the_map_is_located_in_the_file(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    path.write_bytes(b'{"items": [{"spec": {"nodeName": "n1"}}]}')
    mapped = tree.MappedFile(path, "a.json")
    items = msgspec.json.decode(memoryview(mapped.map), type=dict[str, list[dict[str, msgspec.Raw]]])
    spec = items["items"][0]["spec"]
    assert mapped.offset_of(spec) == path.read_bytes().index(b'{"nodeName"')
    assert mapped.offset_of(msgspec.Raw(b'{"nodeName": "n1"}')) is None  # not from the map
    assert mapped.offset_of(msgspec.Raw()) is None
