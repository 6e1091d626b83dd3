"""Batches: which inputs are dumps, stable ids, failed dumps skipped, same bytes twice, exit codes."""

from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest
from conftest import SAMPLE_DUMPS
from typer.testing import CliRunner

from analyzer.cli import app
from analyzer.report.batch import BatchResult, dump_ids, expand_inputs, run_batch, sort_inputs

SAMPLES = ("aks", "eks", "kubeadm", "oke")


def test_a_glob_of_sample_dumps_skips_the_readme_and_the_generator() -> None:
    found = expand_inputs([str(SAMPLE_DUMPS / "*")])
    assert [Path(p).name for p in found] == list(SAMPLES)


def test_a_shell_expanded_glob_skips_non_dump_files_too() -> None:
    # What `kda report sample_dumps/*` receives from the shell.
    args = sorted(str(p) for p in SAMPLE_DUMPS.iterdir())
    assert [Path(p).name for p in expand_inputs(args)] == list(SAMPLES)


def test_an_explicit_file_is_read_whatever_its_name(tmp_path: Path) -> None:
    notes = tmp_path / "pods.dump"
    notes.write_text("{}", encoding="utf-8")
    assert expand_inputs([str(notes)]) == [str(notes)]


def test_ids_are_unique_when_names_clash() -> None:
    assert dump_ids(["x/prod/dump.tar.gz", "y/prod/dump.tar.gz", "z/dump.zip"]) == [
        "x-prod-dump", "y-prod-dump", "z-dump"]
    assert dump_ids(["same", "same"]) == ["same-1", "same-2"]


def test_a_dump_given_as_the_current_folder_is_named_by_that_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # `cd ticket-1234 && kda report .` named its report "stdin"
    (tmp_path / "ticket-1234" / "inner").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "ticket-1234" / "inner")
    assert dump_ids([".", "..", "-"]) == ["inner", "ticket-1234", "stdin"]


def test_a_failed_dump_is_reported_and_the_rest_still_rendered(
        sample_reports: tuple[Path, BatchResult], tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.json"
    garbage.write_text("this is not a dump {", encoding="utf-8")
    out = tmp_path / "out"
    result = run_batch([str(SAMPLE_DUMPS / "oke"), str(garbage), str(tmp_path / "missing"),
                        str(SAMPLE_DUMPS / "kubeadm")], out, progress=False)
    assert [r.name for r in result.reports] == ["oke", "kubeadm"]
    assert [Path(f.input).name for f in result.failures] == ["garbage.json", "missing"]
    assert result.failures[1].reason == "no such file or folder"  # the input is said once, beside it
    assert result.exit_code == 2
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "garbage.json" in index and "nothing could be read" in index
    assert json.loads((out / "comparison.json").read_text())["failures"][1]["reason"].endswith(
        "no such file or folder")


def test_an_output_that_is_a_file_fails_the_batch_up_front(tmp_path: Path) -> None:
    taken = tmp_path / "taken"
    taken.write_text("x", encoding="utf-8")
    with pytest.raises(NotADirectoryError, match="not a folder"):
        run_batch([str(SAMPLE_DUMPS / "eks")], taken, progress=False)


def test_an_output_that_cannot_be_written_stops_the_batch(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A full disk under the output folder stops everything; an OSError elsewhere is one dump's.
    import analyzer.report.cluster_report as cluster_report

    calls = []

    def refuse(cluster, folder, formats, **_options):
        calls.append(folder.name)
        where = folder / "report.html" if len(calls) == 2 else tmp_path / "elsewhere"
        raise OSError(errno.ENOSPC, "No space left on device", str(where))

    monkeypatch.setattr(cluster_report, "render_cluster_report", refuse)
    with pytest.raises(OSError, match="No space left"):
        run_batch([str(SAMPLE_DUMPS / "aks"), str(SAMPLE_DUMPS / "eks"), str(SAMPLE_DUMPS / "oke")],
                  tmp_path / "out", progress=False)
    assert calls == ["aks", "eks"]  # aks was counted as an internal failure, eks stopped the batch


def test_same_input_same_bytes(sample_reports: tuple[Path, BatchResult], tmp_path: Path) -> None:
    first, _ = sample_reports
    run_batch([str(SAMPLE_DUMPS / "*")], tmp_path, progress=False)
    a = sorted(p.relative_to(first) for p in first.rglob("*") if p.is_file())
    b = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    assert a == b and len(a) == 4 * 6 + 4  # per dump: html, md, 3 diagrams and the timeline
    for rel in a:
        assert (first / rel).read_bytes() == (tmp_path / rel).read_bytes(), rel


def test_the_sample_batch_writes_every_page(sample_reports: tuple[Path, BatchResult]) -> None:
    out, result = sample_reports
    assert result.exit_code == 0 and not result.failures
    for name in SAMPLES:
        assert (out / name / "report.html").stat().st_size > 10_000
        md = (out / name / "report.md").read_text(encoding="utf-8")
        assert md.startswith(f"# Cluster report: {name}\n")
        assert "](dependencies-kube-system.svg)" in md and (out / name / "dependencies-kube-system.svg").exists()
    comparison = json.loads((out / "comparison.json").read_text(encoding="utf-8"))
    assert [c["distribution"] for c in comparison["clusters"]] == ["aks", "eks", "kubeadm", "oke"]
    assert comparison["overview"]["oke"]["api_tunnel"] == "proxymux-client"
    assert {ip for ip in (o["dns_service_ip"] for o in comparison["overview"].values())} == {
        "10.0.0.10", "172.20.0.10", "10.96.0.10"}
    assert comparison["overview"]["kubeadm"]["control_plane"] == "self-hosted"


def test_fail_on_critical_exits_1_and_fail_on_is_checked(tmp_path: Path) -> None:
    result = run_batch([str(SAMPLE_DUMPS / "eks")], tmp_path, fail_on="critical", progress=False)
    assert result.fail_on_hits > 0 and result.exit_code == 1
    assert not (tmp_path / "index.html").exists()  # one dump: no comparison
    with pytest.raises(ValueError, match="fail_on"):
        run_batch([str(SAMPLE_DUMPS / "eks")], tmp_path, fail_on="fatal", progress=False)


def test_cli_report_json_and_exit_codes(tmp_path: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["report", str(SAMPLE_DUMPS / "aks"), str(SAMPLE_DUMPS / "oke"),
                              "-o", str(tmp_path), "--format", "json", "--no-progress"])
    assert res.exit_code == 0, res.output
    facts = json.loads((tmp_path / "oke" / "report.json").read_text(encoding="utf-8"))
    assert facts["distribution"]["name"] == "oke" and facts["nodes"]["total"] == 3
    assert (tmp_path / "comparison.json").exists() and not (tmp_path / "index.html").exists()
    res = runner.invoke(app, ["report", str(tmp_path / "nope"), "-o", str(tmp_path / "o2"),
                              "--no-progress"])
    assert res.exit_code == 2 and "Traceback" not in res.output


def test_cli_diagram_svg_png_and_bad_suffix(tmp_path: Path) -> None:
    runner = CliRunner()
    svg, png = tmp_path / "d.svg", tmp_path / "d.png"
    assert runner.invoke(app, ["diagram", str(SAMPLE_DUMPS / "oke"), "-o", str(svg)]).exit_code == 0
    assert svg.read_text(encoding="utf-8").lstrip().startswith("<?xml")
    res = runner.invoke(app, ["diagram", str(SAMPLE_DUMPS / "oke"), "-o", str(png), "-n", "billing",
                              "--chart", "dependencies"])
    assert res.exit_code == 0 and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    res = runner.invoke(app, ["diagram", str(SAMPLE_DUMPS / "oke"), "-o", str(tmp_path / "d.pdf")])
    assert res.exit_code == 2


def test_write_ups_named_one_by_one_are_read_though_their_names_say_no_dump(tmp_path: Path) -> None:
    # `kda report aks-587.md k3s-2350.md -o out`: two pasted issue write-ups (markdown), nothing
    # else from their folder, were all dropped as a shell glob's README ("no dumps among the inputs")
    notes = [tmp_path / "aks-587.md", tmp_path / "k3s-2350.md"]
    for note in notes:
        note.write_text("$ kubectl get ns\nNAME      STATUS   AGE\ndefault   Active   3d\n", encoding="utf-8")
    assert expand_inputs([str(n) for n in notes]) == [str(n) for n in notes]


def test_a_file_passed_over_as_no_dump_is_said(tmp_path: Path) -> None:
    # `kda report notes.md cluster/ -o out`: a write-up named beside a folder dump of the same
    # folder looks like a shell glob's README and is not read; it must not vanish without a word
    notes = tmp_path / "notes.md"
    notes.write_text("$ kubectl get ns\nNAME      STATUS   AGE\ndefault   Active   3d\n", encoding="utf-8")
    cluster = tmp_path / "cluster"
    cluster.mkdir()
    (cluster / "ns.txt").write_text(notes.read_text(encoding="utf-8"), encoding="utf-8")
    res = CliRunner().invoke(app, ["report", str(notes), str(cluster), "-o", str(tmp_path / "out"),
                                   "--no-progress", "--format", "json"])
    assert res.exit_code == 0, res.output
    assert f"passed over {notes}: named among dumps, and not one by its name" in res.output
    assert "name it alone to read it" in res.output


def test_a_glob_says_which_files_it_passed_over_but_not_hidden_ones() -> None:
    dumps, passed_over = sort_inputs([str(SAMPLE_DUMPS / "*")])
    assert [Path(p).name for p in dumps] == list(SAMPLES)
    assert [Path(p).name for p in passed_over] == ["README.md"]  # _generate.py is hidden by its name


def test_with_the_collector_off_a_batch_collects_between_dumps_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # kda runs a report's batch with the collector off (it leaves right after): what one dump's
    # report left in cycles is collected before the next one, never after the last
    import gc

    collected: list[str] = []  # the reports written when each collection ran
    monkeypatch.setattr(gc, "collect", lambda *a: collected.append(
        ",".join(sorted(p.name for p in tmp_path.iterdir() if p.is_dir()))) or 0)
    was = gc.isenabled()
    gc.disable()
    try:
        run_batch([str(SAMPLE_DUMPS / "eks"), str(SAMPLE_DUMPS / "oke")], tmp_path, progress=False,
                  formats=("json",))
    finally:
        if was:
            gc.enable()
    assert collected == ["eks"]  # once, after the first dump's report and before the second's


def test_the_report_command_in_another_program_leaves_the_collector_on(tmp_path: Path) -> None:
    # kda's own process keeps the collector off till it leaves; a test's (or a notebook's) call
    # of the command must not turn it off for the rest of that program
    import gc

    assert gc.isenabled()
    result = CliRunner().invoke(app, ["report", str(SAMPLE_DUMPS / "eks"), "-o", str(tmp_path),
                                      "--format", "json", "--no-progress"])
    assert result.exit_code == 0, result.output
    assert gc.isenabled()
