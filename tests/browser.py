"""Real headless Chromium for the page tests (reports, comparison, fleet, diff): Debian's chromium
driven by Playwright, with every request off the page's own file blocked and recorded (a helper
module of those tests, not a conftest: the suite imports `conftest` by name)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager

import playwright.sync_api as playwright_api
import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# On a developer machine without Chromium these tests skip; in CI (which installs Debian's
# chromium) a missing browser must fail, not quietly skip the only real-browser checks.
needs_chromium = pytest.mark.skipif(CHROMIUM is None and not os.environ.get("CI"),
                                    reason="no chromium on PATH (scripts/test.sh installs it)")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


@contextmanager
def launched() -> Iterator[playwright_api.Browser]:
    """A headless Chromium, closed when the block ends."""
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def open_guarded(browser: playwright_api.Browser, url: str,
                 ) -> tuple[playwright_api.Page, list[str], list[str]]:
    """A page loaded from `url` with every non-file request blocked: (page, console errors,
    the URLs that were attempted over the network)."""
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    errors: list[str] = []
    attempted: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))

    def guard(route: playwright_api.Route) -> None:
        if route.request.url.startswith(("file:", "data:")):
            route.continue_()
        else:
            attempted.append(route.request.url)
            route.abort()

    page.route("**/*", guard)
    page.goto(url, wait_until="load")
    return page, errors, attempted
