"""The report's tables in real headless Chromium, on the report of a large generated dump: sort a
numeric column and an age column, filter by namespace, open a deep link, read it without scripts;
no console errors, no network requests."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from browser import launched, needs_chromium, open_guarded
from conftest import ROOT
from playwright.sync_api import expect

import analyzer
from analyzer.report import cluster_facts, render_cluster_report
from analyzer.report.tables import PREVIEW, age_text

pytestmark = needs_chromium

PODS = 1500  # enough rows for paging, sorting and filtering to mean something; quick to make
UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


@pytest.fixture(scope="module")
def large(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """The report of a dump from benchmarks/generate_dump.py (1,500 pods on 75 nodes, seed 5)."""
    root = tmp_path_factory.mktemp("large")
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from generate_dump import write_dump
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    dump = root / "pods.json"
    write_dump(dump, pods=PODS, seed=5)
    cluster = analyzer.load(str(dump))
    facts = cluster_facts(cluster)
    files = render_cluster_report(cluster, root / "report", facts=facts)
    return files.html, facts


@pytest.fixture(scope="module")
def browser():
    with launched() as b:
        yield b


def _ready(page) -> None:
    page.wait_for_function("document.documentElement.classList.contains('kt-ready')", timeout=20_000)


def _column(page, table: str, header: str) -> list[str]:
    heads = page.eval_on_selector_all(f"#t-{table} thead th", "els => els.map(e => e.textContent)")
    index = heads.index(header) + 1
    return page.eval_on_selector_all(f"#t-{table} tbody tr td:nth-child({index})",
                                     "els => els.map(e => e.textContent)")


def _seconds(age: str) -> int:
    return int(age[:-1]) * UNITS[age[-1]]


def test_sort_filter_and_page_the_pods_table(browser, large) -> None:
    html, facts = large
    pods = facts["pods"]["rows"]
    assert len(pods) == PODS
    page, errors, attempted = open_guarded(browser, html.as_uri())
    try:
        _ready(page)
        assert page.inner_text("#t-pods .kt-status") == f"1–50 of {PODS} rows"
        # Restarts sort as numbers: descending on the second click, largest first.
        header = page.locator("#t-pods thead th", has_text="restarts")
        header.click()
        header.click()
        shown = [int(x) for x in _column(page, "pods", "restarts")]
        expected = sorted((r["restarts"] or 0 for r in pods), reverse=True)[:50]
        assert shown == expected and shown[0] > shown[-1] >= 0
        # Ages sort as durations (2d after 5h), not as text.
        page.locator("#t-pods thead th", has_text="age").click()
        ages = [_seconds(a) for a in _column(page, "pods", "age")]
        assert ages == sorted(ages)
        assert ages[0] == _seconds(age_text(min(r["age_seconds"] for r in pods)))
        # Filter by namespace: the count is the namespace's pods, every row shown is in it.
        counts: dict[str, int] = {}
        for r in pods:
            counts[r["namespace"]] = counts.get(r["namespace"], 0) + 1
        namespace = max(sorted(counts), key=lambda ns: counts[ns])
        assert counts[namespace] > 50  # so that paging shows too
        page.select_option("#t-pods select", namespace)
        assert page.inner_text("#t-pods .kt-status") == f"1–50 of {counts[namespace]} matching ({PODS} rows)"
        assert set(_column(page, "pods", "namespace")) == {namespace}
        page.click("#t-pods button:has-text('next')")
        assert page.inner_text("#t-pods .kt-status").startswith("51–")
        # The text box narrows it further: one pod by its full name.
        target = next(r for r in pods if r["namespace"] == namespace)
        page.fill("#t-pods input[type=search]", target["name"])
        assert _column(page, "pods", "name") == [target["name"]]
        assert errors == [] and attempted == []
    finally:
        page.close()


def test_a_deep_link_opens_the_row(browser, large) -> None:
    html, facts = large
    target = facts["pods"]["rows"][-1]  # the last row: on the last page, not in the first rows
    page, errors, attempted = open_guarded(browser, f"{html.as_uri()}#pod/{target['namespace']}/{target['name']}")
    try:
        _ready(page)
        hit = page.locator("#t-pods tr.kt-hit")
        assert hit.count() == 1
        assert target["name"] in hit.inner_text()
        assert hit.is_visible() and hit.evaluate(
            "tr => { const r = tr.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }")
        # A link from the What-is-wrong card filters the findings table to that incident's findings.
        problem = facts["what_is_wrong"]["problems"][0]
        assert facts["what_is_wrong"]["source"] == "incidents"
        page.click(f"#wrong a[href='#filter/findings/incident={problem['id']}']")
        # The link changes the hash; the table follows on `hashchange`, which the browser fires
        # after the click returns: wait for the filtered status rather than read it at once.
        expect(page.locator("#t-findings .kt-status")).to_have_text(
            re.compile(rf"of {problem['count']} matching"), timeout=10_000)
        assert set(_column(page, "findings", "incident")) == {problem["id"]}
        assert errors == [] and attempted == []
    finally:
        page.close()


def test_without_scripts_the_page_shows_counts_and_first_rows(browser, large) -> None:
    html, facts = large
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(html.as_uri())
        note = page.inner_text("#t-pods .kt-note")
        assert f"{PODS} pods; the first {PREVIEW} are shown here" in note
        assert "kda tables" in note and "--table pods --format csv" in note
        assert page.locator("#t-pods tbody tr").count() == PREVIEW
        first = facts["pods"]["rows"][0]
        assert page.inner_text("#t-pods tbody tr:first-child td:nth-child(2)") == first["name"]
        assert f"{facts['findings']['total']} failed checks" in page.inner_text("#t-findings .kt-note")
        assert page.locator(".kt-bar").count() == 0
    finally:
        context.close()


HOSTILE = '<img src=x onerror="window.pwned=1">'
SCRIPT = "<script>window.pwned=2</script>"


def test_hostile_strings_stay_text_in_the_script_built_rows(browser, tmp_path: Path) -> None:
    # Written for this test (as test_safety.py's planted dump): 30 pods whose names, namespace,
    # IP and image hold markup, so that the pods table's rows come from its data block.
    pods = "".join(f"""\
- apiVersion: v1
  kind: Pod
  metadata: {{name: 'p-{i}-{HOSTILE}', namespace: "ns-{SCRIPT}"}}
  spec: {{nodeName: "n-{SCRIPT}", containers: [{{name: c, image: "i:{SCRIPT}"}}]}}
  status: {{phase: Running, podIP: '{HOSTILE}'}}
""" for i in range(30))
    cluster = analyzer.load("apiVersion: v1\nkind: List\nitems:\n" + pods)
    html = render_cluster_report(cluster, tmp_path).html
    page, errors, attempted = open_guarded(browser, html.as_uri())
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    try:
        _ready(page)
        page.select_option("#t-pods select", f"ns-{SCRIPT}")
        page.fill("#t-pods input[type=search]", "p-7-")
        assert _column(page, "pods", "name") == [f"p-7-{HOSTILE}"]
        assert _column(page, "pods", "IP") == [HOSTILE]
        page.fill("#t-pods input[type=search]", "")
        page.locator("#t-pods thead th").nth(1).click()  # sorted by name, re-rendered: still text
        assert page.locator("#t-pods tbody tr").count() == 30
        assert page.locator("img[src=x]").count() == 0
        assert page.evaluate("window.pwned") is None
        assert dialogs == [] and errors == [] and attempted == []
    finally:
        page.close()


def test_the_comparison_page_sorts_and_filters_its_long_tables(browser, sample_reports) -> None:
    out, _ = sample_reports
    comparison = json.loads((out / "comparison.json").read_text(encoding="utf-8"))
    rows = comparison["components"]["rows"]
    assert len(rows) > 20  # long enough to be made sortable
    page, errors, attempted = open_guarded(browser, (out / "index.html").as_uri())
    try:
        _ready(page)
        cni = [r for r in rows if r["role"] == "cni"]
        page.fill("#t-components input[type=search]", "cni:")
        assert page.locator("#t-components tbody tr").count() == len(cni)
        page.fill("#t-components input[type=search]", "")
        page.locator("#t-components thead th").first.click()
        page.locator("#t-components thead th").first.click()
        firsts = page.eval_on_selector_all("#t-components tbody tr th", "els => els.map(e => e.textContent)")
        labels = sorted((f"{r['role']}: {r['component']}" for r in rows), reverse=True)
        assert firsts == labels[:len(firsts)]
        assert errors == [] and attempted == []
    finally:
        page.close()


def test_the_fleet_page_sorts_its_dumps_as_numbers(browser, tmp_path: Path) -> None:
    from analyzer.fleet.report import build_report, write_report

    # Hand-written manifest entries (shaped like analyzer/fleet/task.py's DumpResult.to_dict()).
    dumps = {f"h{i}": {"dump_id": f"d-{i:03d}", "name": f"d-{i:03d}", "path": f"/d/{i}", "paths": [f"/d/{i}"],
                       "distribution": "aks", "confidence": 0.9, "kubernetes_version": "v1.29.7",
                       "objects": (i * 37) % 101, "components": [], "findings": []} for i in range(60)}
    write_report(tmp_path, build_report({"dumps": dumps, "failures": {}}))
    page, errors, attempted = open_guarded(browser, (tmp_path / "fleet.html").as_uri())
    try:
        _ready(page)
        page.locator("#t-dumps thead th", has_text="objects").click()
        objects = [int(x) for x in _column(page, "dumps", "objects")]
        assert objects == sorted((i * 37) % 101 for i in range(60))[:50]
        page.goto((tmp_path / "fleet.html").as_uri() + "#dump/d-059")
        _ready(page)
        assert "d-059" in page.inner_text("#t-dumps tr.kt-hit")
        assert errors == [] and attempted == []
    finally:
        page.close()


def test_the_comparison_page_keeps_its_width_and_its_row_labels_in_view(browser, sample_reports) -> None:
    # Realdata's 28 dumps made the page 5,982 px wide at 1,400: every section scrolled with the
    # widest table and the row labels left the screen. Here the samples at a narrow window.
    out, _ = sample_reports
    page, errors, attempted = open_guarded(browser, (out / "index.html").as_uri())
    try:
        page.set_viewport_size({"width": 700, "height": 900})
        assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
        box = page.locator("#overview .wide")
        assert box.evaluate("d => d.scrollWidth > d.clientWidth")  # this table scrolls in its box
        box.evaluate("d => { d.scrollLeft = d.scrollWidth; }")
        label = page.locator("#overview tbody th").first
        assert label.inner_text() == "control plane"
        assert abs(label.bounding_box()["x"] - box.bounding_box()["x"]) < 1  # still at the box's left
        assert errors == [] and attempted == []
    finally:
        page.close()
