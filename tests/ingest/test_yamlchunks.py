"""A large YAML file read from its mapping a range at a time reads exactly as its whole text.

`yamlchunks.read_yaml_buffer` against `yamldocs.read_yaml_file` of the text `collect` decodes
(BOM dropped, CRLF as LF), with chunks as small as one item so that every cut is exercised.

Fixtures: every YAML file of `shared/realdata` and of the bundled sample dumps (as they are,
with CRLF line ends and with a UTF-8 BOM); generated dumps (synthetic/benchmark.py, as
benchmarks/generate_dump.py writes them, seed 1); small hand-written Lists for the layouts
the cuts must prove or refuse (block and quoted scalars over column-0 `- ` lines, `---`
streams, indented and flow-style Lists, anchors, junk after a document); hypothesis Lists
built from such lines.
"""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest
from conftest import REALDATA, SAMPLE_DUMPS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer.ingest import collect, ingest, tree, yamlchunks, yamldocs
from analyzer.ingest.records import JsonItem
from synthetic import benchmark as generate_dump

from .test_mapped import snapshot

YAML_FILES = sorted(
    p for root in (REALDATA, SAMPLE_DUMPS) for p in root.rglob("*")
    if p.is_file() and p.suffix in (".yaml", ".yml")
)


def whole(data: bytes) -> yamldocs.YamlFile:
    """What the file reads as when it is read whole."""
    return yamldocs.read_yaml_file(collect._normalise_bytes(data, "f").decode("utf-8", "replace"), compact_items=True)


def as_tuple(parsed: yamldocs.YamlFile) -> tuple:
    documents = [(d.index, d.line, d.value, d.json_types, _item_types(d.value), d.item_lines) for d in parsed.documents]
    return documents, parsed.skipped, parsed.broken


def _item_types(value: object) -> list[type] | None:
    items = value.get("items") if isinstance(value, dict) else None
    return [type(item) for item in items] if isinstance(items, list) else None


@pytest.fixture
def chunked(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many documents were read in chunks (appended to as they are)."""
    read: list[int] = []
    real = yamlchunks._read_list_in_chunks

    def spy(*args, **kwargs):
        result = real(*args, **kwargs)
        if result is not None:
            read.append(1)
        return result
    monkeypatch.setattr(yamlchunks, "_read_list_in_chunks", spy)
    return read


def read_in_chunks(data: bytes, chunk_bytes: int) -> yamldocs.YamlFile | None:
    source = yamlchunks.MappedText.open(data)
    return None if source is None else yamlchunks.read_yaml_buffer(source, None, True, chunk_bytes)


def assert_same(data: bytes, chunk_bytes: int = 1) -> bool:
    """The chunked read equals the whole read; False where the chunked reader declined."""
    parsed = read_in_chunks(data, chunk_bytes)
    if parsed is None:
        return False
    assert as_tuple(parsed) == as_tuple(whole(data))
    return True


def variants(data: bytes) -> list[bytes]:
    return [data, data.replace(b"\n", b"\r\n"), codecs.BOM_UTF8 + data]


@pytest.mark.skipif(not YAML_FILES, reason="no YAML fixtures")
def test_real_yaml_reads_the_same_in_chunks(chunked: list[int]) -> None:
    for path in YAML_FILES:
        for data in variants(path.read_bytes()):
            for chunk_bytes in (1, 700):
                assert assert_same(data, chunk_bytes), path
    assert len(chunked) > len(YAML_FILES) / 2  # (most are Lists)


@pytest.mark.parametrize("shape", ["baseline", "production"])
def test_generated_dumps_read_the_same_in_chunks(tmp_path: Path, chunked: list[int], shape: str) -> None:
    path = tmp_path / "dump.yaml"
    generate_dump.write_dump(path, pods=40, nodes=6, fmt="yaml", seed=1, shape=shape)
    for data in variants(path.read_bytes()):
        assert assert_same(data, 1)
        assert assert_same(data, 20_000)
    [document] = read_in_chunks(path.read_bytes(), 20_000).documents
    assert sum(isinstance(item, JsonItem) for item in document.value["items"]) > len(document.value["items"]) / 2
    assert len(chunked) == 7


ITEMS = "apiVersion: v1\nitems:\n{items}kind: List\nmetadata:\n  resourceVersion: \"\"\n"


@pytest.mark.parametrize(("items", "in_chunks"), [
    # a block scalar whose lines look like items (indented: the cut is at column 0 only)
    ("- a: |\n    - apiVersion: v1\n    - b\n- a: 2\n", True),
    # a quoted scalar carried onto a column-0 `- ` line: one item to the whole text
    ('- a: "x\n- b: y"\n- c: 1\n', False),
    ("- a: 'x\n\n- b'\n", False),
    # a flow collection over such a line
    ("- {a: 1,\n- b: 2}\n", False),
    # an empty block scalar before the next item
    ("- a: >\n\n- b: 1\n", True),
    # an anchor in one item and its alias in another
    ("- &x {a: 1}\n- *x\n", False),
    # a second items key, a marker with content, a directive, a BOM inside
    ("- a: 1\nitems:\n- b: 2\n", False),
    ("- a: 1\n--- x\n- b: 2\n", False),
    ("- a: 1\n%YAML 1.1\n- b: 2\n", False),
    ("- a: \ufeffx\n- b: 2\n", False),
    # YAML 1.1 scalars (CSafeLoader reads those items: they stay dicts), an item that is no mapping
    ("- a: yes\n- b: 0755\n- 2001-01-01\n- c: 1_000\n", True),
    ("- a: 0\n-\n  a: 1\n- - x\n  - y\n-\n", True),
    ("-\n  a: 1\n- b: 2\n", False),  # (a List is cut only when its first item starts with `- `)
    # comments at column 0 between items
    ("- a: 1\n# - not an item\n- b: 2\n", True),
    # an item that does not parse: the document is read whole, and is broken there
    ("- a: 1\n- b: [\n- c: 1\n", False),
])
def test_lists_whose_cuts_must_be_proven(items: str, in_chunks: bool, chunked: list[int]) -> None:
    data = ITEMS.format(items=items).encode()
    for variant in variants(data):
        assert assert_same(variant, 1)
    assert len(chunked) == (3 if in_chunks else 0)


@pytest.mark.parametrize("text", [
    # kubectl's layout inside a `---` stream, beside other documents
    "kind: Pod\nmetadata:\n  name: a\n---\n" + ITEMS.format(items="- a: 1\n- b: 2\n") + "---\nkind: Pod\n",
    ITEMS.format(items="- a: 1\n") + "...\n---\n" + ITEMS.format(items="- b: 2\n- c: 3\n") + "--- # end\n",
    # other layouts: an indented sequence, a flow List, a top-level sequence, one object
    "apiVersion: v1\nitems:\n  - a: 1\n  - b: 2\nkind: List\n",
    'apiVersion: v1\nitems: [{"a": 1},\n  {"b": 2}]\nkind: List\n',
    'apiVersion: v1\nitems:\n[{"a": 1},\n- {"b": 2}]\nkind: List\n',
    "- apiVersion: v1\n  kind: Pod\n- apiVersion: v1\n  kind: Node\n",
    "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n",
    # items first, no other keys, blank lines before, no line end at the end
    "items:\n- a: 1\n- b: 2\n",
    "\n\n" + ITEMS.format(items="- a: 1\n- b: 2\n"),
    "apiVersion: v1\nitems:\n- a: 1\n- b: 2",
    # junk after the document (a prompt, prose), and an error in a document of a stream
    ITEMS.format(items="- a: 1\n- b: 2\n") + "$ kubectl get nodes\n",
    "a: [\n---\n" + ITEMS.format(items="- a: 1\n- b: 2\n"),
    ITEMS.format(items="- a: ***HIDDEN***\n- b: 2\n"),
])
def test_streams_and_other_layouts_read_the_same(text: str) -> None:
    for variant in variants(text.encode()):
        assert assert_same(variant, 1)


@pytest.mark.parametrize("text", [
    "$ kubectl get pods -o yaml\n" + ITEMS.format(items="- a: 1\n"),  # junk before the YAML
    "  apiVersion: v1\n  items:\n  - a: 1\n",  # YAML pasted indented
])
def test_what_needs_the_whole_text_is_declined(text: str) -> None:
    assert read_in_chunks(text.encode(), 1) is None


def test_files_that_must_be_decoded_whole_are_declined() -> None:
    data = ITEMS.format(items="- a: 1\n").encode()
    assert yamlchunks.MappedText.open(codecs.BOM_UTF16_LE + data.decode().encode("utf-16-le")) is None
    assert read_in_chunks(data.replace(b"- a: 1\n", b"- a: 1\r- b: 2\n"), 1) is None  # a lone CR
    assert yamlchunks.MappedText.open(b"\xff\xfe\x00" + data) is None
    assert yamlchunks.MappedText.open(data) is not None


# Lines of kubectl's layout three times in four, odd ones otherwise.
_KUBECTL_LINES = st.sampled_from(["- a: 1", "  b: c", "  d:", "  - e", "  f: |", "    - g: h", "- i: 'j'", "  k: [l, m]"])
_LINES = st.one_of(
    _KUBECTL_LINES, _KUBECTL_LINES, _KUBECTL_LINES,
    st.sampled_from([
        "- a: yes", '- c: "y', "- d: |", "    - e: f", "- i: >-", "    text", "l'", "- m: 'n", "- {p: 1,",
        "- q: 2}", "- [r,", "s]", "- &t u", "- *t", "-", "  -", "", "# - comment", "---", "--- v", "...",
        "%YAML 1.1", "items:", "kind: List", "  w: 0755", "- x: 1_0", "- y: 2001-01-01", "- z: \ufeff",
        "-  - nested", "- ü: ß", "\t- tab",
    ]),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# (a List whose text starts with `items:` is never cut, as yamlfast does not cut it)
@given(lines=st.lists(_LINES, max_size=12), header=st.sampled_from(["apiVersion: v1\n"] * 3 + [""]),
       trailer=st.booleans(),
       chunk_bytes=st.integers(1, 12), crlf=st.booleans(), bom=st.booleans())
def test_lists_of_odd_lines_read_the_same(lines: list[str], header: str, trailer: bool, chunk_bytes: int,
                                          crlf: bool, bom: bool) -> None:
    text = header + "items:\n- a: 0\n" + "".join(f"{ln}\n" for ln in lines)
    text += "kind: List\n" if trailer else ""
    data = text.encode()
    if crlf:
        data = data.replace(b"\n", b"\r\n")
    if bom:
        data = codecs.BOM_UTF8 + data
    assert_same(data, chunk_bytes)


def test_a_mapped_yaml_dump_reads_as_a_read_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                chunked: list[int]) -> None:
    path = tmp_path / "dump.yaml"
    generate_dump.write_dump(path, pods=40, nodes=6, fmt="yaml", seed=1, shape="production")
    read = snapshot(ingest(path))
    monkeypatch.setattr(tree, "MAP_AT_BYTES", 0)
    monkeypatch.setattr(yamlchunks, "CHUNK_BYTES", 10_000)
    decoded: list[int] = []
    released: list[int] = []
    real_text, real_release = yamlchunks.MappedText.text, tree.MappedFile.release
    monkeypatch.setattr(yamlchunks.MappedText, "text",
                        lambda self, start, end: (decoded.append(end - start), real_text(self, start, end))[1])
    monkeypatch.setattr(tree.MappedFile, "release",
                        lambda self, upto=None: (released.append(upto), real_release(self, upto))[1])
    assert snapshot(ingest(path)) == read
    assert chunked
    size = path.stat().st_size
    # never the whole text at once (the head: what decides what the file is), and the pages go as it is read
    assert max(decoded[1:]) < size / 4
    # (all of them once the scans for markers and line ends touched every page, then chunk by chunk)
    steps = [upto for upto in released if upto is not None]
    assert steps[0] == size and len(steps) > 10 and steps[1:-1] == sorted(steps[1:-1])


def test_a_broken_item_of_a_mapped_list_is_named_by_file_document_and_line(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    items = "".join(f"- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: p{i}\n    namespace: a\n" for i in range(50))
    path = tmp_path / "pods.yaml"
    path.write_text(ITEMS.format(items=items + "- apiVersion: [\n" + items))
    read = snapshot(ingest(path))
    monkeypatch.setattr(tree, "MAP_AT_BYTES", 0)
    monkeypatch.setattr(yamlchunks, "CHUNK_BYTES", 100)
    result = ingest(path)
    assert snapshot(result) == read
    [rejection] = result.rejections
    assert rejection.source.endswith("pods.yaml")
    assert rejection.location.startswith("document 0, line ")


def test_a_yaml_dump_is_mapped_from_a_smaller_size_than_other_files(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    yaml_path, json_path, text_path = tmp_path / "pods.yaml", tmp_path / "pods.json", tmp_path / "notes.txt"
    yaml_path.write_text(ITEMS.format(items="- a: 1\n" * 100))
    json_path.write_text('{"apiVersion": "v1",\n"items": []}\n' + " " * 1000)
    text_path.write_text("kind words about apiVersion: v1\n" * 50)
    read = snapshot(ingest(yaml_path))
    monkeypatch.setattr(tree, "YAML_MAP_AT_BYTES", 500)
    assert isinstance(tree.read_file(yaml_path, "pods.yaml"), tree.MappedFile)
    assert isinstance(tree.read_file(json_path, "pods.json"), bytes)
    assert isinstance(tree.read_file(text_path, "notes.txt"), bytes)
    assert snapshot(ingest(yaml_path)) == read
