"""Kubernetes versions as the rules need them: parsing, the cluster's version, the data tables."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from analyzer.memo import once_per
from analyzer.safeyaml import load_yaml

if TYPE_CHECKING:
    from analyzer.findings.dump import AnalyzedDump

DATA = Path(__file__).parent / "data"
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


def minor_text(version: tuple[int, ...]) -> str:
    """ "1.24" from (1, 24, 4)."""
    return f"{version[0]}.{version[1]}"


@dataclass(frozen=True, slots=True)
class ClusterVersion:
    """The control plane's version and the field it was read from."""

    text: str
    version: tuple[int, int, int]
    field: str
    source: str | None = None


@once_per
def cluster_version(cluster: AnalyzedDump) -> ClusterVersion | None:
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
    from analyzer.distributions.profiles import load_profiles

    text = node.view.text
    return load_profiles().shows_control_plane(node.view.metadata.labels or {}, text.roles if text is not None else None)


@cache
def end_of_life_dates() -> dict[str, date]:
    """Minor version ("1.24") -> upstream end-of-support date, from data/kubernetes_eol.yaml."""
    raw = load_yaml((DATA / "kubernetes_eol.yaml").read_text(encoding="utf-8"))
    return {str(k): date.fromisoformat(str(v)) for k, v in raw.items()}


@cache
def provider_support() -> dict[str, dict]:
    """Distribution -> {"provider": name, "versions": {minor: {"standard": date, "extended":
    date}}}, the managed services' own calendars (data/provider_support.yaml)."""
    raw = load_yaml((DATA / "provider_support.yaml").read_text(encoding="utf-8"))
    out: dict[str, dict] = {}
    for dist, entries in raw.items():
        versions = {str(minor): {k: date.fromisoformat(str(v)) for k, v in dates.items()}
                    for minor, dates in entries.items() if minor != "provider"}
        out[str(dist)] = {"provider": entries["provider"], "versions": versions}
    return out


@dataclass(frozen=True, slots=True)
class RemovedApi:
    api_version: str
    kind: str
    removed_in: tuple[int, int]
    replacement: str
    newer_since: tuple[int, int] | None = None  # first release serving a newer version


@cache
def removed_apis() -> dict[tuple[str, str], RemovedApi]:
    """(apiVersion, kind) -> when it was removed, from data/removed_apis.yaml."""
    raw = load_yaml((DATA / "removed_apis.yaml").read_text(encoding="utf-8"))
    table: dict[tuple[str, str], RemovedApi] = {}
    for row in raw:
        major, minor = (int(x) for x in str(row["removed_in"]).split("."))
        since = row.get("newer_since")
        newer = tuple(int(x) for x in str(since).split(".")) if since else None
        for kind in row["kinds"]:
            table[(row["api_version"], kind)] = RemovedApi(
                row["api_version"], kind, (major, minor), row["replacement"], newer)  # type: ignore[arg-type]
    return table
