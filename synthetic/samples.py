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
from synthetic.clusters.samples.component_logs import ContainerLogs
from synthetic.clusters.samples.eks import build_eks
from synthetic.clusters.samples.kubeadm import build_kubeadm
from synthetic.clusters.samples.oke import OKE_SERVER_VERSION, build_oke
from synthetic.emit.archive import write_tar_gz
from synthetic.emit.cluster_info import write_cluster_info_dump_dir, write_cluster_info_dump_stdout
from synthetic.emit.kubectl_get import write_kubectl_get_yaml
from synthetic.emit.support_bundle import write_support_bundle
from synthetic.times import CAPTURE

REPO = Path(__file__).resolve().parents[1]
SAMPLE_DUMPS = REPO / "sample_dumps"
# The kubeadm dump as a .tar.gz, for the tests of archive reading.
ARCHIVE = REPO / "tests" / "data" / "archives" / "kubeadm-dump.tar.gz"


@dataclass(frozen=True)
class SampleDump:
    """One folder of sample_dumps/: the cluster, and how its dump is written into the folder."""

    folder: str
    build: Callable[[], Cluster]
    write: Callable[[Cluster, Path], None]


def _kubectl_get_yaml(cluster: Cluster, folder: Path) -> None:
    write_kubectl_get_yaml(cluster, folder)


def _cluster_info_stdout(cluster: Cluster, folder: Path) -> None:
    # `kubectl cluster-info dump --all-namespaces > cluster-info-dump.txt`
    write_cluster_info_dump_stdout(cluster, folder / "cluster-info-dump.txt", cluster.namespaces(),
                                   ContainerLogs(cluster))


def _support_bundle(cluster: Cluster, folder: Path) -> None:
    write_support_bundle(cluster, folder, OKE_SERVER_VERSION, "v0.100.0", ContainerLogs(cluster))


def _cluster_info_directory(cluster: Cluster, folder: Path) -> None:
    # `kubectl cluster-info dump --output-directory` without --all-namespaces: two namespaces
    write_cluster_info_dump_dir(cluster, folder, ["kube-system", "default"], ContainerLogs(cluster))


SAMPLES = (
    SampleDump("aks", build_aks, _kubectl_get_yaml),
    SampleDump("eks", build_eks, _cluster_info_stdout),
    SampleDump("oke", build_oke, _support_bundle),
    SampleDump("kubeadm", build_kubeadm, _cluster_info_directory),
)


def generate(out_dir: Path, archive: Path) -> None:
    """Write all four dumps under `out_dir` and the kubeadm archive at `archive`."""
    for sample in SAMPLES:
        cluster = sample.build()  # before anything is removed: a failing build leaves the old dump
        target = out_dir / sample.folder
        if target.exists():
            shutil.rmtree(target)
        sample.write(cluster, target)
    write_tar_gz(out_dir / "kubeadm", archive, "kubeadm-dump", CAPTURE)


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(prog="_generate.py", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=SAMPLE_DUMPS, help="folder to write aks/ eks/ oke/ kubeadm/ into")
    parser.add_argument("--archive", type=Path, default=ARCHIVE, help="where to write the kubeadm .tar.gz")
    args = parser.parse_args(argv)
    generate(args.out, args.archive)
    return 0
