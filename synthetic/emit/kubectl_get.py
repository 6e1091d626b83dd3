"""`kubectl get <resources> -A -o yaml > <file>`, one file per command."""

from __future__ import annotations

from pathlib import Path

from synthetic.emit.files import write_text
from synthetic.emit.kubectl_yaml import dumps
from synthetic.emit.sources import ObjectSource
from synthetic.emit.typed_lists import without_managed_fields

# `kubectl get <resources> -A -o yaml > <file>` per file; kubectl >= 1.21 hides managedFields.
KUBECTL_GET_FILES = {
    "nodes.yaml": ("Node",),
    "namespaces.yaml": ("Namespace",),
    "pods.yaml": ("Pod",),
    "services.yaml": ("Service", "Endpoints"),
    "workloads.yaml": ("Deployment", "DaemonSet", "ReplicaSet"),
    "configmaps.yaml": ("ConfigMap",),
    "events.yaml": ("Event",),
}


def write_kubectl_get_yaml(cluster: ObjectSource, out_dir: Path) -> None:
    """One `kind: List` file per command of KUBECTL_GET_FILES."""
    for filename, kinds in KUBECTL_GET_FILES.items():
        items = [without_managed_fields(o) for kind in kinds for o in cluster.of_kind(kind)]
        document = {"apiVersion": "v1", "items": items, "kind": "List", "metadata": {"resourceVersion": ""}}
        write_text(out_dir / filename, dumps(document))
