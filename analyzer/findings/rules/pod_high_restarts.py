"""Containers that restarted many times in their life."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.cluster import Cluster
from analyzer.findings.facts import container_path, ev, is_static_pod, pod_containers
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="pod-high-restarts", title="Container restarted many times", severity="warning",
    category="workloads", requires=("Pod",),
    message="Pod {namespace}/{name}: {restarts} restarts (container {container}; threshold {threshold})",
    remediation="Look at the last termination reason and the previous log; restarts usually mean crashes, OOM kills or failing liveness probes.",
)
THRESHOLD = 5


def check(cluster: Cluster) -> Iterator[Finding]:
    for pod in cluster.objects_of("Pod"):
        if is_static_pod(pod):  # control-plane-restarts speaks for static pods
            continue
        worst = None
        for ctype, _spec, status in pod_containers(pod):
            if status and (status.restartCount or 0) >= THRESHOLD and (
                    worst is None or status.restartCount > worst[1].restartCount):
                worst = (ctype, status)
        if worst:
            ctype, status = worst
            yield RULE.fail(pod, ev(pod, f"{container_path(ctype, status.name, True)}.restartCount",
                                    status.restartCount, f"< {THRESHOLD}"),
                            restarts=status.restartCount, container=status.name, threshold=THRESHOLD)
        elif not pod.view.status.containerStatuses and pod.view.text is not None \
                and (pod.view.text.restarts or 0) >= THRESHOLD:
            yield RULE.fail(pod, ev(pod, "RESTARTS column", pod.view.text.restarts, f"< {THRESHOLD}"),
                            restarts=pod.view.text.restarts, container="?", threshold=THRESHOLD)
