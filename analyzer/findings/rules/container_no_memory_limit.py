"""Application containers without a memory limit (one leak can starve the node)."""

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
    id="container-no-memory-limit", title="Container without a memory limit", severity="info",
    category="configuration", requires=("Pod",),
    message="Pod {namespace}/{name}: container {container} has no memory limit",
    remediation="Set a memory limit (memory is not compressible: without a limit a leaking container pushes the node into MemoryPressure).",
)


def check(cluster: Cluster) -> Iterator[Finding]:
    for pod in cluster.objects_of("Pod"):
        if is_system_namespace(pod.namespace) or not knows_container_specs(pod) or is_terminal(pod):
            continue
        for ctype, spec, _status in pod_containers(pod, "container"):
            limits = (spec.resources.limits if spec and spec.resources else None) or {}
            if spec is not None and "memory" not in limits:
                yield RULE.fail(pod, ev(pod, f"{container_path(ctype, spec.name)}.resources.limits.memory",
                                        None, "a memory limit"), container=spec.name)
