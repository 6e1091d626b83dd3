"""A replicatedhq/troubleshoot support bundle (clusterInfo and clusterResources collectors)."""

from __future__ import annotations

from pathlib import Path

import yaml

from synthetic.emit.files import write_text
from synthetic.emit.kubectl_json import go_json
from synthetic.emit.sources import LogSource, ObjectSource
from synthetic.emit.typed_lists import typed_list
from synthetic.objects import Obj

SUPPORT_BUNDLE_NAMESPACED = (
    ("pods", "Pod"), ("services", "Service"), ("endpoints", "Endpoints"), ("deployments", "Deployment"),
    ("replicasets", "ReplicaSet"), ("daemonsets", "DaemonSet"), ("statefulsets", "StatefulSet"), ("jobs", "Job"),
    ("configmaps", "ConfigMap"), ("events", "Event"), ("pvcs", "PersistentVolumeClaim"),
)


def unhealthy(pod: Obj) -> bool:
    """Pods whose logs troubleshoot's clusterResources collector keeps (not running and ready)."""
    status = pod["status"]
    if status["phase"] in ("Succeeded",):
        return False
    if status["phase"] != "Running":
        return True
    return any(not s["ready"] or s["restartCount"] > 0 for s in status.get("containerStatuses", []))


def write_support_bundle(cluster: ObjectSource, out_dir: Path, server_version: Obj, bundle_version: str,
                         logs: LogSource) -> None:
    """The bundle's version, cluster version, resources (managedFields kept) and unhealthy pods' logs."""
    write_text(out_dir / "version.yaml", yaml.safe_dump(
        {"apiVersion": "troubleshoot.sh/v1beta2", "kind": "SupportBundle",
         "spec": {"versionNumber": bundle_version}}, sort_keys=False))
    write_text(out_dir / "cluster-info" / "cluster_version.json",
               go_json({"info": server_version, "string": server_version["gitVersion"]}, 2))
    resources = out_dir / "cluster-resources"
    write_text(resources / "namespaces.json", go_json(typed_list(cluster, "Namespace", None, True, True), 2))
    write_text(resources / "nodes.json", go_json(typed_list(cluster, "Node", None, True, True), 2))
    write_text(resources / "pvs.json", go_json(typed_list(cluster, "PersistentVolume", None, True, True), 2))
    write_text(resources / "storage-classes.json", go_json(typed_list(cluster, "StorageClass", None, True, True), 2))
    for namespace in cluster.namespaces():
        for directory, kind in SUPPORT_BUNDLE_NAMESPACED:
            write_text(resources / directory / f"{namespace}.json",
                       go_json(typed_list(cluster, kind, namespace, True, True), 2))
        for pod in cluster.of_kind("Pod", namespace):
            if not unhealthy(pod) or not pod["spec"].get("nodeName"):
                continue
            logs_dir = resources / "pods" / "logs" / namespace / pod["metadata"]["name"]
            for container in pod["spec"].get("initContainers", []) + pod["spec"]["containers"]:
                status = next(s for s in pod["status"].get("containerStatuses", []) +
                              pod["status"].get("initContainerStatuses", []) if s["name"] == container["name"])
                if status.get("containerID"):
                    write_text(logs_dir / f"{container['name']}.log", logs.current(pod, container))
                previous = logs.previous(pod, container)
                if previous is not None:
                    write_text(logs_dir / f"{container['name']}-previous.log", previous)
