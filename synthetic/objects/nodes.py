"""Node objects of the synthetic cluster: kubeadm control plane and worker pools, with images and conditions."""

from __future__ import annotations

import hashlib
from typing import Any

from synthetic.fields import managed_entry, top_level_fields
from synthetic.ids import Ids
from synthetic.objects.containers import image_id
from synthetic.objects.pods import NodeSlot
from synthetic.times import timestamp

CONTROL_PLANE_TAINT = {"effect": "NoSchedule", "key": "node-role.kubernetes.io/control-plane"}


def image_size(image: str) -> int:
    """A stable, plausible compressed size for an image."""
    return 8_000_000 + int(hashlib.sha256(image.encode()).hexdigest()[:8], 16) % 600_000_000


def _quantities(pool: dict[str, Any], allocatable: bool) -> dict[str, str]:
    cpu, memory, disk = pool["cpu"], pool["memory_ki"], pool["disk_ki"]
    if not allocatable:
        return {
            "cpu": str(cpu), "ephemeral-storage": f"{disk}Ki", "hugepages-1Gi": "0", "hugepages-2Mi": "0",
            "memory": f"{memory}Ki", "pods": "110",
        }
    return {
        "cpu": f"{cpu * 1000 - 90}m", "ephemeral-storage": str(disk * 1024 * 9 // 10),
        "hugepages-1Gi": "0", "hugepages-2Mi": "0", "memory": f"{memory - 1_148_032}Ki", "pods": "110",
    }


def build_node(
    slot: NodeSlot, ids: Ids, pool: dict[str, Any], cluster: dict[str, Any], *, control_plane: bool,
    zone: str, age: int, condition: str, images: list[str], pod_cidr: str,
) -> dict[str, Any]:
    """A Node as `kubectl get node -o json` shows it; `condition` is Ready, NotReady or Cordoned."""
    rng = ids.rng
    created = timestamp(age)
    heartbeat = timestamp(rng.randint(5, 50)) if condition != "NotReady" else timestamp(rng.randint(900, 7200))
    labels = {
        "beta.kubernetes.io/arch": "amd64",
        "beta.kubernetes.io/instance-type": pool["instance_type"],
        "beta.kubernetes.io/os": pool.get("os", "linux"),
        "failure-domain.beta.kubernetes.io/region": cluster["region"],
        "failure-domain.beta.kubernetes.io/zone": zone,
        "kubernetes.io/arch": "amd64",
        "kubernetes.io/hostname": slot.name,
        "kubernetes.io/os": pool.get("os", "linux"),
        "node.kubernetes.io/instance-type": pool["instance_type"],
        "topology.kubernetes.io/region": cluster["region"],
        "topology.kubernetes.io/zone": zone,
    }
    if control_plane:
        labels["node-role.kubernetes.io/control-plane"] = ""
        labels["node.kubernetes.io/exclude-from-external-load-balancers"] = ""
    else:
        labels["node-role.kubernetes.io/worker"] = ""
        labels["node.example.com/pool"] = pool["name"]
    annotations = {
        "csi.volume.kubernetes.io/nodeid": '{"ebs.csi.aws.com":"i-' + ids.hex(17) + '"}',
        "kubeadm.alpha.kubernetes.io/cri-socket": "unix:///var/run/containerd/containerd.sock",
        "node.alpha.kubernetes.io/ttl": "0",
        "projectcalico.org/IPv4Address": f"{slot.ip}/20",
        "projectcalico.org/IPv4VXLANTunnelAddr": slot.pod_net + "0",
        "volumes.kubernetes.io/controller-managed-attach-detach": "true",
    }
    spec: dict[str, Any] = {"podCIDR": pod_cidr, "podCIDRs": [pod_cidr], "providerID": f"aws:///{zone}/i-{ids.hex(17)}"}
    taints = [dict(CONTROL_PLANE_TAINT)] if control_plane else []
    if condition == "Cordoned":
        spec["unschedulable"] = True
        taints.append({"effect": "NoSchedule", "key": "node.kubernetes.io/unschedulable", "timeAdded": timestamp(rng.randint(3600, 86400))})
    elif condition == "NotReady":
        added = timestamp(rng.randint(600, 3600))
        taints += [
            {"effect": "NoSchedule", "key": "node.kubernetes.io/unreachable", "timeAdded": added},
            {"effect": "NoExecute", "key": "node.kubernetes.io/unreachable", "timeAdded": added},
        ]
    if taints:
        spec["taints"] = taints
    ready = condition != "NotReady"
    unknown = "Kubelet stopped posting node status."

    def pressure(kind: str, reason: str, message: str) -> dict[str, Any]:
        return {
            "lastHeartbeatTime": heartbeat, "lastTransitionTime": created,
            "message": message if ready else unknown, "reason": reason if ready else "NodeStatusUnknown",
            "status": "False" if ready else "Unknown", "type": kind,
        }

    conditions = [
        {"lastHeartbeatTime": created, "lastTransitionTime": created, "message": "Calico is running on this node",
         "reason": "CalicoIsUp", "status": "False", "type": "NetworkUnavailable"},
        pressure("MemoryPressure", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
        pressure("DiskPressure", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
        pressure("PIDPressure", "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
        {"lastHeartbeatTime": heartbeat, "lastTransitionTime": created if ready else heartbeat,
         "message": "kubelet is posting ready status" if ready else unknown,
         "reason": "KubeletReady" if ready else "NodeStatusUnknown",
         "status": "True" if ready else "Unknown", "type": "Ready"},
    ]
    status = {
        "addresses": [{"address": slot.ip, "type": "InternalIP"}, {"address": slot.name, "type": "Hostname"}],
        "allocatable": _quantities(pool, allocatable=True),
        "capacity": _quantities(pool, allocatable=False),
        "conditions": conditions,
        "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
        "images": [{"names": [image_id(image), image], "sizeBytes": image_size(image)} for image in images],
        "nodeInfo": {
            "architecture": "amd64", "bootID": ids.uid(),
            "containerRuntimeVersion": pool.get("container_runtime", cluster["container_runtime"]),
            "kernelVersion": pool.get("kernel_version", cluster["kernel_version"]), "kubeProxyVersion": cluster["kubernetes_version"],
            "kubeletVersion": cluster["kubernetes_version"], "machineID": ids.hex(32),
            "operatingSystem": pool.get("os", "linux"), "osImage": pool.get("os_image", cluster["os_image"]), "systemUUID": ids.uid().upper(),
        },
    }
    kubelet_meta = {"annotations": {k: v for k, v in annotations.items() if k.startswith(("volumes.", "csi."))},
                    "labels": {k: v for k, v in labels.items() if not k.startswith("node-role") and "exclude" not in k}}
    managed = [
        managed_entry("kubelet", created, top_level_fields({"metadata": kubelet_meta, "spec": {"providerID": ""}})),
        managed_entry("kube-controller-manager", created, top_level_fields({
            "metadata": {"annotations": {"node.alpha.kubernetes.io/ttl": "0"}},
            "spec": {"podCIDR": "", "podCIDRs": [], **({"taints": []} if taints else {})},
        })),
        managed_entry("calico-node", created, top_level_fields({
            "metadata": {"annotations": {k: v for k, v in annotations.items() if k.startswith("projectcalico")}},
            "status": {"conditions": [conditions[0]]},
        }), subresource="status"),
        managed_entry("kubelet", heartbeat, top_level_fields({"status": {k: v for k, v in status.items() if k != "images"} | {"images": []}}), subresource="status"),
    ]
    if control_plane:
        managed.insert(0, managed_entry("kubeadm", created, top_level_fields({
            "metadata": {"annotations": {"kubeadm.alpha.kubernetes.io/cri-socket": ""},
                         "labels": {"node-role.kubernetes.io/control-plane": "", "node.kubernetes.io/exclude-from-external-load-balancers": ""}},
        })))
    metadata = {
        "annotations": annotations,
        "creationTimestamp": created,
        "labels": labels,
        "managedFields": managed,
        "name": slot.name,
        "resourceVersion": ids.resource_version(),
        "uid": slot.uid,
    }
    return {"apiVersion": "v1", "kind": "Node", "metadata": metadata, "spec": spec, "status": status}
