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
    for node, pod in ctx.with_nodes("Pod"):
        meta = pod.view.metadata
        owner = None
        for ref in meta.ownerReferences or ():  # (inline: most pods have an owner to look at)
            if ref.kind == "Node" and ref.name:
                owner = ref.name
                break
        if owner:
            ctx.edge(node, ctx.ref("Node", "", owner), RELATION.name, "ownerReferences")
        elif meta.annotations and MIRROR_ANNOTATION in meta.annotations and pod.view.spec.nodeName:
            ctx.edge(node, ctx.ref("Node", "", pod.view.spec.nodeName), RELATION.name, MIRROR_ANNOTATION)
