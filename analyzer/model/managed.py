"""Which objects the distribution or its provider manages: signals read from managed.yaml.

A pod carries the signal of its controller, since add-on managers label the DaemonSet or
Deployment and not always its pod template.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from analyzer.memo import once_per
from analyzer.safeyaml import load_yaml

if TYPE_CHECKING:
    from analyzer.ingest.dump import Dump
    from analyzer.ingest.records import KubeObject

DATA = Path(__file__).with_name("managed.yaml")
# Namespaces a cluster's owner installs into beside the platform, whatever labels they carry.
_SHARED_NAMESPACES = frozenset({"kube-system", "kube-public", "kube-node-lease", "default"})
CONTROLLER_KINDS = ("Deployment", "DaemonSet", "StatefulSet", "ReplicaSet", "Job", "CronJob")


@dataclass(frozen=True, slots=True)
class ManagedSignal:
    """One signal from managed.yaml."""

    where: str  # label | annotation | namespace
    key: str
    by: str
    values: tuple[str, ...] = ()
    contains: tuple[str, ...] = ()
    prefix: tuple[str, ...] = ()

    def matches(self, value: Any) -> bool:
        text = str(value)
        if self.values:
            return text in self.values
        if self.contains:
            return any(c in text for c in self.contains)
        if self.prefix:
            return text.startswith(self.prefix)
        return True


@cache
def managed_signals() -> tuple[ManagedSignal, ...]:
    """The signals of managed.yaml, in file order."""
    raw = load_yaml(DATA.read_text(encoding="utf-8"))
    out = []
    for row in raw["signals"]:
        where = next(w for w in ("label", "annotation", "namespace_prefix", "namespace") if w in row)
        out.append(ManagedSignal(
            where={"namespace_prefix": "namespace", "namespace": "namespace_exact"}.get(where, where),
            key=str(row[where]),
            by=str(row["by"]), values=tuple(str(v) for v in row.get("values") or ()),
            contains=tuple(str(v) for v in row.get("contains") or ()),
            prefix=tuple(str(v) for v in row.get("prefix") or ())))
    return tuple(out)


@cache
def _keys() -> tuple[frozenset[str], frozenset[str], tuple[str, ...]]:
    # (label keys, annotation keys, namespace prefixes and names: a cheap test before the walk)
    signals = managed_signals()
    return (frozenset(s.key for s in signals if s.where == "label"),
            frozenset(s.key for s in signals if s.where == "annotation"),
            tuple(s.key for s in signals if s.where == "namespace")
            + tuple(s.key for s in signals if s.where == "namespace_exact"))


def signal_of(namespace: str, labels: Mapping[str, Any] | None,
              annotations: Mapping[str, Any] | None) -> str:
    """The managed signal an object's own metadata shows, as text ('' when none).

    >>> signal_of("kube-system", {"addonmanager.kubernetes.io/mode": "Reconcile"}, None)
    'label addonmanager.kubernetes.io/mode=Reconcile (the cluster add-on manager)'
    >>> signal_of("shop", {"app": "web"}, {}), signal_of("openshift-dns", None, None)
    ('', 'namespace openshift-dns (the OpenShift platform: operators on 4.x, openshift-ansible on 3.x)')
    """
    label_keys, annotation_keys, prefixes = _keys()
    has_label = bool(labels) and not label_keys.isdisjoint(labels)  # type: ignore[arg-type]
    has_annotation = bool(annotations) and not annotation_keys.isdisjoint(annotations)  # type: ignore[arg-type]
    in_namespace = bool(namespace) and namespace.startswith(prefixes)
    if not (has_label or has_annotation or in_namespace):
        return ""
    for s in managed_signals():
        source = labels if s.where == "label" else annotations if s.where == "annotation" else None
        if s.where == "namespace":
            if namespace.startswith(s.key):
                return f"namespace {namespace} ({s.by})"
        elif s.where == "namespace_exact":
            if namespace == s.key:
                return f"namespace {namespace} ({s.by})"
        elif source and s.key in source and s.matches(source[s.key]):
            return f"{s.where} {s.key}={source[s.key]} ({s.by})"
    return ""


class ManagedIndex:
    """(kind, namespace, name) -> signal for the controllers of a dump, namespace -> signal for
    the namespaces a provider labels as its own, and the lookup that lets an object inherit
    its controller's signal, else its namespace's."""

    def __init__(self, cluster: Dump) -> None:
        self.by_key: dict[tuple[str, str, str], str] = {}
        owners: dict[tuple[str, str, str], tuple[str, str]] = {}
        for obj in cluster.objects_of(*CONTROLLER_KINDS):
            meta = obj.view.metadata
            signal = signal_of(obj.namespace, meta.labels, meta.annotations)
            key = (obj.kind, obj.namespace, obj.name)
            if signal:
                self.by_key[key] = signal
            ref = _controller(meta)
            if ref is not None:
                owners[key] = ref
        # A namespace the provider made for its add-on and labels as its own (AKS's
        # gatekeeper-system for Azure Policy, app-routing-system: kubernetes.azure.com/managedby=aks;
        # GKE's gke-managed-*): what runs there is the add-on's. Not a namespace every cluster's
        # owner installs into too, whatever its label says (AKS labels kube-system alike).
        self.namespaces: dict[str, str] = {}
        for ns in cluster.objects_of("Namespace"):
            if ns.name in _SHARED_NAMESPACES:
                continue
            if signal := signal_of("", ns.view.metadata.labels, ns.view.metadata.annotations):
                self.namespaces[ns.name] = f"{signal}, on its namespace"
        # A ReplicaSet (or a CronJob's Job) inherits from its owner.
        for key, (kind, name) in owners.items():
            if key not in self.by_key and (kind, key[1], name) in self.by_key:
                self.by_key[key] = self.by_key[(kind, key[1], name)]

    def of(self, namespace: str, labels: Mapping[str, Any] | None,
           annotations: Mapping[str, Any] | None, owner: tuple[str, str] | None) -> str:
        """The signal of an object: its own, else its controller's, else its namespace's."""
        own = signal_of(namespace, labels, annotations)
        if own:
            return own
        if owner is not None and (inherited := self.by_key.get((owner[0], namespace, owner[1]))):
            return inherited
        return self.namespaces.get(namespace, "")


def _controller(meta: Any) -> tuple[str, str] | None:
    refs = meta.ownerReferences or ()
    for ref in refs:
        if ref.controller:
            return ref.kind, ref.name
    return (refs[0].kind, refs[0].name) if refs else None


@once_per
def managed_index(cluster: Dump) -> ManagedIndex:
    """The cluster's ManagedIndex, built once."""
    return ManagedIndex(cluster)


def managed_of(cluster: Dump, obj: KubeObject) -> str:
    """The managed signal of one object (its own, else its controller's, else for a pod that
    names no controller, that of a sibling pod of the controller its name continues), '' when none."""
    meta = obj.view.metadata
    owner = _controller(meta)
    signal = managed_index(cluster).of(obj.namespace, meta.labels, meta.annotations, owner)
    if signal or owner is not None or obj.kind != "Pod":
        return signal
    # A pasted table's pod names no owner; a described sibling does ("Controlled By:
    # ReplicaSet/coredns-bd44f767b"): pods of one controller share their template's labels
    # (terraform-aws-eks#10: two coredns pods, one described with eks.amazonaws.com/component).
    base = obj.name.rpartition("-")[0]
    siblings = _sibling_signals(cluster)
    return next((found for kind in CONTROLLER_KINDS if (found := siblings.signal(kind, obj.namespace, base))), "")


class _Siblings:
    """(controller kind, namespace, name) -> the signal of the first pod it controls that shows
    one (its template's), found only for the controllers asked about: a namespace's pods are
    read for their owners when a pod of it is first asked about, and a controller's pods for
    their signals when it is (a 20,000-pod dump asks about a hundred)."""

    def __init__(self, cluster: Dump) -> None:
        self._by_namespace: dict[str, list[KubeObject]] = {}
        for pod in cluster.objects_of("Pod"):
            self._by_namespace.setdefault(pod.namespace, []).append(pod)
        self._owned: dict[str, dict[tuple[str, str], list[KubeObject]]] = {}
        self._signals: dict[tuple[str, str, str], str] = {}

    def signal(self, kind: str, namespace: str, name: str) -> str:
        key = (kind, namespace, name)
        found = self._signals.get(key)
        if found is None:
            owned = self._owned.get(namespace)
            if owned is None:
                owned = self._owned[namespace] = {}
                for pod in self._by_namespace.get(namespace, ()):
                    owner = _controller(pod.view.metadata)
                    if owner is not None:
                        owned.setdefault(owner, []).append(pod)
            found = self._signals[key] = next(
                (signal for pod in owned.get((kind, name), ())
                 if (signal := signal_of(pod.namespace, pod.view.metadata.labels,
                                         pod.view.metadata.annotations))), "")
        return found


@once_per
def _sibling_signals(cluster: Dump) -> _Siblings:
    """The signals of the pods' controllers, found as they are asked for."""
    return _Siblings(cluster)
