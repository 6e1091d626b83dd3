"""`kda serve`: time to a ready server on the sample dumps, and `kubectl get pods -A` on a large dump.

    python benchmarks/bench_serve.py                  # sample dumps, then 20,000 pods (generated if missing)
    python benchmarks/bench_serve.py --pods 2000 --runs 3

Targets (issue 19): the server answers within 2 s of starting on each sample dump, and serves
`kubectl get pods -A` on a 20,000-pod dump in under 1 s. Each server is a fresh `kda serve`
process; "ready" is its first answered `/version`. kubectl times are wall seconds of the whole
command (it pages through the list 500 pods at a time, as against a real cluster), with the CPU
seconds kubectl itself used beside them, then the same with `--chunk-size=0` (one request). "server"
is the time the server takes to answer the very requests kubectl makes (the 500-row Table pages and
their continue tokens) from one kept-alive connection: kubectl's own client-side rate limiter (client-go's
default 5 requests per second after a burst of 10, which no kubeconfig field changes) holds it back
~0.2 s before each page past the tenth, whatever the server. `kda serve` reads the rows of every Pod
once when it starts (a dump does not change), so a list only assembles them. Needs kubectl.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))  # generate_dump imports its sibling modules by name


class Server:
    """One `kda serve` process on a free port, until closed."""

    def __init__(self, dump: Path, workdir: Path) -> None:
        self.kubeconfig = workdir / f"kubeconfig-{dump.name}"
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "analyzer", "serve", str(dump), "--port", "0", "--kubeconfig", str(self.kubeconfig)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        self.proc.stdout.readline()  # export KUBECONFIG=... once the port is bound
        self.server = next(line.split()[-1] for line in self.kubeconfig.read_text().splitlines() if "server:" in line)
        while True:
            try:
                urllib.request.urlopen(f"{self.server}/version", timeout=5).read()
                break
            except OSError:
                time.sleep(0.01)
        self.ready = time.perf_counter() - self.started

    def kubectl(self, *args: str, home: Path) -> tuple[float, float]:
        """Wall seconds of one kubectl command, and the CPU seconds kubectl itself used (on a
        shared machine the wall time also counts the time kubectl waited for a core)."""
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(["kubectl", *args], check=True, capture_output=True,
                       env={**os.environ, "KUBECONFIG": str(self.kubeconfig), "HOME": str(home)})
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

    def server_seconds(self, path: str, limit: int = 500) -> tuple[float, int]:
        """Seconds the server takes to answer kubectl's paged Table requests for `path` (one
        kept-alive connection, no client-side waiting), and the rows they returned."""
        url = urllib.parse.urlsplit(self.server)
        connection = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
        headers = {"Accept": "application/json;as=Table;v=v1;g=meta.k8s.io,application/json"}
        rows, token, start = 0, "", time.perf_counter()
        while True:
            query = urllib.parse.urlencode({"limit": limit, **({"continue": token} if token else {})})
            connection.request("GET", f"{url.path}{path}?{query}", headers=headers)
            table = json.loads(connection.getresponse().read())
            rows += len(table["rows"])
            token = table["metadata"].get("continue", "")
            if not token:
                break
        connection.close()
        return time.perf_counter() - start, rows

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=20)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pods", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--dump", type=Path, default=None, help="the large dump (default: generated)")
    opts = parser.parse_args(argv)
    if shutil.which("kubectl") is None:
        print("needs kubectl on PATH")
        return 2
    work = Path(tempfile.mkdtemp(prefix="bench-serve-"))
    home = work / "home"
    home.mkdir()
    import compileall

    compileall.compile_dir(str(ROOT / "analyzer"), quiet=1)  # as installed: bytecode compiled once
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'dump':18} {'ready':>6} | kubectl get pods -A: wall best / median, its CPU best | "
          f"--chunk-size=0: wall, its CPU | server: pages, best")
    dumps = sorted(p for p in (ROOT / "sample_dumps").iterdir() if p.is_dir())
    large = opts.dump or HERE / "data" / f"pods-{opts.pods}.json"
    if opts.dump is None and not large.exists():
        from generate_dump import write_dump

        write_dump(large, opts.pods, fmt="json")
    for dump in [*dumps, large]:
        server = Server(dump, work)
        try:
            server.kubectl("get", "--raw", "/api", home=home)  # discovery cached, as in a session
            runs = [server.kubectl("get", "pods", "-A", home=home) for _ in range(opts.runs)]
            whole = [server.kubectl("get", "pods", "-A", "--chunk-size=0", home=home) for _ in range(opts.runs)]
            served = [server.server_seconds("/api/v1/pods") for _ in range(opts.runs)]
            walls = [w for w, _ in runs]
            pages = -(-served[0][1] // 500)
            print(f"{dump.name:18} {server.ready:5.2f}s | {min(walls):6.3f}s / {statistics.median(walls):6.3f}s, "
                  f"{min(c for _, c in runs):6.3f}s | {min(w for w, _ in whole):6.3f}s, {min(c for _, c in whole):6.3f}s"
                  f" | {pages:3d}, {min(s for s, _ in served):6.3f}s")
        finally:
            server.close()
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
