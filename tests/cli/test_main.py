"""The `kda` entry point: an output the system refuses is the user's to fix, said in one line."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from analyzer.cli import EXIT_SYSTEM_REFUSED, main

AKS = str(Path(__file__).resolve().parents[2] / "sample_dumps" / "aks")


@pytest.mark.parametrize("argv", [
    ["graph", AKS, "--format", "json", "--output", "{blocked}/graph.json"],
    ["tables", AKS, "--table", "pods", "--format", "csv", "--output", "{blocked}/tables"],
    ["diagram", AKS, "--output", "{blocked}/kube-system.svg"],
    ["findings", AKS, "--output", "{blocked}/findings.json"],
    ["report", AKS, "--output", "{blocked}/reports", "--no-progress"],
])
def test_an_output_under_a_file_is_an_error_not_a_traceback(
        argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    blocked = tmp_path / "a-file"  # a folder cannot be made under a file, even by root
    blocked.write_text("not a folder\n", encoding="utf-8")
    monkeypatch.setattr(sys, "argv", ["kda", *(a.format(blocked=blocked) for a in argv)])
    with pytest.raises(SystemExit) as exited:
        main()
    assert exited.value.code == EXIT_SYSTEM_REFUSED
    err = capsys.readouterr().err
    assert "Traceback" not in err and "internal error" not in err
    assert "error:" in err and str(blocked) in err.replace("\n", "")
