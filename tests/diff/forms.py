"""One cluster written in two forms: the AKS sample (sample_dumps/aks, kubectl YAML Lists) again as
a troubleshoot support bundle and as `kubectl cluster-info dump` stdout, the way those tools lay
out the same API objects (paths as in sample_dumps/oke and sample_dumps/eks)."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import yaml
from pairs import AKS

# kind -> the support bundle's folder for it (cluster-resources/<folder>/<namespace>.json)
BUNDLE_FOLDERS = {"Pod": "pods", "Deployment": "deployments", "DaemonSet": "daemonsets",
                  "ReplicaSet": "replicasets", "Service": "services", "Endpoints": "endpoints",
                  "Event": "events", "ConfigMap": "configmaps"}
# what `kubectl cluster-info dump` prints per namespace, in its order
DUMP_KINDS = ("Event", "ReplicationController", "Service", "DaemonSet", "Deployment", "ReplicaSet", "Pod")


def _objects() -> list[dict[str, Any]]:
    items = []
    for path in sorted(AKS.glob("*.yaml")):
        items += yaml.safe_load(path.read_text(encoding="utf-8"))["items"]
    return items


def _list(kind: str, items: list[dict[str, Any]]) -> dict[str, Any]:
    api = items[0]["apiVersion"] if items else "v1"
    return {"kind": f"{kind}List", "apiVersion": api, "metadata": {"resourceVersion": "1"},
            "items": items}


def write_bundle(out: Path) -> Path:
    """The sample as a support bundle: cluster-resources/nodes.json, namespaces.json, <kind>/<ns>.json."""
    root = out / "bundle"
    res = root / "cluster-resources"
    res.mkdir(parents=True)
    grouped: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for obj in _objects():
        grouped[(obj["kind"], obj["metadata"].get("namespace", ""))].append(obj)
    for (kind, ns), items in sorted(grouped.items()):
        if kind in ("Node", "Namespace"):
            (res / f"{kind.lower()}s.json").write_text(json.dumps(_list(kind, items), indent=2))
        else:
            folder = res / BUNDLE_FOLDERS[kind]
            folder.mkdir(exist_ok=True)
            (folder / f"{ns}.json").write_text(json.dumps(_list(kind, items), indent=2))
    return root


def write_cluster_info_dump(out: Path) -> Path:
    """The sample as `kubectl cluster-info dump -A` stdout: Nodes, then each namespace's lists
    (no Namespaces, ConfigMaps or Endpoints: that command does not collect them)."""
    objects = _objects()
    namespaces = sorted({o["metadata"]["name"] for o in objects if o["kind"] == "Namespace"})
    parts = [_list("Node", [o for o in objects if o["kind"] == "Node"])]
    for ns in namespaces:
        for kind in DUMP_KINDS:
            parts.append(_list(kind, [o for o in objects
                                      if o["kind"] == kind and o["metadata"].get("namespace") == ns]))
    path = out / "cluster-info-dump.txt"
    path.write_text("".join(json.dumps(p, indent=4) + "\n" for p in parts), encoding="utf-8")
    return path
