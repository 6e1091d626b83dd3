"""The replacement pass on texts written for these tests: same value, same pseudonym, anywhere."""

from __future__ import annotations

import ipaddress

import pytest

from analyzer.redact.learn import Learner, base_vocabulary
from analyzer.redact.pseudonyms import Pseudonyms
from analyzer.redact.replace import Replacer


@pytest.fixture
def replacer() -> Replacer:
    p = Pseudonyms(b"k", base_vocabulary())
    learner = Learner(p)
    learner.learn_name("worker-contoso-01", "node")
    learner.learn_text("api.fabrikam.com resourceGroups/rg-fabrikam-prod/x --cluster-name=fabrikam-prod")
    return Replacer(p, learner)


def test_a_value_gets_one_pseudonym_everywhere(replacer: Replacer) -> None:
    out = replacer.text(
        'nodeName: worker-contoso-01\n"msg": "scheduled on worker-contoso-01"\nkube-apiserver-worker-contoso-01\n')
    node = out.split("\n")[0].split(": ")[1]
    assert node != "worker-contoso-01" and node.startswith("worker-") and node.endswith("-01")
    assert out.count(node) == 3 and "contoso" not in out


def test_ips_in_logs_escaped_json_and_cidrs(replacer: Replacer) -> None:
    out = replacer.text('"log": "start\\n10.1.2.3 GET /\\n" podCIDR: 10.244.1.0/24 pod 10.244.1.7 ip-10-1-2-3')
    assert "10.1.2.3" not in out and "10-1-2-3" not in out
    cidr = next(w for w in out.split() if w.endswith("/24"))
    assert ipaddress.ip_address(out.split()[-2]) in ipaddress.ip_network(cidr)
    mapped = ipaddress.ip_address(out.split("\\n")[1].split()[0])
    assert out.split()[-1] == "ip-" + str(mapped).replace(".", "-")


def test_cloud_and_cluster_names(replacer: Replacer) -> None:
    out = replacer.text("fabrikam-prod MC_rg-fabrikam-prod_fabrikam-prod_westeurope api.fabrikam.com i-0abc12345def67890")
    assert "fabrikam" not in out
    assert out.split()[1].startswith("MC_") and out.split()[1].endswith("_westeurope")
    assert out.split()[2].endswith(".com") and out.split()[3].startswith("i-")


def test_earlier_redaction_and_public_names_stay(replacer: Replacer) -> None:
    text = "***HIDDEN*** x-ipv4-0000000001-x registry.k8s.io/pause:3.9 kubernetes.io/hostname 127.0.0.1"
    assert replacer.text(text) == text


def test_table_columns_stay_in_place(replacer: Replacer) -> None:
    # pasted `kubectl get nodes -o wide`: read by column position
    table = ("NAME                STATUS   INTERNAL-IP   EXTERNAL-IP\n"
             "worker-contoso-01   Ready    10.0.0.4      52.10.1.2\n")
    header, row = replacer.text(table).split("\n")[:2]
    for column in ("STATUS", "INTERNAL-IP", "EXTERNAL-IP"):
        start = header.index(column)
        assert row[start] != " " and row[start - 1] == " "


def test_the_dumps_own_words_are_never_learned() -> None:
    # a node named after field names, a cluster named "kind" (kind's default) or "kubernetes"
    # (kubeadm's): replacing those words everywhere would rewrite `"kind": "Pod"` itself
    p = Pseudonyms(b"k", base_vocabulary() | {"spec", "data"})
    learner = Learner(p, structural=frozenset({"spec", "data", "kind"}))
    learner.learn_name("spec-data-01", "node")
    learner.learn_text("clusterName: kind\n--cluster-name=kubernetes\n")
    assert learner.words == {} and learner.terms == {}
    text = '{"kind": "Pod", "spec": {"nodeName": "spec-data-01"}, "data": {}}'
    assert Replacer(p, learner).text(text) == text


def test_email_addresses() -> None:
    p = Pseudonyms(b"k", base_vocabulary())
    learner = Learner(p)
    text = "owner: jane.doe@contoso-corp.com\nimage: nginx@sha256:abc\nsupport: help@example.com\n"
    learner.learn_text(text)
    out = Replacer(p, learner).text(text)
    assert "jane" not in out and "contoso" not in out and out.splitlines()[0].endswith(".com")
    assert "nginx@sha256:abc" in out and "help@example.com" in out


def test_a_json_file_the_text_pass_would_break_is_rewritten_value_by_value(tmp_path) -> None:
    import json

    from analyzer.redact.run import Redaction

    doc = {"kind": "Pod", "metadata": {"name": "p"}, "spec": {"nodeName": "10.0.0.9",
           "containers": [{"env": [{"name": "DB_PASSWORD", "value": "hunter2"}]}]}}
    before = json.dumps(doc, indent=4) + "\n"
    (tmp_path / "pod.json").write_text(before)
    redaction = Redaction(tmp_path, names=False, key=b"k")
    out = redaction._checked(before, '{"broken": ')  # as if the text pass had broken it
    parsed = json.loads(out)
    assert redaction.fallbacks == 1 and out.splitlines()[1].startswith("    \"")
    assert parsed["spec"]["containers"][0]["env"][0]["value"] == "<redacted>"
    assert parsed["spec"]["nodeName"] != "10.0.0.9" and parsed["metadata"]["name"] == "p"


def test_nothing_the_detection_reads_is_ever_learned() -> None:
    # every fingerprint of analyzer/distributions/fingerprints.yaml (label keys, API groups,
    # registries, names) must read the same after redaction, whatever dump it sits in
    import yaml
    from conftest import ROOT

    rows = yaml.safe_load((ROOT / "analyzer" / "distributions" / "fingerprints.yaml").read_text())["fingerprints"]
    p = Pseudonyms(b"k", base_vocabulary())
    learner = Learner(p, names=True)
    for row in rows:
        learner.learn_text(str(row["pattern"]))
        learner.learn_host(str(row["pattern"]).split("/")[0])
    assert learner.words == {} and learner.terms == {}


def test_names_option_keeps_component_names() -> None:
    # --names: a customer's app is renamed, a known component keeps the name the catalogue reads
    from analyzer.ingest import ingest

    docs = "\n---\n".join(
        f"apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: {name}, namespace: shop}}" for name in ("metrics-server", "orderbook-sync"))
    p = Pseudonyms(b"k", base_vocabulary())
    learner = Learner(p, names=True)
    learner.learn_objects(ingest({"d.yaml": docs}))
    out = Replacer(p, learner).text("metrics-server orderbook-sync shop")
    assert out.startswith("metrics-server ") and "orderbook" not in out and "shop" not in out


def test_public_projects_in_crd_text_stay() -> None:
    # What CRDs carry in every dump (controller-gen's annotation key, RFC links in descriptions)
    # names no customer: it must read the same after redaction.
    text = ("controller-gen.kubebuilder.io/version: v0.11.1 "
            "RFC 3339 (https://www.ietf.org/rfc/rfc3339.txt), https://json-schema.org/draft-07")
    p = Pseudonyms(b"k", base_vocabulary())
    learner = Learner(p)
    learner.learn_text(text)
    assert learner.words == {} and Replacer(p, learner).text(text) == text
