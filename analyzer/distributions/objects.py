"""Built-in objects only: a custom resource may share a built-in kind's name (Longhorn's `Node`).

Examples:
    >>> from analyzer.kube.keys import ObjectKey
    >>> [is_builtin_group(g) for g in ("", "apps", "extensions", "storage.k8s.io", "longhorn.io")]
    [True, True, True, True, False]
"""

from __future__ import annotations

import weakref
from collections import defaultdict
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from analyzer.ingest import KubeObject
    from analyzer.model.dump import ModeledDump

# Cluster -> its built-in objects by kind, made once: detection asks for a few kinds many times,
# and a dump can hold hundreds of thousands of objects.
_BY_KIND: weakref.WeakKeyDictionary[ModeledDump, dict[str, list[KubeObject]]] = weakref.WeakKeyDictionary()


def is_builtin_group(group: str) -> bool:
    """Whether an API group is Kubernetes' own: core, dotless (apps, batch) or `*.k8s.io`.

    Custom resource groups always hold a dot (the API requires a domain name), and only
    Kubernetes' own end in `.k8s.io`.
    """
    return "." not in group or group.endswith(".k8s.io")


def _by_kind(cluster: ModeledDump) -> dict[str, list[KubeObject]]:
    index = _BY_KIND.get(cluster)
    if index is None:
        index = defaultdict(list)
        for o in cluster.objects:
            if is_builtin_group(o.key.group):
                index[o.key.kind].append(o)
        _BY_KIND[cluster] = index
    return index


def builtin_objects(cluster: ModeledDump, *kinds: str) -> Iterator[KubeObject]:
    """The cluster's built-in objects of these kinds (each kind in dump order)."""
    index = _by_kind(cluster)
    return (o for kind in kinds for o in index.get(kind, ()))


def find(cluster: ModeledDump, kind: str, namespace: str, name: str) -> KubeObject | None:
    """The built-in object of this kind, namespace and name, if the dump has it."""
    return next((o for o in _by_kind(cluster).get(kind, ()) if o.namespace == namespace and o.name == name), None)
