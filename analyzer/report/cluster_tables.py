"""The long tables of a cluster's report, as Table specs built from its facts: which columns,
how they sort, which rows deep links open, and which `kda tables` export holds them whole."""

from __future__ import annotations

from typing import Any

from analyzer.report.tables import Column, Table

HEALTH = {"ok": "good", "not healthy": "bad"}
SEVERITY = {"critical": "sev-critical", "warning": "sev-warning", "info": "sev-info"}
READY = {"False": "bad", "Unknown": "bad", "True": "good"}
POD_STATUS_OK = ("Running", "Completed", "Succeeded")


def _pairs(pairs: list[tuple[str, int]] | list[list[Any]]) -> str:
    return ", ".join(f"{k} ({n})" for k, n in pairs)


def _section(facts: dict[str, Any], name: str) -> dict[str, Any] | None:
    sec = facts.get(name) or {}
    return sec if sec.get("available") else None


def cluster_tables(facts: dict[str, Any]) -> dict[str, Table]:
    """Every long table of one cluster's report, by id (the page's `t-<id>` element)."""
    out: dict[str, Table] = {}
    if (nodes := _section(facts, "nodes")) and nodes.get("collected"):
        out["nodes"] = Table("nodes", [
            Column("name", "name"), Column("roles", "roles"), Column("ready", "ready", classes=READY),
            Column("kubelet_version", "kubelet"), Column("os_image", "OS image"),
            Column("container_runtime", "runtime"), Column("cpu_capacity", "CPU", "num"),
            Column("memory_gib", "memory GiB", "num"), Column("pods_capacity", "pods", "num"),
            Column("instance_type", "instance type"), Column("zone", "zone"),
            Column("unschedulable", "cordoned", "bool"), Column("age_seconds", "age", "age"),
            Column("taints", "taints", wrap=True)],
            nodes["rows"], link="node", key=("name",), export="kda tables {dump} --table nodes --format csv", what="nodes")
        out["pools"] = Table("pools", [
            Column("instance_type", "instance type"), Column("os_image", "OS image"),
            Column("kubelet_version", "kubelet"), Column("container_runtime", "runtime"),
            Column("nodes", "nodes", "num"), Column("ready", "Ready", "num"),
            Column("not_ready", "not Ready", "num"), Column("cordoned", "cordoned", "num"),
            Column("zones", "zones", wrap=True), Column("taints", "taints", wrap=True),
            Column("roles", "roles")],
            [{**p, **{k: _pairs(p[k]) for k in ("zones", "taints", "roles")}} for p in nodes["pools"]],
            what="node pools")
    if comp := _section(facts, "components"):
        out["components"] = Table("components", [
            Column("health", "health", classes=HEALTH), Column("role", "role"), Column("name", "name"),
            Column("kind", "kind"), Column("namespace", "namespace"), Column("version", "version"),
            Column("ready", "ready", "num"), Column("desired", "desired", "num"),
            Column("host_network", "host network", "bool"), Column("priority_class", "priority class"),
            Column("distributions", "distributions"), Column("images", "images", wrap=True)],
            comp["rows"], link="component", key=("namespace", "name"), namespace="namespace",
            export="kda tables {dump} --table components --format csv", what="components")
    if w := _section(facts, "workloads"):
        out["workloads"] = Table("workloads", [
            Column("health", "health", classes=HEALTH), Column("kind", "kind"),
            Column("namespace", "namespace"), Column("name", "name"),
            Column("desired", "desired", "num"), Column("ready", "ready", "num"),
            Column("available", "available", "num"), Column("age_seconds", "age", "age"),
            Column("images", "images", wrap=True), Column("failed_condition", "failed condition", wrap=True)],
            w["rows"], link="workload", key=("kind", "namespace", "name"), namespace="namespace",
            export="kda tables {dump} --table workloads --format csv", what="workloads")
        out["restarting"] = Table("restarting", [
            Column("namespace", "namespace"), Column("name", "name"), Column("status", "status"),
            Column("restarts", "restarts", "num"), Column("node", "node")],
            w["restarting"], namespace="namespace", what="pods")
        out["namespaces"] = Table("namespaces", [
            Column("namespace", "namespace"), Column("workloads", "workloads", "num"),
            Column("unhealthy", "not healthy", "num"), Column("pods", "pods", "num"),
            Column("pods_not_ready", "pods not ready", "num"), Column("restarts", "restarts", "num")],
            w["by_namespace"], link="namespace", key=("namespace",), what="namespaces")
    if pods := _section(facts, "pods"):
        out["pods"] = Table("pods", [
            Column("namespace", "namespace"), Column("name", "name"), Column("ready", "ready"),
            Column("status", "status", classes={s: "good" for s in POD_STATUS_OK}),
            Column("restarts", "restarts", "num"), Column("age_seconds", "age", "age"),
            Column("node", "node"), Column("pod_ip", "IP")],
            pods["rows"], link="pod", key=("namespace", "name"), namespace="namespace",
            export="kda tables {dump} --table pods --format csv", what="pods")
    if s := _section(facts, "services"):
        out["services"] = Table("services", [
            Column("namespace", "namespace"), Column("name", "name"), Column("type", "type"),
            Column("cluster_ip", "cluster IP"), Column("ports", "ports", wrap=True),
            Column("selector", "selector", wrap=True),
            Column("load_balancer_ingress", "load balancer", wrap=True),
            Column("external_name", "external name")],
            s["rows"], link="service", key=("namespace", "name"), namespace="namespace",
            export="kda tables {dump} --table services --format csv", what="services")
    if f := _section(facts, "findings"):
        out["findings"] = Table("findings", [
            Column("severity", "severity", classes=SEVERITY), Column("rule", "rule"),
            Column("category", "category"), Column("kind", "kind"), Column("namespace", "namespace"),
            Column("name", "name"), Column("message", "message", wrap=True),
            Column("incident", "incident"), Column("said_by", "said by", wrap=True)],
            f["rows"], namespace="namespace", what="failed checks",
            export="kda findings {dump} --format json")
        out["rules"] = Table("rules", [
            Column("severity", "severity", classes=SEVERITY), Column("rule", "rule"),
            Column("category", "category"), Column("count", "failed", "num"),
            Column("namespaces", "namespaces", "num"), Column("message", "first message", wrap=True)],
            f["by_rule"], link="rule", key=("rule",), what="rules")
    if (timeline := _section(facts, "timeline")) and timeline.get("spans"):
        out["spans"] = Table("spans", [
            Column("start", "start"), Column("end", "end"), Column("fact", "fact"),
            Column("object", "object"), Column("detail", "detail", wrap=True),
            Column("source", "source", wrap=True)], timeline["spans"], what="spans (newest first)",
            export="kda timeline {dump}")
    if read := _section(facts, "read"):
        out["kinds"] = Table("kinds", [Column("kind", "kind"), Column("count", "count", "num")],
                             read["objects_by_kind"], what="kinds")
        out["rejections"] = Table("rejections", [
            Column("source", "source", wrap=True), Column("location", "location"),
            Column("reason", "reason", wrap=True)], read["rejections"], what="rejections",
            export="kda inspect {dump} --format json")
        out["truncated"] = Table("truncated", [
            Column("source", "source", wrap=True), Column("location", "location"),
            Column("reason", "reason", wrap=True)], read["truncated"], what="truncated objects",
            export="kda inspect {dump} --format json")
        out["notes"] = Table("notes", [
            Column("source", "source", wrap=True), Column("location", "location"),
            Column("object", "object"), Column("note", "note", wrap=True)], read["notes"],
            what="notes", export="kda inspect {dump} --format json")
    if dist := _section(facts, "distribution"):
        out["evidence"] = Table("evidence", [
            Column("distribution", "distribution"), Column("signal", "signal"),
            Column("object", "object", wrap=True), Column("value", "value", wrap=True),
            Column("weight", "weight", "num"), Column("count", "count", "num"),
            Column("counted", "counted", "bool")], dist["evidence"], what="evidence rows")
        if dist.get("runner_up"):
            out["runner_up_evidence"] = Table("runner_up_evidence", [
                Column("distribution", "distribution"), Column("signal", "signal"),
                Column("object", "object", wrap=True), Column("value", "value", wrap=True),
                Column("weight", "weight", "num"), Column("count", "count", "num"),
                Column("note", "note", wrap=True)], dist["runner_up"]["evidence"],
                what="runner-up evidence rows")
    return out
