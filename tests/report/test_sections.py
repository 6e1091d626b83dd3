"""The report's facts: what each section says about the sample dumps, and 'not available'
instead of a crash when a stage fails."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import REALDATA, SAMPLE_DUMPS

import analyzer
from analyzer.cluster import Cluster
from analyzer.report import cluster_facts, render_cluster_report
from analyzer.report.cluster_tables import cluster_tables
from analyzer.report.render import md_code, md_escape
from analyzer.report.tables import cell_text


@pytest.fixture(scope="module")
def eks() -> Cluster:
    return analyzer.load(str(SAMPLE_DUMPS / "eks"))


def test_read_section_counts_what_ingestion_read(eks: Cluster) -> None:
    read = cluster_facts(eks)["read"]
    assert read["available"] and read["formats"] == ["cluster-info-dump"]
    assert read["objects_total"] == len(eks.objects) and read["logs"] == len(eks.logs)
    assert "ConfigMap" in read["coverage_absent"]
    assert read["capture_time"].startswith("2024-09-15T")


def test_notes_on_objects_kept_reach_both_reports(tmp_path: Path) -> None:
    # Two hand-edited copies of one object under two names keep the uid they share (written
    # for this test, after realdata/minikube/troubleshoot-analyze-files/events).
    pod = "apiVersion: v1\nkind: Pod\nmetadata: {{name: {}, namespace: shop, uid: 7f0c}}\n"
    cluster = analyzer.load({"a.yaml": pod.format("web-1"), "b.yaml": pod.format("web-2")})
    read = cluster_facts(cluster)["read"]
    assert read["notes_total"] == 1
    assert read["notes"][0]["object"] == "core/Pod/shop/web-2"
    assert read["notes"][0]["note"] == "uid also used by core/Pod/shop/web-1"
    files = render_cluster_report(cluster, tmp_path, ("html",))
    html = files.html.read_text(encoding="utf-8")
    assert "Notes on objects kept (1)" in html and "uid also used by core/Pod/shop/web-1" in html
    assert "Notes on objects kept (1)" in files.markdown.read_text(encoding="utf-8")


def test_a_truncated_describe_reaches_both_reports_as_truncated_not_rejected(tmp_path: Path) -> None:
    # virtual-kubelet#1250's describe, cut in its Labels
    from tests.cli.test_inspect_cmd import VK_1250

    cluster = analyzer.load({"describe-node-excerpt.txt": VK_1250})
    read = cluster_facts(cluster)["read"]
    assert (read["objects_total"], read["rejections_total"], read["truncated_total"]) == (1, 0, 1)
    files = render_cluster_report(cluster, tmp_path, ("html",))
    for text in (files.html.read_text(encoding="utf-8"), files.markdown.read_text(encoding="utf-8")):
        assert "Truncated, kept as far as the paste goes (1)" in text and "Rejected (" not in text
        assert "(1 truncated)" in text
    # and the notebook's summary of the dump (escaped as every value from a dump)
    from analyzer.cluster.summary import summary_html

    shown = summary_html(cluster)
    assert "1 truncated, kept as far as the paste goes" in shown and "rejected</summary>" not in shown
    assert "describe of Node &#x27;aks-newpool-20956280-vmss000000&#x27; ends mid-section &#x27;Labels&#x27;" in shown


def test_nodes_workloads_services_and_findings_of_the_eks_sample(eks: Cluster) -> None:
    facts = cluster_facts(eks)
    nodes = facts["nodes"]
    assert nodes["total"] == 3 and dict(nodes["ready"]) == {"True": 2, "Unknown": 1}
    assert {r["kubelet_version"] for r in nodes["rows"]} == {"v1.30.4-eks-a737599"}
    assert nodes["rows"][0]["cpu_capacity"] == 2  # integral floats shown as integers
    w = facts["workloads"]
    unhealthy = [r["name"] for r in w["rows"] if not r["healthy"]]
    assert unhealthy[:4] == ["aws-node", "ebs-csi-node", "eks-pod-identity-agent", "kube-proxy"]
    assert "api" in unhealthy and "ledger-db" not in unhealthy
    assert w["unhealthy"] == len(unhealthy)
    assert dict(facts["services"]["by_type"]) == {"ClusterIP": 4, "LoadBalancer": 1}
    f = facts["findings"]
    failed = eks.findings[eks.findings["status"] == "fail"]
    assert f["total"] == len(failed)
    assert dict(f["counts"])["critical"] == int((failed["severity"] == "critical").sum())
    critical = [x for x in f["by_rule"] if x["severity"] == "critical"]
    assert {"node-not-ready", "pod-crashloop", "pod-image-pull"} <= {x["rule"] for x in critical}
    assert all(isinstance(x["evidence"], list) and x["evidence"] for x in critical)
    roles = dict(facts["components"]["roles"])
    assert [c["name"] for c in roles["cni"]] == ["aws-node"]


def test_a_hygiene_finding_said_once_for_its_replicas_counts_each_pod(tmp_path: Path) -> None:
    # the kubeadm sample's Deployment web runs 3 pods of ReplicaSet web-pxvrnk47q without a memory
    # limit: one finding, 3 objects
    cluster = analyzer.load(str(SAMPLE_DUMPS / "kubeadm"))
    rule = next(x for x in cluster_facts(cluster)["findings"]["by_rule"] if x["rule"] == "container-no-memory-limit")
    assert (rule["count"], rule["objects"]) == (1, 3)
    assert rule["message"].endswith("(as do 2 more pods of ReplicaSet web-pxvrnk47q)")
    files = render_cluster_report(cluster, tmp_path, formats=("html",))
    assert "1 failed check on 3 objects in 1 namespace (Pod: 3)" in files.html.read_text(encoding="utf-8")
    assert "1 failed on 3 objects in 1 namespace(s)" in files.markdown.read_text(encoding="utf-8")


class _BrokenFindings(Cluster):
    """A cluster whose findings stage fails (as a half-finished stage might)."""

    @property
    def findings(self):  # type: ignore[override]
        raise RuntimeError("findings stage exploded")


def test_a_failing_stage_gives_a_not_available_section(tmp_path: Path) -> None:
    cluster = _BrokenFindings(analyzer.load(str(SAMPLE_DUMPS / "kubeadm")).ingest, name="kubeadm")
    facts = cluster_facts(cluster)
    assert facts["findings"] == {"available": False, "reason": "RuntimeError: findings stage exploded"}
    assert facts["nodes"]["available"]
    files = render_cluster_report(cluster, tmp_path, formats=("html",))
    page = files.html.read_text(encoding="utf-8")
    assert "Not available for this dump: RuntimeError: findings stage exploded" in page
    assert "Failed checks by severity and category: not available (RuntimeError: findings stage exploded)" in page
    assert "Not available for this dump: RuntimeError" in files.markdown.read_text(encoding="utf-8")


def test_a_dump_without_nodes_says_they_were_not_collected(tmp_path: Path) -> None:
    # A single pasted Pod (written here): no Node kind collected.
    cluster = analyzer.load("apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: shop}\n")
    facts = cluster_facts(cluster)
    assert facts["nodes"]["collected"] is False
    page = render_cluster_report(cluster, tmp_path).html.read_text(encoding="utf-8")
    assert "This dump did not collect Nodes." in page


def test_markdown_escaping() -> None:
    assert md_escape("a|b *c* [d](e) <i>") == r"a\|b \*c\* \[d\](e) &lt;i&gt;"
    assert md_escape("two\nlines") == "two lines"
    assert md_escape(None) == "–" and md_escape(True) == "yes"
    assert md_code("x ~~~ y") == "~~~~\nx ~~~ y\n~~~~"


def test_dns_and_kube_proxy_are_lines_of_their_own_and_capture_says_its_signal(sample_reports) -> None:
    # They once ran together ("- DNS: ...- kube-proxy mode: ...") in report.md.
    out, _result = sample_reports
    for name in ("aks", "eks", "kubeadm", "oke"):
        lines = (out / name / "report.md").read_text(encoding="utf-8").splitlines()
        dns = [line for line in lines if line.startswith("- DNS: ")]
        proxy = [line for line in lines if line.startswith("- kube-proxy mode: ")]
        assert len(dns) == 1 and len(proxy) == 1 and "kube-proxy" not in dns[0], (name, dns)
        capture = next(line for line in lines if line.startswith("- Capture time: "))
        assert "confidence" in capture, capture


def test_ages_in_one_step_are_each_ages_whole_seconds() -> None:
    import numpy as np
    import pandas as pd

    from analyzer.report.tables import ages_seconds

    rng = np.random.default_rng(7)
    ns = np.concatenate([rng.integers(-10**12, 10**17, 2000), [0, 999_999_999, -999_999_999,
                                                                10**9, 86400 * 10**9 * 400]])
    ages = pd.Series(pd.to_timedelta(ns, unit="ns"))
    ages[3] = pd.NaT
    want = [None if pd.isna(a) else int(a.total_seconds()) for a in ages.tolist()]
    assert ages_seconds(ages) == want
    assert ages_seconds(ages.astype("timedelta64[s]")) == [
        None if pd.isna(a) else int(a.total_seconds()) for a in ages.astype("timedelta64[s]").tolist()]


def test_counts_of_a_column_are_the_most_first_then_by_name() -> None:
    import pandas as pd

    from analyzer.report.sections import _tally

    values = pd.Series(["b", "a", "c", "a", "b", "d"], dtype="string")
    assert _tally(values) == [["a", 2], ["b", 2], ["c", 1], ["d", 1]]
    assert all(type(n) is int for _, n in _tally(values))  # JSON numbers, not numpy's


def test_a_server_version_not_stated_is_bounded_by_the_kubelets_and_said_so(sample_reports) -> None:
    # sample_dumps/kubeadm holds no `kubectl version`: its control-plane kubelet bounds the API
    # server's; the OKE sample's cluster-info states v1.28.2, shown as it is.
    out, _result = sample_reports
    kubeadm = (out / "kubeadm" / "report.md").read_text(encoding="utf-8")
    assert ("- Server version: not stated by the dump; v1.29.3 or later, by Node/kube-master-node1 "
            "status.nodeInfo.kubeletVersion (control-plane node kubeletVersion)") in kubeadm
    assert "- Server version: v1.28.2\n" in (out / "oke" / "report.md").read_text(encoding="utf-8")
    [row] = [line for line in (out / "comparison.md").read_text(encoding="utf-8").splitlines()
             if line.startswith("| server version |")]
    assert "| v1.29.3 or later (kubelet) |" in row and "| v1.28.2 |" in row
    html = (out / "kubeadm" / "report.html").read_text(encoding="utf-8")
    assert "v1.29.3 or later, by Node/kube-master-node1" in html


_KURL = REALDATA / "kubeadm" / "sbctl-kurl-supportbundle"


@pytest.mark.skipif(not _KURL.exists(), reason="shared/realdata not present")
def test_objects_by_kind_tells_a_custom_resource_of_a_builtin_kind_name_by_its_group(tmp_path: Path) -> None:
    # A kURL support bundle: 3 Nodes in nodes.json, 3 more longhorn.io Nodes among its custom
    # resources (custom-resources/nodes.longhorn.io); "Node 6" beside "0 of 3 nodes not Ready".
    cluster = analyzer.load(str(_KURL))
    kinds = {row["kind"]: row["count"] for row in cluster_facts(cluster)["read"]["objects_by_kind"]}
    assert kinds["Node"] == len(cluster.tables["nodes"]) == 3
    assert kinds["Node (longhorn.io)"] == 3
    assert kinds["Setting"] == 46  # a kind only one group serves keeps its plain name
    md = render_cluster_report(cluster, tmp_path).markdown.read_text(encoding="utf-8")
    assert "| Node | 3 |" in md and "| Node (longhorn.io) | 3 |" in md


# Trimmed from realdata kubeadm/cka-3c97-cluster-info-dump (cluster-info-dump.json, its first
# Node): a NotReady node, its CNI not installed. Before: the rules table said "namespaces 0" of
# node-not-ready, as if the rule had failed in none.
_CKA_NOT_READY_NODE = """\
{"kind": "NodeList", "apiVersion": "v1", "items": [{"kind": "Node", "apiVersion": "v1",
  "metadata": {"name": "cka-controller1", "creationTimestamp": "2021-04-07T22:18:34Z"},
  "status": {"conditions": [{"type": "Ready", "status": "False", "lastHeartbeatTime": "2021-04-08T12:35:25Z",
    "lastTransitionTime": "2021-04-07T22:18:30Z", "reason": "KubeletNotReady",
    "message": "runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:docker: network plugin is not ready: cni config uninitialized"}]}}]}
"""


def test_a_rule_of_cluster_scoped_objects_counts_no_namespaces() -> None:
    facts = cluster_facts(analyzer.load({"cluster-info-dump.json": _CKA_NOT_READY_NODE}))
    rule = next(x for x in facts["findings"]["by_rule"] if x["rule"] == "node-not-ready")
    assert rule["namespaces"] is None
    rules = cluster_tables(facts)["rules"]
    column = next(c for c in rules.columns if c.key == "namespaces")
    row = next(r for r in rules.rows if r["rule"] == "node-not-ready")
    assert cell_text(row["namespaces"], column) == "–"


def test_the_components_by_role_table_names_each_column_once(sample_reports) -> None:
    # The table's last column, the names of the components not healthy, was headed "not
    # healthy" as its third, the count, is (seen on an OKE paste: the `get pods -A` of
    # enricopesce/oracle-kubernetes-engine-deploy's README.md, 6 roles).
    out, _result = sample_reports
    for name in ("aks", "eks", "kubeadm", "oke"):
        lines = (out / name / "report.md").read_text(encoding="utf-8").splitlines()
        [header] = [line for line in lines if line.startswith("| role | components |")]
        cells = [c.strip() for c in header.strip("|").split("|")]
        assert len(cells) == len(set(cells)) and cells[-1] == "which are not healthy", (name, cells)
        html = (out / name / "report.html").read_text(encoding="utf-8")
        [head] = re.findall(r"<thead><tr><th>role</th>.*?</tr></thead>", html)
        heads = re.findall(r"<th[^>]*>([^<]*)</th>", head)
        assert len(heads) == len(set(heads)), (name, heads)
