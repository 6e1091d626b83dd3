"""Whether a dump is of a virtual cluster (vcluster and its like), with the evidence: a property
of the dump shown beside its distribution, so rules that need the host's components (CNI,
kube-proxy, control-plane pods) can say they do not apply."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from analyzer.safeyaml import load_yaml

if TYPE_CHECKING:
    from analyzer.model.dump import ModeledDump

DATA = Path(__file__).with_name("virtual.yaml")


@dataclass(frozen=True, slots=True)
class VirtualSignal:
    """One row of virtual.yaml."""

    virtual: str
    kind: str
    decides: bool
    note: str
    label: str = ""
    label_prefix: str = ""
    annotation_prefix: str = ""
    address_suffix: str = ""
    namespace: str = ""
    name: str = ""
    usual: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class VirtualCluster:
    """The answer: which virtual cluster (empty when none), and every signal seen."""

    name: str = ""
    evidence: tuple[str, ...] = field(default_factory=tuple)

    @property
    def detected(self) -> bool:
        return bool(self.name)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name or None, "evidence": list(self.evidence)}


@cache
def virtual_signals() -> tuple[VirtualSignal, ...]:
    """The rows of virtual.yaml."""
    rows = load_yaml(DATA.read_text(encoding="utf-8"))["signals"]
    return tuple(VirtualSignal(**{**row, "usual": tuple(row.get("usual") or ())}) for row in rows)


def detect_virtual(cluster: ModeledDump) -> VirtualCluster:
    """The virtual cluster the dump is of, if a deciding signal says so, with all evidence.

    Signals on the host's side (pods a vcluster syncs out, the vcluster StatefulSet) are not
    signals: a host that runs virtual clusters is a real cluster.
    """
    decided: dict[str, int] = {}
    evidence: list[str] = []
    nodes = list(cluster.objects_of("Node"))
    for sig in virtual_signals():
        if sig.kind == "Node":
            matched = [n for n in nodes if _node_matches(sig, n)]
            if matched:
                decided[sig.virtual] = decided.get(sig.virtual, 0) + (1 if sig.decides else 0)
                more = f" (and {len(matched) - 1} more)" if len(matched) > 1 else ""
                evidence.append(f"{sig.virtual}: Node/{matched[0].name}{more}: {sig.note} ({_what(sig)})")
        elif sig.kind == "Service":
            for svc in cluster.objects_of("Service"):
                if svc.namespace != sig.namespace or svc.name != sig.name:
                    continue
                ports = [p.targetPort for p in svc.view.spec.ports or () if p.targetPort is not None]
                unusual = [p for p in ports if isinstance(p, int) and p not in sig.usual]
                if unusual:
                    evidence.append(f"{sig.virtual}: Service/{svc.namespace}/{svc.name} targetPort "
                                    f"{unusual[0]}: {sig.note}")
                    if sig.decides:
                        decided[sig.virtual] = decided.get(sig.virtual, 0) + 1
    name = max((v for v, n in decided.items() if n), key=lambda v: decided[v], default="")
    return VirtualCluster(name, tuple(evidence) if name else ())


def _what(sig: VirtualSignal) -> str:
    for field_name in ("label", "label_prefix", "annotation_prefix", "address_suffix"):
        value = getattr(sig, field_name)
        if value:
            return f"{field_name.replace('_', ' ')} {value}"
    return ""


def _node_matches(sig: VirtualSignal, node: Any) -> bool:
    meta = node.view.metadata
    labels, annotations = meta.labels or {}, meta.annotations or {}
    if sig.label and sig.label in labels:
        return True
    if sig.label_prefix and any(str(k).startswith(sig.label_prefix) for k in labels):
        return True
    if sig.annotation_prefix and any(str(k).startswith(sig.annotation_prefix) for k in annotations):
        return True
    if sig.address_suffix:
        return any(str(a.address).endswith(sig.address_suffix)
                   for a in node.view.status.addresses or ())
    return False
