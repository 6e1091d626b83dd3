"""A List cut short (a dump cut off by a full disk, a paste cut by a ticket's size limit) loses
only the item it was cut in: every complete item before the cut is read, named by its line,
the cut one is rejected with its line and reason, and nothing is invented.

Fixture: realdata minikube/troubleshoot-analyze-files/events/message-image-pull-fail.json
(replicatedhq/troubleshoot pkg/analyze/files @ 5bf008f, an EventList of 17 items), cut at any
byte in the shapes such a List is saved in: as the bundle wrote it, on one line as
`kubectl get --raw` and `jq -c` print it, with its indentation stripped, and as `kubectl get -o
yaml` prints it (keys sorted, so a List's `kind` and `metadata` come after its items).
"""

from __future__ import annotations

import json

import pytest
import yaml
from conftest import REALDATA
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer.ingest import ingest, ingest_text
from analyzer.model.normalize import source_of

SOURCE = REALDATA / "minikube/troubleshoot-analyze-files/events/message-image-pull-fail.json"


def _shapes() -> dict[str, bytes]:
    saved = SOURCE.read_bytes()
    value = json.loads(saved)
    stripped = b"\n".join(line.lstrip() for line in saved.split(b"\n"))
    return {"saved": saved, "one line": json.dumps(value, separators=(",", ":")).encode(), "stripped": stripped}


def _item_spans(data: bytes) -> list[tuple[int, int, str]]:
    """(start, end, name) of each item, found with Python's own decoder (not the reader's)."""
    decoder = json.JSONDecoder()
    text = data.decode()
    pos = text.index("[", text.index('"items"')) + 1
    spans = []
    while True:
        while text[pos] in " \t\r\n,":
            pos += 1
        if text[pos] == "]":
            return spans
        item, end = decoder.raw_decode(text, pos)
        spans.append((len(text[:pos].encode()), len(text[:end].encode()), item["metadata"]["name"]))
        pos = end


def _yaml_list() -> tuple[bytes, list[tuple[int, int, str]]]:
    """The List as kubectl prints it in YAML, and (start, end, name) of each item in it (an
    item ends where the next begins; the last, where `kind:` does)."""
    value = json.loads(SOURCE.read_bytes())
    text = "apiVersion: v1\nitems:\n"
    spans = []
    for item in value["items"]:
        start = len(text)
        text += yaml.safe_dump([item])
        spans.append((start, len(text), item["metadata"]["name"]))
    text += yaml.safe_dump({"kind": value["kind"], "metadata": value["metadata"]})
    return text.encode(), spans


def _line_of(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


SHAPES = _shapes() if SOURCE.exists() else {}
pytestmark = pytest.mark.skipif(not SOURCE.exists(), reason="realdata is not beside the repo")


@settings(max_examples=150, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(shape=st.sampled_from(["saved", "one line", "stripped"]), where=st.floats(0, 1))
def test_a_list_cut_at_any_byte_keeps_its_complete_items_and_rejects_the_cut_one(shape: str, where: float) -> None:
    data = SHAPES[shape]
    spans = _item_spans(data)
    first = spans[0][0]
    cut = first + round(where * (len(data) - first))
    r = ingest({"cluster-resources/events/message-image-pull-fail.json": data[:cut]})
    assert r.accounting_holds()
    complete = [name for start, end, name in spans if end <= cut]
    # every complete item read, in order, each as it was in the file: nothing lost or invented
    assert [o.name for o in r.objects] == complete
    whole = {item["metadata"]["name"]: item for item in json.loads(data)["items"]}
    assert all(o.body() == whole[o.name] for o in r.objects)
    assert [o.provenance.item for o in r.objects] == list(range(len(complete)))  # each its place in the List
    inside = [(start, name) for start, end, name in spans if start < cut < end]
    if not inside:
        assert not r.object_rejections
        return
    [(start, name)] = inside
    [rejection] = r.object_rejections
    assert rejection.location == f"line {_line_of(data, start)}"
    assert f"item {len(complete) + 1} of the EventList, cut off: the file ends inside this item" in rejection.reason
    assert r.objects_read == len(complete) + 1


def test_each_salvaged_item_is_named_by_its_own_line() -> None:
    data = SHAPES["saved"]
    spans = _item_spans(data)
    r = ingest({"events.json": data[:spans[3][1] + 40]})  # cut in the fifth item
    assert [o.provenance.line for o in r.objects] == [_line_of(data, s) for s, _, _ in spans[:4]]
    [rejection] = r.object_rejections
    assert rejection.reason == ("broken JSON document: item 5 of the EventList, cut off: the file ends inside "
                                "this item; the 4 before it read")


def test_items_salvaged_from_a_list_on_one_line_are_named_by_their_place_as_the_whole_lists_are() -> None:
    # kubectl get --raw and jq -c print a List on one line: every item opens on line 1, so a
    # table's source cell of 'events.json:1' for each of them would not say which one it is
    data = SHAPES["one line"]
    spans = _item_spans(data)
    whole = ingest({"events.json": data})
    r = ingest({"events.json": data[:spans[3][1] + 40]})  # cut in the fifth item
    assert [source_of(o) for o in r.objects] == [source_of(o) for o in whole.objects[:4]] == [
        f"{whole.objects[0].provenance.source} (document 0, item {i})" for i in range(4)]
    assert [o.provenance.location for o in r.objects] == ["document 0, line 1"] * 4
    [rejection] = r.object_rejections
    assert rejection.location == "line 1" and rejection.reason.startswith("broken JSON document: item 5 of the ")

    # an item alone on its line keeps its line in the cell (the indented List as the bundle wrote it)
    data = SHAPES["saved"]
    spans = _item_spans(data)
    r = ingest({"events.json": data[:spans[3][1] + 40]})
    assert [source_of(o) for o in r.objects] == [
        f"{r.objects[0].provenance.source}:{_line_of(data, s)}" for s, _, _ in spans[:4]]


def test_a_list_cut_between_two_items_says_its_end_is_missing() -> None:
    data = SHAPES["one line"]
    spans = _item_spans(data)
    r = ingest({"events.json": data[:spans[1][1] + 1]})  # just after the second item's comma
    assert [o.name for o in r.objects] == [name for _, _, name in spans[:2]] and not r.object_rejections
    assert [s.reason for s in r.skipped] == [
        "the EventList is cut off after its item 2: the file ends before the List does"]


@settings(max_examples=120, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(where=st.floats(0, 1))
def test_a_yaml_list_cut_at_any_byte_keeps_its_complete_items_and_rejects_the_cut_one(where: float) -> None:
    data, spans = _yaml_list()
    first = spans[0][0]
    cut = first + 1 + round(where * (len(data) - first - 1))
    r = ingest({"events.yaml": data[:cut]})
    assert r.accounting_holds()
    # an item the text ends in, or just after, is not known whole: kubectl prints the List's
    # kind after its items, so a List that ends in its items may end in the middle of one
    complete = [name for start, end, name in spans if end < cut]
    assert [o.name for o in r.objects] == complete
    whole = {item["metadata"]["name"]: item for item in json.loads(SOURCE.read_bytes())["items"]}
    assert all(o.body() == whole[o.name] for o in r.objects)
    inside = [start for start, end, _ in spans if start < cut <= end]
    if not inside:
        assert not r.object_rejections
        return
    [rejection] = r.object_rejections
    assert rejection.location == f"document 0, line {_line_of(data, inside[0])}"
    assert rejection.reason.startswith(f"item {len(complete) + 1} of the List, ")
    assert "cut off" in rejection.reason


def test_a_yaml_list_cut_in_a_line_names_the_cut_item_and_reads_the_others() -> None:
    data, spans = _yaml_list()
    third = data[spans[2][0]:]
    # in the third item's second key (`count`): a key without its colon does not parse
    r = ingest({"events.yaml": data[:spans[2][0] + third.index(b"\n  count:") + 6]})
    assert [o.name for o in r.objects] == [name for _, _, name in spans[:2]]
    assert [o.provenance.line for o in r.objects] == [_line_of(data, s) for s, _, _ in spans[:2]]
    [rejection] = r.object_rejections
    assert rejection.reason == "item 3 of the List, cut off: the file ends inside this item; the 2 before it read"

    # cut at a line's end it parses, and the List's missing end is what tells
    r = ingest({"events.yaml": data[:spans[2][0] + third.index(b"\n  count:") + 1]})
    assert [o.name for o in r.objects] == [name for _, _, name in spans[:2]]
    [rejection] = r.object_rejections
    assert rejection.reason == ("item 3 of the List, may be cut off: the file ends in it, before the kind and "
                                "metadata kubectl prints after a List's items")


def _session(command: str, pasted: bytes) -> str:
    """A terminal session as a ticket quotes it: the command, its output, and the next command
    with its table after it (so the paste ends where the file does not)."""
    return (f"$ {command}\n{pasted.decode()}\n$ kubectl get ns\nNAME      STATUS   AGE\n"
            "default   Active   5m\n")


def test_a_list_cut_in_a_transcript_says_where_the_paste_ends_not_the_file() -> None:
    # a paste cut inside its sixth item: the session goes on after it, so 'the file ends
    # inside this item' would send the reader to the file's end
    data = SHAPES["saved"]
    spans = _item_spans(data)
    r = ingest_text(_session("kubectl get events -o json", data[:spans[5][0] + 200]), "session.txt")
    assert [o.name for o in r.objects if o.kind == "Event"] == [name for _, _, name in spans[:5]]
    [rejection] = r.object_rejections
    assert rejection.reason == ("broken JSON document: item 6 of the EventList, cut off: the paste ends inside "
                                "this item; the 5 before it read")

    # on one line, cut between two items: the List's end is missing from the paste
    data = SHAPES["one line"]
    spans = _item_spans(data)
    r = ingest_text(_session("kubectl get events -o json", data[:spans[1][1] + 1]), "session.txt")
    assert [o.name for o in r.objects if o.kind == "Event"] == [name for _, _, name in spans[:2]] and not r.object_rejections
    assert [s.reason for s in r.skipped if "EventList" in s.reason] == [
        "the EventList is cut off after its item 2: the paste ends before the List does"]

    # in YAML, cut at a line's end inside the third item
    data, yaml_spans = _yaml_list()
    third = data[yaml_spans[2][0]:]
    r = ingest_text(_session("kubectl get events -o yaml", data[:yaml_spans[2][0] + third.index(b"\n  count:")]),
                    "session.txt")
    assert [o.name for o in r.objects if o.kind == "Event"] == [name for _, _, name in yaml_spans[:2]]
    [rejection] = r.object_rejections
    assert rejection.reason == ("item 3 of the List, may be cut off: the paste ends in it, before the kind and "
                                "metadata kubectl prints after a List's items")
    assert not any("the file ends" in x.reason for x in r.rejections + r.skipped)


def test_a_real_yaml_paste_cut_inside_its_only_item_says_the_paste_ends_in_it() -> None:
    # A write-up's `kubectl get cm -n kubeless -o yaml` (public code index id 24406571462), its
    # block ending in the item's data, prose after it: the ConfigMap without its kind and
    # metadata is not read as whole, and the rejection says where the paste ends
    text = ("Edit the configmap to specific a serviceAccountName in the deployment object:\n\n```\n"
            "$ kubectl get cm -n kubeless -o yaml\napiVersion: v1\nitems:\n- apiVersion: v1\n  data:\n"
            "    builder-image: kubeless/function-image-builder:v0.6.0\n    deployment: |-\n      spec:\n"
            "        template:\n          serviceAccountName: falco\n    enable-build-step: \"false\"\n"
            "    function-registry-tls-verify: \"true\"\n    ingress-enabled: \"false\"\n    runtime-images: |-\n\n"
            "```\n\nDelete the controller pods in the kubeless namespac so that a new controller starts with "
            "this new configuration.\n")
    r = ingest_text(text, "falco-kubeless.md")
    assert r.accounting_holds() and not r.objects
    [rejection] = r.object_rejections
    assert rejection.location == "document 0, line 7"
    assert rejection.reason == ("item 1 of the List, may be cut off: the paste ends in it, before the kind and "
                                "metadata kubectl prints after a List's items")


# kubectl -o yaml Lists as written into public write-ups and READMEs without the `kind: List` and
# `metadata:` kubectl prints after the items. Of ten such Lists found (code index ids 29532540557
# twice, 24406571462, 15094732487, 16016021679, 38919656509, 18894686718, 18358680651,
# 37564356796, 37634260818), not one ended in a whole item: each was cut or abridged inside its
# last one, where sixteen others in the same search kept their trailer. Two of them, trimmed:
_ENDLESS_LISTS = {
    # a Job's pod in Terminating, cut in its ownerReferences, the next command in the same block
    "37634260818": ("```\nkubectl get po -oyaml\napiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Pod\n"
                    "  metadata:\n    finalizers:\n    - batch.kubernetes.io/job-tracking\n"
                    "    generateName: hibernate-pause-11111111-\n    name: hibernate-pause-11111111-abcde\n"
                    "    namespace: ns12345\n    ownerReferences:\n    - apiVersion: batch/v1\n"
                    "      blockOwnerDeletion: true\n      controller: true\n      kind: Job\n"
                    "      name: hibernate-pause-11111111\n\nkubectl get ns\nNAME      STATUS   AGE\n"
                    "ns12345   Active   5m\n```\n", 5),
    # an Event as a lab's 'Sample output' shows it, its metadata and source left out
    "18894686718": ("Sample output:\n\n```yaml\napiVersion: v1\nitems:\n- apiVersion: v1\n  count: 6\n"
                    "  eventTime: null\n  firstTimestamp: \"2025-12-03T09:24:28Z\"\n  involvedObject:\n"
                    "    apiVersion: v1\n    fieldPath: spec.containers{app}\n    kind: Pod\n    name: test-app\n"
                    "    namespace: default\n  kind: Event\n  lastTimestamp: \"2025-12-03T09:25:30Z\"\n"
                    "  message: \"Readiness probe failed: cat: can't open '/tmp/ready': No such file or directory\"\n"
                    "  reason: Unhealthy\n  type: Warning\n```\n", 6),
}


@pytest.mark.parametrize("source", sorted(_ENDLESS_LISTS))
def test_a_yaml_list_pasted_without_its_trailer_is_not_read_whole_in_its_last_item(source: str) -> None:
    text, line = _ENDLESS_LISTS[source]
    r = ingest_text(text, f"{source}.md")
    assert r.accounting_holds()
    assert not [o for o in r.objects if o.kind in ("Pod", "Event")]
    [rejection] = r.object_rejections
    assert rejection.location == f"document 0, line {line}"
    assert rejection.reason.startswith("item 1 of the List, may be cut off: the paste ends in it")
