"""What kinds are: their API groups (current and former), their scope, and which kinds the API
server itself serves."""

from __future__ import annotations

from analyzer.kube.views import VIEW_BY_KIND

# Kinds that have no namespace. An object of any other kind keeps its namespace, and a
# namespaced object whose namespace the dump does not say gets "" plus a note, never "default".
CLUSTER_SCOPED_KINDS = frozenset(
    {
        "Namespace", "Node", "PersistentVolume", "StorageClass", "CSIDriver", "CSINode",
        "ClusterRole", "ClusterRoleBinding", "CustomResourceDefinition", "APIService",
        "PriorityClass", "RuntimeClass", "MutatingWebhookConfiguration",
        "ValidatingWebhookConfiguration", "ValidatingAdmissionPolicy",
        "ValidatingAdmissionPolicyBinding", "VolumeAttachment", "IngressClass",
        "PodSecurityPolicy", "ComponentStatus", "CertificateSigningRequest",
        "FlowSchema", "PriorityLevelConfiguration", "GatewayClass", "ClusterVersion",
        "ClusterOperator", "Infrastructure", "Network", "MachineConfigPool", "MachineConfig",
        "SecurityContextConstraints", "Project", "ClusterIssuer", "NodeMetrics",
    }
)


# Well-known kinds to their API group, so a key typed by a user or a reference that carries
# only a kind (volumes, env, ownerReferences) finds the same node as the object itself.
KIND_GROUPS: dict[str, str] = {
    "Deployment": "apps", "StatefulSet": "apps", "DaemonSet": "apps", "ReplicaSet": "apps",
    "ControllerRevision": "apps", "Job": "batch", "CronJob": "batch",
    "Ingress": "networking.k8s.io", "IngressClass": "networking.k8s.io",
    "NetworkPolicy": "networking.k8s.io", "EndpointSlice": "discovery.k8s.io",
    "HorizontalPodAutoscaler": "autoscaling", "PodDisruptionBudget": "policy",
    "PodSecurityPolicy": "policy",
    "Role": "rbac.authorization.k8s.io", "ClusterRole": "rbac.authorization.k8s.io",
    "RoleBinding": "rbac.authorization.k8s.io", "ClusterRoleBinding": "rbac.authorization.k8s.io",
    "StorageClass": "storage.k8s.io", "CSIDriver": "storage.k8s.io", "CSINode": "storage.k8s.io",
    "VolumeAttachment": "storage.k8s.io", "PriorityClass": "scheduling.k8s.io",
    "RuntimeClass": "node.k8s.io", "CustomResourceDefinition": "apiextensions.k8s.io",
    "APIService": "apiregistration.k8s.io",
    "MutatingWebhookConfiguration": "admissionregistration.k8s.io",
    "ValidatingWebhookConfiguration": "admissionregistration.k8s.io",
    "Lease": "coordination.k8s.io", "CertificateSigningRequest": "certificates.k8s.io",
    "Gateway": "gateway.networking.k8s.io", "HTTPRoute": "gateway.networking.k8s.io",
    "GatewayClass": "gateway.networking.k8s.io",
}


# Groups a built-in kind has been served from besides its current one (old dumps).
_FORMER_GROUPS: dict[str, frozenset[str]] = {
    "Event": frozenset({"events.k8s.io"}),
    "Deployment": frozenset({"extensions"}), "DaemonSet": frozenset({"extensions"}),
    "ReplicaSet": frozenset({"extensions"}), "Ingress": frozenset({"extensions"}),
    "NetworkPolicy": frozenset({"extensions"}),
}


def is_builtin_group(kind: str, group: str) -> bool:
    """Whether `group` serves the built-in `kind` (its current group or a former one).

    Examples:
        >>> is_builtin_group("Deployment", "extensions"), is_builtin_group("Node", "longhorn.io")
        (True, False)
    """
    return group == KIND_GROUPS.get(kind, "") or group in _FORMER_GROUPS.get(kind, ())


# Core kinds that are cluster-scoped and whose names custom resources reuse (longhorn.io's Node).
_CORE_CLUSTER_SCOPED = frozenset({"Namespace", "Node", "PersistentVolume", "ComponentStatus"})


def is_cluster_scoped(kind: str, group: str) -> bool:
    """Whether objects of `kind` served from `group` have no namespace. A custom resource that
    reuses a built-in kind's name has a scope of its own (longhorn.io's Nodes are namespaced).

    Examples:
        >>> is_cluster_scoped("Node", ""), is_cluster_scoped("Node", "longhorn.io")
        (True, False)
        >>> is_cluster_scoped("ClusterVersion", "config.openshift.io"), is_cluster_scoped("Pod", "")
        (True, False)
    """
    if kind not in CLUSTER_SCOPED_KINDS:
        return False
    if kind in KIND_GROUPS or kind in _CORE_CLUSTER_SCOPED:
        return is_builtin_group(kind, group)
    return True


def group_of_kind(kind: str) -> str:
    """API group of a well-known kind ("" for the core group and for kinds we do not know)."""
    return KIND_GROUPS.get(kind, "")


def group_of(api_version: str) -> str:
    """The group part of an apiVersion: "apps/v1" -> "apps", "v1" -> ""."""
    return api_version.rpartition("/")[0] if "/" in api_version else ""


# Kinds the API server itself serves; objects of these kinds from another group are CRs.
BUILTIN_KINDS = frozenset(VIEW_BY_KIND) | frozenset(KIND_GROUPS) | frozenset(
    {"LimitRange", "ResourceQuota", "ReplicationController", "ComponentStatus", "PodTemplate"}
)

# Every kind known by name (a rule may require only these): the typed views', the grouped
# ones', the cluster-scoped ones', and a few core kinds with neither.
KNOWN_KINDS = frozenset(VIEW_BY_KIND) | frozenset(KIND_GROUPS) | CLUSTER_SCOPED_KINDS | {
    "CSIStorageCapacity", "LimitRange", "ResourceQuota", "PodTemplate", "ControllerRevision",
}
