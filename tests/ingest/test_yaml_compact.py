"""Items of a YAML List kept as compact JSON (`JsonItem`) read exactly as their dicts do, and
only items JSON holds exactly are kept so.

Fixtures: every YAML file of `shared/realdata` and of the bundled sample dumps; generated
dumps of every shape (synthetic/benchmark.py, as benchmarks/generate_dump.py writes them,
seed 1); small hand-written Lists for the values JSON cannot hold (non-finite floats,
integers past 64 bits, keys that are not text) and odd YAML scalars.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REALDATA, SAMPLE_DUMPS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer.ingest import ingest, yamldocs
from analyzer.ingest.records import JsonItem
from synthetic import benchmark as generate_dump
from synthetic.clusters.scalable import cluster as synthetic_cluster

from .test_mapped import snapshot

YAML_FILES = sorted(
    p for root in (REALDATA, SAMPLE_DUMPS) for p in root.rglob("*")
    if p.is_file() and p.suffix in (".yaml", ".yml")
)


@pytest.fixture
def as_dicts(monkeypatch: pytest.MonkeyPatch):
    """Ingestion with every YAML item kept as its dicts (as before the compact items)."""
    real = yamldocs.read_yaml_file

    def read_as_dicts(path: Path):
        with monkeypatch.context() as m:
            m.setattr(yamldocs, "read_yaml_file", lambda text, compact_items=False: real(text))
            return ingest(path)
    return read_as_dicts


@pytest.mark.skipif(not YAML_FILES, reason="no YAML fixtures")
def test_real_yaml_reads_the_same_with_compact_items(as_dicts) -> None:
    for path in YAML_FILES:
        assert snapshot(ingest(path)) == snapshot(as_dicts(path)), path



@pytest.mark.parametrize("shape", synthetic_cluster.shape_names())
def test_every_shape_reads_the_same_with_compact_items(tmp_path: Path, as_dicts, shape: str) -> None:
    path = tmp_path / "dump.yaml"
    generate_dump.write_dump(path, pods=30, nodes=15 if shape == "large-cluster" else 8, fmt="yaml", seed=1,
                             shape=shape)
    [document] = yamldocs.read_yaml_file(path.read_text(), compact_items=True).documents
    # (an item whose text yaml-rs might read otherwise goes to CSafeLoader, and stays dicts)
    compacted = [isinstance(item, JsonItem) for item in document.value["items"]]
    assert sum(compacted) > len(compacted) / 2
    assert snapshot(ingest(path)) == snapshot(as_dicts(path))


_POD = """\
- apiVersion: v1
  kind: Pod
  metadata:
    name: {name}
    namespace: ns
    annotations:
      example.com/value: {value}
  spec:
    nodeName: n1
    containers:
    - name: c
      image: nginx:1.25
"""


@pytest.mark.parametrize(("value", "compact"), [
    ("plain", True),
    ("null", True),  # a null is read back and compared: it is a null
    (".nan", False), (".inf", False), ("-.Inf", False), ("1.0e+400", False),  # JSON writes these as null
    ("123456789012345678901234567890", False),  # past 64 bits
    ("{1: one}", False),  # a key that is not text
    ("2024-05-20", False),  # a date: CSafeLoader reads the item, not yaml-rs
    ("0.1", True), ("-0.0", True), ("12345", True),
])
def test_only_items_json_holds_exactly_are_compacted(tmp_path: Path, as_dicts, value: str, compact: bool) -> None:
    text = "apiVersion: v1\nkind: List\nitems:\n" + _POD.format(name="a", value=value) + _POD.format(name="b", value="x")
    [document] = yamldocs.read_yaml_file(text, compact_items=True).documents
    first, second = document.value["items"]
    assert isinstance(first, JsonItem) is compact
    assert isinstance(second, JsonItem)
    path = tmp_path / "dump.yaml"
    path.write_text(text)
    assert snapshot(ingest(path)) == snapshot(as_dicts(path))


def test_a_secret_item_is_scrubbed_as_before(tmp_path: Path, as_dicts) -> None:
    text = ("apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Secret\n  metadata:\n    name: s\n"
            "    namespace: ns\n  data:\n    password: aHVudGVyMg==\n")
    path = tmp_path / "dump.yaml"
    path.write_text(text)
    result = ingest(path)
    assert snapshot(result) == snapshot(as_dicts(path))
    assert "aHVudGVyMg==" not in repr(snapshot(result))


@pytest.mark.parametrize("item", [{1: "x"}, {"a": 2**70}])
def test_values_json_cannot_hold_keep_their_dicts(item: dict) -> None:
    from analyzer.ingest.yamlfast import _as_json_item

    assert _as_json_item(item) is item


@pytest.mark.parametrize("number", [".nan", ".NaN", ".inf", "-.Inf", "+.INF", "1.0e+400", "1.5e-999",
                                    "1" * 320 + ".0", "1_000.5", "0x10", "1e3"])
def test_numbers_json_may_not_hold_are_never_read_by_yaml_rs(number: str) -> None:
    # What lets compact items skip a check for non-finite floats: such text goes to CSafeLoader.
    from analyzer.ingest.yamlfast import _needs_safe_loader

    assert _needs_safe_loader(f"- a: {number}\n  b: [{number}]\n")
    assert _needs_safe_loader(f"- a: [1, {number}]\n")


def test_a_null_is_kept_as_json() -> None:
    from analyzer.ingest.yamlfast import _as_json_item

    assert _as_json_item({"a": None, "b": [1.5, "x"]}) == b'{"a":null,"b":[1.5,"x"]}'


# Scalars and flows that YAML 1.1 and JSON read in different ways, or not at all.
_ODD_YAML_VALUES = [
    "null", "~", "''", "true", "yes", "off", "0x1F", "0o17", "1e3", "1.5", "-0.0", ".inf", "-.nan",
    "12345678901234567890", "007", "1_000", "'quoted'", '"dq \\u00e9 \\ud83d\\ude00"', "[1, 2.5, null]",
    "{a: 1, b: [x]}", "2024-01-01", "2024-01-01T10:00:00Z", "'2024-01-01'", ":8080", "a: b", "|\n        block",
    ">-\n        folded", "!!str 12", "&a x", "[]", "{}", '"\\t\\n"', "0.1e+400", "1.7976931348623157e+308",
]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(values=st.lists(st.sampled_from(_ODD_YAML_VALUES), min_size=1, max_size=4))
def test_any_odd_value_reads_the_same_with_compact_items(tmp_path_factory, as_dicts, values: list[str]) -> None:
    items = "".join(_POD.format(name=f"p{i}", value=value) for i, value in enumerate(values))
    path = tmp_path_factory.mktemp("odd") / "dump.yaml"
    path.write_text("apiVersion: v1\nkind: List\nitems:\n" + items)
    assert snapshot(ingest(path)) == snapshot(as_dicts(path))
