"""The facts of one cluster's report, as plain JSON-safe data: one builder per section.

A section that cannot be built (a stage missing or failing on this dump) becomes
`{"available": False, "reason": ...}`: the report says so instead of failing.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pandas as pd

if TYPE_CHECKING:
    from analyzer.cluster import Cluster

MAX_ROWS = 300  # rows per table in a report; the rest are counted, and `kda tables` has them all
SEVERITIES = ("critical", "warning", "info")


def records(frame: pd.DataFrame, columns: list[str], limit: int | None = MAX_ROWS) -> list[dict[str, Any]]:
    """Rows of `columns` as plain dicts (missing values as None), at most `limit` of them."""
    part = frame[[c for c in columns if c in frame.columns]]
    if limit is not None:
        part = part.head(limit)
    return [{k: _plain(v) for k, v in row.items()} for row in part.astype(object).to_dict("records")]


def _plain(value: Any) -> Any:
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, float) and value != value:
        return None
    if isinstance(value, pd.Timestamp):
        return value.isoformat().replace("+00:00", "Z")
    if isinstance(value, pd.Timedelta):
        return _age(value)
    if hasattr(value, "item"):  # numpy scalars
        value = value.item()
    if isinstance(value, float) and value.is_integer():
        return int(value)  # 4 CPUs, 110 pods: not 4.0, 110.0
    return value


def _age(delta: pd.Timedelta) -> str:
    seconds = int(delta.total_seconds())
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if abs(seconds) >= size:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"


def section(build: Callable[[Cluster], dict[str, Any]], cluster: Cluster) -> dict[str, Any]:
    """Run one section builder; a failure becomes a 'not available' section with the reason."""
    try:
        data = build(cluster)
    except Exception as exc:  # a stage failing on one dump must not lose the rest of the report
        return {"available": False, "reason": f"{type(exc).__name__}: {exc}"}
    return {"available": True, **data}


# -- sections ------------------------------------------------------------------------------


def read_section(cluster: Cluster) -> dict[str, Any]:
    """What was read: inputs, formats, counts by kind, rejections, coverage, capture time."""
    r = cluster.ingest
    capture = cluster.capture_time
    return {
        "inputs": list(r.inputs),
        "formats": list(r.formats),
        "files": len(r.files),
        "objects_read": r.objects_read,
        "objects_total": len(r.objects),
        "duplicates": r.duplicates,
        "objects_by_kind": [{"kind": k, "count": n} for k, n in sorted(r.objects_by_kind.items())],
        "rejections_total": len(r.rejections),
        "rejected_objects": len(r.object_rejections),
        "rejected_inputs": len(r.input_rejections),
        "rejections": [x.to_dict() for x in r.rejections[:MAX_ROWS]],
        "skipped_total": len(r.skipped),
        "skipped": [x.to_dict() for x in r.skipped[:MAX_ROWS]],
        "notes_total": len(notes := r.object_notes),
        "notes": notes[:MAX_ROWS],
        "coverage_present": list(r.coverage_present),
        "coverage_absent": list(r.coverage_absent),
        "coverage_unreadable": list(r.coverage_unreadable),
        "warnings": list(r.warnings),
        "capture_time": capture.isoformat().replace("+00:00", "Z") if capture else None,
        "server_version": _version_text(r.server_version),
        "logs": len(r.logs),
    }


def _version_text(version: Any) -> str | None:
    if not version:
        return None
    if isinstance(version, dict):
        return str(version.get("gitVersion") or json.dumps(version, sort_keys=True))
    return str(version)


def distribution_section(cluster: Cluster) -> dict[str, Any]:
    """The distribution, its confidence and evidence, and the cluster facts found with it."""
    d = cluster.distribution.to_dict()
    evidence = sorted(d["evidence"], key=lambda e: (not e["counted"], -e["weight"], e["signal"], e["object"]))
    dns = dict(d.get("dns") or {})
    return {
        "name": d["name"], "confidence": round(float(d["confidence"]), 2),
        "runner_up": d.get("runner_up"),
        "evidence": evidence[:MAX_ROWS], "evidence_total": len(evidence),
        "control_plane": d["control_plane"], "cni": d["cni"], "dns": dns,
        "kube_proxy_mode": d["kube_proxy_mode"], "csi_drivers": d["csi_drivers"],
        "api_tunnel": d["api_tunnel"], "metrics": d["metrics"], "autoscalers": d["autoscalers"],
        "notes": d["notes"],
    }


NODE_COLUMNS = ["name", "roles", "ready", "kubelet_version", "os_image", "kernel_version",
                "container_runtime", "cpu_capacity", "memory_capacity", "pods_capacity",
                "instance_type", "zone", "unschedulable", "taints"]


def nodes_section(cluster: Cluster) -> dict[str, Any]:
    """Nodes with versions, OS, runtime and capacity; totals per version."""
    if not cluster.covers("Node"):
        # nodes.json was there but unreadable: said so, never "did not collect Nodes"
        unreadable = [w for w in cluster.ingest.warnings if " no Node " in w]
        return {"collected": False, "rows": [], "total": 0, "versions": [], "ready": [],
                "unreadable": unreadable[0] if unreadable else None}
    nodes = cluster.tables["nodes"].sort_values("name", kind="stable")
    rows = records(nodes, NODE_COLUMNS)
    for row in rows:
        row["memory_gib"] = round(row.pop("memory_capacity") / 2**30, 1) if row.get("memory_capacity") else None
    return {
        "collected": True, "rows": rows, "total": len(nodes),
        "versions": _counts(nodes, "kubelet_version"), "ready": _counts(nodes, "ready"),
        "os_images": _counts(nodes, "os_image"), "runtimes": _counts(nodes, "container_runtime"),
    }


def _spaced(joined: str | None) -> str | None:
    """A comma-joined list as the page shows it, so a long list of images can wrap."""
    return joined.replace(",", ", ") if joined else joined


def _counts(frame: pd.DataFrame, column: str) -> list[tuple[str, int]]:
    values = frame[column].astype("string").fillna("unknown")
    return sorted(Counter(values).items(), key=lambda kv: (-kv[1], kv[0]))


COMPONENT_COLUMNS = ["role", "name", "kind", "component", "version", "desired", "ready", "healthy",
                     "host_network", "priority_class", "distributions", "images", "inferred",
                     "health_evidence"]


def components_section(cluster: Cluster) -> dict[str, Any]:
    """System components grouped by role (the catalog's roles; unknown ones kept)."""
    comp = cluster.tables["components"]
    comp = comp.sort_values(["role", "name"], key=lambda s: s.astype("string"), kind="stable")
    rows = records(comp, COMPONENT_COLUMNS, limit=None)
    for row in rows:
        row["images"] = _spaced(row["images"])
    roles: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        roles.setdefault(str(row["role"]), []).append(row)
    return {"roles": sorted(roles.items()), "total": len(rows),
            "unhealthy": sum(1 for r in rows if r["healthy"] is False),
            # ready, yet restarting, failing probes or logging errors: why, with the evidence
            "beyond_ready": [r for r in rows if r.get("health_evidence")]}


WORKLOAD_COLUMNS = ["kind", "namespace", "name", "desired", "ready", "available", "images",
                    "failed_condition"]


def workloads_section(cluster: Cluster) -> dict[str, Any]:
    """Workloads (ReplicaSets owned by Deployments left out) and pod health; unhealthy first."""
    w = cluster.tables["workloads"]
    w = w[~((w["kind"] == "ReplicaSet") & w["owner_kind"].notna())]
    desired, ready = w["desired"].fillna(0), w["ready"].fillna(0)
    unhealthy = (ready < desired) | w["failed_condition"].notna()
    # False sorts first: the unhealthy workloads lead the table.
    ordered = w.assign(_healthy=~unhealthy.fillna(False).astype(bool))
    ordered = ordered.sort_values(["_healthy", "namespace", "kind", "name"],
                                  key=lambda s: s.astype("string") if s.name != "_healthy" else s,
                                  kind="stable")
    pods = cluster.tables["pods"]
    status = pods["status"].astype("string").fillna(pods["phase"].astype("string")).fillna("unknown")
    return {
        "total": len(w), "unhealthy": int(unhealthy.fillna(False).sum()),
        "by_kind": _counts(w, "kind"),
        "rows": [dict(r, healthy=h, images=_spaced(r["images"])) for r, h in zip(
            records(ordered, WORKLOAD_COLUMNS), ordered["_healthy"].head(MAX_ROWS).tolist(), strict=True)],
        "pods": len(pods), "pod_status": sorted(Counter(status).items(), key=lambda kv: (-kv[1], kv[0])),
        "restarting": records(
            pods[pods["restarts"].fillna(0) > 0].sort_values(
                ["restarts", "namespace", "name"], ascending=[False, True, True],
                key=lambda s: s if s.name == "restarts" else s.astype("string"), kind="stable"),
            ["namespace", "name", "status", "restarts", "node"], limit=50),
    }


SERVICE_COLUMNS = ["namespace", "name", "type", "cluster_ip", "ports", "selector",
                   "load_balancer_ingress", "external_name"]


def services_section(cluster: Cluster) -> dict[str, Any]:
    """Services by type, and each with its IPs, ports and selector."""
    s = cluster.tables["services"]
    s = s.sort_values(["namespace", "name"], key=lambda c: c.astype("string"), kind="stable")
    return {"total": len(s), "by_type": _counts(s, "type"), "rows": records(s, SERVICE_COLUMNS)}


def findings_section(cluster: Cluster) -> dict[str, Any]:
    """Failed checks by severity with their evidence; rules that could not tell, apart."""
    f = cluster.findings
    failed = f[f["status"] == "fail"]
    rows = records(failed, ["rule", "severity", "category", "kind", "namespace", "name",
                            "message", "evidence", "remediation"], limit=None)
    by_severity: dict[str, list[dict[str, Any]]] = {s: [] for s in SEVERITIES}
    for row in rows:
        row["evidence"] = json.loads(row["evidence"]) if row.get("evidence") else []
        by_severity.setdefault(str(row["severity"]), []).append(row)
    skipped = f[f["status"] == "not_applicable"]
    return {
        "total": len(rows),
        "counts": [(s, len(by_severity.get(s, []))) for s in by_severity],
        "by_severity": [(s, items[:MAX_ROWS], len(items)) for s, items in by_severity.items()],
        "not_applicable": records(skipped, ["rule", "message"], limit=None),
        "other_statuses": sorted(Counter(str(x) for x in f["status"]
                                         if x not in ("fail", "not_applicable")).items()),
    }


def incidents_section(cluster: Cluster) -> dict[str, Any]:
    """What is wrong: the incidents (findings sharing a cause), ranked by severity and reach."""
    i = cluster.incidents
    rows = records(i, ["incident", "rank", "severity", "headline", "cause", "workloads", "findings",
                       "rules"], limit=None)
    return {"total": len(rows), "top": rows[:3], "rest": rows[3:MAX_ROWS], "more": max(len(rows) - MAX_ROWS, 0)}


def timeline_section(cluster: Cluster) -> dict[str, Any]:
    """What happened when: counts of dated facts, their spans, and the densest periods."""
    from analyzer.report.timeline import timeline_section as build

    return build(cluster)


SECTIONS: tuple[tuple[str, Callable[[Cluster], dict[str, Any]]], ...] = (
    ("incidents", incidents_section),
    ("read", read_section),
    ("distribution", distribution_section),
    ("nodes", nodes_section),
    ("components", components_section),
    ("workloads", workloads_section),
    ("services", services_section),
    ("findings", findings_section),
    ("timeline", timeline_section),
)


def cluster_facts(cluster: Cluster) -> dict[str, Any]:
    """Every section of a cluster's report, as JSON-safe data (the `report.json` contract)."""
    return {"name": cluster.name, **{name: section(build, cluster) for name, build in SECTIONS}}
