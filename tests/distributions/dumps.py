"""Small in-memory dumps for distribution tests: objects shaped as the API returns them.

Each builder makes one object with only the fields detection reads; `load` puts them in a
support-bundle layout (so a server version can come with them) and reads it like a real dump.
"""

from __future__ import annotations

import json
from typing import Any

import analyzer
from analyzer.cluster import Cluster


def node(name: str, *, provider_id: str | None = None, labels: dict[str, str] | None = None,
         annotations: dict[str, str] | None = None, kubelet: str = "v1.29.3",
         os_image: str = "Ubuntu 22.04.4 LTS") -> dict[str, Any]:
    """A Node with its labels, annotations, provider ID and nodeInfo."""
    spec = {"providerID": provider_id} if provider_id else {}
    return {
        "apiVersion": "v1", "kind": "Node",
        "metadata": {"name": name, "uid": f"uid-{name}",
                     "labels": {"kubernetes.io/hostname": name, **(labels or {})},
                     "annotations": annotations or {}},
        "spec": spec,
        "status": {"nodeInfo": {"kubeletVersion": kubelet, "kubeProxyVersion": kubelet,
                                "osImage": os_image, "containerRuntimeVersion": "containerd://1.7.1"},
                   "conditions": [{"type": "Ready", "status": "True"}]},
    }


def pod(namespace: str, name: str, *, node_name: str | None = None, image: str = "nginx:1.25",
        container: str | None = None, owner: tuple[str, str] | None = None, mirror: bool = False,
        ready: bool = True, host_network: bool | None = None, labels: dict[str, str] | None = None,
        phase: str = "Running", args: list[str] | None = None) -> dict[str, Any]:
    """A Pod; `owner` is (kind, name) of its controller; `mirror` makes it a static pod's mirror."""
    meta: dict[str, Any] = {"name": name, "namespace": namespace, "uid": f"uid-{namespace}-{name}",
                            "labels": labels or {}}
    if mirror:
        meta["annotations"] = {"kubernetes.io/config.mirror": "abc", "kubernetes.io/config.source": "file"}
        meta["ownerReferences"] = [{"apiVersion": "v1", "kind": "Node", "name": node_name,
                                    "uid": f"uid-{node_name}", "controller": True}]
    elif owner:
        meta["ownerReferences"] = [{"apiVersion": "apps/v1", "kind": owner[0], "name": owner[1],
                                    "uid": f"uid-{owner[1]}", "controller": True}]
    spec: dict[str, Any] = {"containers": [{"name": container or name.split("-")[0], "image": image,
                                            **({"args": args} if args else {})}]}
    if node_name:
        spec["nodeName"] = node_name
    if host_network is not None:
        spec["hostNetwork"] = host_network
    return {
        "apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec,
        "status": {"phase": phase, "conditions": [{"type": "Ready", "status": "True" if ready else "False"}]},
    }


def workload(kind: str, namespace: str, name: str, *, image: str, replicas: int = 1, ready: int = 1,
             container: str | None = None, host_network: bool | None = None,
             priority_class: str | None = None, args: list[str] | None = None) -> dict[str, Any]:
    """A Deployment, DaemonSet or StatefulSet with a one-container template and a status."""
    template_spec: dict[str, Any] = {"containers": [{"name": container or name, "image": image,
                                                     **({"args": args} if args else {})}]}
    if host_network is not None:
        template_spec["hostNetwork"] = host_network
    if priority_class:
        template_spec["priorityClassName"] = priority_class
    body: dict[str, Any] = {
        "apiVersion": "apps/v1", "kind": kind,
        "metadata": {"name": name, "namespace": namespace, "uid": f"uid-{kind}-{name}"},
        "spec": {"selector": {"matchLabels": {"app": name}},
                 "template": {"metadata": {"labels": {"app": name}}, "spec": template_spec}},
    }
    if kind == "DaemonSet":
        body["status"] = {"desiredNumberScheduled": replicas, "numberReady": ready}
    else:
        body["spec"]["replicas"] = replicas
        body["status"] = {"replicas": replicas, **({"readyReplicas": ready} if ready else {})}
    return body


def configmap(namespace: str, name: str, data: dict[str, str] | None = None) -> dict[str, Any]:
    """A ConfigMap."""
    return {"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": name, "namespace": namespace, "uid": f"uid-cm-{name}"},
            "data": data or {}}


def service(namespace: str, name: str, cluster_ip: str) -> dict[str, Any]:
    """A ClusterIP Service."""
    return {"apiVersion": "v1", "kind": "Service",
            "metadata": {"name": name, "namespace": namespace, "uid": f"uid-svc-{name}"},
            "spec": {"type": "ClusterIP", "clusterIP": cluster_ip,
                     "ports": [{"name": "dns", "port": 53, "protocol": "UDP"}]}}


def load(*objects: dict[str, Any], server_version: str | None = None) -> Cluster:
    """The objects as one `kubectl get -o json` List (plus a bundle version file), read back."""
    files = {"dump.json": json.dumps({"apiVersion": "v1", "kind": "List", "items": list(objects)})}
    if server_version:
        files["cluster-info/cluster_version.json"] = json.dumps(
            {"info": {"gitVersion": server_version}, "string": server_version})
    return analyzer.load(files)
