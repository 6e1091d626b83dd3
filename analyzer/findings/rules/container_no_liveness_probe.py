"""Long-running application containers without a liveness probe."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.cluster import Cluster
from analyzer.findings.facts import (
    container_path,
    ev,
    is_system_namespace,
    is_terminal,
    knows_container_specs,
    owner,
    pod_containers,
)
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="container-no-liveness-probe", title="Container without a liveness probe", severity="info",
    category="configuration", requires=("Pod",),
    message="Pod {namespace}/{name}: container {container} has no liveness probe",
    remediation="Add a livenessProbe so the kubelet restarts the container when it hangs (keep it cheap and independent of dependencies).",
)


def check(cluster: Cluster) -> Iterator[Finding]:
    for pod in cluster.objects_of("Pod"):
        if is_system_namespace(pod.namespace) or not knows_container_specs(pod) or is_terminal(pod):
            continue
        if (owner(pod) or ("", ""))[0] == "Job":  # run-to-completion pods need no probes
            continue
        for ctype, spec, _status in pod_containers(pod, "container"):
            if spec is not None and spec.livenessProbe is None:
                yield RULE.fail(pod, ev(pod, f"{container_path(ctype, spec.name)}.livenessProbe", None, "a probe"),
                                container=spec.name)
