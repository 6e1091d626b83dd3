"""A `kda serve` app running in this process (uvicorn in a thread) and a kubectl to ask it (a helper
module of the serve and CLI tests, not a conftest: the suite imports `conftest` by name)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import uvicorn

import analyzer
from analyzer.printing.store import DumpStore
from analyzer.serve import build_app, context_names, write_kubeconfig

KUBECTL = shutil.which("kubectl")
needs_kubectl = pytest.mark.skipif(KUBECTL is None, reason="no kubectl on PATH (scripts/test.sh installs one)")


def kubectl_minor() -> int:
    """The minor version of the kubectl on PATH (0 when there is none or it cannot say)."""
    import json

    if KUBECTL is None:
        return 0
    done = subprocess.run([KUBECTL, "version", "--client", "-o", "json"], capture_output=True, text=True)
    try:
        return int("".join(ch for ch in json.loads(done.stdout)["clientVersion"]["minor"] if ch.isdigit()))
    except (ValueError, KeyError):
        return 0


# kda describe follows current kubectl's layout; a much older kubectl (Debian's 1.20) prints others
needs_current_kubectl = pytest.mark.skipif(kubectl_minor() < 27, reason="kubectl older than 1.27 describes otherwise")


class Served:
    """A running server: its kubeconfig, and kubectl run against it."""

    def __init__(self, kubeconfig: Path, base_url: str, stores: list[DumpStore], home: Path) -> None:
        self.kubeconfig = kubeconfig
        self.base_url = base_url
        self.stores = stores
        self.home = home

    def kubectl(self, *args: str, check: bool = True, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "KUBECONFIG": str(self.kubeconfig), "HOME": str(self.home)}
        done = subprocess.run([KUBECTL or "kubectl", *args], capture_output=True, text=True, env=env, timeout=timeout)
        if check and done.returncode != 0:
            raise AssertionError(f"kubectl {' '.join(args)} failed ({done.returncode}): {done.stderr}")
        return done


@contextmanager
def serving(dumps: list[str | Path], tmp: Path, redact_key: str | None = None) -> Iterator[Served]:
    stores = []
    for d in dumps:
        name = Path(d).name.removesuffix(".json").removesuffix(".txt")
        stores.append(DumpStore.from_cluster(analyzer.load(str(d), name=name)))
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    address = f"127.0.0.1:{sock.getsockname()[1]}"
    server = uvicorn.Server(uvicorn.Config(build_app(stores, address), log_level="warning", lifespan="off",
                                           timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.02)
    home = tmp / "home"
    home.mkdir(parents=True, exist_ok=True)
    config = write_kubeconfig(tmp / "kubeconfig", f"http://{address}", context_names(stores))
    try:
        yield Served(config, f"http://{address}", stores, home)
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
