"""Who manages an object (analyzer/model/managed.yaml), as a finding's `managed` mark says it."""

from __future__ import annotations

import analyzer
from analyzer.findings import collect_findings


def test_openshift_3_sdn_pods_are_the_platforms_not_said_to_be_an_operators() -> None:
    # openshift/openshift-ansible#11466 (comment of 2019-04-19), trimmed: OKD 3.11's openshift-sdn
    # pods, which openshift-ansible installs (no operator manages them before 4.x)
    paste = ("# oc get pods -n openshift-sdn\n"
             "NAME        READY     STATUS             RESTARTS   AGE\n"
             "ovs-gz97h   1/1       Running            0          23m\n"
             "sdn-5pxbb   0/1       CrashLoopBackOff   9          23m\n")
    findings = [f for f in collect_findings(analyzer.load({"okd-311.md": paste}))
                if f.rule == "pod-crashloop" and f.status == "fail"]
    assert [f.name for f in findings] == ["sdn-5pxbb"]
    assert "OpenShift platform" in findings[0].managed
    assert "an OpenShift operator" not in findings[0].managed
