"""Pod specs: volumes, tolerations, the API server's defaults and the QoS class it derives."""

from __future__ import annotations

import copy

from synthetic.objects import Obj
from synthetic.objects.containers import default_container

PRIORITY_OF_CLASS = {"system-node-critical": 2000001000, "system-cluster-critical": 2000000000}
SERVICE_ACCOUNT_MOUNT = "/var/run/secrets/kubernetes.io/serviceaccount"
# Taints every pod tolerates for 5 minutes, added by the DefaultTolerationSeconds admission plugin.
DEFAULT_TOLERATION_TAINTS = ("node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable")
DS_TOLERATIONS = [
    ("node.kubernetes.io/not-ready", "NoExecute"),
    ("node.kubernetes.io/unreachable", "NoExecute"),
    ("node.kubernetes.io/disk-pressure", "NoSchedule"),
    ("node.kubernetes.io/memory-pressure", "NoSchedule"),
    ("node.kubernetes.io/pid-pressure", "NoSchedule"),
    ("node.kubernetes.io/unschedulable", "NoSchedule"),
]



def service_account_volume(name: str) -> Obj:
    """The projected token volume the ServiceAccount admission plugin adds (`kube-api-access-*`)."""
    return {
        "name": name,
        "projected": {
            "sources": [
                {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
                {"configMap": {"name": "kube-root-ca.crt", "items": [{"key": "ca.crt", "path": "ca.crt"}]}},
                {"downwardAPI": {"items": [{"path": "namespace", "fieldRef": {
                    "apiVersion": "v1", "fieldPath": "metadata.namespace"}}]}},
            ],
            "defaultMode": 420,
        },
    }


def service_account_mount(volume: str) -> Obj:
    """The mount of that volume the plugin adds to every container."""
    return {"name": volume, "readOnly": True, "mountPath": SERVICE_ACCOUNT_MOUNT}


def default_tolerations(tolerations: list[Obj]) -> list[Obj]:
    """The tolerations DefaultTolerationSeconds adds: a NoExecute one per taint not yet tolerated."""
    added = []
    for key in DEFAULT_TOLERATION_TAINTS:
        if not any(t.get("key", "") in ("", key) and t.get("effect", "") in ("", "NoExecute") for t in tolerations):
            added.append({"key": key, "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300})
    return added


def admission_defaults(spec: Obj) -> None:
    """The fields admission sets on a new pod's spec: priority from its class, service links, preemption."""
    spec.setdefault("priority", PRIORITY_OF_CLASS.get(spec.get("priorityClassName", ""), 0))
    spec.setdefault("enableServiceLinks", True)
    spec.setdefault("preemptionPolicy", "PreemptLowerPriority")


def default_pod_spec(spec: Obj) -> Obj:
    """Apply the API server's defaults to a pod spec (as stored in templates)."""
    out = copy.deepcopy(spec)
    for volume in out.get("volumes", []):
        if "configMap" in volume:
            volume["configMap"].setdefault("defaultMode", 420)
        if "secret" in volume:
            volume["secret"].setdefault("defaultMode", 420)
        if "hostPath" in volume:
            volume["hostPath"].setdefault("type", "")
    for key in ("initContainers", "containers"):
        if key in out:
            out[key] = [default_container(c) for c in out[key]]
    out.setdefault("restartPolicy", "Always")
    out.setdefault("terminationGracePeriodSeconds", 30)
    out.setdefault("dnsPolicy", "ClusterFirst")
    if "serviceAccountName" in out:
        out["serviceAccount"] = out["serviceAccountName"]
    out.setdefault("securityContext", {})
    out.setdefault("schedulerName", "default-scheduler")
    return out


def qos_class(spec: Obj) -> str:
    """Guaranteed, Burstable or BestEffort, from the containers' requests and limits."""
    containers = spec.get("initContainers", []) + spec["containers"]
    any_set = False
    guaranteed = True
    for container in containers:
        requests = container.get("resources", {}).get("requests", {})
        limits = container.get("resources", {}).get("limits", {})
        if requests or limits:
            any_set = True
        for resource in ("cpu", "memory"):
            if resource not in limits or requests.get(resource, limits[resource]) != limits[resource]:
                guaranteed = False
    if not any_set:
        return "BestEffort"
    return "Guaranteed" if guaranteed else "Burstable"


def cm_volume(name: str, configmap: str, items: list[Obj] | None = None, optional: bool | None = None,
              mode: int | None = None) -> Obj:
    """A ConfigMap volume."""
    source: Obj = {"name": configmap}
    if items:
        source["items"] = items
    if mode is not None:
        source["defaultMode"] = mode
    if optional is not None:
        source["optional"] = optional
    return {"name": name, "configMap": source}


def host_volume(name: str, path: str, host_type: str = "") -> Obj:
    """A hostPath volume."""
    return {"name": name, "hostPath": {"path": path, "type": host_type}}


def empty_volume(name: str, medium: str | None = None) -> Obj:
    """An emptyDir volume (`medium` Memory for tmpfs)."""
    return {"name": name, "emptyDir": {"medium": medium} if medium else {}}


def pvc_volume(name: str, claim: str) -> Obj:
    """A volume from a PersistentVolumeClaim."""
    return {"name": name, "persistentVolumeClaim": {"claimName": claim}}


def toleration(key: str | None = None, operator: str = "Exists", effect: str | None = None,
               value: str | None = None) -> Obj:
    """A toleration (no key and operator Exists: every taint)."""
    out: Obj = {}
    if key:
        out["key"] = key
    out["operator"] = operator
    if value is not None:
        out["value"] = value
    if effect:
        out["effect"] = effect
    return out
