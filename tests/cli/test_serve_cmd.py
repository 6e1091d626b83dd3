"""`kda serve` as a user starts it: prints the KUBECONFIG line, serves the redacted view with the
same pseudonyms as `kda redact` (same key), and stops cleanly on Ctrl-C; a dump it cannot read is
said and passed over."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REALDATA, SAMPLE_DUMPS
from kubectl_server import KUBECTL, needs_kubectl


def _kda(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "analyzer", *args], capture_output=True, text=True, check=True,
                          timeout=120)


def _ctrl_c(proc: subprocess.Popen[str]) -> str:
    """Stop a `kda serve` as Ctrl-C does; its stderr, once it ended as it should."""
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise
    assert proc.returncode in (0, 130), err  # 130: the shell's code for "ended by Ctrl-C"
    return err


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
        err = _ctrl_c(proc)
    assert "Traceback" not in err and err.rstrip().endswith("stopped")


@needs_kubectl
def test_an_unreadable_dump_is_said_and_the_others_served(tmp_path: Path) -> None:
    """One input that cannot be read stopped `kda serve` for all the others. A download cut short:
    the first 700 bytes of realdata k3s/troubleshoot-testdata-supportbundle's
    cluster-resources/pods/default.json (replicatedhq/troubleshoot testdata/supportbundle), alone
    and in a bundle beside that bundle's nodes.json."""
    source = REALDATA / "k3s/troubleshoot-testdata-supportbundle/cluster-resources/pods/default.json"
    if not source.exists():
        pytest.skip("realdata not beside the checkout")
    cut = tmp_path / "pods-default.json"
    cut.write_bytes(source.read_bytes()[:700])
    # a bundle of which one file is cut short: served, and the file said
    partly = tmp_path / "partly/cluster-resources"
    (partly / "pods").mkdir(parents=True)
    (partly / "nodes.json").write_bytes((source.parents[1] / "nodes.json").read_bytes())
    (partly / "pods/default.json").write_bytes(cut.read_bytes())
    kubeconfig = tmp_path / "kubeconfig"
    proc = subprocess.Popen(
        [sys.executable, "-m", "analyzer", "serve", str(cut), str(SAMPLE_DUMPS / "aks"), str(tmp_path / "absent"),
         str(tmp_path / "partly"), "--port", "0", "--kubeconfig", str(kubeconfig)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == f"export KUBECONFIG={kubeconfig}"
        env = {**os.environ, "KUBECONFIG": str(kubeconfig), "HOME": str(tmp_path)}
        contexts = subprocess.run([KUBECTL, "config", "get-contexts", "-o", "name"], env=env, capture_output=True,
                                  text=True, check=True).stdout.split()
        assert contexts == ["aks", "partly"]
        nodes = subprocess.run([KUBECTL, "get", "nodes", "-o", "name"], env=env, capture_output=True, text=True,
                               check=True, timeout=60).stdout.split()
        assert "node/aks-nodepool1-12345678-vmss000000" in nodes
    finally:
        err = _ctrl_c(proc)
    text = " ".join(err.split())  # (rich wraps long lines)
    assert f"rejected {cut}" in text and f"not served: nothing could be read from {cut}" in text
    assert f"not served: nothing could be read from {tmp_path / 'absent'}" in text
    assert f"not served (could not be read): {cut}, {tmp_path / 'absent'}" in text
    assert f"rejected {partly / 'pods/default.json'}" in text
    assert f"served in part: {tmp_path / 'partly'}: 1 place could not be read" in text
    assert text.count("served in part:") == 1  # a dump read whole is served without a word


def test_nothing_readable_is_still_an_error(tmp_path: Path) -> None:
    cut = tmp_path / "cut.json"
    cut.write_text('{"kind": "List", "items": [{"kind": "Pod", "metadata": {"name": "a"')
    done = subprocess.run([sys.executable, "-m", "analyzer", "serve", str(cut), "--port", "0"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2 and "nothing could be read from" in done.stderr
