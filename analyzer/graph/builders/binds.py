"""`binds`: a RoleBinding or ClusterRoleBinding to its role; a policy binding to its policy."""

from __future__ import annotations

from analyzer.graph.context import GraphContext
from analyzer.graph.relations import Relation
from analyzer.graph.shapes import mapping, text

RELATION = Relation(
    name="binds",
    source="RoleBinding, ClusterRoleBinding, ValidatingAdmissionPolicyBinding",
    target="Role (the binding's namespace), ClusterRole, ValidatingAdmissionPolicy",
    description="roleRef, or a ValidatingAdmissionPolicyBinding's spec.policyName; binding -> "
    "what it binds. A binding to a role or policy that does not exist does nothing.",
)

ADMISSION_GROUP = "admissionregistration.k8s.io"


def build(ctx: GraphContext) -> None:
    """Add binding -> role, and policy binding -> policy."""
    for binding in ctx.objects("RoleBinding", "ClusterRoleBinding"):
        ref = binding.view.roleRef
        if ref is not None and ref.kind and ref.name:
            ctx.edge(ctx.node_of(binding), ctx.ref(ref.kind, binding.namespace, ref.name), RELATION.name, "roleRef")
    for binding in ctx.objects("ValidatingAdmissionPolicyBinding"):
        name = text(mapping(binding.body().get("spec")).get("policyName"))
        node = ctx.ref("ValidatingAdmissionPolicy", "", name, group=ADMISSION_GROUP)
        ctx.edge(ctx.node_of(binding), node, RELATION.name, "spec.policyName")
