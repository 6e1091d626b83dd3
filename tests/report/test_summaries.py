"""Summaries first: node pools, workloads by namespace, components with the unhealthy first,
findings by rule, the What-is-wrong card; long tables capped in Markdown with the way to the rest."""

from __future__ import annotations

import base64
import gzip
import json
import re
from pathlib import Path

import pytest
from conftest import SAMPLE_DUMPS

import analyzer
from analyzer.cluster import Cluster
from analyzer.report import cluster_facts, render_cluster_report
from analyzer.report.cluster_tables import cluster_tables
from analyzer.report.sections import node_pools, object_link
from analyzer.report.tables import MD_ROWS, Column, Table, render_table, table_json


@pytest.fixture(scope="module")
def eks() -> Cluster:
    return analyzer.load(str(SAMPLE_DUMPS / "eks"))


def _node(name: str, itype: str, ready: str, zone: str, taints: str | None = None) -> dict:
    return {"name": name, "instance_type": itype, "os_image": "Ubuntu 22.04", "kubelet_version": "v1.29.4",
            "container_runtime": "containerd://1.7", "ready": ready, "zone": zone, "taints": taints,
            "roles": "worker", "unschedulable": False}


def test_nodes_group_into_pools_with_ready_counts_zones_and_taints() -> None:
    rows = [_node("a1", "m5", "True", "z1"), _node("a2", "m5", "True", "z2"),
            _node("a3", "m5", "Unknown", "z2", "node.kubernetes.io/unreachable:NoSchedule"),
            _node("b1", "c6", "True", "z1"), _node("b2", "c6", "True", "z1")]
    pools = node_pools(rows)
    assert [(p["instance_type"], p["nodes"], p["ready"], p["not_ready"]) for p in pools] == [
        ("m5", 3, 2, 1), ("c6", 2, 2, 0)]  # the pool with a node not Ready first
    assert pools[0]["zones"] == [["z2", 2], ["z1", 1]]
    assert pools[0]["taints"] == [["node.kubernetes.io/unreachable:NoSchedule", 1]]


def test_workloads_by_namespace_and_components_unhealthy_first(eks: Cluster) -> None:
    facts = cluster_facts(eks)
    by_ns = {e["namespace"]: e for e in facts["workloads"]["by_namespace"]}
    pods = eks.tables["pods"]
    for ns, entry in by_ns.items():
        assert entry["pods"] == int((pods["namespace"].astype(str) == ns).sum())
    # The namespaces' pods not ready add up to the Pods section's count.
    assert sum(e["pods_not_ready"] for e in by_ns.values()) == facts["pods"]["not_healthy"] == 8
    assert sum(e["unhealthy"] for e in by_ns.values()) == facts["workloads"]["unhealthy"]
    assert facts["workloads"]["by_namespace"][0]["unhealthy"] == max(e["unhealthy"] for e in by_ns.values())
    comp = facts["components"]
    health = [r["healthy"] for r in comp["rows"]]
    assert health == sorted(health, key=lambda h: {False: 0, None: 1, True: 2}[h])
    assert comp["by_role"][0]["unhealthy"] >= 1 and comp["by_role"][-1]["unhealthy"] == 0
    assert sum(r["unhealthy"] for r in comp["by_role"]) == comp["unhealthy"] == 4


# Trimmed from robusta-dev/holmesgpt tests/llm/fixtures/test_investigate/06_job_failure/
# kubectl_describe.txt @ c1ee1d43598b: a describe prints no Failed condition; the job
# controller's BackoffLimitExceeded event says the Job failed.
_DESCRIBED_FAILED_JOB = """\
Name:             java-api-checker
Namespace:        default
Parallelism:      1
Completions:      1
Completion Mode:  NonIndexed
Suspend:          false
Backoff Limit:    1
Start Time:       Thu, 29 May 2025 12:41:59 +0200
Pods Statuses:    0 Active (0 Ready) / 0 Succeeded / 2 Failed
Events:
  Type     Reason                Age   From            Message
  ----     ------                ----  ----            -------
  Normal   SuccessfulCreate      16m   job-controller  Created pod: java-api-checker-2lhkn
  Normal   SuccessfulCreate      15m   job-controller  Created pod: java-api-checker-jzzdd
  Warning  BackoffLimitExceeded  13m   job-controller  Job has reached the specified backoff limit
"""


def test_a_job_the_findings_say_failed_is_a_workload_not_healthy() -> None:
    cluster = analyzer.load({"describe-job.txt": _DESCRIBED_FAILED_JOB})
    assert "job-failed" in set(cluster.findings.query("status == 'fail'")["rule"])
    workloads = cluster_facts(cluster)["workloads"]
    assert (workloads["total"], workloads["unhealthy"]) == (1, 1)
    assert [r["healthy"] for r in workloads["rows"]] == [False]


def test_findings_by_rule_count_every_failed_check(eks: Cluster) -> None:
    f = cluster_facts(eks)["findings"]
    failed = eks.findings[eks.findings["status"] == "fail"]
    assert sum(r["count"] for r in f["by_rule"]) == len(failed) == len(f["rows"])
    counts = failed.groupby("rule").size().to_dict()
    assert {r["rule"]: r["count"] for r in f["by_rule"]} == counts
    order = [("critical", "warning", "info").index(r["severity"]) for r in f["by_rule"]]
    assert order == sorted(order)


class _WithoutIncidents(Cluster):
    """A cluster whose incidents stage fails: the card falls back on the failed rules."""

    @property
    def incidents(self):  # type: ignore[override]
        raise RuntimeError("incidents stage exploded")


def test_without_incidents_what_is_wrong_leads_with_the_worst_failed_rules() -> None:
    cluster = _WithoutIncidents(analyzer.load(str(SAMPLE_DUMPS / "eks")).ingest, name="eks")
    wrong = cluster_facts(cluster)["what_is_wrong"]
    assert wrong["available"] and wrong["source"] == "findings"
    assert wrong["note"] == ("incidents not available (RuntimeError: incidents stage exploded); "
                             "failed rules instead")
    severities = [p["severity"] for p in wrong["problems"]]
    assert severities[0] == "critical" and "info" not in severities
    # Cluster-wide failures lead their severity: the node and the critical components first.
    assert [p["rule"] for p in wrong["problems"][:2]] == ["critical-component-unhealthy", "node-not-ready"]
    node = next(p for p in wrong["problems"] if p["rule"] == "node-not-ready")
    assert node["examples"] == [{"kind": "Node", "namespace": "", "name": "ip-10-0-3-45.ec2.internal",
                                 "link": "#node/ip-10-0-3-45.ec2.internal"}]


def test_what_is_wrong_shows_the_incidents_of_the_eks_sample(tmp_path: Path, eks: Cluster) -> None:
    wrong = cluster_facts(eks)["what_is_wrong"]
    assert wrong["source"] == "incidents" and wrong["total"] == len(eks.incidents)
    first = wrong["problems"][0]
    assert first["severity"] == "critical" and first["cause"] == "Node ip-10-0-3-45.ec2.internal"
    # Its cause is the first object to look at, linked to the node's row.
    assert first["examples"][0]["link"] == "#node/ip-10-0-3-45.ec2.internal"
    page = render_cluster_report(eks, tmp_path).html.read_text(encoding="utf-8")
    assert '<a href="#node/ip-10-0-3-45.ec2.internal">Node ip-10-0-3-45.ec2.internal</a>' in page


class _WithIncidents(Cluster):
    """A cluster whose findings stage groups findings into incidents, shaped as issue 16's
    `cluster.incidents` DataFrame (analyzer/findings/incidents.py on the findings-incidents branch)."""

    @property
    def incidents(self):  # type: ignore[override]
        import pandas as pd

        return pd.DataFrame([
            {"incident": "i2", "rank": 2, "severity": "warning", "headline": "api is short of pods",
             "cause": "Deployment payments/api", "cause_rule": "deployment-unavailable", "workloads": 1,
             "findings": 1, "rules": "deployment-unavailable", "objects": "Deployment payments/api",
             "affected_workloads": "Deployment payments/api"},
            {"incident": "i1", "rank": 1, "severity": "critical",
             "headline": "Node ip-10-0-3-45 stopped reporting; its pods are stuck",
             "cause": "Node ip-10-0-3-45.ec2.internal", "cause_rule": "node-not-ready", "workloads": 3,
             "findings": 4, "rules": "node-not-ready, pod-pending",
             "objects": "Node ip-10-0-3-45.ec2.internal, Pod payments/report-builder-pr77k7n577-rsf47, (dump)",
             "affected_workloads": "Deployment payments/report-builder"},
            *({"incident": f"i{n}", "rank": n, "severity": "warning", "headline": f"minor trouble {n}",
               "cause": f"Pod payments/p{n}", "cause_rule": "pod-high-restarts", "workloads": 0,
               "findings": 1, "rules": "pod-high-restarts", "objects": f"Pod payments/p{n}",
               "affected_workloads": ""} for n in range(3, 10))])


def test_what_is_wrong_shows_incidents_when_the_cluster_has_them(tmp_path: Path) -> None:
    cluster = _WithIncidents(analyzer.load(str(SAMPLE_DUMPS / "eks")).ingest, name="eks")
    wrong = cluster_facts(cluster)["what_is_wrong"]
    assert wrong["source"] == "incidents" and wrong["total"] == 9
    assert [x["title"] for x in wrong["rest"]] == ["minor trouble 7", "minor trouble 8", "minor trouble 9"]
    problem = wrong["problems"][0]  # by rank
    assert problem["title"] == "Node ip-10-0-3-45 stopped reporting; its pods are stuck"
    assert problem["rule"] == "node-not-ready, pod-pending" and problem["count"] == 4
    assert [e["link"] for e in problem["examples"]] == ["#node/ip-10-0-3-45.ec2.internal",
                                                        "#pod/payments/report-builder-pr77k7n577-rsf47"]
    files = render_cluster_report(cluster, tmp_path)
    page = files.html.read_text(encoding="utf-8")
    assert "Node ip-10-0-3-45 stopped reporting; its pods are stuck" in page
    assert "cause: Node ip-10-0-3-45.ec2.internal; affects 3 workloads; 4 findings" in page
    assert '<a href="#pod/payments/report-builder-pr77k7n577-rsf47">' in page
    assert "The other 3 incidents" in page and "minor trouble 9" in page
    md = files.markdown.read_text(encoding="utf-8")
    assert "1. **critical** **Node ip-10-0-3-45 stopped reporting; its pods are stuck** (cause:" in md
    assert "9. warning: minor trouble 9 (cause: Pod payments/p9)" in md


def test_object_links_match_the_rows_the_tables_anchor(eks: Cluster) -> None:
    facts = cluster_facts(eks)
    tables = cluster_tables(facts)
    page = render_table(tables["nodes"])  # 3 nodes: a short table, its rows carry their links as ids
    for row in facts["nodes"]["rows"]:
        assert f'id="{object_link("Node", "", row["name"])[1:]}"' in page
    assert object_link("Deployment", "shop", "web") == "#workload/Deployment/shop/web"


def test_markdown_caps_long_tables_and_says_how_to_get_them_whole(tmp_path: Path) -> None:
    # 120 pods in one List, written here: more than the Markdown's cap, fewer than a page needs.
    pods = "".join(f"- {{apiVersion: v1, kind: Pod, metadata: {{name: p{i:03d}, namespace: shop}}, "
                   f"status: {{phase: Running}}}}\n" for i in range(120))
    dump = tmp_path / "pods.yaml"
    dump.write_text("apiVersion: v1\nkind: List\nitems:\n" + pods, encoding="utf-8")
    files = render_cluster_report(analyzer.load(str(dump)), tmp_path / "out")
    md = files.markdown.read_text(encoding="utf-8")
    pods_part = md.split("## Pods", 1)[1].split("## Services", 1)[0]
    assert len(re.findall(r"^\| shop \| p\d{3} ", pods_part, flags=re.M)) == MD_ROWS
    assert (f"{120 - MD_ROWS} more pods left out (the first {MD_ROWS} of 120 are shown); the whole "
            f"table: `kda tables {dump} --table pods --format csv`") in pods_part
    html = files.html.read_text(encoding="utf-8")
    assert "120 pods; the first 20 are shown here." in html


def test_the_rows_block_is_compact_and_deterministic() -> None:
    rows = [{"ns": "a" if i % 2 else "b", "n": i, "name": f"pod-{i}"} for i in range(100)]
    table = Table("x", [Column("ns", "ns"), Column("n", "n", "num"), Column("name", "name")], rows)
    spec = json.loads(table_json(table))
    # A column of few distinct values is stored once each, with a code per row.
    assert spec["data"][0] == {"d": ["b", "a"], "c": [i % 2 for i in range(100)]}
    assert spec["data"][2] == {"v": [f"pod-{i}" for i in range(100)]}
    first, second = render_table(table), render_table(table)
    assert first == second
    block = re.search(r'<script type="application/x-kda-rows">([^<]+)</script>', first)[1]
    assert json.loads(gzip.decompress(base64.b64decode(block))) == spec


def test_a_completed_job_is_healthy_and_a_failed_one_is_not() -> None:
    # Two Jobs as kubectl shows them after they ran (written here, after realdata/rke2's
    # helm-install Jobs): one Complete, one Failed; neither has ready pods any more.
    jobs = """apiVersion: v1
kind: List
items:
- apiVersion: batch/v1
  kind: Job
  metadata: {name: helm-install-canal, namespace: kube-system}
  spec: {completions: 1, parallelism: 1}
  status: {succeeded: 1, conditions: [{type: Complete, status: "True"}]}
- apiVersion: batch/v1
  kind: Job
  metadata: {name: migrate, namespace: shop}
  spec: {completions: 1, parallelism: 1, backoffLimit: 2}
  status: {failed: 3, conditions: [{type: Failed, status: "True", reason: BackoffLimitExceeded}]}
"""
    w = cluster_facts(analyzer.load(jobs))["workloads"]
    assert {r["name"]: r["health"] for r in w["rows"]} == {"migrate": "not healthy",
                                                          "helm-install-canal": "ok"}
    assert w["unhealthy"] == 1
