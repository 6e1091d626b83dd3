"""Every item of a List is named by its own line, in JSON and YAML, however the List was read
(whole, item by item, in chunks, with a child beside, from a mapping): a rejected or noted item
later in a List can be found in the file.

A JSON List item's line is looked for only when asked (see `jsondocs.ItemLines`): tables and
findings never ask it.

Fixtures (tests/ingest/data/list_item_lines/):
- message-pod-init-crashloop-backoff.json, message-container-creating-failed-mount.json:
  trimmed copies (3 and 1 of 17 and 76 items, managedFields dropped) of
  replicatedhq/troubleshoot pkg/analyze/files/events/<same name> @ 5bf008f7d2460b500085eb948ce416a475131f6c
  (shared/realdata minikube/troubleshoot-analyze-files): the event
  troubleshoot-copyfromhost-4m79m-psdjm.177058280d4c0493 is in both files with one uid, so the
  later one read is kept with a note; it was named "document 0" alone, its List's 17th item.
- list1-raw.yaml: itaysk/kubectl-neat test/fixtures/list1-raw.yaml @ b6e10595aa3f3e3f9ebd762253bbe8840612f938
  (shared/realdata kind/kubectl-neat), a kubectl List of two pods, whole.
The rejected items are those fixtures with a later item's name taken out (an edit, said where made).
A synthetic kubectl List (benchmarks' generator, 40 pods, seed 1) for what tables and findings ask.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import analyzer
from analyzer import forked
from analyzer.cluster.tables import table_names
from analyzer.ingest import ingest, jsondocs, tree, yamlchunks
from synthetic import benchmark as generate_dump

DATA = Path(__file__).parent / "data" / "list_item_lines"
EVENTS = "message-pod-init-crashloop-backoff.json"
SHARED_UID_EVENT = "troubleshoot-copyfromhost-4m79m-psdjm.177058280d4c0493"


def _line_of(path: Path, text: str) -> int:
    """The 1-based line of the first line holding `text`."""
    return next(no for no, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def _item_open_lines(path: Path) -> list[int]:
    """The lines that open the items of a kubectl List: `{` at the items' indentation (JSON,
    as these files are indented) or `- ` at column 0 (YAML)."""
    lines = path.read_text().splitlines()
    if path.suffix == ".json":
        return [no for no, line in enumerate(lines, 1) if line == "    {"]
    return [no for no, line in enumerate(lines, 1) if line.startswith("- ")]


READS = ["whole", "item-by-item", "chunks", "chunks-beside", "mapped"]


@pytest.fixture
def read_as(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    how = request.param
    if how == "item-by-item":
        monkeypatch.setattr(jsondocs, "decode_document",
                            lambda data, release=None: jsondocs.ENVELOPE_DECODER.decode(data))
    elif how in ("chunks", "chunks-beside"):
        monkeypatch.setattr(jsondocs, "_CHUNKED_FROM_BYTES", 0)
        monkeypatch.setattr(jsondocs, "_CHUNK_BYTES", 700)
        monkeypatch.setattr(yamlchunks, "CHUNK_BYTES", 700)
        monkeypatch.setattr(tree, "YAML_MAP_AT_BYTES", 0)
        if how == "chunks-beside":
            if not forked.fork_supported():
                pytest.skip("needs fork and a second CPU (Linux)")
            request.getfixturevalue("children_beside")
            monkeypatch.setattr(jsondocs, "_BESIDE_FROM_BYTES", 0)
            monkeypatch.setattr(yamlchunks, "BESIDE_FROM_BYTES", 0)
        else:
            monkeypatch.setattr(jsondocs, "_BESIDE_FROM_BYTES", 1 << 60)
            monkeypatch.setattr(yamlchunks, "BESIDE_FROM_BYTES", 1 << 60)
    elif how == "mapped":
        monkeypatch.setattr(tree, "MAP_AT_BYTES", 0)
        monkeypatch.setattr(tree, "YAML_MAP_AT_BYTES", 0)
    return how


@pytest.mark.parametrize("read_as", READS, indirect=True)
@pytest.mark.parametrize("name", [EVENTS, "list1-raw.yaml"])
def test_each_item_is_named_by_its_own_line(read_as: str, name: str) -> None:
    path = DATA / name
    result = ingest(path)
    lines = [o.provenance.line for o in result.objects]
    assert lines == _item_open_lines(path)
    assert all(o.provenance.document == 0 for o in result.objects)


@pytest.mark.parametrize("read_as", READS, indirect=True)
def test_a_later_item_noted_is_named_by_its_line(read_as: str) -> None:
    result = ingest(DATA)
    noted = [n for n in result.object_notes if SHARED_UID_EVENT in n["object"] and "uid also used by" in n["note"]]
    assert len(noted) == 1
    path = DATA / EVENTS
    assert noted[0]["source"].endswith(EVENTS)
    assert noted[0]["location"] == f"document 0, line {_line_of(path, SHARED_UID_EVENT) - 4}"  # its `{`
    assert _line_of(path, SHARED_UID_EVENT) - 4 == _item_open_lines(path)[2]


@pytest.mark.parametrize("read_as", READS, indirect=True)
@pytest.mark.parametrize(("name", "cut"), [
    (EVENTS, f'        "name": "{SHARED_UID_EVENT}",\n'),  # the third event's name taken out
    ("list1-raw.yaml", "    name: t2\n    namespace: default\n"),  # the second pod's name taken out
])
def test_a_later_item_rejected_is_named_by_its_line(tmp_path: Path, read_as: str, name: str, cut: str) -> None:
    source = (DATA / name).read_text()
    assert source.count(cut) == 1
    path = tmp_path / name
    path.write_text(source.replace(cut, cut[cut.index("\n") + 1:]))
    result = ingest(path)
    item = len(_item_open_lines(path)) - 1  # the last item
    [rejection] = result.object_rejections
    assert rejection.location == f"document 0, line {_item_open_lines(path)[-1]}, item {item}"
    assert "metadata.name" in rejection.reason


def test_items_pasted_in_a_transcript_are_named_by_their_lines_in_it(tmp_path: Path) -> None:
    # A `kubectl get -o yaml` of two pods pasted after a prompt in a ticket: each pod at its own
    # line of the whole text, not the block's first line.
    pasted = (DATA / "list1-raw.yaml").read_text()
    path = tmp_path / "ticket.md"
    path.write_text("The pods:\n\n```\n$ kubectl get pods -o yaml\n" + pasted + "```\n")
    result = ingest(path)
    names = {o.name: o.provenance.line for o in result.objects}
    assert names == {"t1": 5 + 2, "t2": 5 + 86}  # `- apiVersion` lines 3 and 87 of the paste, which starts at line 5


def test_a_line_asked_of_a_list_read_in_chunks_is_found_in_its_chunk(monkeypatch: pytest.MonkeyPatch) -> None:
    # A List read in chunks is never decoded a second time to find where its items lie: the
    # line ends before the chunk are counted, and the items' boundaries found in it alone.
    monkeypatch.setattr(jsondocs, "_CHUNKED_FROM_BYTES", 0)
    monkeypatch.setattr(jsondocs, "_CHUNK_BYTES", 700)
    monkeypatch.setattr(jsondocs, "_item_lines", lambda *args: pytest.fail("the List decoded again for its lines"))
    result = ingest(DATA / EVENTS)
    assert [o.provenance.line for o in result.objects] == _item_open_lines(DATA / EVENTS)


@pytest.mark.parametrize("chunked", [False, True])
def test_reading_tables_and_findings_never_look_for_a_json_items_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                      chunked: bool) -> None:
    # Counting lines costs a pass over the file (a quarter of the time that reads a kubectl List
    # of 20,000 pods): a JSON List item's line is looked for only where one object is pointed
    # at (a rejection, a note), never for every row of a table or every finding.
    if chunked:
        monkeypatch.setattr(jsondocs, "_CHUNKED_FROM_BYTES", 0)
        monkeypatch.setattr(jsondocs, "_CHUNK_BYTES", 3000)
    path = tmp_path / "dump.json"
    generate_dump.write_dump(path, pods=40, nodes=8, fmt="json", seed=1, shape="baseline")
    asked: list[int] = []
    real_line = jsondocs.ItemLines.line
    monkeypatch.setattr(jsondocs.ItemLines, "line", lambda self, index: asked.append(index) or real_line(self, index))
    cluster = analyzer.load(path)
    for name in table_names():
        cluster.tables[name]
    assert len(cluster.findings)
    assert asked == []
    pods = cluster.tables.pods
    assert pods.source.str.fullmatch(r".*/dump\.json \(document 0, item \d+\)").all()  # each item named
    pod = next(cluster.objects_of("Pod"))
    assert path.read_text().splitlines()[pod.provenance.line - 1].strip() == "{"
