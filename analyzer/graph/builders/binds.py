"""`binds`: a RoleBinding or ClusterRoleBinding to the Role or ClusterRole it refers to."""

from __future__ import annotations

from analyzer.graph.context import GraphContext
from analyzer.graph.relations import Relation

RELATION = Relation(
    name="binds",
    source="RoleBinding, ClusterRoleBinding",
    target="Role (the binding's namespace), ClusterRole",
    description="roleRef; binding -> role. A binding to a role that does not exist grants nothing.",
)


def build(ctx: GraphContext) -> None:
    """Add binding -> role."""
    for binding in ctx.objects("RoleBinding", "ClusterRoleBinding"):
        ref = binding.view.roleRef
        if ref is not None and ref.kind and ref.name:
            ctx.edge(ctx.node_of(binding), ctx.ref(ref.kind, binding.namespace, ref.name), RELATION.name, "roleRef")
