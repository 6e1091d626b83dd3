"""PersistentVolumes whose release failed: deleted and still there, Failed, or Released with their
provisioner's refusal to delete the disk (it goes on costing, or holds a name a claim needs)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.events import EventFact, event_ago, events_by_object
from analyzer.findings.facts import deletion_past, ev
from analyzer.findings.types import Evidence, Finding, RuleMeta
from analyzer.ingest.records import KubeObject

RULE = RuleMeta(
    id="pv-reclaim-failed", title="PersistentVolume not reclaimed", severity="warning",
    category="workloads", requires=("PersistentVolume",),
    message="PersistentVolume {name} {state}: {why}",
    remediation="Read the provisioner's refusal: a disk still attached to a node (VolumeAttachments, the node's "
    "CSI plugin), a disk already gone, or the CSI controller's identity not allowed to delete it; once fixed, the "
    "controller retries by itself. Remove a finalizer by hand only once the disk is known to be detached or gone.",
)
GRACE = timedelta(minutes=10)
PROTECTION = "kubernetes.io/pv-protection"
# The volume controller's and the external provisioner's words for a release that failed
# (pv_controller.go: VolumeFailedDelete, VolumeFailedRecycle; 'Volume has unrecognized
# PersistentVolumeReclaimPolicy' as VolumeUnknownReclaimPolicy).
_REFUSALS = ("VolumeFailedDelete", "VolumeFailedRecycle", "VolumeUnknownReclaimPolicy")


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    events = events_by_object(cluster) if cluster.covers("Event") else {}
    for pv in cluster.objects_of("PersistentVolume"):
        refusals = [e for e in events.get(("PersistentVolume", "", pv.name), ()) if e.reason in _REFUSALS]
        deletion = deletion_past(cluster, pv, GRACE)
        phase = pv.view.status.phase
        if deletion is not None:
            finalizers = pv.view.metadata.finalizers or ()
            state = f"has been terminating for {deletion.lasted} (finalizers: {', '.join(finalizers) or 'none shown'})"
            claim = pv.view.spec.claimRef
            if phase == "Bound" and PROTECTION in finalizers and not refusals and claim is not None:
                # deleted while its claim holds it: kept by design until the claim lets it go
                # (realdata rke2/support-bundle-kit-harvester: two Longhorn volumes of the
                # monitoring stack, deleted 14d before the capture, still Bound and attached)
                held = f"{PROTECTION} keeps it while it is Bound to claim {claim.namespace}/{claim.name}"
                yield _fail(cluster, pv, deletion.evidence, state, refusals, held).as_info(
                    resolved="it goes once that claim lets it go; nothing failed")
            else:
                finding = _fail(cluster, pv, deletion.evidence, state, refusals)
                yield finding if deletion.stuck or refusals else finding.as_info()
        elif phase == "Failed":
            yield _fail(cluster, pv, ev(pv, "status.phase", "Failed", "Bound or Available"), "is Failed", refusals)
        elif phase == "Released" and refusals:
            yield _fail(cluster, pv, ev(pv, "status.phase", "Released", "deleted by its provisioner"),
                        f"is Released, its reclaim policy {pv.view.spec.persistentVolumeReclaimPolicy or 'not shown'}",
                        refusals)


def _fail(cluster: AnalyzedDump, pv: KubeObject, evidence: Evidence, state: str, refusals: list[EventFact],
          held: str = "") -> Finding:
    """The finding, saying why by the provisioner's last refusal, else what holds it, else the
    volume's own message."""
    found = [evidence]
    claim = pv.view.spec.claimRef
    if refusals:
        last = refusals[-1]
        found.append(ev(last.event, f"Event.message ({last.reason})", last.message))
        why = f"{last.reason} {sum(e.count for e in refusals)} time(s), last {event_ago(cluster, last)}: {last.message}"
    elif held:
        why = held
    elif pv.view.status.message:
        why = pv.view.status.message
    else:
        why = "no event or message of its provisioner in the dump says why"
    return RULE.fail(pv, *found, state=state, why=why,
                     claim=f"{claim.namespace}/{claim.name}" if claim is not None and claim.name else "")
