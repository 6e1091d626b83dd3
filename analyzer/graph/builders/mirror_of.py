"""`mirror_of`: a mirror pod (the API copy of a kubelet's static pod) to its node."""

from __future__ import annotations

from analyzer.graph.context import GraphContext
from analyzer.graph.relations import Relation

RELATION = Relation(
    name="mirror_of",
    source="Pod (static/mirror pods: kube-apiserver, etcd, ... on kubeadm control planes)",
    target="Node",
    description="The kubernetes.io/config.mirror annotation or a Node ownerReference; pod -> node. "
    "The kubelet of that node alone runs the pod, so it goes with the node.",
    cascade=True,
)

MIRROR_ANNOTATION = "kubernetes.io/config.mirror"


def build(ctx: GraphContext) -> None:
    """Add pod -> node for mirror pods (annotation, or a Node in ownerReferences)."""
    for pod in ctx.objects("Pod"):
        meta = pod.view.metadata
        owner = next((r.name for r in meta.ownerReferences or () if r.kind == "Node" and r.name), None)
        if owner:
            ctx.edge(ctx.node_of(pod), ctx.ref("Node", "", owner), RELATION.name, "ownerReferences")
        elif MIRROR_ANNOTATION in (meta.annotations or {}) and pod.view.spec.nodeName:
            node = ctx.ref("Node", "", pod.view.spec.nodeName)
            ctx.edge(ctx.node_of(pod), node, RELATION.name, MIRROR_ANNOTATION)
