"""`analyzer.load` tells dump text from a path: text with newlines, and one line of JSON."""

from __future__ import annotations

import json

import analyzer

# A minimal Pod as `kubectl get pod -o json | jq -c` prints it (one line), long enough that
# taking it for a file name would fail with "File name too long".
POD = {"apiVersion": "v1", "kind": "Pod",
       "metadata": {"name": "web-1", "namespace": "shop", "labels": {"app": "web" * 200}},
       "spec": {"containers": [{"name": "app", "image": "nginx:1.25"}]}}


def test_one_line_json_is_dump_text() -> None:
    cluster = analyzer.load(json.dumps(POD))
    assert list(cluster.tables.pods["name"]) == ["web-1"]


def test_one_line_json_list_is_dump_text() -> None:
    text = json.dumps({"apiVersion": "v1", "kind": "List", "items": [POD]})
    assert len(analyzer.load(" " + text).tables.pods) == 1


def test_text_with_newlines_is_dump_text() -> None:
    assert len(analyzer.load(json.dumps(POD, indent=2)).tables.pods) == 1
