"""The API server's version: parsed from a version string, or, where the dump does not state it,
bounded by its nodes' kubelets (the rules and the report's read section ask)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from analyzer.distributions.profiles import load_profiles
from analyzer.memo import once_per

if TYPE_CHECKING:
    from analyzer.model.dump import ModeledDump

_VERSION = re.compile(r"v?(\d+)\.(\d+)(?:\.(\d+))?")


def parse_version(text: str | None) -> tuple[int, int, int] | None:
    """(major, minor, patch) of a Kubernetes version string, or None.

    >>> parse_version("v1.24.4+k3s1"), parse_version("v1.30.4-eks-a737599"), parse_version("x")
    ((1, 24, 4), (1, 30, 4), None)
    """
    m = _VERSION.match((text or "").strip())
    if not m:
        return None
    return int(m[1]), int(m[2]), int(m[3] or 0)


@dataclass(frozen=True, slots=True)
class ClusterVersion:
    """The control plane's version and the field it was read from."""

    text: str
    version: tuple[int, int, int]
    field: str
    source: str | None = None


@once_per
def cluster_version(cluster: ModeledDump) -> ClusterVersion | None:
    """The API server version: recorded server version, else control-plane kubelets, else the
    newest kubelet (a kubelet is never newer than its API server, so this is a lower bound).
    Found once per dump: six rules and the report ask, and a 5,000-node dump's nodes are many."""
    server = cluster.ingest.server_version
    if parse_version(server):
        return ClusterVersion(server or "", parse_version(server), "server version")  # type: ignore[arg-type]
    nodes = list(cluster.objects_of("Node"))

    def kubelet(n: Any) -> str | None:
        info = n.view.status.nodeInfo
        return info.kubeletVersion if info else None

    control_plane = [n for n in nodes if _is_control_plane(n) and parse_version(kubelet(n))]
    for group, field in ((control_plane, "control-plane node kubeletVersion"),
                         ([n for n in nodes if parse_version(kubelet(n))], "newest node kubeletVersion")):
        if group:
            best = max(group, key=lambda n: parse_version(kubelet(n)))
            return ClusterVersion(kubelet(best) or "", parse_version(kubelet(best)),  # type: ignore[arg-type]
                                  f"Node/{best.name} status.nodeInfo.kubeletVersion ({field})",
                                  best.provenance.source)
    return None


def _is_control_plane(node: Any) -> bool:
    # The distributions' list (profiles.yaml control_plane_node_labels), not a second one; a
    # pasted `kubectl get nodes` row shows them as its ROLES
    text = node.view.text
    return load_profiles().shows_control_plane(node.view.metadata.labels or {}, text.roles if text is not None else None)
