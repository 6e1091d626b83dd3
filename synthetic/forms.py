"""Every form a sample cluster can be written in, registered by name; the emitters are in emit/.

    python -m synthetic write eks must-gather -o out/eks-must-gather
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from synthetic.clusters.samples.apiserver import Cluster
from synthetic.clusters.samples.component_logs import ContainerLogs
from synthetic.emit.cluster_info import write_cluster_info_dump_dir, write_cluster_info_dump_stdout
from synthetic.emit.kubectl_get import write_kubectl_get_yaml
from synthetic.emit.must_gather import write_must_gather
from synthetic.emit.support_bundle import write_support_bundle

# The troubleshoot release whose bundle layout support-bundle copies.
SUPPORT_BUNDLE_VERSION = "v0.100.0"
# `kubectl cluster-info dump` without --all-namespaces dumps these two.
CLUSTER_INFO_DEFAULT_NAMESPACES = ["kube-system", "default"]


def kubectl_get_yaml(cluster: Cluster, folder: Path) -> None:
    """`kubectl get ... -A -o yaml > <resources>.yaml`, one file per command."""
    write_kubectl_get_yaml(cluster, folder)


def cluster_info_dump(cluster: Cluster, folder: Path) -> None:
    """`kubectl cluster-info dump --all-namespaces > cluster-info-dump.txt`."""
    write_cluster_info_dump_stdout(cluster, folder / "cluster-info-dump.txt", cluster.namespaces(),
                                   ContainerLogs(cluster))


def cluster_info_directory(cluster: Cluster, folder: Path) -> None:
    """`kubectl cluster-info dump --output-directory <folder>` (kube-system and default)."""
    write_cluster_info_dump_dir(cluster, folder, CLUSTER_INFO_DEFAULT_NAMESPACES, ContainerLogs(cluster))


def support_bundle(cluster: Cluster, folder: Path) -> None:
    """A troubleshoot support bundle's clusterInfo and clusterResources."""
    write_support_bundle(cluster, folder, cluster.version_info(), SUPPORT_BUNDLE_VERSION, ContainerLogs(cluster))


def must_gather(cluster: Cluster, folder: Path) -> None:
    """`oc adm must-gather` (its default image's `oc adm inspect` layout)."""
    write_must_gather(cluster, folder, ContainerLogs(cluster))


FORMS: dict[str, Callable[[Cluster, Path], None]] = {
    "kubectl-get-yaml": kubectl_get_yaml,
    "cluster-info-dump": cluster_info_dump,
    "cluster-info-directory": cluster_info_directory,
    "support-bundle": support_bundle,
    "must-gather": must_gather,
}
