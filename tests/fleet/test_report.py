"""The fleet report: counts per distribution, rankings, and an HTML page that escapes input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from analyzer.fleet.report import build_report, minor_version, render_html, write_report


def _entry(dump_id: str, dist: str, version: str | None, components: list[tuple[str, list[str]]],
           findings: list[tuple[str, str, int]]) -> dict[str, Any]:
    # Hand-written manifest entries, shaped like DumpResult.to_dict() in analyzer/fleet/task.py.
    return {
        "dump_id": dump_id, "name": dump_id, "path": f"/dumps/{dump_id}", "paths": [f"/dumps/{dump_id}"],
        "distribution": dist, "confidence": 0.9, "kubernetes_version": version, "objects": 10,
        "components": [{"component": c, "role": "cni", "versions": v} for c, v in components],
        "findings": [{"rule": r, "severity": s, "count": n} for r, s, n in findings],
    }


MANIFEST = {
    "format": "kda-fleet-manifest/1",
    "dumps": {
        "h1": _entry("a-1", "aks", "v1.29.7", [("azure-cni", ["v1.5.32"]), ("coredns", ["v1.9.4"])],
                     [("pod-crashloop", "critical", 2)]),
        "h2": _entry("a-2", "aks", "v1.29.2", [("azure-cni", ["v1.5.38"])],
                     [("pod-crashloop", "critical", 1), ("service-no-pods", "warning", 5)]),
        "h3": _entry("a-3", "aks", None, [], [("service-no-pods", "warning", 1)]),
        "h4": _entry("e-1", "eks", "v1.30.4-eks-a737599", [("aws-node", [])], []),
    },
    "failures": {
        "/dumps/bad.tar.gz": {"path": "/dumps/bad.tar.gz", "name": "bad",
                              "error_type": "InputError", "error": "corrupt gzip data"},
    },
}


def test_counts_per_distribution_and_versions() -> None:
    report = build_report(MANIFEST)
    assert report["dumps"] == 4 and report["failed"] == 1
    assert report["dumps_per_distribution"] == {"aks": 3, "eks": 1}
    assert report["kubernetes_minor_versions"] == {"v1.29": 2, "unknown": 1, "v1.30": 1}
    aks = report["distributions"]["aks"]
    assert aks["kubernetes_versions"] == {"unknown": 1, "v1.29.2": 1, "v1.29.7": 1}
    assert aks["components"][0] == {"component": "azure-cni", "role": "cni", "dumps": 2,
                                    "share": 0.667, "versions": {"v1.5.32": 1, "v1.5.38": 1}}
    assert report["distributions"]["eks"]["components"][0]["versions"] == {"unknown": 1}


def test_findings_ranked_by_dumps_then_objects() -> None:
    aks = build_report(MANIFEST)["distributions"]["aks"]["findings"]
    # Both rules fail in 2 of 3 dumps; service-no-pods has more failing objects (6 > 3).
    assert [(f["rule"], f["dumps"], f["objects"]) for f in aks] == [
        ("service-no-pods", 2, 6), ("pod-crashloop", 2, 3)]
    assert build_report(MANIFEST)["distributions"]["eks"]["findings"] == []


def test_failures_are_listed_with_their_error() -> None:
    assert build_report(MANIFEST)["failures"] == [{
        "path": "/dumps/bad.tar.gz", "name": "bad", "error_type": "InputError",
        "error": "corrupt gzip data"}]


def test_html_escapes_names_from_dumps() -> None:
    manifest = json.loads(json.dumps(MANIFEST))
    manifest["failures"]["/dumps/bad.tar.gz"]["error"] = "<script>alert(1)</script>"
    manifest["dumps"]["h4"]["components"][0]["component"] = "<img src=x onerror=alert(1)>"
    page = render_html(build_report(manifest))
    assert "<script>alert" not in page and "<img src=x" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "http://" not in page and "https://" not in page  # self-contained: no remote assets


def test_report_files_are_deterministic(tmp_path: Path) -> None:
    first = [p.read_bytes() for p in write_report(tmp_path, build_report(MANIFEST))]
    shuffled = {**MANIFEST, "dumps": dict(reversed(list(MANIFEST["dumps"].items())))}
    second = [p.read_bytes() for p in write_report(tmp_path, build_report(shuffled))]
    assert first == second


def test_minor_version_of_distribution_suffixes() -> None:
    assert [minor_version(v) for v in ("v1.28.2", "v1.24.4+k3s1", "1.30", "latest")] == [
        "v1.28", "v1.24", "v1.30", "unknown"]


def test_a_fleet_where_every_dump_failed() -> None:
    report = build_report({**MANIFEST, "dumps": {}})
    assert (report["dumps"], report["failed"], report["distributions"]) == (0, 1, {})
    assert "0 dump(s) analysed, 1 failed" in render_html(report)


def test_the_page_draws_versions_and_components_and_its_tables_sort() -> None:
    from analyzer.fleet.charts import component_versions, version_heatmap
    from analyzer.report.tables import script

    report = build_report(MANIFEST)
    heat = version_heatmap(report)
    ax = heat.axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["v1.29", "v1.30", "unknown"]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["aks (3)", "eks (1)"]
    assert sorted(t.get_text() for t in ax.texts) == ["1", "1", "2"]  # aks: 2 on v1.29, 1 unknown
    bars = component_versions(report)
    assert [t.get_text() for t in bars.axes[0].get_yticklabels()] == ["azure-cni", "aws-node", "coredns"]
    page = render_html(report)
    assert page.count('src="data:image/svg+xml;base64,') == 2
    assert page.count("<script>") == 1 and script().strip() in page
    assert 'id="t-dumps"' not in page  # 4 dumps: a short table, written whole


def test_a_large_fleet_pages_its_dump_table() -> None:
    manifest = {"dumps": {f"h{i}": _entry(f"d-{i:03d}", "aks", "v1.29.7", [], []) for i in range(60)},
                "failures": {}}
    page = render_html(build_report(manifest))
    assert 'id="t-dumps"' in page and 'data-link="dump"' in page
    assert "60 dumps; the first 20 are shown here" in page
