"""`kubectl cluster-info dump`: its stdout, and its `--output-directory` tree."""

from __future__ import annotations

from pathlib import Path

from synthetic.emit.files import write_text
from synthetic.emit.kubectl_json import go_json
from synthetic.emit.sources import LogSource, ObjectSource
from synthetic.emit.typed_lists import typed_list
from synthetic.objects import Obj

CLUSTER_INFO_RESOURCES = (
    ("events", "Event"), ("replication-controllers", "ReplicationController"), ("services", "Service"),
    ("daemonsets", "DaemonSet"), ("deployments", "Deployment"), ("replicasets", "ReplicaSet"), ("pods", "Pod"),
)


def pod_log_blocks(pod: Obj, logs: LogSource) -> str:
    """The START/END log sections `kubectl cluster-info dump` writes for one pod."""
    namespace, name = pod["metadata"]["namespace"], pod["metadata"]["name"]
    out = []
    for container in pod["spec"].get("initContainers", []) + pod["spec"]["containers"]:
        cname = container["name"]
        out.append(f"==== START logs for container {cname} of pod {namespace}/{name} ====\n")
        out.append(logs.current(pod, container))
        out.append(f"==== END logs for container {cname} of pod {namespace}/{name} ====\n")
    return "".join(out)


def write_cluster_info_dump_stdout(cluster: ObjectSource, path: Path, namespaces: list[str], logs: LogSource) -> None:
    """Nodes, then per namespace its Lists and its pods' logs, into one file, as kubectl prints them."""
    parts = [go_json(typed_list(cluster, "Node", None, False, False), 4)]
    for namespace in namespaces:
        for _, kind in CLUSTER_INFO_RESOURCES:
            parts.append(go_json(typed_list(cluster, kind, namespace, False, False), 4))
        for pod in cluster.of_kind("Pod", namespace):
            parts.append(pod_log_blocks(pod, logs))
    write_text(path, "".join(parts))


def write_cluster_info_dump_dir(cluster: ObjectSource, out_dir: Path, namespaces: list[str], logs: LogSource) -> None:
    """`nodes.json`, then per namespace a file per resource and `<pod>/logs.txt`."""
    write_text(out_dir / "nodes.json", go_json(typed_list(cluster, "Node", None, False, False), 4))
    for namespace in namespaces:
        for resource, kind in CLUSTER_INFO_RESOURCES:
            write_text(out_dir / namespace / f"{resource}.json", go_json(typed_list(cluster, kind, namespace, False, False), 4))
        for pod in cluster.of_kind("Pod", namespace):
            write_text(out_dir / namespace / pod["metadata"]["name"] / "logs.txt", pod_log_blocks(pod, logs))
