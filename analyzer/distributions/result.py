"""What distribution detection answers: the verdict, the evidence behind it, and cluster facts."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Evidence:
    """One fingerprint that matched: which signal, on which object, with what value and weight."""

    signal: str
    object: str
    value: str
    weight: float
    distribution: str
    note: str = ""
    count: int = 1  # how many objects showed the same signal (only the first is named)
    counted: bool = True  # False: a weaker row of a signal type that already counted

    def to_dict(self) -> dict[str, Any]:
        return {
            "signal": self.signal, "object": self.object, "value": self.value,
            "weight": self.weight, "distribution": self.distribution, "note": self.note,
            "count": self.count, "counted": self.counted,
        }


@dataclass(frozen=True, slots=True)
class RunnerUp:
    """The second-best distribution and its score."""

    name: str
    score: float

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "score": self.score}


@dataclass(frozen=True, slots=True)
class NodeVerdict:
    """What one node's own evidence says it belongs to."""

    name: str
    confidence: float
    evidence: list[Evidence] = field(default_factory=list)
    score: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        # Kept short: a cluster can have thousands of nodes; the full rows are on the object.
        return {"name": self.name, "confidence": self.confidence, "score": self.score,
                "evidence": [{"signal": e.signal, "value": e.value, "distribution": e.distribution}
                             for e in self.evidence if e.counted]}


@dataclass(frozen=True, slots=True)
class ControlPlane:
    """Managed (hidden control plane) or self-hosted (control-plane pods visible), and why."""

    kind: str  # "managed" | "self-hosted" | "unknown"
    evidence: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "evidence": list(self.evidence)}


@dataclass(slots=True)
class Distribution:
    """The answer to "what is this cluster?", with the evidence for it."""

    name: str
    confidence: float
    evidence: list[Evidence] = field(default_factory=list)
    runner_up: RunnerUp | None = None
    scores: dict[str, float] = field(default_factory=dict)
    per_node: dict[str, NodeVerdict] = field(default_factory=dict)
    control_plane: ControlPlane = field(default_factory=lambda: ControlPlane("unknown"))
    cni: list[str] = field(default_factory=list)
    dns: dict[str, Any] = field(default_factory=dict)
    kube_proxy_mode: str = "unknown"
    csi_drivers: list[str] = field(default_factory=list)
    api_tunnel: list[str] = field(default_factory=list)
    metrics: list[str] = field(default_factory=list)
    autoscalers: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def evidence_for(self, distribution: str) -> list[Evidence]:
        """The evidence rows that speak for one distribution."""
        return [e for e in self.evidence if e.distribution == distribution]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict (the `distribution` part of the `kda inspect` JSON contract)."""
        return {
            "name": self.name,
            "confidence": self.confidence,
            "evidence": [e.to_dict() for e in self.evidence],
            "runner_up": self.runner_up.to_dict() if self.runner_up else None,
            "scores": dict(self.scores),
            "per_node": {k: v.to_dict() for k, v in sorted(self.per_node.items())},
            "control_plane": self.control_plane.to_dict(),
            "cni": list(self.cni),
            "dns": dict(self.dns),
            "kube_proxy_mode": self.kube_proxy_mode,
            "csi_drivers": list(self.csi_drivers),
            "api_tunnel": list(self.api_tunnel),
            "metrics": list(self.metrics),
            "autoscalers": list(self.autoscalers),
            "notes": list(self.notes),
        }
