"""The report page at scale: report.html's size, its largest diagram, and how long Chromium takes
to open it until its tables are interactive, for generated dumps of 2,000 and 20,000 pods.

    python benchmarks/bench_report_page.py                       # 2,000 and 20,000 pods
    python benchmarks/bench_report_page.py --pods 2000 --runs 5

The budget (issue 22): report.html of the 20,000-pod dump at most 3 MB, interactive in under 2 s,
no SVG over 500 KB. Dumps are generated into benchmarks/data/ when missing (generate_dump.py).
"Interactive" is the moment the page's script has read every table's rows and set up sorting,
filtering and deep links (the `kt-ready` class on <html>), measured in the page from the start of
navigation (performance.now()), in Debian's headless Chromium with every network request blocked.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from generate_dump import write_dump  # noqa: E402

import analyzer  # noqa: E402
from analyzer.report import render_cluster_report  # noqa: E402

BUDGET_BYTES = 3_000_000
BUDGET_SECONDS = 2.0
BUDGET_SVG = 500_000


def _dump(pods: int) -> Path:
    path = HERE / "data" / f"pods-{pods}.json"
    if not path.exists():
        print(f"generating {path} ...", flush=True)
        write_dump(path, pods=pods, nodes=max(3, pods // 20))
    return path


def _interactive(html: Path, runs: int) -> list[float]:
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    times = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        for _ in range(runs):
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            errors: list[str] = []
            page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
            page.route("**/*", lambda r: r.continue_() if r.request.url.startswith(("file:", "data:"))
                       else r.abort())
            page.goto(html.as_uri(), wait_until="commit")
            page.wait_for_function("document.documentElement.classList.contains('kt-ready')",
                                   timeout=60_000)
            times.append(page.evaluate("performance.now()") / 1000)
            if errors:
                raise RuntimeError(f"page errors: {errors}")
            page.close()
        browser.close()
    return times


def measure(pods: int, runs: int) -> dict[str, float]:
    dump = _dump(pods)
    started = time.perf_counter()
    cluster = analyzer.load(str(dump))
    loaded = time.perf_counter() - started
    with tempfile.TemporaryDirectory() as out:
        started = time.perf_counter()
        files = render_cluster_report(cluster, out)
        rendered = time.perf_counter() - started
        size = files.html.stat().st_size
        svg = max((p.stat().st_size for p in files.images if p.suffix == ".svg"), default=0)
        md = files.markdown.stat().st_size
        times = _interactive(files.html, runs)
    return {"pods": pods, "load_s": loaded, "report_s": rendered, "html_bytes": size,
            "markdown_bytes": md, "largest_svg_bytes": svg,
            "interactive_median_s": statistics.median(times), "interactive_max_s": max(times)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pods", type=int, action="append", help="pods (repeatable; default 2000 and 20000)")
    parser.add_argument("--runs", type=int, default=5, help="page loads per dump (default 5)")
    args = parser.parse_args()
    ok = True
    for pods in args.pods or [2000, 20000]:
        m = measure(pods, args.runs)
        print(f"{pods:>6} pods: report.html {m['html_bytes'] / 1e6:5.2f} MB, report.md "
              f"{m['markdown_bytes'] / 1e6:5.2f} MB, largest SVG {m['largest_svg_bytes'] / 1e3:5.0f} KB; "
              f"interactive in {m['interactive_median_s']:.2f} s (median of {args.runs}, max "
              f"{m['interactive_max_s']:.2f} s); load {m['load_s']:.1f} s, report {m['report_s']:.1f} s",
              flush=True)
        ok &= (m["html_bytes"] <= BUDGET_BYTES and m["interactive_max_s"] < BUDGET_SECONDS
               and m["largest_svg_bytes"] <= BUDGET_SVG)
    print("within budget (3 MB, 2 s, SVG 500 KB)" if ok else "OVER BUDGET")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
