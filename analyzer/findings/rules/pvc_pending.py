"""PersistentVolumeClaims that never bound to a volume."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.cluster import Cluster
from analyzer.findings.events import event_ago, events_by_object
from analyzer.findings.facts import ev
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="pvc-pending", title="PersistentVolumeClaim pending", severity="warning",
    category="workloads", requires=("PersistentVolumeClaim",),
    message="PersistentVolumeClaim {namespace}/{name} is Pending (storage class {storage_class}): {reason}",
    remediation="Check the storage class exists and its provisioner runs; with WaitForFirstConsumer the claim binds only once a pod uses it.",
)


def check(cluster: Cluster) -> Iterator[Finding]:
    events_collected = cluster.covers("Event")
    events = events_by_object(cluster) if events_collected else {}
    for pvc in cluster.objects_of("PersistentVolumeClaim"):
        if pvc.view.status.phase != "Pending":
            continue
        evidence = [ev(pvc, "status.phase", "Pending", "Bound")]
        warnings = [e for e in events.get(("PersistentVolumeClaim", pvc.namespace, pvc.name), ())
                    if e.type == "Warning" or e.reason in ("WaitForFirstConsumer", "ExternalProvisioning")]
        if warnings:
            last = warnings[-1]
            evidence.append(ev(last.event, f"Event.message ({last.reason})", last.message))
            reason = f"{last.reason}: {last.message} ({event_ago(cluster, last)})"
        else:
            reason = "no event recorded" if events_collected else "events not collected"
        yield RULE.fail(pvc, *evidence, storage_class=pvc.view.spec.storageClassName or "default", reason=reason)
