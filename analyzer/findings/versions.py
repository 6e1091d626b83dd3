"""Kubernetes versions as the rules need them: parsing, the cluster's version, the data tables."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from functools import cache
from pathlib import Path

# The cluster's version is found where the other cluster facts are (the report's second process
# reads it without importing the findings): here for the rules as before.
from analyzer.distributions.versions import ClusterVersion as ClusterVersion
from analyzer.distributions.versions import cluster_version as cluster_version
from analyzer.distributions.versions import parse_version as parse_version
from analyzer.safeyaml import load_yaml

DATA = Path(__file__).parent / "data"


def minor_text(version: tuple[int, ...]) -> str:
    """ "1.24" from (1, 24, 4)."""
    return f"{version[0]}.{version[1]}"


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
