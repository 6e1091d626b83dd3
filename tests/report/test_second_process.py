"""A report whose pods tables, timeline, some sections and diagrams were made in a second process
(with what this process sent it) is the same report, byte for byte, as one made in a single
process; and a second process that fails loses nothing.

Fixtures: the sample dumps (sample_dumps/, generated) and three realdata cases read as they are
(../shared/realdata: a cluster-info dump of a broken kubeadm cluster, a k3s support bundle, an
OpenShift must-gather; their sources are in ../shared/realdata/SOURCES.md).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import REALDATA, SAMPLE_DUMPS

import analyzer
from analyzer import forked
from analyzer.forked import fork_supported
from analyzer.ingest import result as ingest_result
from analyzer.model.tables import pods as pods_family
from analyzer.report import cluster_report, sections
from analyzer.report.cluster_report import render_cluster_report

pytestmark = pytest.mark.skipif(not fork_supported(), reason="needs fork and a second CPU (Linux)")


@pytest.fixture(autouse=True)
def _a_cpu_is_idle(monkeypatch: pytest.MonkeyPatch) -> None:
    # the suite runs on every CPU (pytest -n), where kda report would make no child: as if one
    # were idle, so that the report's children are made and checked
    monkeypatch.setattr(forked, "_idle_cpu", lambda: True)

DUMPS = [SAMPLE_DUMPS / name for name in ("aks", "eks", "kubeadm", "oke")] + [
    REALDATA / "kubeadm" / "cka-3c97-cluster-info-dump",
    REALDATA / "k3s" / "troubleshoot-testdata-supportbundle",
    REALDATA / "openshift" / "must-gather-clean-aws",
]
FORMATS = ("html", "json")


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def _made_here_only_in_the_child(monkeypatch: pytest.MonkeyPatch) -> None:
    """The second process's parts, every diagram, the pods tables and the capture estimate may be
    made in a child only: made here, the test fails (so a child that silently failed, a letter
    that did not come, and a report that quietly fell back, cannot pass)."""
    parent = os.getpid()
    for module, name in [(cluster_report, n) for n in (
            "parts_beside", "findings_diagram", "dependencies_diagram", "nodes_diagram",
            "timeline_diagram")] + [(pods_family, "build"), (ingest_result, "estimate_capture")]:
        make = getattr(module, name)

        def in_child_only(*args, _make=make, **kwargs):  # noqa: ANN002, ANN003, ANN202
            assert os.getpid() != parent, "made in this process: the second process failed"
            return _make(*args, **kwargs)

        monkeypatch.setattr(module, name, in_child_only)
    # and the sections the child makes
    def child_only(build):  # noqa: ANN001, ANN202
        def in_child_only(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            assert os.getpid() != parent, f"{build.__name__} made in this process"
            return build(*args, **kwargs)
        return in_child_only

    beside = cluster_report.SECTIONS_BESIDE
    watched = tuple((name, child_only(build) if name in beside else build)
                    for name, build in sections.SECTIONS)
    assert {"nodes", "timeline"} <= {n for n, _ in watched if n in beside}
    monkeypatch.setattr(sections, "SECTIONS", watched)
    monkeypatch.setattr(cluster_report, "SECTIONS", watched)


@pytest.mark.parametrize("dump", DUMPS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_report_made_on_two_cores_is_the_report_made_on_one(
        dump: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if not dump.exists():
        pytest.skip(f"{dump} is not beside the repo")
    one = render_cluster_report(analyzer.load(str(dump)), tmp_path / "one", FORMATS)
    _made_here_only_in_the_child(monkeypatch)
    two = render_cluster_report(analyzer.load(str(dump)), tmp_path / "two", FORMATS,
                                second_process=True)
    assert two.facts == one.facts
    assert _files(tmp_path / "two") == _files(tmp_path / "one")
    assert {p.name for p in two.files} == {p.name for p in one.files}


def test_a_json_only_report_takes_its_timeline_from_the_child(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dump = str(SAMPLE_DUMPS / "eks")
    render_cluster_report(analyzer.load(dump), tmp_path / "one", ("json",))
    _made_here_only_in_the_child(monkeypatch)
    render_cluster_report(analyzer.load(dump), tmp_path / "two", ("json",), second_process=True)
    assert _files(tmp_path / "two") == _files(tmp_path / "one")


def test_a_child_that_fails_loses_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the child breaks (a bug in a diagram, say): this process makes the parts itself
    dump = str(SAMPLE_DUMPS / "kubeadm")
    one = render_cluster_report(analyzer.load(dump), tmp_path / "one", FORMATS)
    parent, make = os.getpid(), cluster_report.parts_beside

    def broken_in_child(cluster, pages, sections, letters=None):  # noqa: ANN001, ANN202
        if os.getpid() != parent:
            raise RuntimeError("broken in the child")
        return make(cluster, pages, sections, letters)

    monkeypatch.setattr(cluster_report, "parts_beside", broken_in_child)
    two = render_cluster_report(analyzer.load(dump), tmp_path / "two", FORMATS, second_process=True)
    assert two.facts == one.facts
    assert _files(tmp_path / "two") == _files(tmp_path / "one")


def test_the_size_of_the_dump_decides_when_not_told(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[int] = []
    fork_call = cluster_report.fork_call

    def counted(make, result_type, **kwargs):  # noqa: ANN001, ANN003, ANN202
        started.append(1)
        return fork_call(make, result_type, **kwargs)

    monkeypatch.setattr(cluster_report, "fork_call", counted)
    small = analyzer.load(str(SAMPLE_DUMPS / "oke"))
    assert len(small.objects) < cluster_report.SECOND_PROCESS_OBJECTS
    render_cluster_report(small, tmp_path / "small", ("json",), second_process=None)
    assert started == []  # a small dump: a second process would cost more than it saves
    monkeypatch.setattr(cluster_report, "SECOND_PROCESS_OBJECTS", len(small.objects))
    render_cluster_report(analyzer.load(str(SAMPLE_DUMPS / "oke")), tmp_path / "large", ("json",),
                          second_process=None)
    assert started == [1]
    render_cluster_report(analyzer.load(str(SAMPLE_DUMPS / "oke")), tmp_path / "never", ("json",))
    assert started == [1]  # the library's default: one process


def test_tables_that_could_not_be_sent_are_built_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the child cannot send the pods tables (a table it cannot carry exactly): this process
    # builds them itself, and the report is the same
    from analyzer.model import shipping

    dump = str(SAMPLE_DUMPS / "aks")
    one = render_cluster_report(analyzer.load(dump), tmp_path / "one", FORMATS)

    def refused(tables):  # noqa: ANN001, ANN202
        raise ValueError("table pods: has attributes")

    monkeypatch.setattr(shipping, "tables_to_bytes", refused)
    built_here: list[int] = []
    build = pods_family.build
    monkeypatch.setattr(pods_family, "build", lambda dump: built_here.append(os.getpid()) or build(dump))
    two = render_cluster_report(analyzer.load(dump), tmp_path / "two", FORMATS, second_process=True)
    assert os.getpid() in built_here
    assert two.facts == one.facts
    assert _files(tmp_path / "two") == _files(tmp_path / "one")


def test_a_view_that_could_not_be_sent_is_drawn_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from analyzer.report import views

    dump = str(SAMPLE_DUMPS / "oke")
    one = render_cluster_report(analyzer.load(dump), tmp_path / "one", FORMATS)

    def refused(view):  # noqa: ANN001, ANN202
        raise ValueError("a graph attribute that is not a plain value")

    monkeypatch.setattr(views, "view_to_bytes", refused)
    drawn_here: list[int] = []
    draw = cluster_report.dependencies_diagram
    monkeypatch.setattr(cluster_report, "dependencies_diagram",
                        lambda cluster, namespace=None: drawn_here.append(os.getpid()) or draw(cluster, namespace))
    two = render_cluster_report(analyzer.load(dump), tmp_path / "two", FORMATS, second_process=True)
    assert drawn_here == [os.getpid()]
    assert two.facts == one.facts
    assert _files(tmp_path / "two") == _files(tmp_path / "one")


def test_findings_that_fail_are_said_the_same_by_both_processes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the findings stage failing on a dump: its section and its chart say why, whichever
    # process drew the chart
    from analyzer.cluster import Cluster

    def broken(self):  # noqa: ANN001, ANN202
        raise RuntimeError("a rule broke")

    monkeypatch.setattr(Cluster, "findings", property(broken))
    dump = str(SAMPLE_DUMPS / "kubeadm")
    one = render_cluster_report(analyzer.load(dump), tmp_path / "one", FORMATS)
    two = render_cluster_report(analyzer.load(dump), tmp_path / "two", FORMATS, second_process=True)
    assert "RuntimeError: a rule broke" in (tmp_path / "one" / "report.md").read_text()
    assert two.facts == one.facts
    assert _files(tmp_path / "two") == _files(tmp_path / "one")


# -- a second process started before the dump is read: it reads the dump itself ---------------

def _started(dump: str, monkeypatch: pytest.MonkeyPatch, formats: tuple[str, ...] = FORMATS,
             idle: bool = True):  # noqa: ANN202
    monkeypatch.setattr(forked, "_idle_cpu_beside_parent", lambda: idle)
    started = cluster_report.start_second_process(lambda: analyzer.load(dump), cluster_report.EARLY_BYTES,
                                                  formats)
    assert started is not None
    return started


@pytest.mark.parametrize("dump", DUMPS[:2] + DUMPS[4:5], ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_second_process_that_read_the_dump_itself_makes_the_same_report(
        dump: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if not dump.exists():
        pytest.skip(f"{dump} is not beside the repo")
    one = render_cluster_report(analyzer.load(str(dump)), tmp_path / "one", FORMATS)
    _made_here_only_in_the_child(monkeypatch)
    started = _started(str(dump), monkeypatch)
    two = render_cluster_report(analyzer.load(str(dump)), tmp_path / "two", FORMATS,
                                second_process=True, started=started)
    assert two.facts == one.facts
    assert _files(tmp_path / "two") == _files(tmp_path / "one")


def test_a_second_process_that_read_another_dump_is_not_used(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # (a file changed between the two readings): what it read differs, so this process makes
    # everything itself, and nothing of the other dump shows
    dump = str(SAMPLE_DUMPS / "aks")
    one = render_cluster_report(analyzer.load(dump), tmp_path / "one", FORMATS)
    started = _started(str(SAMPLE_DUMPS / "eks"), monkeypatch)
    made_here: list[int] = []
    make = cluster_report.parts_beside
    monkeypatch.setattr(cluster_report, "parts_beside",
                        lambda *args: made_here.append(os.getpid()) or make(*args))
    two = render_cluster_report(analyzer.load(dump), tmp_path / "two", FORMATS,
                                second_process=True, started=started)
    assert made_here[-1] == os.getpid()
    assert two.facts == one.facts
    assert _files(tmp_path / "two") == _files(tmp_path / "one")


@pytest.mark.parametrize("second_process", [False, "declined"])
def test_a_started_process_not_wanted_or_declined_loses_nothing(
        second_process: bool | str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # not wanted (a small dump, the caller's choice): ended at once; declined (no CPU idle for
    # it when it started): it ends without a word. This process makes everything either way.
    dump = str(SAMPLE_DUMPS / "oke")
    one = render_cluster_report(analyzer.load(dump), tmp_path / "one", FORMATS)
    started = _started(dump, monkeypatch, idle=second_process is False)
    two = render_cluster_report(analyzer.load(dump), tmp_path / "two", FORMATS,
                                second_process=bool(second_process), started=started)
    assert started.pid and started._pid is None  # reaped, not left behind
    assert two.facts == one.facts
    assert _files(tmp_path / "two") == _files(tmp_path / "one")


def test_kda_report_starts_the_second_process_before_reading_a_large_dump(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from analyzer.report import batch

    dump = str(SAMPLE_DUMPS / "eks")
    batch.run_batch([dump], tmp_path / "one", progress=False)
    started: list[int] = []
    start = cluster_report.start_second_process

    def counted(load, size, formats):  # noqa: ANN001, ANN202
        forked_child = start(load, size, formats)
        started.append(forked_child is not None)
        return forked_child

    monkeypatch.setattr(cluster_report, "start_second_process", counted)
    monkeypatch.setattr(cluster_report, "EARLY_BYTES", 1)
    monkeypatch.setattr(cluster_report, "SECOND_PROCESS_OBJECTS", 1)
    monkeypatch.setattr(forked, "_idle_cpu_beside_parent", lambda: True)
    _made_here_only_in_the_child(monkeypatch)
    batch.run_batch([dump], tmp_path / "two", progress=False)
    assert started == [True]
    assert _files(tmp_path / "two" / "eks") == _files(tmp_path / "one" / "eks")


def test_only_a_plain_file_or_folder_is_read_twice(tmp_path: Path) -> None:
    import gzip

    from analyzer.report.batch import _plain_size

    plain = tmp_path / "pods.json"
    plain.write_text('{"kind": "List", "items": []}')
    packed = tmp_path / "pods.json.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    folder = tmp_path / "dump"
    folder.mkdir()
    (folder / "a.yaml").write_text("kind: Pod\n")
    (folder / "b.yaml").write_text("kind: Node\n")
    assert _plain_size(str(plain)) == plain.stat().st_size
    assert _plain_size(str(folder)) == 21
    assert _plain_size(str(packed)) == 0  # decompressed twice, to a size unknown up front
    assert _plain_size("-") == 0  # stdin cannot be read twice
    assert _plain_size(str(tmp_path / "missing")) == 0


def test_the_second_process_imports_nothing_of_the_findings() -> None:
    # Its parts read neither the findings nor the graph: importing the findings package there
    # (0.07 CPU s; once for the read section's cluster version) is time on the report's path.
    # A fresh interpreter, since this one has imported everything already.
    import subprocess
    import sys

    code = ("import sys, analyzer\n"
            "from analyzer.report import cluster_report\n"
            f"cluster = analyzer.load({str(SAMPLE_DUMPS / 'eks')!r})\n"
            "cluster_report._ahead_letter(cluster)\n"
            "parts = cluster_report.parts_beside(cluster, True, True)\n"
            "print(sorted(m for m in sys.modules if m.startswith('analyzer.findings')))\n")
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert ran.stdout.strip() == "[]"
