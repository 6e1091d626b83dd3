"""`grants`: a RoleBinding or ClusterRoleBinding to the subjects it gives the role to."""

from __future__ import annotations

from analyzer.graph.context import GraphContext
from analyzer.graph.relations import Relation

RELATION = Relation(
    name="grants",
    source="RoleBinding, ClusterRoleBinding",
    target="ServiceAccount, User, Group",
    description="subjects[]; binding -> subject. The subject depends on the binding for its "
    "permissions. Users and Groups are not API objects: their nodes are always not_collected.",
    dependent="target",
)

RBAC_GROUP = "rbac.authorization.k8s.io"


def build(ctx: GraphContext) -> None:
    """Add binding -> subject."""
    for binding in ctx.objects("RoleBinding", "ClusterRoleBinding"):
        src = ctx.node_of(binding)
        for subject in binding.view.subjects or ():
            if subject.kind == "ServiceAccount":
                node = ctx.ref("ServiceAccount", subject.namespace or binding.namespace, subject.name or "")
            elif subject.kind in ("User", "Group"):
                node = ctx.ref(subject.kind, "", subject.name or "", group=RBAC_GROUP)
            else:
                continue
            ctx.edge(src, node, RELATION.name, "subjects")
