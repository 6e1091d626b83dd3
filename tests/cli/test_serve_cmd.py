"""`kda serve` as a user starts it: prints the KUBECONFIG line, serves the redacted view with the
same pseudonyms as `kda redact` (same key), and stops cleanly on Ctrl-C."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from conftest import SAMPLE_DUMPS
from kubectl_server import KUBECTL, needs_kubectl


def _kda(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "analyzer", *args], capture_output=True, text=True, check=True,
                          timeout=120)


@needs_kubectl
def test_serve_redacted_then_ctrl_c(tmp_path: Path) -> None:
    kubeconfig = tmp_path / "kubeconfig"
    proc = subprocess.Popen(
        [sys.executable, "-m", "analyzer", "serve", str(SAMPLE_DUMPS / "aks"), str(SAMPLE_DUMPS / "eks"),
         "--port", "0", "--kubeconfig", str(kubeconfig), "--redact", "--key", "test-key"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.strip() == f"export KUBECONFIG={kubeconfig}"
        env = {**os.environ, "KUBECONFIG": str(kubeconfig), "HOME": str(tmp_path)}
        contexts = subprocess.run([KUBECTL, "config", "get-contexts", "-o", "name"], env=env, capture_output=True,
                                  text=True, check=True).stdout.split()
        assert contexts == ["aks", "eks"]
        assert subprocess.run([KUBECTL, "config", "current-context"], env=env, capture_output=True, text=True,
                              check=True).stdout.strip() == "aks"
        served = subprocess.run([KUBECTL, "get", "nodes", "-o", "name"], env=env, capture_output=True, text=True,
                                check=True, timeout=60).stdout.split()
        _kda("redact", str(SAMPLE_DUMPS / "aks"), "-o", str(tmp_path / "copy"), "--key", "test-key")
        copied = _kda("get", "nodes", str(tmp_path / "copy"), "-o", "name").stdout.split()
        original = _kda("get", "nodes", str(SAMPLE_DUMPS / "aks"), "-o", "name").stdout.split()
        assert served == copied and served != original
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            _, err = proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise
    assert proc.returncode in (0, 130), err  # 130: the shell's code for "ended by Ctrl-C"
    assert "Traceback" not in err and err.rstrip().endswith("stopped")
