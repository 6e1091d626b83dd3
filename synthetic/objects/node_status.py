"""Node conditions and nodeInfo as the kubelet reports them."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

from synthetic.ids import hexid, make_uid
from synthetic.objects import Obj
from synthetic.times import ts


def node_conditions(heartbeat: datetime, since: datetime, network: tuple[str, str] | None = None,
                    memory_pressure: datetime | None = None, lost: datetime | None = None,
                    extra: list[tuple[str, str, str]] | None = None) -> list[Obj]:
    """Node conditions: node-problem-detector ones first, then the kubelet's."""
    out: list[Obj] = []
    for kind, reason, message in extra or []:
        out.append({"type": kind, "status": "False", "lastHeartbeatTime": ts(heartbeat - timedelta(seconds=41)),
                    "lastTransitionTime": ts(since + timedelta(seconds=38)), "reason": reason, "message": message})
    if network:
        out.append({"type": "NetworkUnavailable", "status": "False",
                    "lastHeartbeatTime": ts(since + timedelta(seconds=31)),
                    "lastTransitionTime": ts(since + timedelta(seconds=31)),
                    "reason": network[0], "message": network[1]})
    standard = [
        ("MemoryPressure", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
        ("DiskPressure", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
        ("PIDPressure", "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
        ("Ready", "KubeletReady", "kubelet is posting ready status"),
    ]
    for kind, reason, message in standard:
        condition: Obj = {"type": kind, "status": "True" if kind == "Ready" else "False",
                          "lastHeartbeatTime": ts(heartbeat),
                          "lastTransitionTime": ts(since + timedelta(seconds=14 if kind == "Ready" else 0)),
                          "reason": reason, "message": message}
        if kind == "MemoryPressure" and memory_pressure:
            condition.update({"status": "True", "lastTransitionTime": ts(memory_pressure),
                              "reason": "KubeletHasInsufficientMemory",
                              "message": "kubelet has insufficient memory available"})
        if lost:
            condition.update({"status": "Unknown", "lastHeartbeatTime": ts(lost - timedelta(seconds=40)),
                              "lastTransitionTime": ts(lost), "reason": "NodeStatusUnknown",
                              "message": "Kubelet stopped posting node status."})
        out.append(condition)
    return out


def node_info(cluster: str, node: str, kernel: str, os_image: str, runtime: str, kubelet: str,
              kube_proxy: str | None = None) -> Obj:
    """status.nodeInfo, the machine ids derived from the cluster and node names."""
    machine = hexid(32, cluster, node, "machine")
    return {
        "machineID": machine,
        "systemUUID": str(uuid.UUID(hexid(32, cluster, node, "system"))),
        "bootID": make_uid(cluster, node, "boot"),
        "kernelVersion": kernel,
        "osImage": os_image,
        "containerRuntimeVersion": runtime,
        "kubeletVersion": kubelet,
        "kubeProxyVersion": kube_proxy or kubelet,
        "operatingSystem": "linux",
        "architecture": "amd64",
    }
