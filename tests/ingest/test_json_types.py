"""Objects say whether their body holds JSON's types only, which the tables' memos rely on.

Fixtures: hand-written one-object dumps; the YAML date is the kind of value only PyYAML's
CSafeLoader makes (yaml-rs is not used for it).
"""

from __future__ import annotations

from analyzer.ingest import ingest, yamldocs

POD_YAML = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: ns\n  labels:\n    day: {day}\n"


def test_json_and_fast_yaml_objects_hold_json_types() -> None:
    (json_obj,) = ingest(b'{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "ns"}}').objects
    (yaml_obj,) = ingest(POD_YAML.format(day="'2001-12-14'").encode()).objects
    assert json_obj.json_types and yaml_obj.json_types


def test_yaml_read_by_csafeloader_may_hold_dates_and_is_not_marked() -> None:
    result = ingest(POD_YAML.format(day="2001-12-14").encode())
    (obj,) = result.objects
    assert not obj.json_types
    assert str(obj.body()["metadata"]["labels"]["day"]) == "2001-12-14"


def test_only_the_document_read_slowly_is_unmarked() -> None:
    text = POD_YAML.format(day="'x'") + "---\n" + POD_YAML.format(day="2001-12-14").replace("name: p", "name: q")
    documents = yamldocs.read_yaml_file(text).documents
    assert [d.json_types for d in documents] == [True, False]


def test_pasted_text_objects_are_not_marked() -> None:
    result = ingest(b"NAME   READY   STATUS    RESTARTS   AGE\nweb-1  1/1     Running   0          5d\n")
    assert result.objects and not any(o.json_types for o in result.objects)
