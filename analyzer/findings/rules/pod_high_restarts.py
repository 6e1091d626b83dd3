"""Containers that restarted many times in their life."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import (
    container_path,
    ev,
    is_static_pod,
    pod_containers,
    row_sole_container,
    states_no_container,
)
from analyzer.findings.restarts import (
    container_restarts,
    history_reason,
    last_restart_text,
    table_history_reason,
    table_last_restart_text,
    table_restart_bound_text,
)
from analyzer.findings.rules.control_plane_restarts import component_of
from analyzer.findings.suspects import pod_suspects
from analyzer.findings.types import Finding, RuleMeta

if TYPE_CHECKING:
    from analyzer.ingest.records import KubeObject

RULE = RuleMeta(
    id="pod-high-restarts", title="Container restarted many times", severity="warning",
    category="workloads", requires=("Pod",),
    message="Pod {namespace}/{name}: {restarts} restarts (container {container}; threshold {threshold}), the last {last}",
    remediation="Look at the last termination reason and the previous log; restarts usually mean crashes, OOM kills or failing liveness probes.",
)
THRESHOLD = 5


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    restarts = {id(r.status): r for r in container_restarts(cluster)}
    for pod in pod_suspects(cluster).of("restarted", "text"):
        if is_static_pod(pod) or _pasted_control_plane(pod):  # control-plane-restarts speaks for these
            continue
        worst = None
        for ctype, _spec, status in pod_containers(pod):
            if status and (status.restartCount or 0) >= THRESHOLD and (
                    worst is None or status.restartCount > worst[1].restartCount):
                worst = (ctype, status)
        if worst:
            ctype, status = worst
            restart = restarts.get(id(status))
            finding = RULE.fail(pod, ev(pod, f"{container_path(ctype, status.name, True)}.restartCount",
                                        status.restartCount, f"< {THRESHOLD}"),
                                restarts=status.restartCount, container=status.name, threshold=THRESHOLD,
                                last=last_restart_text(cluster, restart) if restart else "at an unknown time")
            history = history_reason(cluster, restart) if restart else ""
            yield finding.as_info(resolved=history) if history else finding
        elif states_no_container(pod) and pod.view.text is not None \
                and (pod.view.text.restarts or 0) >= THRESHOLD:
            finding = RULE.fail(pod, ev(pod, "RESTARTS column", pod.view.text.restarts, f"< {THRESHOLD}"),
                                restarts=pod.view.text.restarts,
                                container=row_sole_container(pod) or "not named in the table",
                                threshold=THRESHOLD,
                                last=table_last_restart_text(pod) or table_restart_bound_text(pod)
                                or "at a time the pasted table does not give")
            history = table_history_reason(pod, cluster)
            yield finding.as_info(resolved=history) if history else finding


def _pasted_control_plane(pod: KubeObject) -> bool:
    """A kube-system row of a control-plane static pod (etcd-NODE, kube-apiserver-NODE): a table
    does not show the mirror annotation, and control-plane-restarts reads such rows (kubernetes#77388:
    etcd, API server and controller manager were each reported by both rules)."""
    return pod.namespace == "kube-system" and pod.view.text is not None \
        and component_of(pod.name, pod.view.metadata.labels or {}) is not None
