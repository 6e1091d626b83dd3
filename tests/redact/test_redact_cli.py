"""`kda redact`: report, mapping file, refusals with one-line errors, and the Secret-free copy."""

from __future__ import annotations

import json
import stat
from pathlib import Path

from typer.testing import CliRunner

import analyzer
from analyzer.cli import app

from .planted import leaks, write_planted_dump


def _run(*args: str):
    return CliRunner().invoke(app, ["redact", *args])


def test_report_and_map_file(tmp_path: Path) -> None:
    dump = write_planted_dump(tmp_path)
    out, mapping = tmp_path / "copy", tmp_path / "map.json"
    result = _run(str(dump), "-o", str(out), "--map", str(mapping), "--key", "k", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["secrets_scrubbed"] == 2 and report["differences"] == {}  # YAML + pasted describe
    assert report["replacements"]["credential"] >= 5
    assert report["replacements"]["node"] >= 3 and report["distinct"]["node"] == 1
    assert "keep it as private" in result.stderr
    assert stat.S_IMODE(mapping.stat().st_mode) == 0o600
    table = json.loads(mapping.read_text())
    assert "contoso" in table["node"] and "10.0.0.4" in table["ip"]
    # the map is the only place where originals are: the report itself has none
    assert "contoso" not in result.stdout and "10.0.0.4" not in result.stdout


def test_copy_has_no_secret_and_the_same_objects(tmp_path: Path) -> None:
    dump = write_planted_dump(tmp_path)
    out = tmp_path / "copy"
    assert _run(str(dump), "-o", str(out)).exit_code == 0
    copy = "\n".join(p.read_text() for p in sorted(out.rglob("*")) if p.is_file())
    assert leaks(copy) == []
    before, after = analyzer.load(str(dump)), analyzer.load(str(out))
    assert after.summary()["objects_by_kind"] == before.summary()["objects_by_kind"]
    secret = next(s for s in after.objects_of("Secret") if s.name == "db-credentials")
    assert sorted(secret.view.data) == ["password"] and sorted(secret.view.stringData) == ["api-token"]
    # the pod still lands on its (renamed) node, and its log on the pod
    pod, node = next(after.objects_of("Pod")), next(after.objects_of("Node"))
    assert pod.view.spec.nodeName == node.name != "worker-contoso-01"
    assert [(log.namespace, log.pod) for log in after.logs] == [("shop", pod.name)]


def test_names_option_renames_namespaces_consistently(tmp_path: Path) -> None:
    dump = write_planted_dump(tmp_path)
    out = tmp_path / "copy"
    assert _run(str(dump), "-o", str(out), "--names").exit_code == 0
    after = analyzer.load(str(out))
    namespaces = {o.namespace for o in after.objects if o.namespace}
    assert "shop" not in namespaces and len(namespaces) == 1
    assert {log.namespace for log in after.logs} == namespaces


def test_refusals_are_one_line_errors(tmp_path: Path) -> None:
    dump = write_planted_dump(tmp_path)
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "f").write_text("x")
    for args, message in [
        ((str(tmp_path / "nope"), "-o", str(tmp_path / "x")), "no such file or folder"),
        ((str(dump), "-o", str(tmp_path / "taken")), "already exists"),
        ((str(dump), "-o", str(dump / "copy")), "inside the input"),
        ((str(dump), "-o", str(tmp_path / "c"), "--map", str(tmp_path / "c" / "map.json")), "inside the redacted copy"),
    ]:
        result = _run(*args)
        output = " ".join(result.output.split())  # the console wraps long lines
        assert result.exit_code == 2 and message in output and "Traceback" not in output


def test_binary_files_are_left_out_and_listed(tmp_path: Path) -> None:
    dump = write_planted_dump(tmp_path)
    (dump / "core.bin").write_bytes(b"\x00\x01\x02secret-in-binary\x00" * 50)
    result = _run(str(dump), "-o", str(tmp_path / "copy"))
    assert result.exit_code == 0 and "left out" in result.output and "core.bin" in result.output
    assert "secrets scrubbed: 2" in result.output and "masked" in result.output
    assert not (tmp_path / "copy" / "core.bin").exists()


def test_an_internal_failure_is_one_line_and_leaves_no_copy(tmp_path: Path) -> None:
    # an old-shape item whose metadata is a list crashes ingestion today (see test_fuzz.py)
    src = tmp_path / "src"
    src.mkdir()
    (src / "x.yaml").write_text("Spec: {}\nmetadata: [abc]\n")
    result = _run(str(src), "-o", str(tmp_path / "out"))
    assert result.exit_code in (0, 3) and "Traceback" not in result.output
    if result.exit_code == 3:
        assert "internal error" in result.output and not (tmp_path / "out").exists()


def test_a_copy_that_reads_differently_is_reported(tmp_path: Path, monkeypatch) -> None:
    # simulate a rewrite that loses objects: the read-back check must say so (exit 1)
    import analyzer.redact.run as run

    dump = write_planted_dump(tmp_path)
    monkeypatch.setattr(run, "scrub_text", lambda text, path="": ("", 0) if path.endswith(".yaml") else (text, 0))
    result = _run(str(dump), "-o", str(tmp_path / "copy"))
    output = " ".join(result.output.split())
    assert result.exit_code == 1 and "the copy reads 1 Secret where the original has 2" in output
