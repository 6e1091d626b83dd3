"""Each table kind kubectl prints becomes objects of that kind (cases/tables.yaml)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from analyzer.ingest.text import parse_kubectl_text
from ingest.text.expect import check_case

CASES = yaml.safe_load((Path(__file__).parent / "cases" / "tables.yaml").read_text("utf-8"))


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_table(case: dict) -> None:
    check_case(parse_kubectl_text(case["text"], "case.txt"), case)


# Trimmed from k3s-io/k3s#2350 (github.com/k3s-io/k3s/issues/2350, its description): the reporter
# turned `kubectl get pods -n kube-system` into a markdown pipe table, cells padded unevenly.
_K3S_2350 = """kubectl get pods -n kube-system
| NAME |    READY |  STATUS  |           RESTARTS |  AGE|
|--|--|--|--|--|
|helm-install-traefik-qr2bd        |       0/1  |   Completed   |       0   |       4d23h|
|coredns-7944c66d8d-qwxjf      |           0/1  |   Running    |        0    |      17m|
|local-path-provisioner-6d59f47c7-4hvf2 |  0/1  |   CrashLoopBackOff |  7     |     18m|
"""


def test_a_markdown_pipe_table_is_read_as_the_kubectl_table_it_was() -> None:
    from analyzer.ingest import ingest_text

    r = ingest_text(_K3S_2350, "k3s-2350.md")
    assert r.accounting_holds() and not r.rejections
    pods = {o.name: o.body() for o in r.objects}
    assert sorted(pods) == ["coredns-7944c66d8d-qwxjf", "helm-install-traefik-qr2bd",
                            "local-path-provisioner-6d59f47c7-4hvf2"]
    crashing = pods["local-path-provisioner-6d59f47c7-4hvf2"]
    assert crashing["x-kda-text"]["status"] == "CrashLoopBackOff" and crashing["x-kda-text"]["restarts"] == 7
    assert [o.provenance.line for o in r.objects] == [4, 5, 6]  # each row at its own line


def test_a_pipe_table_of_no_kubectl_kind_stays_prose() -> None:
    text = "| step | result |\n|---|---|\n| install | ok |\n"
    assert not parse_kubectl_text(text, "notes.md").objects
