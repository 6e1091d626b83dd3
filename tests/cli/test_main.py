"""The `kda` entry point: an output the system refuses is the user's to fix, said in one line; the
command leaves without the interpreter's teardown, its status and output whole."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from analyzer.cli import EXIT_SYSTEM_REFUSED, _status, run

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
    assert run() == EXIT_SYSTEM_REFUSED
    err = capsys.readouterr().err
    assert "Traceback" not in err and "internal error" not in err
    assert "error:" in err and str(blocked) in err.replace("\n", "")


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)


def test_the_command_leaves_with_its_status_and_its_output_whole(tmp_path: Path) -> None:
    # more than a pipe holds (64 KiB), so that a lost flush would cut it
    samples = [str(Path(AKS).parent / name) for name in ("aks", "eks", "kubeadm", "oke")]
    done = subprocess.run([sys.executable, "-m", "analyzer", "tables", *samples, "--table", "objects",
                           "--format", "json"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert len(done.stdout) > 65536
    assert json.loads(done.stdout)
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder\n", encoding="utf-8")
    refused = subprocess.run([sys.executable, "-m", "analyzer", "findings", AKS, "--output",
                              str(blocked / "findings.json")], capture_output=True, text=True, timeout=120)
    assert refused.returncode == EXIT_SYSTEM_REFUSED
    assert "error:" in refused.stderr and "Traceback" not in refused.stderr


def test_leaving_runs_the_exit_handlers_and_flushes_what_was_written() -> None:
    done = _python("import atexit, sys\n"
                   "from analyzer.cli import exit_now\n"
                   "atexit.register(lambda: sys.stdout.write(' and the handler'))\n"
                   "sys.stdout.write('the output')\n"
                   "sys.stderr.write('the errors')\n"
                   "exit_now(3)\n")
    assert (done.returncode, done.stdout, done.stderr) == (3, "the output and the handler", "the errors")


def test_leaving_waits_for_a_thread_still_running() -> None:
    done = _python("import threading, time\n"
                   "from analyzer.cli import exit_now\n"
                   "threading.Thread(target=lambda: (time.sleep(0.3), print('thread done'))).start()\n"
                   "exit_now(4)\n")
    assert (done.returncode, done.stdout) == (4, "thread done\n")


@pytest.mark.parametrize(("code", "status", "said"), [(None, 0, ""), (5, 5, ""), ("gone wrong", 1, "gone wrong\n")])
def test_an_exit_code_is_the_status_python_would_give(code: object, status: int, said: str,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    assert _status(code) == status
    assert capsys.readouterr().err == said
