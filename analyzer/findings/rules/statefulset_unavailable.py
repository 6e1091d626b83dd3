"""StatefulSets with fewer ready pods than desired."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.cluster import Cluster
from analyzer.findings.facts import ev
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="statefulset-unavailable", title="StatefulSet short of ready pods", severity="warning",
    category="workloads", requires=("StatefulSet",),
    message="StatefulSet {namespace}/{name} has {ready} of {desired} pods ready{detail}",
    remediation="Look at the StatefulSet's pods (pending, crashing, not ready) and its conditions; the pods' findings usually say why.",
)


def check(cluster: Cluster) -> Iterator[Finding]:
    for obj in cluster.objects_of("StatefulSet"):
        s = obj.view.status
        if obj.view.text is not None and not (s.observedGeneration or s.replicas or s.desiredNumberScheduled):
            text = obj.view.text  # a pasted table: READY column like "1/3"
            ready_col = (text.ready or "").split("/")
            if len(ready_col) == 2 and ready_col[0].isdigit() and ready_col[1].isdigit() \
                    and int(ready_col[0]) < int(ready_col[1]):
                yield RULE.fail(obj, ev(obj, "READY column", text.ready, f"{ready_col[1]}/{ready_col[1]}"),
                                ready=int(ready_col[0]), desired=int(ready_col[1]), detail="")
            continue
        desired = obj.view.spec.replicas if obj.view.spec.replicas is not None else 1
        ready = s.readyReplicas or 0
        if desired and ready < desired:
            cond = next((c for c in s.conditions or () if c.status == "False" or c.type == "ReplicaFailure"), None)
            detail = f" ({cond.type}: {cond.message})" if cond and cond.message else ""
            yield RULE.fail(obj, ev(obj, "status.readyReplicas", ready, f"{desired} (spec.replicas)"),
                            ready=ready, desired=desired, detail=detail)
