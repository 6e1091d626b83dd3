"""Application containers without CPU or memory requests (the scheduler places them blind)."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.cluster import Cluster
from analyzer.findings.facts import (
    container_path,
    ev,
    is_system_namespace,
    is_terminal,
    knows_container_specs,
    pod_containers,
)
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="container-no-requests", title="Container without resource requests", severity="warning",
    category="configuration", requires=("Pod",),
    message="Pod {namespace}/{name}: container {container} has no {missing} request",
    remediation="Set cpu and memory requests close to the container's real usage; without them the pod is BestEffort/Burstable and the first to be evicted.",
)


def check(cluster: Cluster) -> Iterator[Finding]:
    for pod in cluster.objects_of("Pod"):
        if is_system_namespace(pod.namespace) or not knows_container_specs(pod) or is_terminal(pod):
            continue
        for ctype, spec, _status in pod_containers(pod, "container"):
            if spec is None:
                continue
            requests = (spec.resources.requests if spec.resources else None) or {}
            limits = (spec.resources.limits if spec.resources else None) or {}
            # A limit without a request defaults the request to the limit.
            missing = [r for r in ("cpu", "memory") if r not in requests and r not in limits]
            if missing:
                yield RULE.fail(pod, ev(pod, f"{container_path(ctype, spec.name)}.resources.requests",
                                        requests or None, "cpu and memory"),
                                container=spec.name, missing=" and ".join(missing))
