"""What the tool that made the dump made as it ran is not the cluster's problem: the e2e suite's
test namespaces (sonobuoy's e2e plugin) hold pods meant to stay Pending and namespaces being
torn down. Fixture: tests/ingest/data/sonobuoy-results-e2e/ (vmware-tanzu/sonobuoy @ 307560188828
test/integration/testdata/results-4-e2e-failures.tar.gz, trimmed; see tests/ingest/test_sonobuoy.py)."""

from __future__ import annotations

from pathlib import Path

import analyzer

E2E = Path(__file__).parents[1] / "ingest" / "data" / "sonobuoy-results-e2e"


def test_findings_in_an_e2e_runs_namespaces_are_info_saying_whose_they_are() -> None:
    cluster = analyzer.load(str(E2E))
    findings = cluster.findings
    pending = findings[(findings["rule"] == "pod-pending") & (findings["name"] == "terminating-pod")]
    assert len(pending) == 1
    [row] = pending.to_dict("records")
    assert row["severity"] == "info" and "labelled e2e-run=" in row["resolved"]
    terminating = findings[(findings["rule"] == "namespace-terminating")]
    assert set(terminating["severity"]) == {"info"} and set(terminating["name"]) == {"crd-publish-openapi-8311"}
    # nothing of the tests' is an incident; their pods' specs are not judged as the owner's
    assert cluster.incidents.empty
    assert not findings["rule"].str.startswith("container-").any()
