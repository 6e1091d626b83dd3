"""Built-in objects only: a custom resource may share a built-in kind's name (Longhorn's `Node`).

Examples:
    >>> from analyzer.ingest.records import ObjectKey
    >>> [is_builtin_group(g) for g in ("", "apps", "extensions", "storage.k8s.io", "longhorn.io")]
    [True, True, True, True, False]
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from analyzer.cluster import Cluster
    from analyzer.ingest import KubeObject


def is_builtin_group(group: str) -> bool:
    """Whether an API group is Kubernetes' own: core, dotless (apps, batch) or `*.k8s.io`.

    Custom resource groups always hold a dot (the API requires a domain name), and only
    Kubernetes' own end in `.k8s.io`.
    """
    return "." not in group or group.endswith(".k8s.io")


def builtin_objects(cluster: Cluster, *kinds: str) -> Iterator[KubeObject]:
    """The cluster's built-in objects of these kinds, in dump order."""
    return (o for o in cluster.objects_of(*kinds) if is_builtin_group(o.key.group))
