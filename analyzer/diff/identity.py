"""Are two dumps of one cluster? Identity signals compared one by one, each with its evidence.

Strong signals name the cluster itself (kube-system's uid, the cluster CA, an OpenShift
clusterID): equal is "same", different is "different". Weaker ones (providerIDs, machine ids,
cluster-name labels, node names) add up: nodes get replaced, names get reused.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from analyzer.safeyaml import load_yaml

if TYPE_CHECKING:
    from analyzer.cluster import Cluster

IDENTITY_FILE = Path(__file__).with_name("identity.yaml")

SAME, DIFFERENT, UNKNOWN = "same", "different", "unknown"


@dataclass(frozen=True, slots=True)
class Signal:
    """One identity signal as read from both dumps, and what it says."""

    name: str
    says: str  # same | different | unknown
    weight: float  # how much it counts: 1.0 strong, less for signals that can drift
    detail: str

    def to_dict(self) -> dict[str, Any]:
        return {"signal": self.name, "says": self.says, "weight": self.weight, "detail": self.detail}


@cache
def _catalog() -> dict[str, Any]:
    return load_yaml(IDENTITY_FILE.read_text(encoding="utf-8"))


def _short(value: str) -> str:
    # evidence names a value without printing it whole (a CA, a subscription id)
    return value if len(value) <= 40 else value[:20] + "…" + value[-12:]


def _digest(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def _kube_system_uid(c: Cluster) -> set[str]:
    return {o.uid for o in c.objects_of("Namespace") if o.name == "kube-system" and o.uid}


def _kubernetes_service_uid(c: Cluster) -> set[str]:
    # the API server creates default/kubernetes when the cluster is first started
    return {o.uid for o in c.objects_of("Service")
            if o.name == "kubernetes" and o.namespace == "default" and o.uid}


def _cluster_ca(c: Cluster) -> set[str]:
    cas = set()
    for o in c.objects_of("ConfigMap"):
        if o.name == "kube-root-ca.crt" or (o.name == "extension-apiserver-authentication"
                                            and o.namespace == "kube-system"):
            data = (o.body().get("data") or {}) if o.raw is not None else {}
            ca = data.get("ca.crt") or data.get("client-ca-file") if isinstance(data, dict) else None
            if isinstance(ca, str) and "BEGIN CERTIFICATE" in ca:
                cas.add(_digest(ca.strip()))
    return cas


def _openshift_cluster_id(c: Cluster) -> set[str]:
    ids = set()
    for o in c.objects_of("ClusterVersion", custom=True):
        spec = o.body().get("spec") if o.raw is not None else None
        if isinstance(spec, dict) and isinstance(spec.get("clusterID"), str):
            ids.add(spec["clusterID"])
    return ids


def _node_field(c: Cluster, read: Callable[[Any], str | None]) -> set[str]:
    return {v for o in c.objects_of("Node") if (v := read(o.view))}


def _provider_ids(c: Cluster) -> set[str]:
    return _node_field(c, lambda v: v.spec.providerID)


def _provider_groups(c: Cluster) -> set[str]:
    # a scale set, node pool or zone: what stays when every node of it is replaced
    return {p.rsplit("/", 1)[0] for p in _provider_ids(c) if p.count("/") > 3}


def _provider_schemes(c: Cluster) -> set[str]:
    # azure, aws, gce, oci...: a cluster never moves to another cloud
    return {p.split("://", 1)[0] for p in _provider_ids(c) if "://" in p}


def _machine_ids(c: Cluster) -> set[str]:
    return _node_field(c, lambda v: (v.status.nodeInfo.machineID or v.status.nodeInfo.systemUUID)
                       if v.status.nodeInfo else None) - {"", "xxxx"}


def _node_names(c: Cluster) -> set[str]:
    generic = set(_catalog().get("generic_node_names") or ())
    return {o.name for o in c.objects_of("Node") if o.name not in generic}


def _cluster_names(c: Cluster) -> set[str]:
    keys = [e["key"] for e in _catalog()["cluster_name_keys"]]
    names = set()
    for o in c.objects_of("Node"):
        meta = o.view.metadata
        for source in (meta.labels or {}, meta.annotations or {}):
            for key in keys:
                value = source.get(key)
                if isinstance(value, str) and value:
                    names.add(f"{key}={value}")
    return names


# The names of two signals the verdict reads again by name.
SERVICE_UID = "default/kubernetes Service uid"
SHARED_UIDS = "uids of objects in both dumps"

# (name, reader, weight, decides): a signal decides alone when what it says is in `decides`
# ("both": same or different; "same"; "different"; "": never, it adds up with the others).
# A cluster's CA can be rotated (AKS rotate-certs): two CAs do not make two clusters alone.
SIGNALS: tuple[tuple[str, Callable[[Cluster], set[str]], float, str], ...] = (
    ("kube-system namespace uid", _kube_system_uid, 1.0, "both"),
    (SERVICE_UID, _kubernetes_service_uid, 1.0, "both"),
    ("cluster CA certificate", _cluster_ca, 1.0, "same"),
    ("OpenShift clusterID", _openshift_cluster_id, 1.0, "both"),
    ("cluster name labels", _cluster_names, 0.8, "both"),
    ("cloud provider (providerID scheme)", _provider_schemes, 0.2, "different"),
    ("node providerIDs", _provider_ids, 0.6, ""),
    ("node pools (providerID prefixes)", _provider_groups, 0.5, ""),
    ("node machine ids", _machine_ids, 0.5, ""),
    ("node names", _node_names, 0.3, ""),
)


def _compare(name: str, a: set[str], b: set[str], weight: float, decides: str) -> Signal:
    if not a or not b:
        missing = "either dump" if not a and not b else ("the old dump" if not a else "the new dump")
        return Signal(name, UNKNOWN, 0.0, f"not in {missing}")
    shared = a & b
    if shared:
        if decides in ("both", "same") or len(shared) == len(a | b):
            detail = f"equal: {', '.join(_short(x) for x in sorted(shared)[:3])}"
        else:
            detail = f"{len(shared)} of {len(a | b)} shared (e.g. {_short(sorted(shared)[0])})"
        return Signal(name, SAME, weight, detail)
    # Nodes come and go (an upgrade replaces every node): disjoint node facts count for less.
    return Signal(name, DIFFERENT, 1.0 if decides in ("both", "different") else weight / 2,
                  f"none shared: old {', '.join(_short(x) for x in sorted(a)[:2])}; "
                  f"new {', '.join(_short(x) for x in sorted(b)[:2])}")


# Objects in both dumps (same kind, namespace, name) with a uid in each: at least this many
# before their uids say anything (a uid is new when an object is created again).
MIN_SHARED_OBJECTS = 5


def _shared_uids(old: Cluster, new: Cluster) -> Signal:
    name = SHARED_UIDS
    a = {(o.kind, o.namespace, o.name): o.uid for o in old.objects if o.uid and o.kind != "Event"}
    b = {(o.kind, o.namespace, o.name): o.uid for o in new.objects if o.uid and o.kind != "Event"}
    both = a.keys() & b.keys()
    if len(both) < MIN_SHARED_OBJECTS:
        return Signal(name, UNKNOWN, 0.0, f"only {len(both)} objects with a uid in both")
    equal = sum(1 for k in both if a[k] == b[k])
    if equal:
        return Signal(name, SAME, 0.6, f"{equal} of {len(both)} objects in both keep their uid")
    return Signal(name, DIFFERENT, 0.6, f"none of {len(both)} objects in both keeps its uid: "
                                        "every one was created again")


def same_cluster(old: Cluster, new: Cluster) -> dict[str, Any]:
    """{verdict: same|different|unknown, confidence, evidence: [signals]} for two dumps."""
    signals = [_compare(name, read(old), read(new), weight, decides)
               for name, read, weight, decides in SIGNALS]
    shared = _shared_uids(old, new)
    signals.append(shared)
    decides = {name: d for name, _, _, d in SIGNALS} | {SHARED_UIDS: ""}
    if shared.says == SAME:
        # Objects that keep their uid are in one etcd: a default/kubernetes Service with a new
        # uid was deleted (`kubectl delete svc --all`) and made again by the API server, which
        # says nothing alone of another cluster. It adds up like the node facts.
        k = next(i for i, s in enumerate(signals) if s.name == SERVICE_UID)
        if signals[k].says == DIFFERENT:
            signals[k] = Signal(signals[k].name, DIFFERENT, 0.5,
                                f"{signals[k].detail}; made again, as other objects keep their uid")
            decides = {**decides, signals[k].name: ""}
    strong_same = [s for s in signals if decides[s.name] in ("both", "same") and s.says == SAME]
    strong_diff = [s for s in signals if decides[s.name] in ("both", "different") and s.says == DIFFERENT]
    for_same = sum(s.weight for s in signals if s.says == SAME)
    against = sum(s.weight for s in signals if s.says == DIFFERENT)
    if strong_diff and not strong_same:
        verdict, confidence = DIFFERENT, min(0.99, 0.85 + 0.05 * len(strong_diff) + 0.05 * against)
    elif strong_same and not strong_diff:
        verdict, confidence = SAME, min(0.99, 0.9 + 0.03 * len(strong_same) + 0.02 * for_same)
    elif for_same == against == 0:
        verdict, confidence = UNKNOWN, 0.0
    else:
        # no strong signal (or strong ones that disagree): the weaker ones decide, unsurely
        total = for_same + against
        verdict = SAME if for_same >= against else DIFFERENT
        confidence = round(min(0.8, 0.5 * max(for_same, against) / total + 0.1 * min(total, 3)), 2)
        if strong_same and strong_diff:
            confidence = min(confidence, 0.5)
    return {
        "verdict": verdict,
        "confidence": round(confidence, 2),
        "evidence": [s.to_dict() for s in signals if s.says != UNKNOWN],
        "not_available": [s.name for s in signals if s.says == UNKNOWN],
    }
