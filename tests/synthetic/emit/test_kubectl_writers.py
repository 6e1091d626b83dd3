"""The kubectl emitters (synthetic/emit/) print exactly what kubectl prints: checked byte for byte on real output."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from conftest import REALDATA
from hypothesis import given, settings
from hypothesis import strategies as st
from yaml.events import (
    DocumentEndEvent,
    DocumentStartEvent,
    Event,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
    StreamStartEvent,
)

from synthetic.emit import kubectl_json, kubectl_yaml


class GoYamlLoader(yaml.CSafeLoader):
    """CSafeLoader that also reads `1e+09` as a float, as go-yaml does (PyYAML needs a dot)."""


GoYamlLoader.add_implicit_resolver(
    "tag:yaml.org,2002:float", re.compile(r"^[-+]?[0-9]+(?:\.[0-9]*)?[eE][-+]?[0-9]+$"), list("-+0123456789")
)

# Fixtures: the kubectl/oc-produced YAML of shared/realdata. Left out: support-bundle-kit's
# metadata.yaml (a Go struct marshalled in field order, not kubectl) and three longhorn files
# whose "***HIDDEN***" redaction made them invalid YAML.
NOT_KUBECTL = {"rke2/support-bundle-kit-harvester/sampleSupportBundle/metadata.yaml"}


def _kubectl_yaml_files() -> list[Path]:
    files = []
    for path in sorted(REALDATA.rglob("*.yaml")):
        if str(path.relative_to(REALDATA)) in NOT_KUBECTL:
            continue
        try:
            yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
        except yaml.YAMLError:
            continue
        files.append(path)
    return files


KUBECTL_YAML = _kubectl_yaml_files()


def test_enough_real_yaml() -> None:
    assert len(KUBECTL_YAML) >= 90


@pytest.mark.parametrize("path", KUBECTL_YAML, ids=lambda p: str(p.relative_to(REALDATA)))
def test_yaml_writer_reproduces_real_output(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    text = text.removeprefix("---\n")  # `oc adm inspect` starts each file with a marker
    document = yaml.load(text, Loader=GoYamlLoader)
    assert kubectl_yaml.dumps(document) == text


# Fixtures: `kubectl get -o json` output in shared/realdata (sorted keys, 4-space indent).
KUBECTL_JSON = [
    REALDATA / "kind/kubectl-neat/list1-raw.json",
    REALDATA / "minikube/kubectl-neat/pod1-raw.json",
    REALDATA / "minikube/kubectl-neat/pv1-raw.json",
    REALDATA / "minikube/k9s-testdata/cilium.json",
]


@pytest.mark.parametrize("path", KUBECTL_JSON, ids=lambda p: str(p.relative_to(REALDATA)))
def test_json_writer_reproduces_real_output(path: Path) -> None:
    data = path.read_bytes()
    assert kubectl_json.dumps(json.loads(data)) + b"\n" == data


def test_json_writer_escapes_like_go() -> None:
    out = kubectl_json.dumps({"b": "<a href='x'>&</a>\u2028", "a": [1, {}, []]})
    assert out == b'{\n    "a": [\n        1,\n        {},\n        []\n    ],\n    "b": "\\u003ca href=\'x\'\\u003e\\u0026\\u003c/a\\u003e\\u2028"\n}'


def test_json_list_is_indented_as_kubectl() -> None:
    import io

    stream = io.BytesIO()
    kubectl_json.write_list([{"kind": "Pod", "metadata": {"name": "p"}}], stream)
    assert stream.getvalue().decode() == (
        '{\n    "apiVersion": "v1",\n    "items": [\n        {\n            "kind": "Pod",\n'
        '            "metadata": {\n                "name": "p"\n            }\n        }\n    ],\n'
        '    "kind": "List",\n    "metadata": {\n        "resourceVersion": ""\n    }\n}\n'
    )


@pytest.mark.parametrize(("value", "plain"), [
    ("abc", True), ("1.30.6", True), ("10.20.0.15", True), ("100m", True), ("<<", True),
    ("true", False), ("y", False), ("Off", False), ("", False), ("~", False), ("2024-05-20T10:00:00Z", False),
    ("2024-5-2", False), ("1e+09", False), ("0x1F", False), ("0755", False), ("1_000", False), (".5", False),
    ("+1", False), ("-.inf", False), ("12345678901234567890", False),
])
def test_go_yaml_resolver(value: str, plain: bool) -> None:
    # go-yaml v2 resolve(): would the plain scalar read back as this string?
    assert kubectl_yaml.resolves_to_string(value) is plain


def test_keys_sorted_in_go_yaml_natural_order() -> None:
    keys = ["b", "a10", "a9", "_x", "Z", ".", "k:{\"containerPort\":10250}", "k:{\"containerPort\":9090}"]
    order = kubectl_yaml.KubectlYamlWriter().sorted_keys(dict.fromkeys(keys))
    assert order == (".", "_x", "Z", "a9", "a10", "b", "k:{\"containerPort\":9090}", "k:{\"containerPort\":10250}")


def test_float_format_is_go_g() -> None:
    cases = {1e9: "1e+09", 123456.0: "123456", 1234567.0: "1.234567e+06", 0.0001: "0.0001", 1e-05: "1e-05", 2.5: "2.5", -0.0: "-0"}
    assert {v: kubectl_yaml._go_format_float(v) for v in cases} == cases


# -- the scalar writers against libyaml's own emitter ----------------------------------------


def _libyaml(document: object) -> str:
    """`document` emitted by libyaml with the styles go-yaml asks for."""

    def style(value: str) -> str | None:
        return {"plain": None, "single": None, "double": '"', "literal": "|"}[kubectl_yaml._style(value)]

    def events(node: object) -> Iterator[Event]:
        if isinstance(node, dict):
            yield MappingStartEvent(None, None, True, flow_style=False)
            for key in kubectl_yaml.KubectlYamlWriter().sorted_keys(node):
                yield ScalarEvent(None, None, (True, True), key, style=style(key))
                yield from events(node[key])
            yield MappingEndEvent()
        elif isinstance(node, list):
            yield SequenceStartEvent(None, None, True, flow_style=False)
            for item in node:
                yield from events(item)
            yield SequenceEndEvent()
        else:
            yield ScalarEvent(None, None, (True, True), node, style=style(node))

    stream = [StreamStartEvent(), DocumentStartEvent(explicit=False), *events(document), DocumentEndEvent(explicit=False), StreamEndEvent()]
    text = yaml.emit(stream, Dumper=yaml.CSafeDumper, width=80, indent=2, allow_unicode=True)
    # libyaml closes an open-ended `|+` document with a `...` line; go-yaml does not (a plain
    # scalar may end in "..." itself: only the line is the marker, after any YAML line break,
    # \u2028 and \x85 included)
    return text[:-len("...\n")] if text.endswith("...\n") and text[-5:-4] in ("\n", "\x85", "\u2028", "\u2029") else text


TEXT = st.text(alphabet=st.sampled_from(list("ab yn01:-#'\"\\ ,[]{}&*!|>%@`?.~_\n\t\r") + ["\u2028", "\x85", "é", "\U0001f600", "\ufeff", "\x07"]), max_size=14)
WORDY = st.builds(lambda n, tail: " ".join(["word"] * n) + tail, st.integers(1, 30), TEXT)
NESTED = st.recursive(
    st.one_of(TEXT, WORDY),
    lambda children: st.lists(children, min_size=1, max_size=3)
    | st.dictionaries(st.one_of(st.text(alphabet="kx", min_size=1, max_size=20), st.text(alphabet="k ", min_size=130, max_size=140)), children, min_size=1, max_size=3),
    max_leaves=6,
)


@settings(max_examples=200, deadline=None)
@given(value=NESTED)
def test_scalar_writers_match_libyaml(value: object) -> None:
    document = {"key": value}
    assert kubectl_yaml.dumps(document) == _libyaml(document)


# Fixtures: typed clients' JSON in shared/realdata, keys in Go struct order (as decoded, in order):
# troubleshoot's support bundles (2 spaces, cluster-resources/) and `kubectl cluster-info dump` stdout
# (4 spaces, documents between the log blocks).
SUPPORT_BUNDLE_JSON = sorted(REALDATA.rglob("cluster-resources/**/*.json"))[:300]
CLUSTER_INFO_DUMP = REALDATA / "kubeadm/cka-3c97-cluster-info-dump/cluster-info-dump.json"


def test_enough_real_typed_json() -> None:
    assert len(SUPPORT_BUNDLE_JSON) >= 100 and CLUSTER_INFO_DUMP.exists()


def test_go_json_reproduces_support_bundles() -> None:
    checked = 0
    for path in SUPPORT_BUNDLE_JSON:
        text = path.read_text(encoding="utf-8")
        try:
            document = json.loads(text)
        except ValueError:  # a collector's error file, not JSON
            continue
        # troubleshoot writes no final newline; go_json ends with one, as kubectl's printers do
        assert kubectl_json.go_json(document, 2).removesuffix("\n") == text.removesuffix("\n"), path
        checked += 1
    assert checked >= 100


def test_go_json_reproduces_cluster_info_dump_stdout() -> None:
    text = CLUSTER_INFO_DUMP.read_text(encoding="utf-8")
    decoder = json.JSONDecoder()
    read_to = documents = 0
    for match in re.finditer(r"(?m)^\{", text):
        if match.start() < read_to:  # a line inside the document just read
            continue
        document, read_to = decoder.raw_decode(text, match.start())
        assert kubectl_json.go_json(document, 4) == text[match.start():read_to] + "\n"
        documents += 1
    assert documents >= 10


def test_compact_json_escapes_like_go() -> None:
    # kubectl apply stores json.Marshal output: sorted keys, no spaces, HTML characters escaped
    assert kubectl_json.compact_json({"b": "a&b<c>", "a": "é"}) == '{"a":"é","b":"a\\u0026b\\u003cc\\u003e"}'
