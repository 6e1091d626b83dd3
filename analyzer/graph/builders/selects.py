"""`selects`: label selectors over pods (namespace-scoped) and an HPA's scale target."""

from __future__ import annotations

from analyzer.graph.context import GraphContext
from analyzer.graph.relations import Relation
from analyzer.graph.shapes import mapping, text

RELATION = Relation(
    name="selects",
    source="Service, Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, ReplicationController, "
    "PodDisruptionBudget, NetworkPolicy, HorizontalPodAutoscaler",
    target="Pod (HPA: its scaleTargetRef)",
    description="A label selector matched against the pods of the selector's own namespace "
    "only; selector -> pod. An HPA points at the workload it scales.",
)

# Kinds whose spec.selector is a LabelSelector over pods.
_WORKLOADS = ("Deployment", "ReplicaSet", "StatefulSet", "DaemonSet", "Job")


def build(ctx: GraphContext) -> None:
    """Add selector -> pod for each kind's selector, and HPA -> scale target."""
    pods = ctx.pod_labels
    for node, obj in ctx.with_nodes("Service", "ReplicationController"):
        matched = pods.match_map(obj.key.namespace, obj.view.spec.selector)
        ctx.edges_to(node, matched, RELATION.name, "spec.selector")
    for node, wl in ctx.with_nodes(*_WORKLOADS):
        matched = pods.match(wl.key.namespace, wl.view.spec.selector)
        ctx.edges_to(node, matched, RELATION.name, "spec.selector")
    for pdb in ctx.objects("PodDisruptionBudget"):
        spec = mapping(pdb.view.spec)
        # policy/v1 reads an empty selector as "every pod"; policy/v1beta1 as "none".
        every = not pdb.api_version.endswith("v1beta1")
        matched = pods.match(pdb.namespace, spec.get("selector"), empty_matches_all=every)
        ctx.edges_to(ctx.node_of(pdb), matched, RELATION.name, "spec.selector")
    for np in ctx.objects("NetworkPolicy"):
        spec = mapping(np.view.spec)
        matched = pods.match(np.namespace, spec.get("podSelector"), empty_matches_all=True)
        ctx.edges_to(ctx.node_of(np), matched, RELATION.name, "spec.podSelector")
    for hpa in ctx.objects("HorizontalPodAutoscaler"):
        target = mapping(mapping(hpa.view.spec).get("scaleTargetRef"))
        node = ctx.ref(text(target.get("kind")), hpa.namespace, text(target.get("name")), text(target.get("apiVersion")))
        ctx.edge(ctx.node_of(hpa), node, RELATION.name, "spec.scaleTargetRef")
