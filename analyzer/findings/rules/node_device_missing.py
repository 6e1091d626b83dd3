"""A node that lacks a device (GPU, EFA, ...) the other nodes of its pool advertise."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from datetime import timedelta

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import ev, known_age, stitched_reason
from analyzer.findings.types import Finding, RuleMeta
from analyzer.kube.quantities import parse_quantity

RULE = RuleMeta(
    id="node-device-missing", title="Node without a device its pool advertises", severity="warning",
    category="nodes", requires=("Node",),
    message=("Node {name} advertises no {resource}, while {with_device} of the {pool_size} {instance_type} "
             "nodes of its pool do ({usual} each): the device plugin has not registered it on this node"),
    remediation=("Check the device plugin pod on this node (its log) and the device and driver on the host "
                 "(reboot or replace the node); pods requesting the resource cannot run there."),
)
# The labels that name a node's hardware: nodes sharing one (and kubelet, OS image) are one pool.
INSTANCE_TYPE_LABELS = ("node.kubernetes.io/instance-type", "beta.kubernetes.io/instance-type")
# A node this young may not have its device plugin registered yet.
REGISTERING = timedelta(minutes=10)


def _devices(capacity: dict | None) -> dict[str, float]:
    """The extended resources a node advertises (vendor-domain names: nvidia.com/gpu,
    vpc.amazonaws.com/efa, ...), with their counts."""
    out = {}
    for name, value in (capacity or {}).items():
        if "/" in name and not name.startswith("kubernetes.io/"):
            try:
                out[name] = parse_quantity(value)
            except (TypeError, ValueError):
                continue
    return out


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    if stitched_reason(cluster):
        yield RULE.not_applicable(stitched_reason(cluster))
        return
    pools: dict[tuple[str, str, str], list] = defaultdict(list)
    for node in cluster.objects_of("Node"):
        labels = node.view.metadata.labels or {}
        instance_type = next((str(labels[k]) for k in INSTANCE_TYPE_LABELS if labels.get(k)), "")
        info = node.view.status.nodeInfo
        if not instance_type or info is None:
            continue  # without the hardware named, nodes cannot be compared
        pools[(instance_type, info.kubeletVersion or "", info.osImage or "")].append(node)
    for (instance_type, _kubelet, _os), nodes in sorted(pools.items()):
        if len(nodes) < 2:
            continue
        devices = {node.key: _devices(node.view.status.capacity) for node in nodes}
        for resource in sorted({r for d in devices.values() for r, n in d.items() if n > 0}):
            having = [devices[n.key][resource] for n in nodes if devices[n.key].get(resource, 0) > 0]
            counts = sorted({int(c) if c == int(c) else c for c in having})
            usual = " or ".join(map(str, counts))
            vendor = resource.split("/", 1)[0]
            for node in nodes:
                if devices[node.key].get(resource, 0) > 0:
                    continue
                if any(r.split("/", 1)[0] == vendor and n > 0 for r, n in devices[node.key].items()):
                    continue  # the same device under another name: a GPU split into MIG slices
                age = known_age(cluster, node)  # (none under a capture that is a lower bound)
                if age is not None and age < REGISTERING:
                    continue
                seen = devices[node.key].get(resource)
                yield RULE.fail(node, ev(node, f"status.capacity[{resource}]", seen, usual),
                                resource=resource, with_device=len(having), pool_size=len(nodes),
                                instance_type=instance_type, usual=usual)
