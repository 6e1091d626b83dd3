"""Clusters side by side, grouped by distribution: components, control plane, CNI, DNS, kube-proxy,
CSI, node software, label/annotation conventions, priority classes and findings."""

from __future__ import annotations

import difflib
import json
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from analyzer.report.render import Diagram, draw, render_page, write_diagrams
from analyzer.report.sections import _counts, _version_text, records, server_version_shown

if TYPE_CHECKING:
    from analyzer.cluster import Cluster

# The overview's rows (key in _overview, label), one list for the HTML and the Markdown page
OVERVIEW_ROWS = (("control_plane", "control plane"), ("cni", "CNI"), ("dns_service_ip", "DNS Service IP"),
                 ("dns_provider", "DNS provider"), ("kube_proxy_mode", "kube-proxy mode"),
                 ("csi_drivers", "CSI drivers"), ("api_tunnel", "API tunnel"),
                 ("server_version_shown", "server version"), ("nodes", "nodes"), ("pods", "pods"),
                 ("formats", "formats"), ("capture_time", "capture time"))
# An overview value the dump does not show (None): said so, not a dash a reader takes for "none"
NOT_IN_DUMP = "not in the dump"
MAX_PREFIXES = 40  # label/annotation key prefixes shown (the most used across the clusters)
NO_PREFIX = "(no prefix)"


def _column(cluster: Cluster, report_id: str) -> dict[str, Any]:
    try:
        d = cluster.distribution
        name, confidence = d.name, round(float(d.confidence), 2)
    except Exception:  # detection failing on one dump: that column says unknown
        name, confidence = "unknown", 0.0
    return {"id": report_id, "name": cluster.name, "distribution": name, "confidence": confidence}


Keyed = Sequence[tuple[str, "Cluster"]]  # (report id, cluster): ids are unique, names may not be


def _per_cluster(clusters: Keyed, build: Callable[[Cluster], Any]) -> dict[str, Any]:
    """Run `build` per cluster; a failure gives that cluster a 'not available: why' cell."""
    out: dict[str, Any] = {}
    for key, c in clusters:
        try:
            out[key] = build(c)
        except Exception as exc:
            out[key] = {"not_available": f"{type(exc).__name__}: {exc}"}
    return out


def _guarded(key: str, build: Callable[[Keyed], Any], clusters: Keyed) -> dict[str, Any]:
    """A whole-comparison section; a failure becomes 'not available' with the reason."""
    try:
        return {"available": True, key: build(clusters)}
    except Exception as exc:
        return {"available": False, "reason": f"{type(exc).__name__}: {exc}"}


def _overview(c: Cluster) -> dict[str, Any]:
    d = c.distribution
    nodes = c.tables["nodes"]
    return {
        "control_plane": d.control_plane.kind, "control_plane_evidence": list(d.control_plane.evidence),
        "cni": ", ".join(d.cni) or None, "dns_service_ip": d.dns.get("service_ip"),
        "dns_provider": d.dns.get("provider"), "kube_proxy_mode": d.kube_proxy_mode,
        "csi_drivers": ", ".join(d.csi_drivers) or None, "api_tunnel": ", ".join(d.api_tunnel) or None,
        "server_version": _version_text(c.ingest.server_version),
        "server_version_shown": server_version_shown(c),
        "nodes": len(nodes), "pods": len(c.tables["pods"]),
        "formats": ", ".join(c.ingest.formats),
        "capture_time": c.capture_time.isoformat().replace("+00:00", "Z") if c.capture_time else None,
    }


def _components(clusters: Keyed) -> list[dict[str, Any]]:
    cells: dict[tuple[str, str], dict[str, dict[str, Any]]] = {}
    for name, c in clusters:
        try:
            comp = c.tables["components"]
        except Exception:
            continue
        for row in records(comp, list(comp.columns), limit=None):
            key = (str(row["role"]), str(row["component"] or row["name"]))
            cells.setdefault(key, {})[name] = {
                k: row[k] for k in ("name", "kind", "version", "images", "desired", "ready",
                                    "healthy", "host_network", "priority_class", "inferred")}
    return [{"role": role, "component": comp, "cells": cells[(role, comp)]}
            for role, comp in sorted(cells)]


def _dns(clusters: Keyed) -> dict[str, Any]:
    corefiles = {}
    for name, c in clusters:
        try:
            dns = c.distribution.dns
        except Exception:
            continue
        corefiles[name] = {"service_ip": dns.get("service_ip"), "service": dns.get("service"),
                             "provider": dns.get("provider"), "configmap": dns.get("configmap"),
                             "corefile": dns.get("corefile"),
                             "collected": bool(dns.get("corefile_collected"))}
    base = next(((n, v["corefile"]) for n, v in corefiles.items() if v["corefile"]), None)
    for name, v in corefiles.items():
        if base and v["corefile"] and name != base[0]:
            v["diff_against"] = base[0]
            v["diff"] = "\n".join(difflib.unified_diff(
                base[1].splitlines(), v["corefile"].splitlines(), base[0], name, lineterm="", n=1))
    return corefiles


def _node_software(c: Cluster) -> dict[str, Any]:
    nodes = c.tables["nodes"]
    return {col: _counts(nodes, col) for col in
            ("os_image", "kernel_version", "container_runtime", "kubelet_version", "kube_proxy_version")}


def _prefix_counts(frame: pd.DataFrame) -> Counter[str]:
    keys = frame["key"].astype("string")
    prefixes = keys.str.split("/", n=1).str[0].where(keys.str.contains("/", regex=False), NO_PREFIX)
    return Counter(prefixes.value_counts().to_dict())


def _conventions(clusters: Keyed, table: str) -> dict[str, Any]:
    per: dict[str, Counter[str]] = {}
    for name, c in clusters:
        try:
            per[name] = _prefix_counts(c.tables[table])
        except Exception:
            continue
    total: Counter[str] = Counter()
    for counts in per.values():
        total.update(counts)
    top = sorted(total, key=lambda p: (-total[p], p))[:MAX_PREFIXES]
    rows = [{"prefix": p, "cells": {n: counts.get(p, 0) for n, counts in per.items()}}
            for p in sorted(top)]
    return {"rows": rows, "total_prefixes": len(total)}


def _priority_classes(c: Cluster) -> dict[str, Any]:
    pods = c.tables["pods"]
    # (old API servers wrote `priorityClassName: ""` on pods without one: minikube 1.13)
    named = pods["priority_class"].astype("string").fillna("").ne("")
    used = _counts(pods[named.to_numpy(dtype=bool)], "priority_class")
    # a pod read from its spec states its priority (admission sets it) or class; a table row or a
    # node's pod list does neither, so "none" would be a guess
    stated = int((pods["priority"].notna() | pods["priority_class"].notna()).sum())
    defined = sorted(o.key.name for o in c.objects_of("PriorityClass"))
    return {"used_by_pods": used, "pods_stating": stated, "defined": defined,
            "collected": c.covers("PriorityClass")}


def _findings(clusters: Keyed) -> list[dict[str, Any]]:
    cells: dict[tuple[str, str], dict[str, Any]] = {}
    broken = []
    for name, c in clusters:
        try:
            f = c.findings
        except Exception:  # that cluster's column shows "?" rather than passing every rule
            broken.append(name)
            continue
        for (rule, severity, status), n in Counter(
                zip(f["rule"].astype(str), f["severity"].astype(str), f["status"].astype(str),
                    strict=True)).items():
            cell = cells.setdefault((rule, severity), {}).setdefault(name, {"fail": 0, "not_applicable": False})
            if status == "fail":
                cell["fail"] += n
            elif status == "not_applicable":
                cell["not_applicable"] = True
    order = {"critical": 0, "warning": 1, "info": 2}
    return [{"rule": rule, "severity": sev,
             "cells": {**cells[(rule, sev)], **{n: {"fail": None, "not_applicable": False} for n in broken}}}
            for rule, sev in sorted(cells, key=lambda k: (order.get(k[1], 9), k[0]))
            if any(v["fail"] for v in cells[(rule, sev)].values())]


def comparison_facts(clusters: Sequence[Cluster], ids: Sequence[str] | None = None) -> dict[str, Any]:
    """The comparison of clusters as JSON-safe data (the `comparison.json` contract)."""
    ids = list(ids) if ids is not None else [c.name for c in clusters]
    columns = sorted((_column(c, i) for c, i in zip(clusters, ids, strict=True)),
                     key=lambda col: (col["distribution"], col["name"], col["id"]))
    by_id = dict(zip(ids, clusters, strict=True))
    ordered = [(col["id"], by_id[col["id"]]) for col in columns]
    groups = [(dist, sum(1 for col in columns if col["distribution"] == dist))
              for dist in dict.fromkeys(col["distribution"] for col in columns)]
    return {
        "ids": ids,
        "clusters": columns,
        "distributions": [{"name": d, "clusters": n} for d, n in groups],
        "overview": _per_cluster(ordered, _overview),
        "components": _guarded("rows", _components, ordered),
        "dns": _guarded("clusters", _dns, ordered),
        "node_software": _per_cluster(ordered, _node_software),
        "labels": _guarded("conventions", lambda cs: _conventions(cs, "labels"), ordered),
        "annotations": _guarded("conventions", lambda cs: _conventions(cs, "annotations"), ordered),
        "priority_classes": _per_cluster(ordered, _priority_classes),
        "findings": _guarded("rows", _findings, ordered),
    }


def comparison_diagrams(clusters: Sequence[Cluster], facts: dict[str, Any]) -> list[Diagram]:
    """The comparison's diagrams: the component matrix, columns in the facts' order."""
    from analyzer.report.diagrams import component_matrix_from_rows

    by_id = {col["id"]: c for col, c in zip(facts["clusters"], _in_column_order(clusters, facts), strict=True)}
    columns = [(col["id"], col["distribution"], by_id[col["id"]].tables["components"])
               for col in facts["clusters"]]
    return [draw("components", "Components by role across the clusters",
                 lambda: component_matrix_from_rows(columns))]


def _in_column_order(clusters: Sequence[Cluster], facts: dict[str, Any]) -> list[Cluster]:
    by_id = dict(zip(facts["ids"], clusters, strict=True))
    return [by_id[col["id"]] for col in facts["clusters"]]


def render_comparison(clusters: Sequence[Cluster], outdir: str | Path, ids: Sequence[str] | None = None,
                      failures: Sequence[dict[str, str]] = (), formats: tuple[str, ...] = ("html",)) -> list[Path]:
    """Write index.html and comparison.md (with `html`) and comparison.json (always) into `outdir`."""
    directory = Path(outdir)
    directory.mkdir(parents=True, exist_ok=True)
    facts = comparison_facts(clusters, ids)
    written = []
    if "html" in formats:
        drawn = comparison_diagrams(clusters, facts)
        index = directory / "index.html"
        page = {"c": facts, "diagrams": drawn, "failures": list(failures),
                "overview_rows": OVERVIEW_ROWS, "not_in_dump": NOT_IN_DUMP}
        index.write_text(render_page("comparison.html.j2", **page), encoding="utf-8")
        md = directory / "comparison.md"
        md.write_text(render_page("comparison.md.j2", **page), encoding="utf-8")
        written += [index, md, *write_diagrams(drawn, directory)]
    out = directory / "comparison.json"
    out.write_text(json.dumps({**facts, "failures": list(failures)}, indent=2, sort_keys=True,
                              default=str) + "\n", encoding="utf-8")
    written.append(out)
    return written
