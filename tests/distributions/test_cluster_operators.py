"""OpenShift's ClusterOperators as rows of the components table: their roles, versions and health
from Available and Degraded, shown by the report and compared by diff, judged by
object-condition-bad alone (no component finding of their own)."""

from __future__ import annotations

import pytest
from conftest import REALDATA

import analyzer
from analyzer.distributions.catalog import load_catalog
from analyzer.distributions.operators import UNLISTED_ROLE, operator_roles
from analyzer.findings import collect_findings
from tests.findings.test_incidents import (
    _MCO_WAITS_FOR_MASTER_POOL,
    _UPDATE_WAITS_FOR_AUTH,
    _UPDATE_WAITS_FOR_CONSOLE,
)

AWS_OPERATORS = next((REALDATA / "openshift" / "must-gather-clean-aws").rglob("clusteroperators.yaml"), None)

# openshift/installer#3960 (a comment, 2020-11-30, OCP 4.5.6): `oc get co` with console and
# authentication down; the update waits for console.
INSTALLER_3960 = _UPDATE_WAITS_FOR_CONSOLE
# openshift/cluster-authentication-operator#152 (its description, OCP 4.1): authentication
# available but degraded.
AUTH_152 = _UPDATE_WAITS_FOR_AUTH
# openshift/machine-config-operator#367 (its description, 2019-02-01): `oc get clusteroperators
# machine-config-operator -o yaml` of OpenShift 4.0, whose API said Failing where later ones say
# Degraded.
MCO_367 = _MCO_WAITS_FOR_MASTER_POOL

# Trimmed from openshift/oc pkg/cli/admin/upgrade/status/examples/4.14.1-degraded-co.yaml (a
# cluster's `oc get co -o yaml` during an update to 4.14.1, one master NotReady): kube-apiserver
# available but degraded.
KUBE_APISERVER_DEGRADED = """apiVersion: v1
items:
- apiVersion: config.openshift.io/v1
  kind: ClusterOperator
  metadata:
    creationTimestamp: "2023-11-03T14:43:55Z"
    name: kube-apiserver
  spec: {}
  status:
    conditions:
    - lastTransitionTime: "2023-11-03T16:28:36Z"
      message: 'NodeControllerDegraded: The master nodes not ready: node "ip-10-0-12-74.ec2.internal"
        not ready since 2023-11-03 16:28:43 +0000 UTC because KubeletNotReady (container
        runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady
        message:Network plugin returns error: No CNI configuration file in /etc/kubernetes/cni/net.d/.
        Has your network provider started?)'
      reason: NodeController_MasterNodesReady
      status: "True"
      type: Degraded
    - lastTransitionTime: "2023-11-03T15:40:52Z"
      message: 'NodeInstallerProgressing: 3 nodes are at revision 6'
      reason: AsExpected
      status: "False"
      type: Progressing
    - lastTransitionTime: "2023-11-03T14:59:35Z"
      message: 'StaticPodsAvailable: 3 nodes are active; 3 nodes are at revision 6'
      reason: AsExpected
      status: "True"
      type: Available
    versions:
    - name: kube-apiserver
      version: 1.27.6
    - name: operator
      version: 4.14.1
kind: List
"""


def _operators(cluster) -> dict[str, dict]:
    table = cluster.tables["components"]
    rows = table[table["kind"] == "ClusterOperator"].astype(object).where(table.notna(), None)
    return {r["name"]: r for r in rows.to_dict("records")}


def test_the_operator_roles_are_the_catalogs() -> None:
    roles = {e.role for e in load_catalog().entries}
    assert {r.role for r in operator_roles().values()} <= roles
    assert UNLISTED_ROLE in roles


@pytest.mark.skipif(AWS_OPERATORS is None, reason="realdata not beside the repo")
def test_a_must_gathers_operators_are_components_by_role() -> None:
    cluster = analyzer.load(str(AWS_OPERATORS))
    rows = _operators(cluster)
    assert len(rows) == 31 and set(rows) <= set(operator_roles())  # the data knows every one
    assert {n: rows[n]["role"] for n in ("dns", "network", "storage", "etcd", "ingress", "monitoring")} == {
        "dns": "dns", "network": "cni", "storage": "csi", "etcd": "control-plane", "ingress": "ingress",
        "monitoring": "logging-monitoring"}
    assert all(r["healthy"] is True and r["health_evidence"] is None for r in rows.values())
    assert rows["dns"]["version"] == "4.8.0-0.nightly-2021-07-31-065602"
    assert (rows["dns"]["namespace"], rows["dns"]["critical"], rows["console"]["critical"]) == ("", True, False)


def test_an_operator_down_or_degraded_is_not_healthy_and_says_why() -> None:
    cluster = analyzer.load({"issue.md": INSTALLER_3960})
    rows = _operators(cluster)
    assert {n: r["healthy"] for n, r in rows.items()} == {
        "authentication": False, "cloud-credential": True, "console": False, "dns": True}
    # the table prints when Available last changed, not when Degraded did
    assert rows["authentication"]["health_evidence"] == (
        "Available=Unknown since 38m before the table was printed; Degraded=True")
    assert rows["authentication"]["version"] is None and rows["console"]["version"] == "4.5.6"
    available_but_degraded = _operators(analyzer.load({"issue.md": AUTH_152}))["authentication"]
    assert (available_but_degraded["healthy"], available_but_degraded["health_evidence"]) == (False, "Degraded=True")


def test_an_operator_of_openshift_4_0_failing_says_since_when_and_its_message() -> None:
    (row,) = _operators(analyzer.load({"co.yaml": MCO_367})).values()
    assert row["healthy"] is False and row["role"] == UNLISTED_ROLE  # (its 4.0 name, listed nowhere)
    available, failing = row["health_evidence"].split("; ")
    assert available == "Available=False since 2019-02-01T20:19:35Z"
    assert failing.startswith("Failing=True since 2019-02-01T20:25:18Z: Failed when progressing")
    assert "error pool master is not ready" in failing


def test_a_critical_operator_degraded_says_why() -> None:
    (row,) = _operators(analyzer.load({"co.yaml": KUBE_APISERVER_DEGRADED})).values()
    assert (row["role"], row["critical"], row["healthy"], row["version"]) == ("control-plane", True, False, "4.14.1")
    assert row["health_evidence"].startswith("Degraded=True since 2023-11-03T16:28:36Z: NodeControllerDegraded: "
                                             "The master nodes not ready")


@pytest.mark.skipif(AWS_OPERATORS is None, reason="realdata not beside the repo")
def test_a_critical_operator_degraded_is_judged_once_by_its_conditions() -> None:
    # beside a pod (the must-gather's router), so the component rules judge this dump too
    router = next(AWS_OPERATORS.parents[2].rglob("router-default-6dd4c95495-7dqkw.yaml"))
    cluster = analyzer.load({"co.yaml": KUBE_APISERVER_DEGRADED, "pod.yaml": router.read_text(encoding="utf-8")})
    findings = collect_findings(cluster)
    assert not [f for f in findings if f.rule == "critical-component-unhealthy" and f.status == "not_applicable"]
    # object-condition-bad says it; no critical-component finding says it again
    assert [(f.rule, f.kind, f.name) for f in findings if f.status == "fail" and f.name == "kube-apiserver"] == [
        ("object-condition-bad", "ClusterOperator", "kube-apiserver")]
    assert not [f for f in findings if f.status == "fail" and f.rule.startswith("critical-component")]


def test_the_report_lists_the_operators_by_role() -> None:
    from analyzer.report.sections import components_section

    section = components_section(analyzer.load({"issue.md": INSTALLER_3960}))
    assert (section["total"], section["unhealthy"]) == (4, 2)
    assert {r["role"]: r["unhealthy_names"] for r in section["by_role"]} == {
        "other": ["console"], "security": ["authentication"], "dns": []}


def test_diff_compares_operators_by_version_where_both_dumps_say() -> None:
    from analyzer.diff.versions import compare_versions

    rows = compare_versions(analyzer.load({"issue.md": AUTH_152}), analyzer.load({"issue.md": INSTALLER_3960}))
    operators = {r["what"]: (r["old"], r["new"]) for r in rows if r["what"].startswith("ClusterOperator")}
    # authentication's VERSION is empty in the later paste: not a change it can tell
    assert operators == {"ClusterOperator cloud-credential": (None, "4.5.6"),
                         "ClusterOperator console": (None, "4.5.6"), "ClusterOperator dns": (None, "4.5.6")}
