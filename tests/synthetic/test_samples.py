"""The sample dumps (synthetic/samples.py, called as sample_dumps/_generate.py) regenerate byte for byte.

Fixtures: sample_dumps/ and tests/data/archives/kubeadm-dump.tar.gz, both made by this generator.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import ROOT, SAMPLE_DUMPS

from synthetic.samples import SAMPLES


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_sample_dumps_regenerate_identically(tmp_path: Path) -> None:
    # Through the entry point README and docs call, as a script (only sample_dumps/ on sys.path).
    archive = tmp_path / "kubeadm-dump.tar.gz"
    subprocess.run([sys.executable, str(SAMPLE_DUMPS / "_generate.py"), "--out", str(tmp_path / "out"),
                    "--archive", str(archive)], check=True, timeout=300)
    for name in ("aks", "eks", "oke", "kubeadm"):
        fresh, shipped = _files(tmp_path / "out" / name), _files(SAMPLE_DUMPS / name)
        assert sorted(fresh) == sorted(shipped), name
        changed = sorted(path for path in fresh if fresh[path] != shipped[path])
        assert not changed, f"{name}: regenerated files differ: {changed[:5]}"
    assert archive.read_bytes() == (ROOT / "tests" / "data" / "archives" / "kubeadm-dump.tar.gz").read_bytes()


def test_every_sample_folder_is_registered() -> None:
    folders = {p.name for p in SAMPLE_DUMPS.iterdir() if p.is_dir() and not p.name.startswith(("_", "."))}
    assert folders == {sample.folder for sample in SAMPLES}
