"""load_yaml_documents returns exactly what PyYAML's CSafeLoader returns (a plain `=` read as the
string it is to the API server), and uses the fast path where it may.

Reference: `list(yaml.load_all(text, Loader=DumpLoader))`. Values are compared by repr,
which sees types (1, 1.0, True), key order, NaN and -0.0.
"""

from __future__ import annotations

import itertools
import sys
import time
from pathlib import Path

import pytest
import yaml
import yaml_rs
from conftest import REALDATA, ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer.ingest import yamlfast
from analyzer.ingest.yamlfast import (
    YamlError,
    iter_yaml_documents,
    load_yaml_documents,
    load_yaml_documents_bytes,
)
from analyzer.safeyaml import DumpLoader

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def reference(text: str | bytes) -> tuple[str, str | None]:
    """CSafeLoader's outcome: ("ok", repr of the documents) or ("error", None)."""
    try:
        return "ok", repr(list(yaml.load_all(text, Loader=DumpLoader)))
    except (yaml.YAMLError, ValueError, OverflowError, TypeError):
        return "error", None


def ours(text: str) -> tuple[str, str | None]:
    try:
        return "ok", repr(load_yaml_documents(text))
    except YamlError:
        return "error", None


def assert_same_as_reference(text: str) -> None:
    assert ours(text) == reference(text), f"differs from CSafeLoader on {text!r}"


@pytest.fixture
def safe_loader_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Records every text that went to CSafeLoader instead of the fast parser."""
    calls: list[str] = []
    real = yamlfast._safe_load

    def counting(text: str, first_line: int) -> object:
        calls.append(text)
        return real(text, first_line)

    monkeypatch.setattr(yamlfast, "_safe_load", counting)
    return calls


# -- (a) every YAML file of the real dumps ---------------------------------------------------

# Fixtures: every *.yaml under shared/realdata (kubectl, oc adm inspect, support-bundle-kit and
# troubleshoot output; three longhorn files hold "***HIDDEN***" redactions that are invalid YAML).
REAL_YAML = sorted(REALDATA.rglob("*.yaml"))


def test_realdata_has_yaml_files() -> None:
    assert len(REAL_YAML) >= 90


@pytest.mark.parametrize("path", REAL_YAML, ids=lambda p: str(p.relative_to(REALDATA)))
def test_real_yaml_file(path: Path) -> None:
    data = path.read_bytes()
    text = data.decode("utf-8")
    assert_same_as_reference(text)
    try:
        got: tuple[str, str | None] = ("ok", repr(load_yaml_documents_bytes(data)))
    except YamlError:
        got = ("error", None)
    assert got == reference(data)


def test_invalid_real_file_reports_its_line() -> None:
    # kubeadm/sbctl-kurl-supportbundle: a redaction left `checksum: ***HIDDEN***` unquoted.
    path = REALDATA / "kubeadm/sbctl-kurl-supportbundle/cluster-resources/custom-resources/replicas.longhorn.io/longhorn-system.yaml"
    with pytest.raises(YamlError) as caught:
        load_yaml_documents(path.read_text(encoding="utf-8"))
    assert caught.value.line == 65
    assert "alias" in caught.value.message


# -- (b) the generated benchmark dump --------------------------------------------------------


@pytest.fixture(scope="module")
def generated_yaml(tmp_path_factory: pytest.TempPathFactory) -> str:
    """200 pods (+ nodes, workloads, ...) as benchmarks/generate_dump.py writes them."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from generate_dump import write_dump
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    path = tmp_path_factory.mktemp("dump") / "pods-200.yaml"
    write_dump(path, pods=200, nodes=12, fmt="yaml", seed=7)
    return path.read_text(encoding="utf-8")


def test_generated_dump_matches_reference(generated_yaml: str) -> None:
    assert ours(generated_yaml) == reference(generated_yaml)


def test_generated_dump_never_needs_the_safe_loader(generated_yaml: str, safe_loader_calls: list[str]) -> None:
    # kubectl output quotes every ambiguous string, so none of it should leave the fast path.
    documents = load_yaml_documents(generated_yaml)
    assert len(documents[0]["items"]) > 200
    assert safe_loader_calls == []


def test_one_odd_item_only_sends_that_item_to_the_safe_loader(generated_yaml: str, safe_loader_calls: list[str]) -> None:
    odd = generated_yaml.replace("\nkind: List\n", "\n- apiVersion: v1\n  kind: ConfigMap\n  data:\n    enabled: yes\nkind: List\n")
    documents = load_yaml_documents(odd)
    assert documents[0]["items"][-1]["data"] == {"enabled": True}
    assert safe_loader_calls == ["- apiVersion: v1\n  kind: ConfigMap\n  data:\n    enabled: yes\n"]
    assert ours(odd) == reference(odd)


# -- (c) generated documents -----------------------------------------------------------------

# Plain scalars YAML 1.1 and 1.2 read differently, and their neighbours.
PLAIN_WORDS = [
    "on", "off", "On", "OFF", "yes", "no", "Yes", "NO", "y", "n", "Y", "true", "False", "TRUE", "null",
    "Null", "~", "", "0755", "0o17", "0x1F", "0b101", "1_0", "1_000", "1e3", "1.5e+3", "1E3", ".5", "-.5",
    "+1", "+.inf", ".inf", "-.Inf", ".nan", ".NaN", "12", "-3", "0", "-0", "00", "007", "0.5", "-0.0",
    "1.30.6", "10.20.0.15", "100m", "2001-12-14", "2001-12-14 21:59:43.10 -5", "2001-12-14t21:59:43.10-05:00",
    "2002-12-14T21:59:43Z", "1:20", "190:20:30", "=", "<<", "123456789012345678901234", "-9223372036854775809",
    "v1.29.4", "--flag=on", "a b", "x #y", "é", "ümlaut: x",
]
SCALARS = st.one_of(
    st.text(max_size=12),
    st.sampled_from(PLAIN_WORDS),
    st.integers(),
    st.floats(),
    st.booleans(),
    st.none(),
)
KEYS = st.one_of(st.text(max_size=8), st.sampled_from(PLAIN_WORDS), st.integers(-5, 5), st.booleans(), st.none())
DOCUMENTS = st.recursive(
    SCALARS,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(KEYS, children, max_size=4),
    max_leaves=20,
)


@FUZZ
@given(
    document=DOCUMENTS,
    flow=st.sampled_from([False, None, True]),
    width=st.sampled_from([20, 80, 4096]),
    indent=st.sampled_from([2, 4]),
    style=st.sampled_from([None, None, '"', "'"]),
    unicode=st.booleans(),
)
def test_safe_dump_output(document: object, flow: bool | None, width: int, indent: int, style: str | None, unicode: bool) -> None:
    text = yaml.safe_dump(document, default_flow_style=flow, width=width, indent=indent, default_style=style, allow_unicode=unicode)
    assert_same_as_reference(text)


INDENTS = st.sampled_from(["", "", "  ", "    "])
PLAIN_LINES = st.lists(
    st.tuples(INDENTS, st.sampled_from(["key", "- ", "- k", "? "] + PLAIN_WORDS), st.sampled_from([*PLAIN_WORDS, "[on, 1_0]", "{a: no}", "|", ">-", "&x 1", "*x", "!!str 5", "'yes'", '"0755"'])),
    min_size=1, max_size=8,
)


@FUZZ
@given(lines=PLAIN_LINES, colon=st.sampled_from([": ", " : ", ":  ", " :\n  "]))
def test_hand_written_plain_scalars(lines: list[tuple[str, str, str]], colon: str) -> None:
    text = "".join(
        f"{indent}{key}{value}\n" if key.startswith(("- ", "? ")) else f"{indent}{key}{colon}{value}\n"
        for indent, key, value in lines
    )
    assert_same_as_reference(text)


SPACE = st.sampled_from(["", " ", "  "])
FLOW_KEYS = st.sampled_from([*PLAIN_WORDS, '"q"', "'s k'", '""'])
FLOW = st.recursive(
    st.sampled_from(PLAIN_WORDS),
    lambda inner: st.builds(
        lambda open_, items, close: open_ + ",".join(items) + close,
        SPACE.map(lambda s: "[" + s), st.lists(st.builds(str.__add__, SPACE, inner), max_size=3), SPACE.map(lambda s: s + "]"),
    )
    | st.builds(
        lambda pairs: "{" + ", ".join(pairs) + "}",
        st.lists(st.builds(lambda k, a, b, v: f"{k}{a}:{b}{v}", FLOW_KEYS, SPACE, SPACE, inner), max_size=3),
    ),
    max_leaves=8,
)


@FUZZ
@given(flow=FLOW, key=st.sampled_from(["k", "on", "'q'"]), colon=st.sampled_from([": ", " : ", ":\n  "]))
def test_flow_collections_with_any_spacing(flow: str, key: str, colon: str) -> None:
    # YAML written by hand: `{"key" :value}`, `[ on ,0755]`, flows as values or whole documents.
    assert_same_as_reference(flow + "\n")
    assert_same_as_reference(f"{key}{colon}{flow}\n")


@FUZZ
@given(document=DOCUMENTS)
def test_fast_path_alone_agrees_whenever_the_scan_lets_it(document: object) -> None:
    # The claim the module rests on: text the scan passes is read by yaml-rs exactly as by
    # CSafeLoader, or yaml-rs refuses it (and CSafeLoader gets it).
    for text in (yaml.safe_dump(document), yaml.safe_dump(document, default_flow_style=True)):
        if yamlfast._needs_safe_loader(text):
            continue
        try:
            fast = repr(yaml_rs.loads(text, parse_datetime=False))
        except ValueError:
            continue
        assert ("ok", f"[{fast}]") == reference(text)


def test_every_short_scalar_of_numbers_and_indicators_reads_alike() -> None:
    # Exhaustive where fuzzing is thin: yaml-rs and PyYAML disagree on number-like text
    # (`_1`, `1e3`, `0o17`, `1:20`) and on what YAML 1.2 allows in flows (`{a:}`, `{[a]}`),
    # so every text of up to 3 such characters, in eight places, is compared.
    alphabet = "_0.+-e1x:[]{}, "
    scalars = ["".join(p) for n in (1, 2, 3) for p in itertools.product(alphabet, repeat=n)]
    for scalar in scalars:
        for text in (f"a: {scalar}\n", f"{scalar}: a\n", f"- [{scalar}]\n", f"{{{scalar}}}\n", f"- {scalar}\n",
                     f'{{"k":{scalar}}}\n', f'"k":{scalar}\n', f"a: |\n{scalar}\n"):
            assert_same_as_reference(text)


# -- (d) the known traps ---------------------------------------------------------------------

TRAPS = [
    # (text, expected documents) -- expected values spelled out, and also checked against CSafeLoader.
    ("a: on\nb: off\nc: yes\nd: No\n", [{"a": True, "b": False, "c": True, "d": False}]),  # YAML 1.1 booleans
    ("y: n\n", [{"y": "n"}]),  # PyYAML (unlike go-yaml) keeps y/n as strings
    ("mode: 0755\nhex: 0x1F\noctal12: 0o17\n", [{"mode": 493, "hex": 31, "octal12": "0o17"}]),
    ("a: 1_000\nb: 1e3\nc: 1.5e+3\nd: 1:20\n", [{"a": 1000, "b": "1e3", "c": 1500.0, "d": 80}]),
    ("day: 2001-12-14\nquoted: '2001-12-14'\n", [{"day": __import__("datetime").date(2001, 12, 14), "quoted": "2001-12-14"}]),
    ('t: "2024-05-20T10:00:00Z"\n', [{"t": "2024-05-20T10:00:00Z"}]),  # kubectl quotes timestamps
    ("\ufeffa: 1\n", [{"a": 1}]),  # a UTF-8 BOM
    ("big: 18446744073709551616\nneg: -9223372036854775809\n", [{"big": 2**64, "neg": -(2**63) - 1}]),
    ("a: 1\n---\nb: 2\n---\n", [{"a": 1}, {"b": 2}, None]),
    ("", []),
    ("# only a comment\n", []),
    ("---\n# nothing\n---\n", [None, None]),
    ("keep: |+\n  x\n\nstrip: |-\n  x\nclip: >\n  a\n  b\n\n", [{"keep": "x\n\n", "strip": "x", "clip": "a b\n"}]),
    ("a: |2\n   indented\n", [{"a": " indented\n"}]),
    ("a: &x [1, 2]\nb: *x\n", [{"a": [1, 2], "b": [1, 2]}]),
    ("base: &b {x: 1}\nderived:\n  <<: *b\n  y: 2\n", [{"base": {"x": 1}, "derived": {"x": 1, "y": 2}}]),
    ("a: ~\nb: null\nc:\nd: NULL\n", [{"a": None, "b": None, "c": None, "d": None}]),
    ("a: .inf\nb: -.Inf\nc: .NaN\n", [{"a": float("inf"), "b": float("-inf"), "c": float("nan")}]),
    ("2: two\ntrue: t\n~: n\n1.5: f\n", [{2: "two", True: "t", None: "n", 1.5: "f"}]),
    ("dup: 1\ndup: 2\n", [{"dup": 2}]),  # yaml-rs refuses duplicates; CSafeLoader keeps the last
    ("a: !!str 5\nb: !!int '7'\n", [{"a": "5", "b": 7}]),
    ("k: 'it''s'\nd: \"tab\\there \\u263a \\x41\"\n", [{"k": "it's", "d": "tab\there \u263a A"}]),
    ("a: b\r\nc: d\r\n", [{"a": "b", "c": "d"}]),
    ("items: [on, '0755', 0755]\n", [{"items": [True, "0755", 493]}]),
    ('{"replicas":3,"on":yes}\n', [{"replicas": 3, "on": True}]),
    ("yes : x\n0755 :\n", [{True: "x", 493: None}]),  # spaces before a key's colon
    ("{\"q\" :off, 'k':0755}\n", [{"q": False, "k": 493}]),  # a flow value right after the colon
    # a plain `=` (an AlertmanagerConfig CRD's matchType enum): YAML 1.1's `value` type, a string
    # to Go's YAML; CSafeLoader refused the whole file (also where an anchor sends it there)
    ("enum:\n- '!='\n- =\n- =~\n", [{"enum": ["!=", "=", "=~"]}]),
    ("a: &x =\nb: *x\n", [{"a": "=", "b": "="}]),
]


@pytest.mark.parametrize(("text", "expected"), TRAPS, ids=[repr(t[0])[:40] for t in TRAPS])
def test_trap(text: str, expected: list[object]) -> None:
    assert repr(load_yaml_documents(text)) == repr(expected)
    assert_same_as_reference(text)


@pytest.mark.parametrize("text", [
    "a: [1, 2\n",  # unclosed flow sequence
    "a: b: c\n",  # mapping values not allowed here
    "a: 1\n b: 2\n",  # bad indentation
    "a: @x\n",  # reserved indicator
    "a: \x07\n",  # control character
    "[a, b]: c\n",  # unhashable key (yaml-rs would make a tuple)
    "a: 2001-13-45\n",  # a timestamp with no such date: PyYAML raises ValueError
    "a: !foo 1\n",  # unknown tag: yaml-rs would ignore it
    "a: 1\n...\nb: 2\n",  # content after a document end marker
])
def test_invalid_yaml_raises_yaml_error(text: str) -> None:
    assert reference(text) == ("error", None)
    with pytest.raises(YamlError):
        load_yaml_documents(text)


def test_python_tags_are_refused_and_never_run(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    text = f"a: !!python/object/apply:os.system ['touch {marker}']\n"
    with pytest.raises(YamlError, match="python/object"):
        load_yaml_documents(text)
    assert not marker.exists()


def test_billion_laughs_is_refused_quickly() -> None:
    lines = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for previous, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [{', '.join(['*' + previous] * 9)}]")
    started = time.perf_counter()
    with pytest.raises(YamlError, match="aliases expand"):
        load_yaml_documents("\n".join(lines) + "\n")
    assert time.perf_counter() - started < 5


def test_one_long_string_behind_many_aliases_is_refused() -> None:
    text = f"s: &s {'x' * 100_000}\nl: [{', '.join(['*s'] * 2000)}]\n"
    with pytest.raises(YamlError, match="aliases expand"):
        load_yaml_documents(text)


def test_recursive_alias_is_refused() -> None:
    # CSafeLoader would return a list that contains itself; nothing downstream can walk that.
    with pytest.raises(YamlError, match="contains it"):
        load_yaml_documents("&a [*a]\n")


@pytest.mark.parametrize("text", [
    "[" * 50_000 + "]" * 50_000, "- " * 50_000 + "x\n", "".join(" " * i + "a:\n" for i in range(1500)),
])
def test_deep_nesting_is_refused_not_a_crash(text: str) -> None:
    # CSafeLoader alone crashes the interpreter (C stack overflow) past ~20,000 levels.
    # (libyaml from PyYAML 6.0.4 on stops at 1000 levels itself: the same refusal either way.)
    with pytest.raises(YamlError, match="nested more than 1000 levels deep"):
        load_yaml_documents(text)


def test_nesting_below_the_bound_is_read() -> None:
    text = "[" * 900 + "]" * 900
    assert load_yaml_documents(text) == [yaml.load(text, Loader=yaml.CSafeLoader)]


def test_iter_keeps_good_documents_around_a_broken_one() -> None:
    text = "a: 1\n---\nb: [\n---\nc: 3\n"
    results = list(iter_yaml_documents(text))
    assert [(index, line) for index, line, _ in results] == [(0, 1), (1, 3), (2, 5)]
    assert results[0][2] == {"a": 1} and results[2][2] == {"c": 3}
    error = results[1][2]
    assert isinstance(error, YamlError) and error.line == 4  # where CSafeLoader also stops
    with pytest.raises(YamlError):
        load_yaml_documents(text)


def test_error_line_is_absolute_in_later_documents() -> None:
    text = "a: 1\n---\nb: 2\nc: [\n"
    with pytest.raises(YamlError) as caught:
        load_yaml_documents(text)
    assert caught.value.line == 5
    assert str(caught.value).endswith("(line 5)")


def test_bytes_in_utf16_with_bom() -> None:
    # PowerShell `>` writes UTF-16LE with a BOM (see minikube/bits-assignment-group11).
    data = "\ufeffkind: Pod\nname: café\n".encode("utf-16-le")
    assert load_yaml_documents_bytes(data) == [{"kind": "Pod", "name": "café"}]
    assert load_yaml_documents_bytes(data) == list(yaml.load_all(data, Loader=yaml.CSafeLoader))


def test_bytes_not_utf8_says_where() -> None:
    with pytest.raises(YamlError) as caught:
        load_yaml_documents_bytes(b"a: 1\nb: \xff\n")
    assert caught.value.line == 2
    assert "UTF-8" in caught.value.message


@pytest.mark.parametrize("text", [
    "a: yes\n", "a: 0755\n", "- 1_0\n", "a: 2001-12-14\n", "a: &x 1\n", "a: *x\n", "a: !t 1\n", "<<: {}\n",
    "? a\n", "a: [x, on]\n", "{a: 1e3}\n", '{"a":-.5}\n', "a:\tb\n", "a: b\u2028c\n", "a: b\rc\n", "a: =\n",
    "yes: 1\n", "a:\n  - 1:20\n", "a: +1\n", "a: 00\n", "on : 1\n", "[0755 ]\n",
    # yaml-rs reads these as numbers; PyYAML as strings
    "a: _1\n", "a: -_5\n", "a: ._1\n", "a: +._0\n", "_0E9: x\n", "- __1\n",
    # nesting deep enough to overflow yaml-rs's stack
    "- " * 150 + "x\n", " " * 200 + "a: 1\n",
])
def test_scan_sends_each_trap_to_the_safe_loader(text: str) -> None:
    assert yamlfast._needs_safe_loader(text)


@pytest.mark.parametrize("text", [
    "[a, b]: c\n", "- [a]: b\n", "a: {[x]: 1}\n", "{ a: 1, {b: 2}: 3 }\n", "a:\n  - [x]: 1\n", "{\n  [a]: b\n}\n",
    "{[a]}\n", "a: {x, {b: 1}}\n", "{a: |\n  x}\n", '{"k":>x}\n',
])
def test_what_yaml_rs_reads_in_a_flow_and_pyyaml_refuses_goes_to_the_safe_loader(
    text: str, safe_loader_calls: list[str]
) -> None:
    # Collections as keys (tuples to yaml-rs) and block scalar indicators inside a flow are
    # found in yaml-rs's result, and CSafeLoader then refuses the text.
    assert ours(text) == reference(text) == ("error", None)
    assert safe_loader_calls


@pytest.mark.parametrize("text", [
    'a: "yes"\n', "a: 'on'\n", "a: 12\n", "a: -3\n", "a: 0.5\n", "a: 1.30.6\n", "a: 10.20.0.15\n", "a: 100m\n",
    'a: "2024-05-20T10:00:00Z"\n', "a: true\nb: null\nc: ~\n", "a: x on\n", "a: |\n  {\"a\":1,\"b\":null}\n",
    "a: {}\nb: []\n", "k:{\"uid\":\"x\"}: {}\n", "- --flag=on\n", "a: x_1\n", "a: '_1'\n",
    "f:k:{\"containerPort\":80,\"protocol\":\"TCP\"}: {}\n", "a: '[{\"b\":1}]'\n",
])
def test_scan_lets_kubectl_output_through(text: str) -> None:
    assert not yamlfast._needs_safe_loader(text)


# A last-applied JSON holding an IAM role's ARN (`arn:aws:iam::123:role/x`, as EKS pods carry):
# inside a block scalar its brackets open no flow and its `::` is no empty value.
@pytest.mark.parametrize("text", [
    'a: |\n  {"role":"arn:aws:iam::123456789012:role/x","b":[1]}\n',
    '- metadata:\n    annotations:\n      x: |\n        {"r":"arn:aws:iam::1:role/y"}\n      z: "1"\n',
    'a: |-\n  [{"k": ":x"}]\n\n  {"k": "?y"}\nb: 2\n',
])
def test_scan_lets_json_with_colons_in_block_scalars_through(text: str) -> None:
    assert not yamlfast._needs_safe_loader(text)
    assert ours(text) == reference(text)


@pytest.mark.parametrize("text", [
    "a: |\n  x\nb: {c: :d}\n",  # the flow comes after the block scalar ended
    "- |\n  {a: :b}\n",  # a header without a key: not told for sure, so scanned as before
    "a: |2\n   {b: :c}\n",  # an explicit indentation: likewise
])
def test_scan_still_sends_flows_outside_block_scalars_to_the_safe_loader(text: str) -> None:
    assert yamlfast._needs_safe_loader(text)
