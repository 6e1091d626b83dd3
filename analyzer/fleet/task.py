"""One dump, in a worker: read it, write its partitions, and return a small summary.

The tables never travel back through the scheduler: the worker writes them into the dataset
itself and returns only counts, versions and the most common findings (a few kilobytes).
"""

from __future__ import annotations

import gc
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from analyzer.errors import InputError
from analyzer.fleet import dataset
from analyzer.fleet.identity import content_hash as hash_dump
from analyzer.fleet.identity import dump_id as make_dump_id
from analyzer.fleet.identity import dump_name

if TYPE_CHECKING:
    import pandas as pd

    from analyzer.cluster import Cluster

MAX_ERROR = 2000


@dataclass
class DumpResult:
    """What became of one dump: its identity, status, and a summary small enough to ship."""

    path: str
    name: str
    content_hash: str | None = None
    dump_id: str | None = None
    status: str = "ok"  # "ok" | "failed"
    error_type: str | None = None
    error: str | None = None
    distribution: str | None = None
    confidence: float | None = None
    kubernetes_version: str | None = None
    kubernetes_version_source: str | None = None
    objects: int = 0
    rejected: int = 0
    logs: int = 0
    rows: dict[str, int] = field(default_factory=dict)
    components: list[dict[str, Any]] = field(default_factory=list)
    findings: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    analyzer_version: str = ""

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict (the manifest entry)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DumpResult:
        """Back from a manifest entry (unknown keys from other versions are dropped)."""
        known = cls.__dataclass_fields__
        return cls(**{k: v for k, v in data.items() if k in known})


def failed(path: str, name: str, exc: BaseException, **known: Any) -> DumpResult:
    """A failed dump's result: the error's type and message, never a traceback."""
    return DumpResult(path=path, name=name, status="failed", error_type=type(exc).__name__,
                      error=str(exc)[:MAX_ERROR] or repr(exc)[:MAX_ERROR], **known)


def kubernetes_version(cluster: Cluster) -> tuple[str | None, str | None]:
    """The cluster's Kubernetes version and where it came from (server, kubelets, apiserver)."""
    server = cluster.ingest.server_version
    if server:
        return str(server), "server"
    kubelets = cluster.tables["nodes"]["kubelet_version"].dropna().astype(str)
    if len(kubelets):
        counts = Counter(kubelets)
        # The most common kubelet version; on a tie the highest, so the answer is stable.
        best = max(counts.items(), key=lambda kv: (kv[1], kv[0]))[0]
        return best, "kubelet"
    components = cluster.tables["components"]
    apiserver = components[components["component"].astype(str) == "kube-apiserver"]["version"]
    apiserver = apiserver.dropna()
    if len(apiserver):
        return str(sorted(apiserver.astype(str))[-1]), "kube-apiserver"
    return None, None


def component_summary(components: pd.DataFrame) -> list[dict[str, Any]]:
    """One entry per component: its role and the sorted versions seen."""
    versions: dict[str, set[str]] = {}
    roles: dict[str, str] = {}
    for comp, role, version in zip(components["component"].astype(object),
                                   components["role"].astype(object),
                                   components["version"].astype(object), strict=True):
        if comp is None or comp != comp:
            continue
        versions.setdefault(str(comp), set())
        if isinstance(version, str) and version:
            versions[str(comp)].add(version)
        if isinstance(role, str) and role:
            roles.setdefault(str(comp), role)
    return [{"component": c, "role": roles.get(c), "versions": sorted(v)}
            for c, v in sorted(versions.items())]


def findings_summary(findings: pd.DataFrame) -> list[dict[str, Any]]:
    """The failing rules with how many objects each failed on, sorted by rule."""
    failing = findings[findings["status"].astype(str) == "fail"]
    counts = Counter(failing["rule"].astype(str))
    severity = dict(zip(failing["rule"].astype(str), failing["severity"].astype(str),
                        strict=True))
    return [{"rule": r, "severity": severity[r], "count": n} for r, n in sorted(counts.items())]


def _analyse(cluster: Cluster, result: DumpResult, out: Path) -> None:
    from analyzer.cluster.tables import table_names

    ing = cluster.ingest
    if not ing.read_anything:
        reasons = "; ".join(f"{r.source}: {r.reason}" for r in ing.rejections[:3])
        raise InputError(result.path, "nothing could be read" + (f" ({reasons})" if reasons else ""))
    distribution = cluster.distribution
    result.distribution = str(distribution.name)
    result.confidence = float(distribution.confidence)
    result.objects, result.rejected, result.logs = len(ing.objects), len(ing.rejections), len(ing.logs)
    result.kubernetes_version, result.kubernetes_version_source = kubernetes_version(cluster)
    # Everything is computed before anything is written, so a failure leaves no partial dump.
    frames = {name: cluster.tables[name] for name in table_names()}
    frames[dataset.FINDINGS_DIR] = cluster.findings
    arrow = {name: dataset.to_arrow(df, name, result.distribution) for name, df in frames.items()}
    result.components = component_summary(frames["components"])
    result.findings = findings_summary(frames[dataset.FINDINGS_DIR])
    result.rows = {name: len(df) for name, df in frames.items()}
    assert result.dump_id is not None
    dataset.remove_dump(out, result.dump_id)
    try:
        for name, data in arrow.items():
            if data.num_rows:  # an empty table adds no file; its row count is still recorded
                dataset.write_partition(out, name, result.dump_id, data)
    except BaseException:
        dataset.remove_dump(out, result.dump_id)
        raise


def process_dump(path: str, out: str, *, content_hash: str | None = None,
                 name: str | None = None) -> DumpResult:
    """Ingest one dump, write its partitions under `out`, return its summary; never raises
    for a bad dump (the error is in the result)."""
    from analyzer.cluster import load
    from analyzer.version import __version__

    started = time.perf_counter()
    name = name or dump_name(path)
    known: dict[str, Any] = {"content_hash": content_hash, "analyzer_version": __version__}
    try:
        if content_hash is None:
            known["content_hash"] = content_hash = hash_dump(path)
        known["dump_id"] = make_dump_id(name, content_hash)
        result = DumpResult(path=path, name=name, **known)
        cluster = load(path, name=name)
        try:
            _analyse(cluster, result, Path(out))
        finally:
            del cluster
    except Exception as exc:
        result = failed(path, name, exc, **known)
    finally:
        # Ingestion freezes what it parsed (gc.freeze); in a long-lived worker, cycles left by
        # this dump must be collected now, before the next dump's freeze keeps them forever.
        gc.collect()
    result.seconds = round(time.perf_counter() - started, 3)
    return result
