"""A workload as the object builders see it: a pod owner, its template and what its pods share."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from synthetic.objects.pods import NodeSlot, PodTemplate


@dataclass(slots=True)
class Workload:
    """A pod owner and what its pods share."""

    kind: str  # Deployment, StatefulSet, DaemonSet, Node (static pods) or Pod (bare pods)
    namespace: str
    name: str
    uid: str
    age: int
    replicas: int
    template: PodTemplate
    template_spec: dict[str, Any]  # the pod spec as the controller's template holds it
    template_labels: dict[str, str]  # template labels without the controller's hash label
    selector: dict[str, str]
    revision: str = ""  # pod-template-hash or controller-revision-hash
    pod_owner: dict[str, Any] | None = None  # the ownerReference pods carry
    owner_name: str = ""  # ReplicaSet (Deployment) or the workload itself
    owner_uid: str = ""
    owner_age: int = 0
    applied_manifest: dict[str, Any] | None = None  # set when created with kubectl apply
    ports: list[dict[str, Any]] = field(default_factory=list)
    team: str = ""
    static_node: NodeSlot | None = None
    config: dict[str, str] | None = None  # the app's ConfigMap data
    os: str = "linux"  # the nodes it runs on
    node_share: float = 1.0  # a DaemonSet's share of those nodes (its node selector)
