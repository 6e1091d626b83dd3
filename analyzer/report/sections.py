"""The facts of one cluster's report, as plain JSON-safe data: one builder per section.

A section that cannot be built (a stage missing or failing on this dump) becomes
`{"available": False, "reason": ...}`: the report says so instead of failing.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

import msgspec
import pandas as pd

from analyzer.kube.kinds import BUILTIN_KINDS, group_of, is_builtin_group
from analyzer.memo import once_per
from analyzer.report.tables import ages_seconds

if TYPE_CHECKING:
    from analyzer.cluster import Cluster

MAX_ROWS = 300  # rows per table in a report; the rest are counted, and `kda tables` has them all
SEVERITIES = ("critical", "warning", "info")


def records(frame: pd.DataFrame, columns: list[str], limit: int | None = MAX_ROWS) -> list[dict[str, Any]]:
    """Rows of `columns` as plain dicts (missing values as None), at most `limit` of them."""
    part = frame[[c for c in columns if c in frame.columns]]
    if limit is not None:
        part = part.head(limit)
    names = list(part.columns)
    if not names or len(set(names)) != len(names):
        return [{k: _plain(v) for k, v in row.items()} for row in part.astype(object).to_dict("records")]
    # column by column: a table of 20,000 pods is 300,000 cells, most of them plain text already
    plain = (str, int, bool)
    cells = [[v if type(v) in plain else _plain(v) for v in part[name].astype(object).tolist()]
             for name in names]
    return [dict(zip(names, row, strict=True)) for row in zip(*cells, strict=True)]


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
        "objects_by_kind": objects_by_kind(r.objects),
        "rejections_total": len(r.rejections),
        "rejected_objects": len(r.object_rejections),
        "rejected_inputs": len(r.input_rejections),
        "rejections": [x.to_dict() for x in r.rejections[:MAX_ROWS]],
        # objects kept as far as their paste goes (a describe cut mid-section): kept, not rejected
        "truncated_total": len(r.truncated),
        "truncated": [x.to_dict() for x in r.truncated[:MAX_ROWS]],
        "skipped_total": len(r.skipped),
        "skipped": [x.to_dict() for x in r.skipped[:MAX_ROWS]],
        "notes_total": len(notes := r.object_notes),
        "notes": notes[:MAX_ROWS],
        "coverage_present": list(r.coverage_present),
        "coverage_absent": list(r.coverage_absent),
        "coverage_unreadable": list(r.coverage_unreadable),
        "warnings": list(r.warnings),
        "capture_time": capture.isoformat().replace("+00:00", "Z") if capture else None,
        # The time with the signal that gave it, its confidence and, for a stitched dump, its periods.
        "capture": cluster.capture.describe(),
        "capture_basis": capture_basis(cluster.capture),
        "server_version": _version_text(r.server_version),
        "server_version_inferred": inferred_server_version(cluster),
        "logs": len(r.logs),
    }


def capture_basis(estimate: Any) -> str | None:
    """What the capture time stands on, for the page's first line: its signal and confidence,
    whether it is only a lower bound, and whether the dump is stitched from periods far apart."""
    if estimate is None or estimate.time is None:
        return None
    text = f"{estimate.signal}, {estimate.confidence} confidence"
    if estimate.lower_bound:
        text += ", or later"
    if estimate.stitched:
        text += f"; stitched from {len(estimate.periods)} periods far apart"
    return text


def objects_by_kind(objects: Iterable[Any]) -> list[dict[str, Any]]:
    """Objects counted by kind, a kind that more than one API group serves told by its group
    beside the kind: longhorn.io's Nodes are no nodes of the cluster.

    >>> class O:
    ...     def __init__(self, kind, api_version): self.kind, self.api_version = kind, api_version
    >>> objects_by_kind([O("Node", "v1"), O("Node", "longhorn.io/v1beta1"), O("Setting", "longhorn.io/v1beta1")])
    [{'kind': 'Node', 'count': 1}, {'kind': 'Node (longhorn.io)', 'count': 1}, {'kind': 'Setting', 'count': 1}]
    """
    counts = Counter((o.kind, group_of(o.api_version or "")) for o in objects)
    groups = Counter(kind for kind, _ in counts)

    def label(kind: str, group: str) -> str:
        shared = groups[kind] > 1 or (kind in BUILTIN_KINDS and group and not is_builtin_group(kind, group))
        return f"{kind} ({group or 'core'})" if shared and not is_builtin_group(kind, group) else kind

    labelled: Counter[str] = Counter()
    for (kind, group), n in counts.items():
        labelled[label(kind, group)] += n
    return [{"kind": k, "count": n} for k, n in sorted(labelled.items())]


def inferred_server_version(cluster: Cluster) -> dict[str, str] | None:
    """Where the dump does not state the API server's version: the kubelet version that bounds
    it (a control-plane node's, else the newest node's: a kubelet is never newer than its API
    server), with the field it was read from; None where stated or no node says."""
    from analyzer.distributions.versions import cluster_version

    if _version_text(cluster.ingest.server_version):
        return None
    found = cluster_version(cluster)
    return {"version": found.text, "from": found.field} if found is not None else None


def server_version_shown(cluster: Cluster) -> str | None:
    """The server version as a report shows it: stated, else "v1.21.0 or later (kubelet)"."""
    stated = _version_text(cluster.ingest.server_version)
    if stated:
        return stated
    inferred = inferred_server_version(cluster)
    return f"{inferred['version']} or later (kubelet)" if inferred else None


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
POOL_KEYS = ["instance_type", "os_image", "kubelet_version", "container_runtime"]


def nodes_section(cluster: Cluster) -> dict[str, Any]:
    """Nodes grouped into pools (same instance type, OS, kubelet, runtime), then every node."""
    if not cluster.covers("Node"):
        # nodes.json was there but unreadable: said so, never "did not collect Nodes"
        unreadable = [w for w in cluster.ingest.warnings if " no Node " in w]
        return {"collected": False, "rows": [], "total": 0, "versions": [], "ready": [], "pools": [],
                "unreadable": unreadable[0] if unreadable else None}
    nodes = cluster.tables["nodes"].sort_values("name", kind="stable")
    rows = records(nodes, NODE_COLUMNS, limit=None)
    for row, age in zip(rows, ages_seconds(nodes["age"]), strict=True):
        row["memory_gib"] = round(row.pop("memory_capacity") / 2**30, 1) if row.get("memory_capacity") else None
        row["age_seconds"] = age
    pools = node_pools(rows)
    for row in rows:
        row["taints"] = _spaced(row["taints"])
    return {
        "collected": True, "rows": rows, "total": len(nodes), "pools": pools,
        "versions": _counts(nodes, "kubelet_version"), "ready": _counts(nodes, "ready"),
        # Ready False or Unknown (the node controller's word for a silent kubelet) is not Ready;
        # a node the dump gives no Ready condition of is unknown.
        "not_ready": int(nodes["ready"].isin(["False", "Unknown"]).sum()),
        "ready_unknown": int(nodes["ready"].isna().sum()),
        "os_images": _counts(nodes, "os_image"), "runtimes": _counts(nodes, "container_runtime"),
    }


def node_pools(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Nodes that share instance type, OS image, kubelet and runtime, as one pool each: its
    size, Ready counts, zone spread, taints and roles; pools with nodes not Ready first."""
    pools: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for row in rows:
        pools.setdefault(tuple(str(row.get(k) or "unknown") for k in POOL_KEYS), []).append(row)
    out = []
    for key, members in pools.items():
        ready = Counter(str(r.get("ready") or "unknown") for r in members)
        taints = Counter(t.strip() for r in members for t in str(r.get("taints") or "").split(",")
                         if t.strip())
        out.append({
            **dict(zip(POOL_KEYS, key, strict=True)), "nodes": len(members),
            "ready": ready.get("True", 0), "not_ready": len(members) - ready.get("True", 0),
            "ready_counts": _ordered(ready), "zones": _ordered(Counter(str(r.get("zone") or "none") for r in members)),
            "taints": _ordered(taints),
            "roles": _ordered(Counter(str(r.get("roles") or "none") for r in members)),
            "cordoned": sum(1 for r in members if r.get("unschedulable")),
            "first": members[0]["name"],
        })
    return sorted(out, key=lambda p: (-p["not_ready"], -p["nodes"], p["first"]))


# Pairs are lists, as report.json gives them back, and as the report's second process sends them
# (msgpack, like JSON, has no tuples): a section is the same data whichever process made it.


def _ordered(counter: Counter[str]) -> list[list[Any]]:
    return [[k, n] for k, n in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))]


def _spaced(joined: str | None) -> str | None:
    """A comma-joined list as the page shows it, so a long list of images can wrap."""
    return joined.replace(",", ", ") if joined else joined


def _counts(frame: pd.DataFrame, column: str) -> list[list[Any]]:
    return _tally(frame[column].astype("string").fillna("unknown"))


def _tally(values: pd.Series) -> list[list[Any]]:
    """Each value with how many times it occurs, the most first (then by value); counted in
    pandas, not by iterating a column of Arrow strings one Python object at a time."""
    counts = values.value_counts(dropna=False)
    return [[k, n] for k, n in sorted(((str(k), int(n)) for k, n in counts.items()), key=lambda kv: (-kv[1], kv[0]))]


COMPONENT_COLUMNS = ["role", "name", "kind", "namespace", "component", "version", "desired", "ready",
                     "healthy", "host_network", "priority_class", "distributions", "images", "inferred",
                     "health_evidence"]


def components_section(cluster: Cluster) -> dict[str, Any]:
    """System components by role (the catalog's roles; unknown ones kept), unhealthy ones first."""
    comp = cluster.tables["components"]
    comp = comp.sort_values(["role", "name"], key=lambda s: s.astype("string"), kind="stable")
    rows = records(comp, COMPONENT_COLUMNS, limit=None)
    for row in rows:
        row["images"] = _spaced(row["images"])
        row["health"] = _health(row["healthy"])
    roles: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        roles.setdefault(str(row["role"]), []).append(row)
    by_role = [{"role": role, "components": len(items),
                "unhealthy": sum(1 for r in items if r["healthy"] is False),
                "unknown": sum(1 for r in items if r["healthy"] is None),
                "unhealthy_names": [r["name"] for r in items if r["healthy"] is False]}
               for role, items in roles.items()]
    by_role.sort(key=lambda r: (-r["unhealthy"], r["role"]))
    # Not healthy first, then unknown, then healthy; by role and name within each.
    rank = {False: 0, None: 1, True: 2}
    ordered = sorted(rows, key=lambda r: rank[r["healthy"]])
    return {"roles": [[role, items] for role, items in sorted(roles.items())], "by_role": by_role, "rows": ordered, "total": len(rows),
            "unhealthy": sum(1 for r in rows if r["healthy"] is False),
            "unknown": sum(1 for r in rows if r["healthy"] is None),
            # ready, yet restarting, failing probes or logging errors: why, with the evidence
            "beyond_ready": [r for r in rows if r.get("health_evidence")]}


def _health(healthy: bool | None) -> str:
    return "unknown" if healthy is None else ("ok" if healthy else "not healthy")


def kinds_missing(cluster: Cluster, kinds: tuple[str, ...]) -> dict[str, list[str]]:
    """Of `kinds`, those the dump did not collect and those whose files it had but could not
    read, as "What was read" lists them: a section's empty or short table is no sign of health
    when its kind was never there to count."""
    missing = [k for k in kinds if not cluster.covers(k)]
    unreadable = set(cluster.ingest.coverage_unreadable) if missing else set()
    return {"collected": [k for k in kinds if k not in missing],
            "not_collected": [k for k in missing if k not in unreadable],
            "unreadable": [k for k in missing if k in unreadable]}


# The kinds "What was read" says were or were not collected; a ReplicationController is rare
# enough that naming it absent in every dump would be noise.
LISTED_WORKLOAD_KINDS = ("Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job", "CronJob")
WORKLOAD_COLUMNS = ["kind", "namespace", "name", "desired", "ready", "available", "images",
                    "failed_condition"]


def workloads_section(cluster: Cluster) -> dict[str, Any]:
    """Workloads (ReplicaSets owned by Deployments left out) by health and namespace; unhealthy
    first."""
    w = cluster.tables["workloads"]
    w = w[~((w["kind"] == "ReplicaSet") & w["owner_kind"].notna())]
    # A Deployment's describe counts available pods, not ready ones (an available pod has been
    # ready for minReadySeconds); a count the dump does not give is no shortfall.
    ready = w["ready"].fillna(w["available"])
    # A Job's pods end when it completes: a Job (or CronJob) is unhealthy only by a failed condition.
    runs_to_end = w["kind"].astype("string").isin(["Job", "CronJob"]).fillna(False).to_numpy()
    short = (ready < w["desired"].fillna(0)).fillna(False).to_numpy() & ~runs_to_end
    # A controller the findings say is short of ready pods (they read its API defaults:
    # spec.replicas absent means 1), or a Job they say failed (a describe prints no conditions:
    # its events or failed pods say it), is not healthy here either, so the two never disagree.
    flagged = {tuple(ref) for ref in findings_say(cluster).failing}
    by_finding = [(k, _ns(ns), n) in flagged for k, ns, n in zip(
        w["kind"].astype(object).tolist(), w["namespace"].astype(object).tolist(),
        w["name"].astype(object).tolist(), strict=True)]
    unhealthy = (pd.Series(short, index=w.index) | w["failed_condition"].notna()
                 | pd.Series(by_finding, index=w.index, dtype=bool))
    # No status (a manifest, a describe without counts): its health is not known.
    unknown = ~unhealthy & ready.isna().to_numpy() & ~runs_to_end
    # False sorts first: the unhealthy workloads lead the table.
    ordered = w.assign(_healthy=~unhealthy)
    ordered = ordered.sort_values(["_healthy", "namespace", "kind", "name"],
                                  key=lambda s: s.astype("string") if s.name != "_healthy" else s,
                                  kind="stable")
    rows = [dict(r, healthy=None if u else h, health=_health(None if u else h),
                 images=_spaced(r["images"]), age_seconds=a)
            for r, h, u, a in zip(records(ordered, WORKLOAD_COLUMNS, limit=None),
                                  ordered["_healthy"].tolist(), unknown[ordered.index].tolist(),
                                  ages_seconds(ordered["age"]), strict=True)]
    pods = cluster.tables["pods"]
    status = pods["status"].astype("string").fillna(pods["phase"].astype("string")).fillna("unknown")
    return {
        **kinds_missing(cluster, LISTED_WORKLOAD_KINDS),
        "total": len(w), "unhealthy": int(unhealthy.sum()), "unknown": int(unknown.sum()),
        "controlled_pods": 0 if len(w) else _controlled_pods(pods),
        "by_kind": _counts(w, "kind"),
        "by_namespace": _workloads_by_namespace(w, unhealthy, pods, status),
        "rows": rows,
        "pods": len(pods), "pod_status": _tally(status),
        "restarting": records(
            pods[pods["restarts"].fillna(0) > 0].sort_values(
                ["restarts", "namespace", "name"], ascending=[False, True, True],
                key=lambda s: s if s.name == "restarts" else s.astype("string"), kind="stable"),
            ["namespace", "name", "status", "restarts", "node"], limit=50),
    }


def _controlled_pods(pods: pd.DataFrame) -> int:
    """How many pods a controller made, by their owners or, pasted without them, by their names
    (`coredns-576cbf47c7-gqzq7`): in a dump with no workload, those whose controllers it lacks."""
    from analyzer.distributions.workloads import guess_from_pod_name

    return sum(1 for owner, name in zip(pods["owner_kind"].tolist(), pods["name"].tolist(), strict=True)
               if (isinstance(owner, str) and owner)
               or guess_from_pod_name(str(name), None)[0] not in ("Pod", "StaticPod"))


def _workloads_by_namespace(w: pd.DataFrame, unhealthy: pd.Series, pods: pd.DataFrame,
                            status: pd.Series) -> list[dict[str, Any]]:
    """Per namespace: workloads, how many not healthy, pods, pods not running or not ready, restarts."""
    per: dict[str, dict[str, Any]] = {}

    def entry(ns: Any) -> dict[str, Any]:
        key = "" if ns is None or ns != ns else str(ns)
        return per.setdefault(key, {"namespace": key, "workloads": 0, "unhealthy": 0, "pods": 0,
                                    "pods_not_ready": 0, "restarts": 0})

    for ns, bad in zip(w["namespace"].astype(object).tolist(), unhealthy.tolist(), strict=True):
        e = entry(ns)
        e["workloads"] += 1
        e["unhealthy"] += int(bad)
    healthy = (_pods_healthy(pods, status) | _pods_unknown(pods, status)).tolist()
    restarts = pods["restarts"].fillna(0).astype(int).tolist()
    for ns, ok, n in zip(pods["namespace"].astype(object).tolist(), healthy, restarts, strict=True):
        e = entry(ns)
        e["pods"] += 1
        e["pods_not_ready"] += int(not ok)
        e["restarts"] += n
    return sorted(per.values(), key=lambda e: (-e["unhealthy"], -e["pods_not_ready"], e["namespace"]))


# The findings that say a controller is short of ready pods.
UNHEALTHY_RULES = frozenset({"deployment-unavailable", "statefulset-unavailable", "daemonset-unavailable",
                             "job-failed"})


def _ns(namespace: Any) -> str:
    return "" if namespace is None or namespace != namespace else str(namespace)


class FindingsSay(msgspec.Struct, array_like=True):
    """What the findings say that the workloads and pods sections show: the controllers short of
    ready pods or failed, (kind, namespace, name) at warning or above; and the pods as a node's
    kubelet last reported them before it stopped ("namespace/name"), whose state now is
    unknown."""

    failing: list[tuple[str, str, str]]
    stale_pods: list[str]


def findings_say(cluster: Cluster) -> FindingsSay:
    """`FindingsSay` from a cluster's findings; nothing said where the findings stage fails (its
    own section says so; the counts still show)."""
    from analyzer.findings import findings_and_incidents

    try:
        f = cluster.findings
        found = findings_and_incidents(cluster)[0]
    except Exception:
        return FindingsSay([], [])
    failed = f[(f["status"] == "fail") & f["rule"].isin(list(UNHEALTHY_RULES))
               & f["severity"].isin(["critical", "warning"])]
    failing = sorted({(str(k), _ns(ns), str(n)) for k, ns, n in zip(
        failed["kind"].tolist(), failed["namespace"].tolist(), failed["name"].tolist(), strict=True)})
    stale = sorted({ref for f in found if f.rule == "node-not-ready" for ref in f.facts.get("stale_pods") or ()})
    return FindingsSay(failing, stale)


POD_COLUMNS = ["namespace", "name", "status", "restarts", "node", "pod_ip"]


def _pods_healthy(pods: pd.DataFrame, status: pd.Series) -> pd.Series:
    """Pods running and ready, or completed: the rest are 'not running or not ready'."""
    finished = status.isin(["Completed", "Succeeded"]).fillna(False).astype(bool)
    running = status.eq("Running").fillna(False).astype(bool)
    return finished | (running & pods["ready"].fillna(False).astype(bool))


def _pods_unknown(pods: pd.DataFrame, status: pd.Series) -> pd.Series:
    """Pods the dump gives no status of (describe node's Non-terminated Pods rows, manifests):
    neither running nor not."""
    return ((status.isna() | status.eq("unknown")).fillna(True) & pods["ready"].isna()).astype(bool)


def _on_silent_nodes(stale_pods: list[str], pods: pd.DataFrame) -> pd.Series:
    """Pods whose status is as their node's kubelet last reported it, before it stopped (the
    node-not-ready finding names them): their state now is unknown, not "running"."""
    if not stale_pods:
        return pd.Series(False, index=pods.index)
    refs = pods["namespace"].astype("string").fillna("") + "/" + pods["name"].astype("string")
    return refs.isin(stale_pods).fillna(False).astype(bool)


def pods_section(cluster: Cluster) -> dict[str, Any]:
    """Every pod as kubectl get pods -o wide shows it; the ones not running or not ready first."""
    pods = cluster.tables["pods"]
    status = pods["status"].astype("string").fillna(pods["phase"].astype("string"))
    # a pod running and ready as its silent node last reported is unknown; one it reported
    # not ready (the node controller marks them so) stays not healthy
    looks_healthy = _pods_healthy(pods, status)
    stale = findings_say(cluster).stale_pods
    unknown = _pods_unknown(pods, status) | (looks_healthy & _on_silent_nodes(stale, pods))
    healthy = looks_healthy | unknown  # unknown ones are not counted as not healthy
    ordered = pods.assign(_healthy=healthy, status=status)
    ordered = ordered.sort_values(["_healthy", "namespace", "name"],
                                  key=lambda s: s if s.name == "_healthy" else s.astype("string"),
                                  kind="stable")
    rows = records(ordered, POD_COLUMNS, limit=None)
    ready = [None if pd.isna(c) else f"{r}/{c}"
             for r, c in zip(ordered["containers_ready"].fillna(0).astype(int).tolist(),
                             ordered["containers"].astype(object).tolist(), strict=True)]
    for row, rd, age in zip(rows, ready, ages_seconds(ordered["age"]), strict=True):
        row["ready"] = rd
        row["age_seconds"] = age
    return {**kinds_missing(cluster, ("Pod",)), "total": len(rows),
            "not_healthy": int((~healthy).sum()), "unknown": int(unknown.sum()), "rows": rows}


SERVICE_COLUMNS = ["namespace", "name", "type", "cluster_ip", "ports", "selector",
                   "load_balancer_ingress", "external_name"]


def services_section(cluster: Cluster) -> dict[str, Any]:
    """Services by type, and each with its IPs, ports and selector."""
    s = cluster.tables["services"]
    s = s.sort_values(["namespace", "name"], key=lambda c: c.astype("string"), kind="stable")
    return {**kinds_missing(cluster, ("Service",)), "total": len(s), "by_type": _counts(s, "type"),
            "rows": records(s, SERVICE_COLUMNS, limit=None)}


SEVERITY_ORDER = {s: i for i, s in enumerate(SEVERITIES)}
FINDING_COLUMNS = ["severity", "rule", "category", "kind", "namespace", "name", "message", "incident", "said_by"]
EXAMPLES = 5  # objects named per rule in the summary


def findings_section(cluster: Cluster) -> dict[str, Any]:
    """Failed checks grouped by rule with counts (the worst first), every failed check as a row,
    and the rules that could not tell apart."""
    f = cluster.findings
    failed = f[f["status"] == "fail"]
    rows = records(failed, FINDING_COLUMNS, limit=None)
    for row in rows:
        row.setdefault("incident", None)  # findings before the incidents stage carry none
        row.setdefault("said_by", None)
    # a hygiene finding said once for its controller's pods (`alike`): each counts as an object
    alike = {i: names.split(", ") for i, names in enumerate(failed["alike"].tolist())
             if isinstance(names, str) and names} if "alike" in failed else {}
    rules: dict[tuple[str, str], list[dict[str, Any]]] = {}
    said_by_rule: Counter[tuple[str, str]] = Counter()
    firsts: list[int] = []
    objects: dict[tuple[str, str], set[tuple[Any, Any, Any]]] = {}
    for i, row in enumerate(rows):
        key = (str(row["severity"]), str(row["rule"]))
        items = rules.setdefault(key, [])
        if not items:
            firsts.append(i)
        items.append(row)
        # a finding another one already says (warning events pod-pending quotes): counted, and said so
        said_by_rule[key] += row["said_by"] is not None
        named = objects.setdefault(key, set())
        named.add((row["kind"], row["namespace"], row["name"]))
        named.update((row["kind"], row["namespace"], other) for other in alike.get(i, ()))
    # a rule's evidence and remediation are those of its first failure: only those are read
    told = records(failed.iloc[firsts], ["evidence", "remediation"], limit=None)
    by_rule = []
    held = linked_rows(cluster)
    for ((severity, rule), items), more in zip(rules.items(), told, strict=True):
        first = {**items[0], **more}
        by_rule.append({
            "rule": rule, "severity": severity, "category": first["category"], "count": len(items),
            # the objects by kind (a finding said once for a controller's 10 pods: Pod 10)
            "kinds": _ordered(Counter(str(kind or "cluster") for kind, _, _ in objects[(severity, rule)])),
            # none ("–", not 0) where no object of it has a namespace: a Node's, the dump's
            "namespaces": len({x["namespace"] for x in items if x["namespace"]}) or None,
            "message": first["message"], "remediation": first["remediation"],
            "evidence": json.loads(first["evidence"]) if first.get("evidence") else [],
            "objects": len(objects[(severity, rule)]),
            "said_elsewhere": said_by_rule[(severity, rule)],
            "examples": _examples(items, held),
        })
    by_rule.sort(key=lambda r: (SEVERITY_ORDER.get(r["severity"], 9), -r["count"], r["rule"]))
    by_severity: dict[str, list[dict[str, Any]]] = {s: [] for s in SEVERITIES}
    for row in rows:
        by_severity.setdefault(str(row["severity"]), []).append(row)
    skipped = f[f["status"] == "not_applicable"]
    # the rows hold FINDING_COLUMNS, in that order ("incident", "said_by" last, added where absent)
    table = sorted(rows, key=lambda r: SEVERITY_ORDER.get(str(r["severity"]), 9))
    return {
        "total": len(rows),
        "counts": [[s, len(by_severity.get(s, []))] for s in by_severity],
        "by_rule": by_rule,
        "rows": table,
        "not_applicable": records(skipped, ["rule", "message"], limit=None),
        "other_statuses": sorted((x, n) for x, n in _tally(f["status"].astype(str))
                                 if x not in ("fail", "not_applicable")),
    }


def _examples(items: list[dict[str, Any]], held: frozenset[str]) -> list[dict[str, Any]]:
    """The first few distinct objects a rule failed on (one object can fail a rule twice)."""
    seen = dict.fromkeys((x["kind"], x["namespace"], x["name"]) for x in items)
    return [{"kind": k, "namespace": ns, "name": n, "link": object_link(k, ns, n, held)}
            for k, ns, n in list(seen)[:EXAMPLES]]


@once_per
def linked_rows(cluster: Cluster) -> frozenset[str]:
    """The deep links the report's tables open ("pod/ns/name"): the pods, nodes, Services and
    workloads the dump holds. An object a finding only names (a pod its events speak of that is
    gone, a controller a pasted table implies, a ReplicaSet the workloads table folds into its
    Deployment) has no row, so a link to it would open nothing."""
    tables = cluster.tables

    def refs(frame: pd.DataFrame, *columns: str) -> list[str]:
        cells = [frame[c].astype(object).where(frame[c].notna(), "").astype(str).tolist() for c in columns]
        return ["/".join(parts) for parts in zip(*cells, strict=True)]

    w = tables["workloads"]
    w = w[~((w["kind"] == "ReplicaSet") & w["owner_kind"].notna())]
    # The nodes and services tables hold a row per Node and Service object: read from the objects,
    # so that `kda report`'s process, whose tables are made beside it, does not build them for this.
    return frozenset([*("pod/" + r for r in refs(tables["pods"], "namespace", "name")),
                      *(f"node/{o.name}" for o in cluster.objects_of("Node")),
                      *(f"service/{o.namespace}/{o.name}" for o in cluster.objects_of("Service")),
                      *("workload/" + r for r in refs(w, "kind", "namespace", "name"))])


# Kinds whose rows the report's tables hold, and the deep link that opens the row.
LINKED_KINDS = {"Pod": "pod", "Node": "node", "Service": "service"}
WORKLOAD_KINDS = frozenset({"Deployment", "DaemonSet", "StatefulSet", "ReplicaSet", "Job",
                            "CronJob", "ReplicationController"})


def object_link(kind: Any, namespace: Any, name: Any, held: frozenset[str] | None = None) -> str | None:
    """The report's deep link of an object ("#pod/ns/name"), or None when no table holds it:
    none of its kind, or, given the links the tables hold (`held`), not one of them.

    >>> object_link("Pod", "shop", "web-1"), object_link("Node", "", "n1"), object_link("Role", "a", "b")
    ('#pod/shop/web-1', '#node/n1', None)
    >>> object_link("Pod", "shop", "gone-1", frozenset({"pod/shop/web-1"})) is None
    True
    """
    if not name:
        return None
    if kind == "Node":
        link = f"node/{name}"
    elif kind in LINKED_KINDS:
        link = f"{LINKED_KINDS[kind]}/{namespace or ''}/{name}"
    elif kind in WORKLOAD_KINDS:
        link = f"workload/{kind}/{namespace or ''}/{name}"
    else:
        return None
    return f"#{link}" if held is None or link in held else None


TOP_PROBLEMS = 6
CLUSTER_WIDE = frozenset({"cluster", "nodes"})  # finding categories whose failures others follow from


def what_is_wrong_section(cluster: Cluster, findings: dict[str, Any]) -> dict[str, Any]:
    """The top of the report: the incidents when the findings stage groups them, else the
    failed rules at warning and above (from the findings section's facts), worst and most
    widespread first, with their objects."""
    try:
        incidents = _incidents(cluster)
        note = None
    except Exception as exc:  # the incidents stage failing: the failed rules still show
        incidents, note = None, f"incidents not available ({type(exc).__name__}: {exc}); failed rules instead"
    if incidents is not None:
        return {"source": "incidents", "problems": incidents[:TOP_PROBLEMS], "total": len(incidents),
                "rest": [{k: x[k] for k in ("severity", "title", "cause", "count")}
                         for x in incidents[TOP_PROBLEMS:MAX_ROWS]]}
    if not findings.get("available", True):
        raise RuntimeError(findings["reason"])
    # Worst first; within a severity, what breaks the cluster as a whole (nodes, its critical
    # components) before what it breaks in turn (pods on those nodes), then the most widespread.
    serious = sorted((r for r in findings["by_rule"] if r["severity"] in ("critical", "warning")),
                     key=lambda r: (SEVERITY_ORDER[r["severity"]],
                                    r["category"] not in CLUSTER_WIDE, -r["count"], r["rule"]))
    items = [{"title": r["message"] if r["count"] == 1 else f"{r['rule']}: {r['objects']} objects",
              "rule": r["rule"], "severity": r["severity"], "count": r["count"], "objects": r["objects"],
              "message": r["message"], "examples": r["examples"], "remediation": r["remediation"]}
             for r in serious]
    info = sum(r["count"] for r in findings["by_rule"] if r["severity"] == "info")
    return {"source": "findings", "problems": items[:TOP_PROBLEMS], "total": len(items),
            "failed": findings["total"], "info": info, "note": note}


def _affects(incident: dict[str, Any]) -> str:
    """What an incident affects as its own words say it ("the pods of 2 controllers, by their
    names"), else its count of workloads ("3 workloads"); "" for none."""
    if incident.get("affects") and incident.get("affected_workloads"):
        return str(incident["affects"])
    count = incident.get("workloads")
    return f"{count} workload{'s' if count != 1 else ''}" if isinstance(count, int) and count else ""


def _incidents(cluster: Cluster) -> list[dict[str, Any]] | None:
    """`cluster.incidents` (findings that share a cause, ranked; issue 16) as the card's rows, or
    None while the cluster has no such stage."""
    incidents = getattr(cluster, "incidents", None)
    if incidents is None:
        return None
    if isinstance(incidents, pd.DataFrame):
        if "rank" in incidents.columns:
            incidents = incidents.sort_values("rank", kind="stable")
        raw = [{k: _plain(v) for k, v in row.items()}
               for row in incidents.astype(object).to_dict("records")]
    else:
        raw = [i.to_dict() if hasattr(i, "to_dict") else dict(i) for i in incidents]
    items = []
    held = linked_rows(cluster)
    for inc in raw:
        # The cause first among the objects to look at (the stage lists them by name).
        cause = _incident_objects(inc.get("cause")) if isinstance(inc.get("cause"), str) else []
        listed = _incident_objects(inc.get("objects"))
        objects = cause + [o for o in listed if o not in cause]
        rules = inc.get("rules")
        items.append({
            "id": inc.get("incident"),
            "title": str(inc.get("headline") or inc.get("title") or inc.get("incident")),
            "rule": ", ".join(rules) if isinstance(rules, list) else rules,
            "severity": str(inc.get("severity") or "warning"),
            "count": int(inc.get("findings") if isinstance(inc.get("findings"), int) else len(objects) or 1),
            "cause": inc.get("cause"), "affects": _affects(inc),
            "message": inc.get("message"),
            "examples": [{**o, "link": object_link(o["kind"], o["namespace"], o["name"], held)}
                         for o in objects[:EXAMPLES]],
            "objects": len(objects), "remediation": inc.get("remediation")})
    return items


def _incident_objects(objects: Any) -> list[dict[str, Any]]:
    """An incident's objects: dicts as they are, or refs joined by ", " ("Pod shop/web-1",
    "Node n1"; "(dump)" for a finding on the whole dump, left out).

    >>> _incident_objects("Node n1, Pod shop/web-1, (dump)")
    [{'kind': 'Node', 'namespace': '', 'name': 'n1'}, {'kind': 'Pod', 'namespace': 'shop', 'name': 'web-1'}]
    """
    if isinstance(objects, list):
        return [{"kind": o.get("kind"), "namespace": o.get("namespace") or "", "name": o.get("name")}
                for o in objects if isinstance(o, dict)]
    out = []
    for ref in str(objects or "").split(", "):
        kind, _, rest = ref.partition(" ")
        if not rest or ref.startswith("("):
            continue
        namespace, _, name = rest.rpartition("/")
        out.append({"kind": kind, "namespace": namespace, "name": name})
    return out


def timeline_section(cluster: Cluster) -> dict[str, Any]:
    """What happened when: counts of dated facts, their spans, and the densest periods."""
    from analyzer.report.timeline import timeline_section as build

    return build(cluster)


SECTIONS: tuple[tuple[str, Callable[[Cluster], dict[str, Any]]], ...] = (
    ("read", read_section),
    ("distribution", distribution_section),
    ("nodes", nodes_section),
    ("components", components_section),
    ("workloads", workloads_section),
    ("pods", pods_section),
    ("services", services_section),
    ("findings", findings_section),
    ("timeline", timeline_section),
)


def cluster_facts(cluster: Cluster, made: Mapping[str, Callable[[], dict[str, Any]]] | None = None
                  ) -> dict[str, Any]:
    """Every section of a cluster's report, as JSON-safe data (the `report.json` contract).
    `made`: sections made elsewhere, by name (a function that gives the finished section); they
    are asked for last, once this process has made its own (the other process goes on meanwhile)."""
    made = made or {}
    own = {name: section(build, cluster) for name, build in SECTIONS if name not in made}
    wrong = section(lambda c: what_is_wrong_section(c, own["findings"]), cluster)
    elsewhere = {name: made[name]() for name, _build in SECTIONS if name in made}
    facts = {name: own[name] if name in own else elsewhere[name] for name, _build in SECTIONS}
    return {"name": cluster.name, "what_is_wrong": wrong, **facts}
