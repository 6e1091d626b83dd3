"""The plain records ingestion hands to the rest of the pipeline: objects, rejections, logs."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson

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
        "ClusterOperator", "Infrastructure", "Network",
        "SecurityContextConstraints", "Project", "ClusterIssuer", "NodeMetrics",
    }
)


@dataclass(frozen=True, slots=True, order=True)
class ObjectKey:
    """Identity of an object: (group, kind, namespace, name); namespace is "" only when cluster-scoped.

    >>> ObjectKey("apps", "Deployment", "kube-system", "coredns").id
    'apps/Deployment/kube-system/coredns'
    >>> ObjectKey("", "Node", "", "n1").id
    'core/Node//n1'
    """

    group: str
    kind: str
    namespace: str
    name: str

    @property
    def id(self) -> str:
        return f"{self.group or 'core'}/{self.kind}/{self.namespace}/{self.name}"

    @classmethod
    def parse(cls, text: str) -> ObjectKey:
        """Read `group/kind/ns/name`, `kind/ns/name` or `kind/name` (cluster-scoped)."""
        parts = text.split("/")
        if len(parts) == 4:
            group = "" if parts[0] == "core" else parts[0]
            return cls(group, parts[1], parts[2], parts[3])
        if len(parts) == 3:
            return cls(group_of_kind(parts[0]), parts[0], parts[1], parts[2])
        if len(parts) == 2:
            return cls(group_of_kind(parts[0]), parts[0], "", parts[1])
        raise ValueError(f"not an object key: {text!r} (want KIND/NAMESPACE/NAME)")


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


@dataclass(frozen=True, slots=True)
class Provenance:
    """Where an object was read: file (with `archive!/member`), document index, 1-based line."""

    source: str
    format: str
    document: int | None = None
    line: int | None = None

    @property
    def location(self) -> str:
        parts = []
        if self.document is not None:
            parts.append(f"document {self.document}")
        if self.line is not None:
            parts.append(f"line {self.line}")
        return ", ".join(parts)


@dataclass(frozen=True, slots=True)
class Rejection:
    """Something read that could not become an object, with where and why."""

    source: str
    location: str
    reason: str

    def to_dict(self) -> dict[str, str]:
        return {"source": self.source, "location": self.location, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class LazyRaw:
    """Raw bytes looked up when first needed: item `index` of a List read in one scan."""

    items: Any  # jsondocs.ListItems
    index: int

    def resolve(self) -> memoryview:
        return self.items.item(self.index)


@dataclass(slots=True)
class KubeObject:
    """One Kubernetes object: identity, a typed partial view for the tables, and the full body.

    The full body is kept as the raw JSON bytes where the object came from JSON (decoded only
    when asked for; for an item of a List read in one scan, even its bytes are looked up only
    then, see `LazyRaw`) or as the dict a YAML/text parser built. Secret values are never in it.
    Raw bytes of a large file are a slice of its mapping (`mapped`), checked before reading.
    """

    key: ObjectKey
    api_version: str
    uid: str | None
    view: Any  # a msgspec Struct from analyzer.model.views
    provenance: Provenance
    raw: bytes | memoryview | LazyRaw | dict[str, Any] | None = None
    duplicates: int = 0
    notes: list[str] = field(default_factory=list)
    mapped: Any = None  # the tree.MappedFile that `raw` is a slice of, if any
    # Its body holds JSON's types only (read from JSON, or from YAML by the fast parser): no
    # dates, sets or bytes, so equal encodings of its parts mean equal values.
    json_types: bool = False

    @property
    def kind(self) -> str:
        return self.key.kind

    @property
    def namespace(self) -> str:
        return self.key.namespace

    @property
    def name(self) -> str:
        return self.key.name

    def body(self) -> dict[str, Any]:
        """The full object as a dict (decoded on demand from the raw bytes)."""
        if isinstance(self.raw, dict):
            return self.raw
        if self.raw is None:
            return {}
        if self.mapped is not None:
            self.mapped.check_unchanged()
        return orjson.loads(self.raw.resolve() if isinstance(self.raw, LazyRaw) else self.raw)


@dataclass(frozen=True, slots=True)
class LogRecord:
    """A captured container log, attached to its pod and container."""

    namespace: str
    pod: str
    container: str
    text: str
    source: str
    previous: bool = False
    # The line of `source` where the log's text starts (a cluster-info dump holds many logs).
    line: int = 1

    @property
    def line_count(self) -> int:
        if not self.text:
            return 0
        return self.text.count("\n") + (0 if self.text.endswith("\n") else 1)
