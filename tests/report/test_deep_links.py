"""Every deep link a report page offers (`#pod/NS/NAME`, `#workload/KIND/NS/NAME`) opens a row of
one of its tables: an object a finding only names (a controller a pasted table implies, a pod its
events speak of that is gone) is named without a link that would open nothing."""

from __future__ import annotations

from pathlib import Path

from browser import launched, needs_chromium, open_guarded
from typer.testing import CliRunner

from analyzer.cli import app

# `kubectl get pods --all-namespaces` pasted in jhunt/k8s-boshrelease#57 ("core-dns stay in not
# ready state"), trimmed to six of its rows: no Deployment listed, so coredns' Deployment is one
# the pod names imply, and the critical-component finding names it.
PASTE = """\
 kubectl get pods --all-namespaces
NAMESPACE              NAME                                              READY   STATUS             RESTARTS   AGE
cert-manager           cert-manager-7747db9d88-qpkwt                     1/1     Running            0          49m
cert-manager           cert-manager-cainjector-87c85c6ff-r42g8           0/1     CrashLoopBackOff   13         49m
kube-system            coredns-5d56ff6d95-qlbm6                          0/1     Running            0          49m
kube-system            coredns-5d56ff6d95-vmrzs                          0/1     Running            0          49m
kube-system            kube-proxy-68vwd                                  1/1     Running            0          50m
kube-system            kube-proxy-cmd47                                  1/1     Running            0          50m
"""


def _report(tmp_path: Path) -> tuple[str, Path]:
    dump = tmp_path / "boshrelease-57.txt"
    dump.write_text(PASTE)
    result = CliRunner().invoke(app, ["report", str(dump), "-o", str(tmp_path / "out"), "--no-progress"])
    assert result.exit_code == 0, result.output
    page = tmp_path / "out" / "boshrelease-57" / "report.html"
    return page.read_text(), page


def test_an_implied_controller_is_named_without_a_link(tmp_path: Path) -> None:
    html, _ = _report(tmp_path)
    assert "Deployment kube-system/coredns" in html  # still named among the objects to look at
    assert 'href="#workload/Deployment/kube-system/coredns"' not in html
    assert 'href="#pod/kube-system/coredns-5d56ff6d95-qlbm6"' in html


@needs_chromium
def test_every_deep_link_opens_a_row(tmp_path: Path) -> None:
    _, path = _report(tmp_path)
    with launched() as browser:
        page, errors, attempted = open_guarded(browser, path.as_uri())
        try:
            page.wait_for_selector("html.kt-ready")
            links = sorted(set(page.eval_on_selector_all(
                "a[href^='#']", "els => els.map(e => e.getAttribute('href'))")))
            objects = [h for h in links if h.split("/")[0] in ("#pod", "#node", "#service", "#workload")]
            assert "#pod/kube-system/coredns-5d56ff6d95-qlbm6" in objects
            for link in objects:
                page.evaluate("h => { location.hash = h; }", link)
                # a paged table marks the row it opened; a short one is written with row ids
                opened = page.evaluate(
                    "k => { const hit = document.querySelector('.kt-hit');"
                    " if (hit && hit.offsetParent !== null) { hit.classList.remove('kt-hit'); return true; }"
                    " return document.getElementById(k) !== null; }", link[1:])
                assert opened, link
            assert errors == [] and attempted == []
        finally:
            page.close()
