"""An object's identity: (group, kind, namespace, name)."""

from __future__ import annotations

from dataclasses import dataclass

from analyzer.kube.kinds import group_of_kind


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
