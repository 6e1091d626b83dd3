"""A section whose kind the dump never collected says so, in both pages, instead of counting zero
under an empty table ("0 services ()." read as a cluster without Services).

Fixture: tests/data/not-collected/frontend-service-pod.yaml, one AKS pod saved alone (its source
is in the file), as it came and inside a support bundle whose Service and Deployment listings
were collected and are empty.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from browser import launched, needs_chromium, open_guarded
from conftest import REALDATA
from typer.testing import CliRunner

from analyzer.cli import app
from analyzer.safeyaml import load_yaml

POD = Path(__file__).parents[1] / "data" / "not-collected" / "frontend-service-pod.yaml"


def _report(dump: Path, out: Path) -> tuple[str, str, Path]:
    result = CliRunner().invoke(app, ["report", str(dump), "-o", str(out), "--no-progress"])
    assert result.exit_code == 0, result.output
    page = out / dump.stem
    return (page / "report.md").read_text(), (page / "report.html").read_text(), page / "report.html"


def _section(md: str, title: str) -> str:
    return md.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def test_a_pod_saved_alone_says_services_and_workloads_were_not_collected(tmp_path: Path) -> None:
    md, html, _ = _report(POD, tmp_path / "out")
    services, workloads = _section(md, "Services"), _section(md, "Workloads and their health")
    assert services.strip() == "This dump did not collect Service."
    assert "This dump did not collect Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, CronJob." in workloads
    assert "0 workloads" not in workloads and "| --- |" not in workloads.split("### Most restarted")[0]
    assert "1 pods: CrashLoopBackOff: 1." in workloads  # the pods it has are still told
    for page in (md, html):
        assert "0 services" not in page and "workloads ()" not in page


@needs_chromium
def test_the_page_shows_no_empty_table_for_a_kind_not_collected(tmp_path: Path) -> None:
    _, _, path = _report(POD, tmp_path / "out")
    with launched() as browser:
        page, errors, attempted = open_guarded(browser, path.as_uri())
        try:
            assert errors == [] and attempted == []
            services = page.locator("#services")
            assert services.locator("table").count() == 0
            assert "This dump did not collect Service." in services.inner_text()
            # the workloads section keeps only the restarted pods' table, none of workloads
            workloads = page.locator("#workloads")
            assert workloads.locator("table").count() == 1
            assert "did not collect Deployment" in workloads.locator("p.na").inner_text()
        finally:
            page.close()


@pytest.fixture
def bundle(tmp_path: Path) -> Path:
    """A support bundle (troubleshoot layout) with the pod, and empty Service and Deployment lists."""
    pod = load_yaml(POD.read_text())
    root = tmp_path / "bundle" / "cluster-resources"
    for folder, kind, items in (("pods", "PodList", [pod]), ("services", "ServiceList", []),
                                ("deployments", "DeploymentList", [])):
        (root / folder).mkdir(parents=True)
        (root / folder / "default.json").write_text(json.dumps({"kind": kind, "apiVersion": "v1",
                                                                "items": items}))
    return tmp_path / "bundle"


def test_a_collected_empty_listing_is_told_apart_from_one_not_collected(bundle: Path, tmp_path: Path) -> None:
    md, html, _ = _report(bundle, tmp_path / "out")
    assert _section(md, "Services").strip() == "No services in this dump: its Service listings are empty."
    workloads = _section(md, "Workloads and their health")
    assert "This dump did not collect StatefulSet, DaemonSet, ReplicaSet, Job, CronJob." in workloads
    assert "No workloads in this dump: its Deployment listings are empty." in workloads
    assert "No services in this dump: its Service listings are empty." in html


def test_the_first_line_says_how_the_capture_is_dated_and_how_many_kinds_are_missing(tmp_path: Path) -> None:
    md, html, _ = _report(POD, tmp_path / "out")
    head = md.split("\n## ", 1)[0]
    assert "captured at an unknown time (no timestamp in the dump)." in head
    assert "27 kinds not collected (listed under What was read): their absence here is no sign of health." in head
    lead = html.split('<p class="lead">', 1)[1].split("</p>", 1)[0]
    assert '<a href="#read">27 kinds not collected</a>: their absence here is no sign of health.' in lead


_KURL = REALDATA / "kubeadm" / "sbctl-kurl-supportbundle"


@pytest.mark.skipif(not _KURL.exists(), reason="shared/realdata not present")
def test_the_first_line_says_a_stitched_capture_is_stitched(tmp_path: Path) -> None:
    # A kURL support bundle whose nodes are of 2022 and its default namespace's events of 2024.
    md, html, _ = _report(_KURL, tmp_path / "out")
    dated = "captured 2022-04-12T00:59:01Z (node heartbeat, high confidence; stitched from 2 periods far apart)."
    assert dated in md.split("\n## ", 1)[0]
    assert dated in html.split('<p class="lead">', 1)[1].split("</p>", 1)[0]
