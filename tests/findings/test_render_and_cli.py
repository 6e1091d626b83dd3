"""`cluster.findings`, the JSON/SARIF/Markdown/text forms, and the `kda findings` / `kda rules` commands."""

from __future__ import annotations

import json

import pytest
import yaml
from conftest import REALDATA
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import analyzer
from analyzer.cli import app
from analyzer.findings import run_rules
from analyzer.findings.registry import load_rules
from analyzer.findings.render import COLUMNS

runner = CliRunner()
CKA = str(REALDATA / "kubeadm" / "cka-3c97-cluster-info-dump")
# A crashlooping pod, as `kubectl get pod -o yaml` prints it (hand-written, trimmed).
CRASHING = yaml.safe_dump({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web", "namespace": "shop"},
                           "spec": {"containers": [{"name": "app", "image": "shop/web:1.2"}]},
                           "status": {"phase": "Running", "containerStatuses": [
                               {"name": "app", "restartCount": 3, "state": {"waiting": {"reason": "CrashLoopBackOff"}}}]}})


def run(*args: str):
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return result


def test_cluster_findings_is_a_deterministic_dataframe() -> None:
    cluster = analyzer.load({"pod.yaml": CRASHING})
    frame = cluster.findings
    assert list(frame.columns) == list(COLUMNS)
    row = frame[frame["rule"] == "pod-crashloop"].iloc[0]
    assert (row["severity"], row["status"], row["kind"], row["namespace"], row["name"]) == \
        ("critical", "fail", "Pod", "shop", "web")
    evidence = json.loads(row["evidence"])
    assert evidence[0]["field"] == "status.containerStatuses[name=app].state.waiting.reason"
    assert evidence[0]["seen"] == "CrashLoopBackOff" and evidence[0]["source"].endswith("pod.yaml")
    assert "CrashLoopBackOff" in row["message"] and row["remediation"]
    again = run_rules(analyzer.load({"pod.yaml": CRASHING}))
    assert again.equals(frame)


def test_json_contract() -> None:
    result = run("findings", CKA, "--format", "json")
    assert result.exit_code == 0
    records = json.loads(result.output)
    assert records and all({"rule", "severity", "status", "object", "evidence", "message"} <= set(r) for r in records)
    not_ready = [r for r in records if r["rule"] == "node-not-ready"]
    assert {r["object"]["name"] for r in not_ready} == {"cka-controller1", "cka-controller2", "cka-worker1"}
    assert not_ready[0]["object"] == {"kind": "Node", "namespace": "", "name": not_ready[0]["object"]["name"]}
    assert not_ready[0]["evidence"][0]["field"] == "status.conditions[type=Ready].status"
    na = [r for r in records if r["status"] == "not_applicable"]
    assert any(r["rule"] == "ref-missing-configmap" and "ConfigMap" in r["message"] for r in na)
    # Incident members lead, each naming its incident; the rest say null.
    assert records[0]["incident"]["id"] == "I1" and records[0]["incident"]["rank"] == 1
    assert {r["rule"] for r in records if r["incident"]} == {"node-not-ready", "pod-pending"}
    assert all(r["incident"] is None for r in na)
    # managed and resolved on every record; the node ages from each file's own capture
    assert all("managed" in r and "resolved" in r for r in records)
    assert all("14h before capture" in r["message"] or "13h before capture" in r["message"] for r in not_ready)


def test_kda_inspect_says_how_the_capture_time_was_found() -> None:
    result = run("inspect", CKA)
    assert "capture time: 2021-04-11T14:33:30Z (node heartbeat, high confidence); stitched" in result.output
    assert "cluster-info-dump.json; 2021-04-11T14:23:24Z" in result.output
    data = json.loads(run("inspect", CKA, "--format", "json").output)
    assert data["capture"]["signal"] == "node heartbeat" and len(data["capture"]["periods"]) == 2
    assert data["virtual_cluster"] == {"name": None, "evidence": []}


def test_sarif_2_1_0() -> None:
    result = run("findings", CKA, "--format", "sarif")
    sarif = json.loads(result.output)
    assert sarif["version"] == "2.1.0"
    driver = sarif["runs"][0]["tool"]["driver"]
    assert [r["id"] for r in driver["rules"]] == [r.meta.id for r in load_rules()]
    results = sarif["runs"][0]["results"]
    assert results and all(driver["rules"][r["ruleIndex"]]["id"] == r["ruleId"] for r in results)
    assert sarif["runs"][0]["properties"]["incidents"][0]["cause_rule"] == "node-not-ready"
    pending = next(r for r in results if r["ruleId"] == "pod-pending")
    assert pending["properties"]["incident"]["id"] == "I1"
    assert pending["level"] == "error"
    location = pending["locations"][0]
    assert location["physicalLocation"]["artifactLocation"]["uri"].endswith("cluster-info-dump.json")
    assert location["logicalLocations"][0]["fullyQualifiedName"].startswith("Pod/kube-system/coredns-")


def test_markdown_and_text() -> None:
    md = run("findings", CKA, "--format", "markdown").output
    assert md.startswith("# Findings") and "| critical | node-not-ready | Node cka-controller1 |" in md
    assert "## Not applicable to this dump" in md
    # (no hygiene section: the only candidate, mixed kubelet versions, compared two clusters
    # captured days apart, which a stitched dump does not allow)
    assert md.index("## What is wrong") < md.index("## All findings") and "## Hygiene" not in md
    text = run("findings", CKA).output
    # What is wrong leads: the three NotReady nodes (one cause: "cni config uninitialized")
    # with the coredns pods they keep pending; then hygiene by rule, then every finding.
    assert text.startswith("WHAT IS WRONG (1 incident)\n  1. [critical] 3 nodes are NotReady")
    assert "HYGIENE" not in text and "\nCRITICAL (5)" in text and "findings: 5 critical" in text


def test_severity_filter_and_fail_on() -> None:
    only = json.loads(run("findings", CKA, "-f", "json", "-s", "info", "--no-not-applicable").output)
    assert only and {r["severity"] for r in only} == {"info"}
    assert run("findings", CKA, "--fail-on", "critical").exit_code == 3
    quiet = str(REALDATA / "kind" / "kubectl-neat")
    assert run("findings", quiet, "--fail-on", "critical").exit_code == 0
    assert run("findings", quiet, "--fail-on", "warning").exit_code == 3


def test_rule_selection_and_errors() -> None:
    one = json.loads(run("findings", CKA, "-f", "json", "-r", "pod-pending").output)
    assert {r["rule"] for r in one} == {"pod-pending"}
    bad = run("findings", CKA, "-r", "no-such-rule")
    assert bad.exit_code == 1 and "no-such-rule" in bad.output


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_kda_rules(fmt: str) -> None:
    result = run("rules", "--format", fmt)
    assert result.exit_code == 0
    if fmt == "json":
        rules = json.loads(result.output)
        assert len(rules) == len(load_rules()) >= 40
        assert {"id", "title", "severity", "category"} <= set(rules[0])
    else:
        assert "pod-crashloop" in result.output and f"{len(load_rules())} rules" in result.output


_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.text(), _VALUES, _VALUES, st.text(), st.none() | st.integers(0, 10**6)),
                max_size=3))
def test_the_evidence_column_is_what_json_writes_of_it(items) -> None:  # noqa: ANN001
    # the findings frame writes its evidence straight (findings.render.evidence_json): the text
    # must be json.dumps(..., sort_keys=True, default=str) of the evidence's dicts, whatever it holds
    from datetime import UTC, datetime

    from analyzer.findings.render import evidence_json
    from analyzer.findings.types import Evidence

    evidence = [Evidence(field, seen, expected, source, line) for field, seen, expected, source, line in items]
    evidence.append(Evidence("status.startTime", datetime(2024, 9, 15, tzinfo=UTC), None, "pods.yaml", 3))
    assert evidence_json(evidence) == json.dumps([e.to_dict() for e in evidence], sort_keys=True, default=str)


def test_an_object_pasted_without_namespace_or_command_is_named_bare() -> None:
    # paulbouwer/hello-kubernetes#14 (trimmed): a service row pasted with no command above it;
    # its namespace is not in the paste, so the finding names it bare, not "-/hello-kubernetes"
    import analyzer

    paste = ("NAME               TYPE           CLUSTER-IP      EXTERNAL-IP   PORT(S)        AGE\n"
             "hello-kubernetes   LoadBalancer   10.110.156.22   <pending>     80:30210/TCP   18m\n")
    from analyzer.findings import collect_findings
    from analyzer.findings.render import message

    cluster = analyzer.load({"issue.md": paste})
    [finding] = [f for f in collect_findings(cluster) if f.rule == "service-lb-pending"]
    metas = {r.meta.id: r.meta for r in load_rules()}
    assert message(finding, metas[finding.rule]).startswith("Service hello-kubernetes is type LoadBalancer")
