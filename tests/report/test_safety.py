"""Hostile strings from a dump stay text in every page, and Secret values never reach a report."""

from __future__ import annotations

import base64
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

import analyzer
from analyzer.report import render_cluster_report
from analyzer.report.comparison import render_comparison
from analyzer.report.tables import page_rows
from analyzer.report.tables import script as table_script

SECRET_VALUE = "hunter2-TOPSECRET-value"
SCRIPT = "<script>alert(1)</script>"
IMG = "<img src=x onerror=alert(2)>"

# A planted dump written for this test: markup in a label, annotations, an event message, names,
# a Corefile that tries to close the page's <pre> and Markdown's fence, and a Secret with values.
PLANTED = f"""\
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata:
    name: node-1
    labels: {{kubernetes.io/os: linux, "evil/label": "{SCRIPT}"}}
  status:
    nodeInfo: {{kubeletVersion: "v1.29.0{IMG}", osImage: "{SCRIPT}", containerRuntimeVersion: "containerd://1.7"}}
    conditions: [{{type: Ready, status: "True"}}]
- apiVersion: v1
  kind: Pod
  metadata:
    name: "web-{IMG}"
    namespace: kube-system
    labels: {{app: web}}
    annotations: {{note: "{SCRIPT}", "evil.io/{IMG}": "x"}}
  spec:
    nodeName: node-1
    containers: [{{name: web, image: "nginx:{SCRIPT}"}}]
  status:
    phase: Running
    containerStatuses: [{{name: web, ready: false, restartCount: 9,
      state: {{waiting: {{reason: CrashLoopBackOff, message: "{SCRIPT}"}}}}}}]
- apiVersion: v1
  kind: Service
  metadata: {{name: "svc", namespace: kube-system, annotations: {{x: "{IMG}"}}}}
  spec: {{selector: {{app: "{SCRIPT}"}}, ports: [{{port: 80}}]}}
- apiVersion: v1
  kind: Event
  metadata: {{name: ev1, namespace: kube-system}}
  type: Warning
  reason: Failed
  message: "{SCRIPT} {IMG}"
  involvedObject: {{kind: Pod, namespace: kube-system, name: "web-{IMG}"}}
  count: 3
- apiVersion: v1
  kind: ConfigMap
  metadata: {{name: coredns, namespace: kube-system}}
  data:
    Corefile: |
      .:53 {{
          forward . /etc/resolv.conf
      }}
      </code></pre>{SCRIPT}
      ~~~~
      ```
- apiVersion: v1
  kind: Secret
  metadata: {{name: creds, namespace: kube-system, annotations: {{token: "{SECRET_VALUE}"}}}}
  type: Opaque
  data: {{password: {base64.b64encode(SECRET_VALUE.encode()).decode()}}}
  stringData: {{plain: "{SECRET_VALUE}"}}
""" + "".join(f"""\
- apiVersion: v1
  kind: Pod
  metadata: {{name: "many-{i}-{IMG}", namespace: "ns-{SCRIPT}", labels: {{app: "{SCRIPT}"}}}}
  spec: {{nodeName: "node-1", containers: [{{name: c, image: "img:{IMG}"}}]}}
  status: {{phase: Running, podIP: "{SCRIPT}"}}
""" for i in range(30))  # more than a page shows whole: the pods table's rows go through its JSON block

ALLOWED_TAGS = {"html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "h3", "p",
                "nav", "a", "section", "div", "b", "span", "dl", "dt", "dd", "table", "thead",
                "tbody", "tr", "th", "td", "details", "summary", "pre", "code", "figure", "img",
                "figcaption", "footer", "br", "ol", "li", "script"}
# The only scripts a page may hold: the reports' own table script, and rows as gzip+base64 data.
ROWS_TYPE = "application/x-kda-rows"


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: set[str] = set()
        self.event_attrs: list[str] = []
        self.img_sources: list[str] = []
        self.scripts: list[tuple[str | None, str]] = []  # (type, text) of each <script>
        self._in_script: str | None | bool = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        if tag == "script":
            self._in_script = dict(attrs).get("type")
            self.scripts.append((self._in_script, ""))
        self.event_attrs += [k for k, _ in attrs if k.startswith("on")]
        if tag == "img":
            self.img_sources += [v or "" for k, v in attrs if k == "src"]

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script is not False:
            kind, text = self.scripts[-1]
            self.scripts[-1] = (kind, text + data)


@pytest.fixture(scope="module")
def planted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Path]]:
    root = tmp_path_factory.mktemp("planted")
    dump = root / "dump.yaml"
    dump.write_text(PLANTED, encoding="utf-8")
    cluster = analyzer.load(str(dump))
    assert {o.kind for o in cluster.objects} >= {"Pod", "Event", "Secret", "ConfigMap", "Node"}
    files = render_cluster_report(cluster, root / "one", formats=("html", "json")).files
    other = analyzer.load(str(dump), name="twin")
    files += render_comparison([cluster, other], root, ids=["one", "twin"])
    return root, files


def test_html_pages_hold_no_markup_from_the_dump(planted: tuple[Path, list[Path]]) -> None:
    _, files = planted
    pages = [f for f in files if f.suffix == ".html"]
    assert len(pages) == 2
    rows_seen = []
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert "<script>alert" not in text.lower()
        assert "<img src=x" not in text
        parser = _Tags()
        parser.feed(text)
        assert parser.tags <= ALLOWED_TAGS, parser.tags - ALLOWED_TAGS
        assert parser.event_attrs == []
        assert all(src.startswith("data:image/svg+xml;base64,") for src in parser.img_sources)
        code = [body for kind, body in parser.scripts if kind is None]
        assert [c.strip() for c in code] == [table_script().strip()]
        for kind, body in parser.scripts:
            assert kind in (None, ROWS_TYPE)
            if kind == ROWS_TYPE:
                assert re.fullmatch(r"[A-Za-z0-9+/=]+", body)
        rows_seen += [json.loads(rows) for rows in page_rows(text)]
    # The hostile text is there, as text: escaped, not dropped; in the rows' data, as it was.
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in pages[0].read_text(encoding="utf-8")
    pods = next(r for r in rows_seen if any(c["k"] == "pod_ip" for c in r["cols"]))
    names = pods["data"][[c["k"] for c in pods["cols"]].index("name")]["v"]
    assert f"many-7-{IMG}" in names


def test_markdown_escapes_markup_and_cannot_close_its_fences(planted: tuple[Path, list[Path]]) -> None:
    _, files = planted
    for md in (f for f in files if f.suffix == ".md"):
        # Inside a fence markup is shown as text; outside, every value must be escaped.
        text = re.sub(r"^(~{3,})\n.*?\n\1$", "", md.read_text(encoding="utf-8"), flags=re.S | re.M)
        assert "<script" not in text.lower()
        assert "<img src=x" not in text
    report = next(f for f in files if f.name == "report.md").read_text(encoding="utf-8")
    assert "~~~~~\n" in report  # the Corefile holds "~~~~": its fence is longer


def test_secret_values_appear_in_no_output(planted: tuple[Path, list[Path]]) -> None:
    _, files = planted
    encoded = base64.b64encode(SECRET_VALUE.encode()).decode()
    assert len(files) >= 8
    for f in files:
        text = f.read_text(encoding="utf-8")
        text += "".join(page_rows(text))  # and every row of the pages' long tables
        assert SECRET_VALUE not in text, f
        assert encoded not in text, f
