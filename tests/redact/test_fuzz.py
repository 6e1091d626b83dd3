"""Property-based tests: whatever bytes, structures or damaged real files ingestion and redaction
get, no exception escapes and ingestion's accounting stays exact.

CI runs a few hundred examples in total. A longer run is the same tests with more examples:
    KDA_FUZZ_EXAMPLES=20000 .venv/bin/pytest tests/redact/test_fuzz.py
"""

from __future__ import annotations

import json
import os
import tempfile
from functools import cache
from pathlib import Path

import pytest
import yaml
from conftest import REALDATA, SAMPLE_DUMPS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer.ingest import ingest
from analyzer.ingest.collect import IngestResult
from analyzer.redact import redact_dump
from analyzer.redact.pseudonyms import Pseudonyms
from analyzer.redact.scrub import scrub_text
from analyzer.sensitive.credentials import mask_credentials

_SCALE = int(os.environ.get("KDA_FUZZ_EXAMPLES", "0"))


def _examples(default: int) -> settings:
    return settings(max_examples=_SCALE or default, deadline=None, derandomize=not _SCALE,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])


def _assert_accounted(result: IngestResult) -> None:
    # the invariant IngestResult documents: every object candidate is kept, a duplicate, or an
    # object-level rejection, exactly once; and rejections split into the two kinds exactly
    assert result.objects_read == len(result.objects) + result.duplicates + len(result.object_rejections)
    assert len(result.rejections) == len(result.object_rejections) + len(result.input_rejections)
    assert result.accounting_holds()


# Paths that make ingestion read a file as a given layout (support bundle, must-gather, logs).
PATHS = st.sampled_from([
    "dump.json", "dump.yaml", "cluster-info-dump.txt", "cluster-resources/pods/default.json",
    "cluster-resources/secrets/default.json", "namespaces/shop/core/pods.yaml",
    "cluster-resources/pods/logs/shop/web-1/app.log", "shop/web-1/logs.txt", "notes.txt",
])

KEYS = st.sampled_from([
    "kind", "apiVersion", "metadata", "name", "namespace", "uid", "items", "Items", "spec", "status",
    "data", "stringData", "labels", "annotations", "containers", "nodeName", "selfLink", "type",
    "ownerReferences", "involvedObject", "message", "Spec", "Status", "podIP", "addresses",
])
KINDS = st.sampled_from(["Pod", "Secret", "List", "PodList", "SecretList", "Node", "Event", "ConfigMap",
                         "Service", "Endpoints", "Deployment", "Namespace", "Widget", ""])
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10, 10**12), st.floats(allow_nan=False),
                    KINDS, st.text(max_size=20), st.sampled_from(["10.0.0.1", "v1", "apps/v1", "kube-system"]))
VALUES = st.recursive(
    SCALARS,
    lambda children: st.one_of(st.lists(children, max_size=4), st.dictionaries(st.one_of(KEYS, st.text(max_size=8)), children, max_size=5)),
    max_leaves=25,
)
OBJECTS = st.fixed_dictionaries(
    {"kind": KINDS}, optional={"apiVersion": st.sampled_from(["v1", "apps/v1", "x/y", ""]),
                               "metadata": st.one_of(VALUES, st.fixed_dictionaries(
                                   {"name": st.text(max_size=12)}, optional={"namespace": st.text(max_size=8), "uid": st.text(max_size=8)})),
                               "items": st.lists(VALUES, max_size=4), "data": VALUES, "spec": VALUES})
DOCUMENTS = st.one_of(OBJECTS, VALUES, st.lists(OBJECTS, max_size=4).map(lambda items: {"kind": "List", "items": items}))


@_examples(150)
@given(data=st.binary(max_size=2048), path=PATHS)
def test_arbitrary_bytes(data: bytes, path: str) -> None:
    _assert_accounted(ingest({path: data}))
    _assert_accounted(ingest(data))


@_examples(150)
@given(doc=DOCUMENTS, path=PATHS, indent=st.sampled_from([None, 2, 4]))
def test_arbitrary_json_structures(doc: object, path: str, indent: int | None) -> None:
    _assert_accounted(ingest({path: json.dumps(doc, indent=indent)}))


@_examples(100)
@given(docs=st.lists(DOCUMENTS, min_size=1, max_size=3), path=PATHS)
def test_arbitrary_yaml_structures(docs: list, path: str) -> None:
    _assert_accounted(ingest({path: yaml.safe_dump_all(docs)}))


@cache
def _real_files() -> list[tuple[str, bytes]]:
    """Small real files of every form (REALDATA/SOURCES.md) and slices of the sample dumps."""
    files = []
    for root in sorted(p for p in REALDATA.glob("*/*") if p.is_dir()):
        small = sorted(p for p in root.rglob("*") if p.is_file() and 512 < p.stat().st_size < 24_000)
        files.extend((p.relative_to(root).as_posix(), p.read_bytes()) for p in small[:3])
    eks = SAMPLE_DUMPS / "eks" / "cluster-info-dump.txt"
    if eks.exists():
        files.append(("cluster-info-dump.txt", eks.read_bytes()[:30_000]))
    return files


MUTATIONS = st.lists(st.tuples(st.sampled_from(["flip", "delete", "insert", "truncate", "duplicate"]),
                               st.floats(0, 1), st.integers(1, 64), st.binary(min_size=1, max_size=8)),
                     min_size=1, max_size=4)


def _mutate(data: bytes, mutations: list) -> bytes:
    for op, where, size, junk in mutations:
        i = int(where * len(data))
        if op == "flip":
            data = data[:i] + junk + data[i + len(junk):]
        elif op == "delete":
            data = data[:i] + data[i + size:]
        elif op == "insert":
            data = data[:i] + junk + data[i:]
        elif op == "truncate":
            data = data[:i]
        else:
            data = data[:i] + data[i:i + size * 16] + data[i:]
    return data


@_examples(120)
@given(index=st.integers(0, 10_000), mutations=MUTATIONS)
def test_mutated_real_dumps(index: int, mutations: list) -> None:
    files = _real_files()
    path, data = files[index % len(files)]
    _assert_accounted(ingest({path: _mutate(data, mutations)}))


@_examples(120)
@given(text=st.one_of(st.text(max_size=400), DOCUMENTS.map(lambda d: json.dumps(d, indent=4)),
                      DOCUMENTS.map(yaml.safe_dump)), path=PATHS)
def test_redaction_of_any_text_never_fails(text: str, path: str) -> None:
    scrubbed, _ = scrub_text(text, path)
    masked, _ = mask_credentials(scrubbed)
    p = Pseudonyms(b"k")
    assert isinstance(p.text(masked), str)
    try:
        json.loads(text)
    except ValueError:
        return
    json.loads(masked)  # masking never breaks a JSON document


@_examples(25)
@given(docs=st.lists(OBJECTS, min_size=1, max_size=4), form=st.sampled_from(["json", "yaml"]))
def test_redacted_copy_reads_like_the_original(docs: list, form: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "dump"
        src.mkdir()
        text = json.dumps({"kind": "List", "items": docs}, indent=4) if form == "json" else yaml.safe_dump_all(docs)
        (src / f"objects.{form}").write_text(text, encoding="utf-8")
        before = ingest(str(src))
        redact_dump(src, Path(tmp) / "out", key=b"k", names=True)
        after = ingest(str(Path(tmp) / "out"))
        _assert_accounted(after)
        assert after.objects_by_kind == before.objects_by_kind
        assert after.objects_read == before.objects_read


# Found by test_arbitrary_yaml_structures (KDA_FUZZ_EXAMPLES=1500): an old-shape item (`Spec`)
# whose `metadata` is not a mapping crashed analyzer/ingest/legacy.py:modernize.
@pytest.mark.parametrize("text", ["Spec: {}\nmetadata: [abc]\n", '{"Spec": {}, "metadata": "x"}'])
def test_old_shape_item_with_metadata_that_is_no_mapping(text: str) -> None:
    _assert_accounted(ingest({"dump.yaml": text}))


def test_json_escapes_survive_short_names(tmp_path: Path) -> None:
    # Found by test_redacted_copy_reads_like_the_original: a one-letter namespace "N" was replaced
    # everywhere, including the `n` of a `\n` escape, which broke the JSON.
    src = tmp_path / "dump"
    src.mkdir()
    doc = {"kind": "List", "items": [{"kind": "Pod", "data": {"\n": None, "t": "a\tb\nnode-17"},
                                      "metadata": {"name": "0", "namespace": "N"}}]}
    (src / "objects.json").write_text(json.dumps(doc, indent=4), encoding="utf-8")
    redact_dump(src, tmp_path / "out", key=b"k", names=True)
    assert ingest(str(tmp_path / "out")).objects_by_kind == {"Pod": 1}
