"""What people do to dumps before we get them: encodings, prompts, comments, junk, truncation.

Every fixture is small and inline; each says where its shape was seen.
"""

from __future__ import annotations

import codecs
import json

import pytest

from analyzer.ingest import IngestResult, ingest, ingest_text

# The shape of `kubectl get pods -o json` (kubectl prints 4-space indented JSON), two pods.
POD_A = {"apiVersion": "v1", "kind": "Pod",
         "metadata": {"name": "web-1", "namespace": "shop", "uid": "uid-a"}, "spec": {"nodeName": "n1"}}
POD_B = {"apiVersion": "v1", "kind": "Pod",
         "metadata": {"name": "web-2", "namespace": "shop", "uid": "uid-b"}, "spec": {"nodeName": "n2"}}
POD_LIST_JSON = json.dumps({"apiVersion": "v1", "kind": "List", "items": [POD_A, POD_B]}, indent=4)
# The shape of `kubectl get pod web-1 -o yaml` (go-yaml: sorted keys, lists not indented).
POD_YAML = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web-1\n  namespace: shop\n  uid: uid-a\nspec:\n  nodeName: n1\n"


def names(r: IngestResult) -> list[str]:
    return sorted(o.key.id for o in r.objects)


def assert_clean(r: IngestResult, expected: list[str]) -> None:
    assert names(r) == expected
    assert r.accounting_holds()
    assert not r.rejections


BOTH = ["core/Pod/shop/web-1", "core/Pod/shop/web-2"]
ONE = ["core/Pod/shop/web-1"]


@pytest.mark.parametrize(
    ("case", "data", "expected"),
    [
        # Windows editors save UTF-8 with a byte-order mark.
        ("utf8 bom json", codecs.BOM_UTF8 + POD_LIST_JSON.encode(), BOTH),
        ("utf8 bom yaml", codecs.BOM_UTF8 + POD_YAML.encode(), ONE),
        # PowerShell `kubectl ... > dump.txt` writes UTF-16LE with a BOM and CRLF
        # (realdata minikube/bits-assignment-group11 is one).
        ("utf16le crlf json", codecs.BOM_UTF16_LE + POD_LIST_JSON.replace("\n", "\r\n").encode("utf-16-le"), BOTH),
        ("utf16be crlf yaml", codecs.BOM_UTF16_BE + POD_YAML.replace("\n", "\r\n").encode("utf-16-be"), ONE),
        ("crlf yaml", POD_YAML.replace("\n", "\r\n").encode(), ONE),
        # `Out-File -Encoding unicode` without a BOM, or a BOM lost when the file was cut.
        ("utf16le no bom", POD_YAML.encode("utf-16-le"), ONE),
        ("utf16be no bom crlf", POD_YAML.replace("\n", "\r\n").encode("utf-16-be"), ONE),
        # JSON Lines: one compact object per line (kubectl get -o json | jq -c '.items[]').
        ("json lines", (json.dumps(POD_A) + "\n" + json.dumps(POD_B) + "\n").encode(), BOTH),
        # A single object, as `kubectl get pod web-1 -o json` prints it.
        ("single json object", json.dumps(POD_A, indent=4).encode(), ONE),
    ],
)
def test_encodings_and_shapes(case: str, data: bytes, expected: list[str]) -> None:
    assert_clean(ingest(data), expected)


@pytest.mark.parametrize(
    ("case", "text", "expected", "skipped_text"),
    [
        # A copied terminal session keeps the prompt line.
        ("prompt before json", "$ kubectl get pods -n shop -o json\n" + POD_LIST_JSON, BOTH, "$ kubectl get pods"),
        ("prompt before yaml", "user@bastion:~$ kubectl get pod web-1 -o yaml\n" + POD_YAML, ONE, "kubectl get pod"),
        # kubectl prints deprecation warnings on stderr, which `2>&1` puts in the file.
        ("warning before json", "Warning: policy/v1beta1 PodSecurityPolicy is deprecated\n" + POD_LIST_JSON, BOTH, "Warning:"),
        ("warning before yaml", "Warning: v1 ComponentStatus is deprecated in v1.19+\n" + POD_YAML, ONE, "Warning:"),
        # A support engineer's note added at the top (realdata k3s/udacity-nd064 has one).
        ("comment before json", "# generated with kubectl cluster-info dump\n" + POD_LIST_JSON, BOTH, "# generated"),
        # An extra brace typed before / after the document when pasting into a ticket.
        ("extra brace before", "{\n" + POD_LIST_JSON, BOTH, "'{'"),
        ("extra brace after", POD_LIST_JSON + "\n}\n", BOTH, "b'}'"),
        # Prose around a paste in an issue or an email.
        ("prose around json", "here is the output:\n" + POD_LIST_JSON + "\nthanks!\n", BOTH, "here is the output"),
        ("prose around yaml", "here is the output:\n" + POD_YAML + "Error from server (NotFound): pods \"x\" not found\n",
         ONE, "Error from server"),
        # YAML indented as a block in a Markdown issue or a doc.
        ("indented yaml", "".join("    " + ln + "\n" for ln in POD_YAML.splitlines()), ONE, None),
    ],
)
def test_junk_around_documents_is_skipped_and_reported(case: str, text: str, expected: list[str], skipped_text: str | None) -> None:
    r = ingest_text(text)
    assert_clean(r, expected)
    if skipped_text is not None:
        assert any(skipped_text in s.reason for s in r.skipped), r.skipped
    else:
        assert not r.skipped


def test_a_comment_line_in_yaml_is_just_yaml() -> None:
    # `# kubectl get pod web-1 -o yaml` noted above the output: a YAML comment, nothing to skip.
    r = ingest_text("# pod from the shop namespace\n" + POD_YAML)
    assert_clean(r, ONE)


def test_broken_document_in_the_middle_of_a_yaml_stream_costs_only_itself() -> None:
    # `kubectl get -o yaml` of three objects joined with `---`, the middle one hand-edited badly.
    text = (POD_YAML + "---\n"
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: [broken\n"
            "---\n" + POD_YAML.replace("web-1", "web-3").replace("uid-a", "uid-c"))
    r = ingest_text(text)
    assert names(r) == ["core/Pod/shop/web-1", "core/Pod/shop/web-3"]
    assert r.accounting_holds()
    assert r.objects_read == 3
    [rej] = r.object_rejections
    assert rej.location.startswith("document 1, line ")
    assert int(rej.location.rsplit(" ", 1)[1]) in range(10, 14)  # the broken document's lines
    assert "invalid YAML" in rej.reason


def test_truncated_json_list_keeps_intact_items_and_rejects_the_rest() -> None:
    # A dump cut off by a size limit on an upload: the second pod ends mid-object.
    text = POD_LIST_JSON[: POD_LIST_JSON.index('"web-2"') + 12]
    r = ingest_text(text)
    assert names(r) == ["core/Pod/shop/web-1"]
    assert r.accounting_holds()
    assert r.objects_read == 2
    [rej] = r.object_rejections
    assert rej.reason.startswith("broken JSON document")
    assert r.objects[0].provenance.line == 5  # where the intact item starts


def test_items_without_kind_take_it_from_the_list_kind() -> None:
    # Raw API lists (troubleshoot bundles) print `kind: PodList` and items without kind.
    text = json.dumps({"apiVersion": "v1", "kind": "PodList",
                       "items": [{"metadata": {"name": "a", "namespace": "x"}}]})
    r = ingest_text(text)
    assert_clean(r, ["core/Pod/x/a"])
    assert r.covers("Pod")


def test_items_without_kind_take_it_from_the_bundle_path() -> None:
    # troubleshoot layout: cluster-resources/<resource>/<namespace>.json, items with no kind.
    r = ingest({"cluster-resources/deployments/kube-system.json":
                json.dumps({"items": [{"metadata": {"name": "coredns"}}]})})
    assert_clean(r, ["apps/Deployment/kube-system/coredns"])
    assert r.formats == ["support-bundle"]


def test_items_without_kind_take_it_from_the_list_self_link() -> None:
    # kubectl 1.9 cluster-info dump: lists and items carry only selfLink, fields Capitalised.
    text = json.dumps({
        "selfLink": "/apis/extensions/v1beta1/namespaces/kube-system/deployments",
        "Items": [{"name": "coredns", "namespace": "kube-system", "uid": "u1",
                   "Spec": {"Replicas": 2}}],
    }, indent=4)
    r = ingest_text(text)
    assert_clean(r, ["apps/Deployment/kube-system/coredns"])
    assert r.objects[0].view.spec.replicas == 2
    assert r.objects[0].api_version == "extensions/v1beta1"


def test_item_without_kind_and_nothing_to_tell_it_is_rejected() -> None:
    # A `kind: List` (no item kind) whose item lost its kind: nothing says what it is.
    r = ingest_text(json.dumps({"kind": "List", "items": [{"metadata": {"name": "a"}}]}))
    assert not r.objects
    assert r.accounting_holds()
    assert r.object_rejections[0].reason == "object has no kind, and neither its list, its path nor its shape says it"
    assert r.object_rejections[0].location.endswith("item 0")


def test_same_object_twice_is_one_object_with_a_duplicate_count() -> None:
    # The same pod in `kubectl get pods -o json` and in a single `kubectl get pod -o yaml`.
    r = ingest({"pods.json": POD_LIST_JSON, "web-1.yaml": POD_YAML})
    assert names(r) == BOTH
    assert r.duplicates == 1
    assert r.objects_read == 3
    assert r.accounting_holds()
    assert next(o for o in r.objects if o.name == "web-1").duplicates == 1


def test_same_key_without_uid_is_a_duplicate() -> None:
    # Hand-written manifests have no uid: kind/namespace/name identifies them.
    no_uid = POD_YAML.replace("  uid: uid-a\n", "")
    r = ingest_text(no_uid + "---\n" + no_uid)
    assert names(r) == ONE and r.duplicates == 1


def test_kind_list_of_mixed_kinds() -> None:
    # `kubectl get deploy,svc -o json` prints one `kind: List` holding both kinds.
    svc = {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web", "namespace": "shop"}}
    dep = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "shop"}}
    r = ingest_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": [dep, svc]}, indent=4))
    assert_clean(r, ["apps/Deployment/shop/web", "core/Service/shop/web"])


def test_go_null_items_is_an_empty_list_not_an_object() -> None:
    # must-gather writes empty lists as `items: null` (realdata openshift/must-gather-clean-aws).
    r = ingest_text("apiVersion: route.openshift.io/v1\nitems: null\nkind: RouteList\nmetadata:\n  resourceVersion: \"1\"\n")
    assert not r.objects and not r.rejections
    assert r.covers("Route")


def test_top_level_yaml_sequence_of_objects() -> None:
    # troubleshoot writes custom resources as a bare YAML sequence (`- apiVersion: ...`).
    text = "- apiVersion: k3s.cattle.io/v1\n  kind: Addon\n  metadata:\n    name: coredns\n    namespace: kube-system\n"
    assert_clean(ingest_text(text), ["k3s.cattle.io/Addon/kube-system/coredns"])


def test_secret_values_never_survive_ingestion() -> None:
    # `kubectl get secret -o yaml` with a value and a last-applied annotation holding it again.
    text = ("apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\n  namespace: shop\n"
            "  annotations:\n    kubectl.kubernetes.io/last-applied-configuration: '{\"data\":{\"password\":\"aHVudGVyMg==\"}}'\n"
            "data:\n  password: aHVudGVyMg==\nstringData:\n  token: s3cr3t\n")
    r = ingest_text(text)
    body = r.objects[0].body()
    assert body["data"] == {"password": "<redacted: 7 bytes>"}
    assert body["stringData"] == {"token": "<redacted: 6 bytes>"}
    assert "aHVudGVyMg" not in json.dumps(body) and "s3cr3t" not in json.dumps(body)


def test_secret_values_never_survive_json_ingestion() -> None:
    secret = {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "db", "namespace": "shop"},
              "data": {"password": "aHVudGVyMg=="}}
    r = ingest_text(json.dumps({"kind": "List", "items": [secret]}))
    assert "aHVudGVyMg" not in json.dumps(r.objects[0].body())


# A release Helm 2's Tiller kept in a ConfigMap (its default storage), as pasted in
# helm/helm-mapkubeapis#31 (`kubectl --namespace=aleol57 get cm kube-ops-view.v3 -o yaml`, a
# Rancher cluster; the payload cut short here), and one of Helm 3's configmap driver (owner=helm,
# helm/helm-www#639), as `kubectl get cm -o json` prints it.
HELM2_RELEASE_YAML = (
    "apiVersion: v1\ndata:\n  release: H4sIAAAAAAAC/+xbzY8kyVXXfO2MAyMtjYXECovnalvabU9mfUxPd09KIzE7MzaNvbOt6Zmx0Gq1E5X5\n"
    "kind: ConfigMap\nmetadata:\n  labels:\n    NAME: kube-ops-view\n    OWNER: TILLER\n    STATUS: DEPLOYED\n"
    "    VERSION: \"3\"\n  name: kube-ops-view.v3\n  namespace: aleol57\n")
HELM3_RELEASE = {"apiVersion": "v1", "kind": "ConfigMap",
                 "metadata": {"name": "sh.helm.release.v1.db.v1", "namespace": "shop",
                              "labels": {"name": "db", "owner": "helm", "status": "deployed", "version": "1"}},
                 "data": {"release": "H4sIAAAAAAAC/+xbW2/bOBZ+z68QNMDsm2TLju3YQB6SNm2DadJsnHRmt1gUtETbbCRSJak4RuH/"}}


@pytest.mark.parametrize("text", [HELM2_RELEASE_YAML, json.dumps({"kind": "List", "items": [HELM3_RELEASE]}, indent=4),
                                  json.dumps(HELM3_RELEASE)], ids=["helm2-yaml", "helm3-json-list", "helm3-json"])
def test_a_helm_release_kept_in_a_config_map_never_survives_ingestion(text: str) -> None:
    # Its `release` is the chart's whole values (passwords too), gzipped and base64-encoded: as a
    # release Secret's data, it is dropped when read, so no output and no option shows it.
    [obj] = ingest_text(text).objects
    assert obj.body()["data"]["release"].startswith("<redacted: Helm release, ")
    assert obj.view.data["release"] == obj.body()["data"]["release"]
    assert "H4sI" not in json.dumps(obj.body()) and "H4sI" not in str(obj.view.data)


def test_a_config_map_named_release_without_helms_labels_keeps_its_data() -> None:
    config = {**HELM3_RELEASE, "metadata": {"name": "app", "namespace": "shop", "labels": {"app": "db"}}}
    [obj] = ingest_text(json.dumps(config)).objects
    assert obj.body()["data"] == HELM3_RELEASE["data"]


def test_sorted_keys_event_is_an_event_not_its_involved_object() -> None:
    # `kubectl get events -o json` prints unstructured objects with sorted keys, so
    # involvedObject (with its own "kind": "Pod") comes before the Event's "kind".
    event = {"apiVersion": "v1", "count": 3, "involvedObject": {"apiVersion": "v1", "kind": "Pod", "name": "web-1"},
             "kind": "Event", "metadata": {"name": "web-1.17a", "namespace": "shop"}, "reason": "BackOff"}
    pretty = json.dumps({"apiVersion": "v1", "items": [event], "kind": "List"}, indent=4, sort_keys=True)
    compact = json.dumps(event, sort_keys=True)
    for text in (pretty, compact):
        r = ingest_text(text)
        assert names(r) == ["core/Event/shop/web-1.17a"]
        assert r.objects[0].view.reason == "BackOff"
