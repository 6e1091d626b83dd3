"""The four sample dumps of sample_dumps/: each sample cluster, and the form its dump is written in.

    python sample_dumps/_generate.py [--out DIR] [--archive FILE]

Everything (uids, names, IPs, digests, times) derives from names and a fixed capture time, so a
rerun writes the same bytes. Nothing here is a real credential; no Secret objects are written.
"""

from __future__ import annotations

import argparse
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from synthetic.clusters.samples.aks import build_aks
from synthetic.clusters.samples.apiserver import Cluster
from synthetic.clusters.samples.eks import build_eks
from synthetic.clusters.samples.kubeadm import build_kubeadm
from synthetic.clusters.samples.oke import build_oke
from synthetic.emit.archive import write_tar_gz
from synthetic.forms import FORMS
from synthetic.times import CAPTURE

REPO = Path(__file__).resolve().parents[1]
SAMPLE_DUMPS = REPO / "sample_dumps"
# The kubeadm dump as a .tar.gz, for the tests of archive reading.
ARCHIVE = REPO / "tests" / "data" / "archives" / "kubeadm-dump.tar.gz"


@dataclass(frozen=True)
class SampleDump:
    """One folder of sample_dumps/: the cluster, and the form (synthetic/forms.py) its dump is written in."""

    folder: str
    build: Callable[[], Cluster]
    form: str


SAMPLES = (
    SampleDump("aks", build_aks, "kubectl-get-yaml"),
    SampleDump("eks", build_eks, "cluster-info-dump"),
    SampleDump("oke", build_oke, "support-bundle"),
    SampleDump("kubeadm", build_kubeadm, "cluster-info-directory"),
)
CLUSTERS: dict[str, Callable[[], Cluster]] = {sample.folder: sample.build for sample in SAMPLES}


def generate(out_dir: Path, archive: Path) -> None:
    """Write all four dumps under `out_dir` and the kubeadm archive at `archive`."""
    for sample in SAMPLES:
        cluster = sample.build()  # before anything is removed: a failing build leaves the old dump
        target = out_dir / sample.folder
        if target.exists():
            shutil.rmtree(target)
        FORMS[sample.form](cluster, target)
    write_tar_gz(out_dir / "kubeadm", archive, "kubeadm-dump", CAPTURE)


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(prog="_generate.py", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=SAMPLE_DUMPS, help="folder to write aks/ eks/ oke/ kubeadm/ into")
    parser.add_argument("--archive", type=Path, default=ARCHIVE, help="where to write the kubeadm .tar.gz")
    args = parser.parse_args(argv)
    generate(args.out, args.archive)
    return 0
