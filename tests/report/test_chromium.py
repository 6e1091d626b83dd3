"""The HTML reports in real headless Chromium: no console errors, every image drawn, no network."""

from __future__ import annotations

import pytest
from browser import launched, needs_chromium, open_guarded
from conftest import ROOT

from analyzer.report.tables import script as table_script

SAMPLES = ("aks", "eks", "kubeadm", "oke")

ARTIFACTS = ROOT / "test-artifacts"
pytestmark = needs_chromium


@pytest.fixture(scope="module")
def browser():
    with launched() as b:
        yield b


def _check_images(page) -> int:
    images = page.eval_on_selector_all(
        "img", "els => els.map(e => [e.complete, e.naturalWidth, e.getBoundingClientRect().width,"
               " e.getBoundingClientRect().height, e.alt])")
    for complete, natural, width, height, alt in images:
        assert complete and natural > 0, f"image not decoded: {alt}"
        assert width > 0 and height > 0, f"image not laid out: {alt}"
    return len(images)


@pytest.mark.parametrize("name", [*SAMPLES, "index"])
def test_report_renders_in_chromium(browser, sample_reports, name: str) -> None:
    out, _ = sample_reports
    path = out / "index.html" if name == "index" else out / name / "report.html"
    page, errors, attempted = open_guarded(browser, path.as_uri())
    try:
        assert errors == []
        assert attempted == []
        drawn = _check_images(page)
        assert drawn == (1 if name == "index" else 4)  # per cluster: 3 diagrams and the timeline
        # One script, the reports' own table script; no other code in the page.
        scripts = page.eval_on_selector_all("script:not([type])", "els => els.map(e => e.textContent)")
        assert [s.strip() for s in scripts] == [table_script().strip()]
        # The page reads without JavaScript: the same text is in the served HTML.
        assert "Findings" in page.inner_text("body")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"report-{name}.png"), full_page=True)
    finally:
        page.close()
