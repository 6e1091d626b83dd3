"""What a support engineer compares first across an upgrade: versions, node capacity, restarts."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

import pandas as pd

if TYPE_CHECKING:
    from analyzer.cluster import Cluster

CAPACITY_COLUMNS = ("cpu_capacity", "memory_capacity", "pods_capacity", "ephemeral_storage_capacity",
                    "cpu_allocatable", "memory_allocatable", "pods_allocatable")
NODE_VERSION_COLUMNS = (("kubelet", "kubelet_version"), ("kube-proxy", "kube_proxy_version"),
                        ("OS image", "os_image"), ("kernel", "kernel_version"),
                        ("container runtime", "container_runtime"))


def _counts(frame: pd.DataFrame, column: str) -> dict[str, int]:
    if column not in frame.columns:
        return {}
    return dict(sorted(Counter(str(v) for v in frame[column] if not pd.isna(v)).items()))


def _control_plane(c: Cluster) -> str | None:
    """The API server's version as the dump records it; else the control-plane nodes'
    kubelets (which match it in kubeadm-style clusters), said as such. A managed control
    plane without a recorded version is not guessed from the workers' kubelets."""
    if c.ingest.server_version:
        return f"{c.ingest.server_version} (server version)"
    nodes = c.tables["nodes"]
    if nodes.empty or "kubelet_version" not in nodes.columns:
        return None
    plane = nodes[nodes["control_plane"].fillna(False).astype(bool)]
    versions = sorted({str(v) for v in plane["kubelet_version"].dropna()})
    return f"{', '.join(versions)} (control-plane kubelets)" if versions else None


def _components(c: Cluster, operators: bool = False) -> dict[str, str]:
    """namespace/name -> images of each system workload; with `operators`, ClusterOperator name
    -> its version instead (an operator runs no image of its own in the table)."""
    try:
        table = c.tables["components"]
    except Exception:  # a dump whose distribution cannot be told: no component table
        return {}
    out = {}
    for row in table.itertuples(index=False):
        if (row.kind == "ClusterOperator") != operators:
            continue
        label, value = (row.name, row.version) if operators else (f"{row.namespace}/{row.name}", row.images)
        out[label] = str(value) if not pd.isna(value) else ""
    return out


def compare_versions(old: Cluster, new: Cluster) -> list[dict[str, Any]]:
    """Control plane, node software (as counts of nodes per version), system components' images
    and ClusterOperators' versions, each as {what, old, new, changed}; `changed` only where both
    dumps say (a dump without Nodes has no kubelet version, not a removed one)."""
    rows = []
    a, b = _control_plane(old), _control_plane(new)
    rows.append({"what": "control plane", "old": a, "new": b, "changed": bool(a and b and a != b)})
    na, nb = old.tables["nodes"], new.tables["nodes"]
    for label, column in NODE_VERSION_COLUMNS:
        x, y = _counts(na, column), _counts(nb, column)
        if x or y:
            rows.append({"what": label, "old": _said(x), "new": _said(y), "changed": _moved(x, y)})
    ca, cb = _components(old), _components(new)
    # a component is added or removed only where both dumps collected the controllers
    whole = all(c.covers(k) for c in (old, new) for k in ("DaemonSet", "Deployment"))
    for name in sorted(ca.keys() | cb.keys()):
        x, y = ca.get(name), cb.get(name)
        if x == y or (not whole and (not x or not y)):
            continue
        rows.append({"what": f"component {name}", "old": x or None, "new": y or None, "changed": True})
    # OpenShift's ClusterOperators by their versions, added or removed where both dumps hold
    # them; one whose version a dump does not say (a pasted row's empty VERSION) has not moved
    oa, ob = _components(old, operators=True), _components(new, operators=True)
    whole = all(c.covers("ClusterOperator") for c in (old, new))
    for name in sorted(oa.keys() | ob.keys()):
        x, y = oa.get(name), ob.get(name)
        both = x is not None and y is not None
        if x == y or (both and "" in (x, y)) or (not both and not whole):
            continue
        rows.append({"what": f"ClusterOperator {name}", "old": x or None, "new": y or None, "changed": True})
    return rows


def _moved(old: dict[str, int], new: dict[str, int]) -> bool:
    """Whether the versions the nodes run moved, where both dumps say: another version in
    either dump, or, where the nodes run several, another share of the nodes on each (an upgrade
    under way). One version on more or fewer nodes is the node pool scaled, said under Nodes.

    Examples:
        >>> _moved({"v1.23.5": 3}, {"v1.23.5": 2}), _moved({"v1.29.7": 3}, {"v1.30.3": 3})
        (False, True)
        >>> _moved({"a": 3, "b": 1}, {"a": 2, "b": 2}), _moved({"a": 3, "b": 1}, {"a": 6, "b": 2})
        (True, False)
    """
    if not old or not new:
        return False
    if old.keys() != new.keys():
        return True
    total_old, total_new = sum(old.values()), sum(new.values())
    return any(old[v] * total_new != new[v] * total_old for v in old)


def _said(counts: dict[str, int]) -> str | None:
    if not counts:
        return None
    return ", ".join(f"{v} ({n} node{'s' if n != 1 else ''})" for v, n in counts.items())


def compare_capacity(old: Cluster, new: Cluster) -> dict[str, Any]:
    """Totals of capacity and allocatable, and the nodes present in both whose numbers moved."""
    na, nb = old.tables["nodes"], new.tables["nodes"]
    totals = []
    for column in CAPACITY_COLUMNS:
        if column in na.columns and column in nb.columns:
            x, y = _total(na[column]), _total(nb[column])
            if x is not None or y is not None:
                totals.append({"what": column, "old": x, "new": y,
                               "changed": x is not None and y is not None and x != y})
    nodes = []
    if "name" in na.columns and "name" in nb.columns:
        left = na.set_index("name")
        right = nb.set_index("name")
        for name in sorted(set(left.index) & set(right.index)):
            for column in CAPACITY_COLUMNS:
                if column in left.columns and column in right.columns:
                    x, y = _value(left.at[name, column]), _value(right.at[name, column])
                    if x != y:
                        nodes.append({"node": str(name), "what": column, "old": x, "new": y})
    return {"nodes_old": len(na) if old.covers("Node") else None,
            "nodes_new": len(nb) if new.covers("Node") else None,
            "totals": totals, "changed_nodes": nodes}


def _total(series: pd.Series) -> float | None:
    present = series.dropna()
    if present.empty:
        return None
    return _value(present.sum())


def _value(v: Any) -> float | int | None:
    if v is None or pd.isna(v):
        return None
    v = float(v)
    return int(v) if v.is_integer() else round(v, 3)


def restarts_gained(old: Cluster, new: Cluster) -> list[dict[str, Any]]:
    """Container restarts gained per pod between the two captures (pods in both dumps, by uid
    where both have one: a pod recreated under the same name starts counting again)."""
    pa, pb = old.tables["pods"], new.tables["pods"]
    if pa.empty or pb.empty:
        return []
    columns = ["namespace", "name", "uid", "restarts"]
    before = {(ns, name): (uid, restarts) for ns, name, uid, restarts in
              zip(*(pa[c].astype(object).where(pa[c].notna(), None).tolist() for c in columns),
                  strict=True)}
    last = pb["last_restart"]
    out = []
    for ns, name, uid, restarts, when in zip(
            *(pb[c].astype(object).where(pb[c].notna(), None).tolist() for c in columns),
            last.astype(object).where(last.notna(), None).tolist(), strict=True):
        seen = before.get((ns, name))
        if seen is None or restarts is None or seen[1] is None:
            continue
        if uid is not None and seen[0] is not None and uid != seen[0]:
            continue  # a pod recreated under the same name starts counting again
        gained = int(restarts) - int(seen[1])
        if gained > 0:
            out.append({"namespace": str(ns), "name": str(name), "old": int(seen[1]),
                        "new": int(restarts), "gained": gained,
                        "last_restart": None if when is None else
                        pd.Timestamp(when).isoformat().replace("+00:00", "Z")})
    out.sort(key=lambda x: (-x["gained"], x["namespace"], x["name"]))
    return out
