"""`kda inspect` starts cold in well under a second because reading a dump and summarising it
import neither pandas, pyarrow nor networkx: those load only with the tables, the graph or the
components table. (Checked by what is imported, never by a timing.)"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HEAVY = ("pandas", "pyarrow", "networkx", "numpy")

# A small hand-written dump: a Node with a heartbeat, a Pod and an Event, as kubectl prints them.
DUMP = """apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata: {name: n1, creationTimestamp: "2024-05-01T08:00:00Z", labels: {kubernetes.io/os: linux}}
  status:
    conditions:
    - {type: Ready, status: "True", lastHeartbeatTime: "2024-05-20T09:59:30Z", lastTransitionTime: "2024-05-01T08:01:00Z"}
    nodeInfo: {kubeletVersion: v1.29.4, containerRuntimeVersion: containerd://1.7.13}
- apiVersion: v1
  kind: Pod
  metadata: {name: web-1, namespace: shop, creationTimestamp: "2024-05-19T10:00:00Z"}
  spec: {nodeName: n1, containers: [{name: web, image: nginx:1.25}]}
  status: {phase: Running}
- apiVersion: v1
  kind: Event
  metadata: {name: web-1.17d, namespace: shop}
  involvedObject: {kind: Pod, name: web-1, namespace: shop}
  reason: Pulled
  lastTimestamp: "2024-05-20T09:58:00.123456Z"
"""


def _imported_after(code: str, tmp_path: Path) -> list[str]:
    dump = tmp_path / "dump.yaml"
    dump.write_text(DUMP, encoding="utf-8")
    script = (f"import sys\n{code}\n"
              f"print(' '.join(m for m in {HEAVY!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", script, str(dump)], capture_output=True, text=True, check=True)
    return out.stdout.split()


def test_reading_and_summarising_a_dump_imports_no_heavy_library(tmp_path: Path) -> None:
    code = ("import analyzer\nfrom analyzer.cluster.summary import summary_text\n"
            "c = analyzer.load(sys.argv[1])\ntext = summary_text(c)\n"
            "assert 'capture time: 2024-05-20T09:59:30' in text, text\n")
    assert _imported_after(code, tmp_path) == []


def test_the_tables_still_bring_pandas(tmp_path: Path) -> None:
    code = "import analyzer\nc = analyzer.load(sys.argv[1])\nassert len(c.tables.pods) == 1\n"
    assert "pandas" in _imported_after(code, tmp_path)


def test_a_capture_time_is_the_same_without_pandas() -> None:
    import warnings

    import pandas as pd

    from analyzer.ingest.result import estimate_capture_time

    for stated in ("2024-05-20T10:00:00Z", "2024-05-20T10:00:00.12Z", "2024-05-20T10:00:00+02:00",
                   "2024-05-20T10:00:00.123456789Z", "2024-02-30T10:00:00Z"):
        try:
            with warnings.catch_warnings():  # pandas says it drops the nanoseconds, as datetime does
                warnings.simplefilter("ignore", UserWarning)
                expected = pd.Timestamp(stated).to_pydatetime()
        except ValueError:
            expected = None
        with warnings.catch_warnings():  # (nanoseconds still go through pandas, which says so)
            warnings.simplefilter("ignore", UserWarning)
            got = estimate_capture_time([], [(stated, "metadata.yaml")])
        assert got == expected and (got is None or got.utcoffset() == expected.utcoffset()), stated
