"""Transcript benchmark: a dump pasted into a terminal session, damaged as real pastes are, against
the same dump saved as a file.

    python benchmarks/bench_transcripts.py               # 2,000 pods
    python benchmarks/bench_transcripts.py --pods 20000 --repeat 3

The session is what a PowerShell copy gives (as in the real session tests/ingest/data/pastes/
was cut from): a prompt, `kubectl get ... -o json` with every line's indentation stripped and
long lines inside strings wrapped by the console at 160 columns, then a second command and its
table. Each form is read by `analyzer.ingest` in this process (median of the rounds, GC paused as
the ingest stage pauses it); what a user waits for is the ratio of the two, printed last.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from generate_dump import write_dump  # noqa: E402

WIDTH = 160
PROMPT = "PS C:\\Users\\ops> "


def session_from(dump: bytes) -> tuple[bytes, int]:
    """The dump as a pasted session: unindented, wrapped at WIDTH inside strings (how many)."""
    out: list[str] = [PROMPT + "kubectl get pods,nodes -A -o json"]
    wrapped = 0
    for line in dump.decode("utf-8").splitlines():
        depth = (len(line) - len(line.lstrip(" "))) // 4
        flat = line.lstrip(" ")
        if len(flat) + 4 * depth <= WIDTH or flat.count('"') < 4:
            out.append(flat)
            continue
        # the console breaks the indented line at WIDTH; the copy lost the first piece's indent
        full = " " * (4 * depth) + flat
        pieces = [full[i:i + WIDTH] for i in range(0, len(full), WIDTH)]
        pieces[0] = pieces[0].lstrip(" ")
        if len(pieces) > 1:
            wrapped += 1
        out.extend(pieces)
    out += [PROMPT + "kubectl get nodes", "NAME     STATUS   ROLES    AGE   VERSION",
            "node-1   Ready    <none>   3d    v1.29.3", PROMPT.rstrip()]
    return ("\r\n".join(out) + "\r\n").encode("utf-8"), wrapped


def _time(name: str, data: bytes, repeat: int) -> tuple[float, int, int]:
    from analyzer.ingest import ingest_text

    times = []
    result = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = ingest_text(data, name)
        times.append(time.perf_counter() - start)
    assert result is not None and result.accounting_holds()
    return statistics.median(times), len(result.objects), len(result.rejections)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pods", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    path = HERE / "data" / f"pods-nodes-{args.pods}.json"
    if not path.exists():
        write_dump(path, args.pods, kinds={"Pod", "Node"})
    dump = path.read_bytes()
    session, wrapped = session_from(dump)
    print(f"dump {len(dump) / 1e6:.1f} MB; session {len(session) / 1e6:.1f} MB, {wrapped} lines wrapped at {WIDTH}")
    file_s, file_objects, _ = _time("dump.json", dump, args.repeat)
    session_s, session_objects, rejected = _time("session.txt", session, args.repeat)
    print(f"{'form':<10} {'seconds':>8} {'MB/s':>7} {'objects':>8}")
    print(f"{'file':<10} {file_s:8.2f} {len(dump) / 1e6 / file_s:7.1f} {file_objects:8d}")
    print(f"{'session':<10} {session_s:8.2f} {len(session) / 1e6 / session_s:7.1f} {session_objects:8d}"
          f"  ({rejected} rejected)")
    print(f"session / file: {session_s / file_s:.2f}x the time")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
