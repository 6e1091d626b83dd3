"""The fleet report: what the dumps in a dataset have in common, per distribution.

Built from the manifest alone (the summaries the workers returned), so re-running the report
never reads the dumps again. `fleet.json` is the data; `fleet.html` shows it, self-contained.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

REPORT_FORMAT = "kda-fleet-report/1"
TOP_FINDINGS = 15
UNKNOWN = "unknown"


def minor_version(version: str | None) -> str:
    """The minor release of a Kubernetes version ("unknown" when there is none).

    Examples:
        >>> minor_version("v1.29.7-eks-2f008fe"), minor_version("1.24.4+k3s1"), minor_version(None)
        ('v1.29', 'v1.24', 'unknown')
    """
    match = re.match(r"v?(\d+)\.(\d+)", version or "")
    return f"v{match[1]}.{match[2]}" if match else UNKNOWN


def _sorted_counts(counter: Counter[str]) -> dict[str, int]:
    """Most common first, then by name: the same data gives the same order."""
    return dict(sorted(counter.items(), key=lambda kv: (-kv[1], kv[0])))


def _components(dumps: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
    present: Counter[str] = Counter()
    versions: dict[str, Counter[str]] = defaultdict(Counter)
    roles: dict[str, str] = {}
    for d in dumps:
        for comp in d.get("components", []):
            name = comp["component"]
            present[name] += 1
            if comp.get("role"):
                roles.setdefault(name, comp["role"])
            for v in comp.get("versions") or [UNKNOWN]:
                versions[name][v] += 1
    return [{"component": name, "role": roles.get(name), "dumps": n,
             "share": round(n / len(dumps), 3), "versions": _sorted_counts(versions[name])}
            for name, n in sorted(present.items(), key=lambda kv: (-kv[1], kv[0]))]


def _findings(dumps: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
    in_dumps: Counter[str] = Counter()
    objects: Counter[str] = Counter()
    severity: dict[str, str] = {}
    for d in dumps:
        for f in d.get("findings", []):
            in_dumps[f["rule"]] += 1
            objects[f["rule"]] += f["count"]
            severity[f["rule"]] = f["severity"]
    ranked = sorted(in_dumps.items(), key=lambda kv: (-kv[1], -objects[kv[0]], kv[0]))
    return [{"rule": rule, "severity": severity[rule], "dumps": n,
             "share": round(n / len(dumps), 3), "objects": objects[rule]}
            for rule, n in ranked[:TOP_FINDINGS]]


def _distribution_section(dumps: list[Mapping[str, Any]]) -> dict[str, Any]:
    return {
        "dumps": len(dumps),
        "kubernetes_minor_versions": _sorted_counts(Counter(
            minor_version(d.get("kubernetes_version")) for d in dumps)),
        "kubernetes_versions": _sorted_counts(Counter(
            d.get("kubernetes_version") or UNKNOWN for d in dumps)),
        "components": _components(dumps),
        "findings": _findings(dumps),
    }


def build_report(manifest: Mapping[str, Any]) -> dict[str, Any]:
    """The fleet report (a JSON-ready dict) of every dump in the manifest."""
    dumps = sorted(manifest.get("dumps", {}).values(), key=lambda d: d["dump_id"])
    failures = sorted(manifest.get("failures", {}).values(), key=lambda d: d["path"])
    by_dist: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for d in dumps:
        by_dist[d.get("distribution") or UNKNOWN].append(d)
    order = sorted(by_dist, key=lambda k: (-len(by_dist[k]), k))
    return {
        "format": REPORT_FORMAT,
        "dumps": len(dumps),
        "failed": len(failures),
        "dumps_per_distribution": {k: len(by_dist[k]) for k in order},
        "kubernetes_minor_versions": _sorted_counts(Counter(
            minor_version(d.get("kubernetes_version")) for d in dumps)),
        "distributions": {k: _distribution_section(by_dist[k]) for k in order},
        "dump_list": [{
            "dump_id": d["dump_id"], "name": d["name"], "paths": d.get("paths", [d["path"]]),
            "distribution": d.get("distribution"), "confidence": d.get("confidence"),
            "kubernetes_version": d.get("kubernetes_version"), "objects": d.get("objects"),
            "findings_failed": sum(f["count"] for f in d.get("findings", [])),
        } for d in dumps],
        "failures": [{"path": f["path"], "name": f["name"], "error_type": f["error_type"],
                      "error": f["error"]} for f in failures],
    }


def fleet_tables(report: Mapping[str, Any]) -> dict[str, Any]:
    """The page's long tables: every dump, and each distribution's components."""
    from analyzer.report.tables import Column, Table

    tables = {"dumps": Table("dumps", [
        Column("dump_id", "dump"), Column("distribution", "distribution"),
        Column("kubernetes_version", "Kubernetes"), Column("objects", "objects", "num"),
        Column("findings_failed", "failing findings", "num"), Column("paths", "paths", wrap=True)],
        [{**d, "paths": ", ".join(d["paths"])} for d in report["dump_list"]],
        link="dump", key=("dump_id",), what="dumps"),
        "failures": Table("failures", [
            Column("name", "dump"), Column("path", "path", wrap=True),
            Column("error_type", "error type"), Column("error", "error", wrap=True)],
            report["failures"], what="dumps that failed")}
    for name, dist in report["distributions"].items():
        tables[f"components-{name}"] = Table(f"components-{name}", [
            Column("component", "component"), Column("role", "role"), Column("dumps", "dumps", "num"),
            Column("share", "share %", "num"), Column("versions", "versions (dumps)", wrap=True)],
            [{**c, "share": round(100 * c["share"]), "versions": ", ".join(
                f"{v} ({n})" for v, n in c["versions"].items())} for c in dist["components"]],
            what="components")
    return tables


def fleet_diagrams(report: Mapping[str, Any]) -> list[Any]:
    """The page's pictures, drawn to SVG (a picture that cannot be drawn says why)."""
    from analyzer.fleet import charts
    from analyzer.report.render import draw

    return [draw("versions", "Dumps by distribution and Kubernetes minor version",
                 lambda: charts.version_heatmap(report)),
            draw("component-versions", "Component versions across the dumps",
                 lambda: charts.component_versions(report))]


def render_html(report: Mapping[str, Any]) -> str:
    """The report as one self-contained HTML page (every value escaped; tables sort and filter
    with the reports' inlined script; pictures inlined as SVG data URIs)."""
    from jinja2 import Environment, PackageLoader, StrictUndefined

    from analyzer.report.tables import render_table, script

    env = Environment(loader=PackageLoader("analyzer.fleet", "templates"), autoescape=True,
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    return env.get_template("fleet.html.j2").render(
        report=report, t=fleet_tables(report), diagrams=fleet_diagrams(report),
        render_table=render_table, table_script=script)


def write_report(out: Path, report: Mapping[str, Any]) -> Iterable[Path]:
    """Write `fleet.json` and `fleet.html` into `out`; returns both paths."""
    json_path, html_path = out / "fleet.json", out / "fleet.html"
    json_path.write_text(json.dumps(report, indent=1, sort_keys=False, ensure_ascii=False) + "\n",
                         encoding="utf-8")
    html_path.write_text(render_html(report), encoding="utf-8")
    return [json_path, html_path]
