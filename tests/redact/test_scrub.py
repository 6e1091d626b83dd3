"""Secret values leave the text of a dump file, whatever its form; everything else stays put.
Documents are written for these tests in kubectl's shapes (4-space JSON Lists, sorted YAML)."""

from __future__ import annotations

import base64
import json

import yaml

from analyzer.ingest import ingest
from analyzer.redact.scrub import scrub_text

VALUE = base64.b64encode(b"hunter2-planted").decode()
SECRET = {"apiVersion": "v1", "kind": "Secret", "metadata": {
    "name": "db", "namespace": "shop",
    "annotations": {"kubectl.kubernetes.io/last-applied-configuration": json.dumps(
        {"kind": "Secret", "data": {"password": VALUE}})}},
    "data": {"password": VALUE}, "stringData": {"token": "plain-planted"}, "type": "Opaque"}
CONFIGMAP = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cfg", "namespace": "shop"},
             "data": {"mode": "fast"}}


def _clean(text: str) -> bool:
    return VALUE not in text and "plain-planted" not in text and "hunter2" not in text


def test_json_list_keeps_kubectl_indentation_and_other_objects() -> None:
    text = json.dumps({"apiVersion": "v1", "kind": "List", "items": [CONFIGMAP, SECRET]}, indent=4) + "\n"
    out, count = scrub_text(text)
    assert count == 1 and _clean(out)
    assert out.splitlines()[1].startswith("    \"") and out.endswith("}\n")
    doc = json.loads(out)
    assert doc["items"][0] == CONFIGMAP
    assert doc["items"][1]["data"] == {"password": "<redacted: 15 bytes>"}
    assert set(doc["items"][1]["stringData"]) == {"token"}


def test_cluster_info_dump_with_log_blocks_and_items_without_kind() -> None:
    # cluster-info dump: concatenated Lists whose items carry no kind, then log blocks
    items = {"kind": "SecretList", "apiVersion": "v1", "items": [{k: v for k, v in SECRET.items() if k != "kind"}]}
    text = (json.dumps({"kind": "NodeList", "items": []}, indent=4) + "\n" + json.dumps(items, indent=4) + "\n"
            "==== START logs for container c of pod shop/p ====\nhello\n==== END logs for container c of pod shop/p ====\n")
    out, count = scrub_text(text)
    assert count == 1 and _clean(out)
    assert out.startswith(json.dumps({"kind": "NodeList", "items": []}, indent=4))
    assert out.endswith("hello\n==== END logs for container c of pod shop/p ====\n")


def test_items_without_kind_in_a_file_named_for_secrets() -> None:
    text = json.dumps({"items": [{"metadata": {"name": "db"}, "data": {"password": VALUE}}]}, indent=2)
    assert _clean(scrub_text(text, "cluster-resources/secrets/shop.json")[0])


def test_compact_json_stays_compact() -> None:
    out, count = scrub_text(json.dumps(SECRET, separators=(",", ":")) + "\n")
    assert count == 1 and _clean(out) and out.count("\n") == 1


def test_yaml_documents_and_untouched_neighbours() -> None:
    cm = yaml.safe_dump(CONFIGMAP, sort_keys=True)
    text = cm + "---\n" + yaml.safe_dump(SECRET, sort_keys=True)
    out, count = scrub_text(text)
    assert count == 1 and _clean(out)
    assert out.startswith(cm + "---\n")
    result = ingest({"x.yaml": out})
    assert result.objects_by_kind == {"ConfigMap": 1, "Secret": 1}


def test_yaml_that_does_not_parse_loses_its_data_blocks_line_by_line() -> None:
    text = ("apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\n  labels: {broken\n"
            f"data:\n  password: {VALUE}\n  cert: |\n    -----BEGIN-----\n    hunter2-line\nstringData: {{token: plain-planted}}\n")
    out, count = scrub_text(text)
    assert count >= 2 and _clean(out)
    assert "  password: <redacted>" in out and "  cert: <redacted>" in out


def test_scrubbed_text_is_left_as_it_is() -> None:
    once, _ = scrub_text(yaml.safe_dump(SECRET))
    twice, count = scrub_text(once)
    assert (twice, count) == (once, 0)


def test_text_without_secrets_is_not_touched() -> None:
    text = "kind: ConfigMap\n# secretive comment\ndata:\n  a: b\n"
    assert scrub_text(text) == (text, 0)


def test_a_secret_as_one_line_of_json_in_any_text() -> None:
    # `kubectl describe secret` prints the last-applied JSON on its own line (kubectl 1.2x);
    # kubectl JSON output holds it escaped inside a string
    describe = ("Name:         db\nNamespace:    shop\nAnnotations:  kubectl.kubernetes.io/last-applied-configuration:\n"
                f'                {{"apiVersion":"v1","data":{{"api-token":"{VALUE}"}},"kind":"Secret",'
                '"metadata":{"name":"db"},"stringData":{"k":"plain-planted"}}\n\nType:  Opaque\n\nData\n====\n'
                "api-token:  15 bytes\n")
    out, count = scrub_text(describe)
    assert count == 1 and _clean(out) and out.endswith("api-token:  15 bytes\n")
    escaped = json.dumps({"metadata": {"annotations": {"kubectl.kubernetes.io/last-applied-configuration": json.dumps(
        {"kind": "Secret", "data": {"p": VALUE}})}}, "kind": "Event"}, indent=4)
    assert _clean(scrub_text(escaped)[0])
    once, _ = scrub_text(json.dumps(SECRET, separators=(",", ":")))
    assert "<redacted: 15 bytes>" in once  # sizes written by the document pass are kept
