"""Privileged application containers (full access to the host)."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.cluster import Cluster
from analyzer.findings.facts import container_path, ev, is_system_namespace, pod_containers
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="container-privileged", title="Privileged container outside system namespaces", severity="warning",
    category="configuration", requires=("Pod",),
    message="Pod {namespace}/{name}: container {container} runs privileged",
    remediation="Drop privileged: true; grant only the capabilities the container needs (securityContext.capabilities.add).",
)


def check(cluster: Cluster) -> Iterator[Finding]:
    for pod in cluster.objects_of("Pod"):
        if is_system_namespace(pod.namespace):
            continue
        for ctype, spec, _status in pod_containers(pod):
            sc = spec.securityContext if spec else None
            if sc and sc.privileged:
                yield RULE.fail(pod, ev(pod, f"{container_path(ctype, spec.name)}.securityContext.privileged", True, False),
                                container=spec.name)
