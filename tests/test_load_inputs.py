"""`analyzer.load` tells dump text from a path: text with newlines, and one line of JSON."""

from __future__ import annotations

import json

import pytest
from conftest import REALDATA

import analyzer
from analyzer.errors import MissingInputError

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


def test_a_mistyped_path_raises_naming_the_folder_meant() -> None:
    # A notebook's analyzer.load of a path one letter off was a Cluster of nothing, its tables
    # empty; kda inspect said "no object could be read" and exited 2.
    meant = REALDATA / "k3s" / "troubleshoot-testdata-supportbundle"
    if not meant.is_dir():
        pytest.skip("shared realdata not beside the repo")
    typed = meant.with_name("troubleshoot-testdata-supportbundl")
    with pytest.raises(FileNotFoundError) as raised:
        analyzer.load(typed)
    assert isinstance(raised.value, MissingInputError) and raised.value.source == str(typed)
    assert str(raised.value) == f"{typed}: no such file or folder; did you mean {meant}?"
    with pytest.raises(MissingInputError, match="no such file or folder$"):
        analyzer.load(str(meant), "no-such-dump-here.tar.gz")  # one input of several
