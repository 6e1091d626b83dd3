"""What says an autoscaler is removing a node: the cluster autoscaler's ToBeDeletedByClusterAutoscaler
taint (its value: when it set it, in Unix seconds) and Karpenter's disruption taint; shared by
node-cordoned (a removal under way) and node-removal-stopped (one that stopped)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from analyzer.findings.facts import age_at_capture

if TYPE_CHECKING:
    from analyzer.findings.dump import AnalyzedDump
    from analyzer.ingest.records import KubeObject

AUTOSCALER_TAINT = "ToBeDeletedByClusterAutoscaler"
# Karpenter v1's karpenter.sh/disrupted; before v1 karpenter.sh/disruption=disrupting
KARPENTER_TAINTS = ("karpenter.sh/disrupted", "karpenter.sh/disruption")
# The autoscaler gives each pod 10 minutes to end (--max-graceful-termination-sec) before it deletes
# the node; a taint older than three times that is a removal that stopped (the autoscaler restarted
# mid-way, the cloud refused the deletion: kubernetes/autoscaler#5657, #3949).
REMOVAL_STOPPED = timedelta(minutes=30)


@dataclass(frozen=True, slots=True)
class Removal:
    """A node's removal taint: its place in spec.taints, who removes it, since when and how long
    before the capture (None where the taint does not say)."""

    index: int
    taint: str
    by: str  # "the cluster autoscaler" or "Karpenter"
    added: datetime | None
    age: timedelta | None

    @property
    def stopped(self) -> bool:
        """Whether the cluster autoscaler's taint is older than a removal takes."""
        return self.age is not None and self.age > REMOVAL_STOPPED


def removal_of(cluster: AnalyzedDump, node: KubeObject) -> Removal | None:
    """The removal an autoscaler's NoSchedule taint on the node says, or None."""
    for i, taint in enumerate(node.view.spec.taints or ()):
        if taint.effect != "NoSchedule":
            continue
        if taint.key == AUTOSCALER_TAINT:
            added = unix_time(taint.value)
            age = age_at_capture(cluster, added, node) if added is not None else None
            return Removal(i, f"{taint.key}={taint.value}:{taint.effect}", "the cluster autoscaler", added, age)
        if taint.key in KARPENTER_TAINTS:
            said = f"{taint.key}{'=' + taint.value if taint.value else ''}:{taint.effect}"
            return Removal(i, said, "Karpenter", None, None)
    return None


def unix_time(value: str | None) -> datetime | None:
    """The time a Unix-seconds taint value says, or None.

    >>> unix_time("1696345026")
    datetime.datetime(2023, 10, 3, 14, 57, 6, tzinfo=datetime.timezone.utc)
    """
    if not value or not value.isdigit() or len(value) > 11:
        return None
    return datetime.fromtimestamp(int(value), UTC)
