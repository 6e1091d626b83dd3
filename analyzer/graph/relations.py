"""What a relation means: its direction, which end depends on which, and how a loss spreads."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

End = Literal["source", "target"]


@dataclass(frozen=True, slots=True)
class Relation:
    """One kind of edge. Most point from the dependent to its dependency (pod -> ConfigMap).

    `dependent` names the end that needs the other one; `cascade` says the dependent is
    deleted with its dependency (garbage collection), not merely degraded; `mutual` says the
    dependency also suffers when the dependent fails (a controller whose pods fail).
    """

    name: str
    source: str  # kinds at the source end, for the documentation
    target: str  # kinds at the target end
    description: str
    dependent: End = "source"
    cascade: bool = False
    mutual: bool = False

    def __post_init__(self) -> None:
        if not self.name.isidentifier() or self.name != self.name.lower():
            raise ValueError(f"relation name {self.name!r} must be a lower_snake_case word")
        if self.dependent not in ("source", "target"):
            raise ValueError(f"relation {self.name}: dependent must be 'source' or 'target'")
        if not self.description:
            raise ValueError(f"relation {self.name}: a description is required")
