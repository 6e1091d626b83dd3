"""An OpenShift must-gather (`oc adm must-gather`, whose default image runs `oc adm inspect`).

Layout of shared/realdata/openshift/must-gather-clean-*: one folder named after the gather image;
below it `cluster-scoped-resources/<group>/<resource>/<name>.yaml` (one object a file),
`namespaces/<ns>/<ns>.yaml`, `namespaces/<ns>/<group>/<resource>.yaml` (typed Lists, empty ones
included), `namespaces/<ns>/pods/<pod>/<pod>.yaml` and
`namespaces/<ns>/pods/<pod>/<container>/<container>/logs/{current,previous}.log`. Every YAML file
starts with `---`; kubectl's YAML, managedFields hidden. The core group is named `core`.
"""

from __future__ import annotations

from pathlib import Path

from synthetic.emit.files import write_text
from synthetic.emit.kubectl_yaml import dumps
from synthetic.emit.sources import LogSource, ObjectSource
from synthetic.emit.typed_lists import typed_list, without_managed_fields
from synthetic.objects import Obj

# The gather image's folder (a release image digest, flattened as must-gather names it).
GATHER_IMAGE_DIR = "quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-" + "5" * 64
# (group folder, resource) -> kind, as `oc adm inspect` writes them.
CLUSTER_SCOPED = {("core", "nodes"): "Node", ("core", "persistentvolumes"): "PersistentVolume",
                  ("storage.k8s.io", "storageclasses"): "StorageClass"}
NAMESPACED = {
    ("core", "pods"): "Pod", ("core", "services"): "Service", ("core", "endpoints"): "Endpoints",
    ("core", "configmaps"): "ConfigMap", ("core", "events"): "Event",
    ("core", "persistentvolumeclaims"): "PersistentVolumeClaim",
    ("core", "replicationcontrollers"): "ReplicationController",
    ("apps", "deployments"): "Deployment", ("apps", "daemonsets"): "DaemonSet",
    ("apps", "replicasets"): "ReplicaSet", ("apps", "statefulsets"): "StatefulSet", ("batch", "jobs"): "Job",
}


def _document(obj: Obj) -> str:
    return "---\n" + dumps(obj)


def write_must_gather(cluster: ObjectSource, out_dir: Path, logs: LogSource,
                      image_dir: str = GATHER_IMAGE_DIR) -> None:
    """The must-gather of every namespace of `cluster` under `out_dir/<image_dir>/`."""
    root = out_dir / image_dir
    for (group, resource), kind in CLUSTER_SCOPED.items():
        for obj in cluster.of_kind(kind):
            name = obj["metadata"]["name"]
            write_text(root / "cluster-scoped-resources" / group / resource / f"{name}.yaml",
                       _document(without_managed_fields(obj)))
    namespaces = {o["metadata"]["name"]: o for o in cluster.of_kind("Namespace")}
    for namespace in cluster.namespaces():
        folder = root / "namespaces" / namespace
        write_text(folder / f"{namespace}.yaml", _document(without_managed_fields(namespaces[namespace])))
        for (group, resource), kind in NAMESPACED.items():
            write_text(folder / group / f"{resource}.yaml",
                       _document(typed_list(cluster, kind, namespace, keep_item_type_meta=True, managed_fields=False)))
        for pod in cluster.of_kind("Pod", namespace):
            _write_pod(folder / "pods" / pod["metadata"]["name"], pod, logs)


def _write_pod(folder: Path, pod: Obj, logs: LogSource) -> None:
    write_text(folder / f"{pod['metadata']['name']}.yaml", _document(without_managed_fields(pod)))
    if not pod["spec"].get("nodeName"):
        return  # never scheduled: inspect gets no log
    for container in pod["spec"].get("initContainers", []) + pod["spec"]["containers"]:
        name = container["name"]
        log_dir = folder / name / name / "logs"
        write_text(log_dir / "current.log", logs.current(pod, container))
        previous = logs.previous(pod, container)
        if previous is not None:
            write_text(log_dir / "previous.log", previous)
