"""Control-plane static pods (API server, etcd, scheduler, controller manager) that keep restarting."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import (
    container_path,
    ev,
    is_static_pod,
    pod_containers,
    pods_by_namespace,
)
from analyzer.findings.restarts import (
    container_restarts,
    history_reason,
    last_restart_text,
    table_history_reason,
    table_last_restart_text,
    table_restart_bound_text,
)
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="control-plane-restarts", title="Control-plane component restarting", severity="warning",
    category="cluster", requires=("Pod",), needs_host=True,
    message="Control-plane pod {namespace}/{name} ({component}) restarted {restarts} times (last: {last_reason}, {last})",
    remediation="Read the component's previous log; etcd restarts often mean slow disks or lost quorum, API server restarts failing etcd or certificates.",
)
COMPONENTS = ("kube-apiserver", "etcd", "kube-scheduler", "kube-controller-manager", "cloud-controller-manager")
THRESHOLD = 3


def component_of(pod_name: str, labels: dict) -> str | None:
    """The control-plane component a static pod runs (its `component` label, else its name).

    >>> component_of("etcd-master-1", {}), component_of("web-1", {})
    ('etcd', None)
    """
    label = labels.get("component")
    if label in COMPONENTS:
        return label
    return next((c for c in COMPONENTS if pod_name.startswith(c + "-")), None)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    restarts = {id(r.status): r for r in container_restarts(cluster)}
    for pod in pods_by_namespace(cluster).get("kube-system", ()):
        component = component_of(pod.name, pod.view.metadata.labels or {})
        if component is None or not (is_static_pod(pod) or pod.view.text is not None):
            continue
        statuses = [(t, s) for t, _c, s in pod_containers(pod, "container") if s is not None]
        restarts_total = sum(s.restartCount or 0 for _t, s in statuses)
        if not statuses and pod.view.text is not None:
            restarts_total = pod.view.text.restarts or 0
        if restarts_total < THRESHOLD:
            continue
        evidence = [ev(pod, f"{container_path(t, s.name, True)}.restartCount", s.restartCount, f"< {THRESHOLD}")
                    for t, s in statuses if s.restartCount] or [ev(pod, "RESTARTS column", restarts_total, f"< {THRESHOLD}")]
        last = next((s.lastState.terminated for _t, s in statuses
                     if s.lastState and s.lastState.terminated), None)
        last_reason = (f"{last.reason or '?'} exit {last.exitCode}" if last
                       else "reason not shown" if not statuses else "unknown")
        # The container restarted last speaks for the pod's restarts.
        known = [restarts[id(s)] for _t, s in statuses if id(s) in restarts]
        newest = max(known, key=lambda r: r.last_restart.timestamp() if r.last_restart else float("-inf"),
                     default=None)
        if newest is not None:
            when, history = last_restart_text(cluster, newest), history_reason(cluster, newest)
        else:  # a pasted row: its RESTARTS column may say when, `11 (11d ago)`, else its AGE bounds it
            when = table_last_restart_text(pod) or table_restart_bound_text(pod) or "at an unknown time"
            history = table_history_reason(pod, cluster) if not statuses else ""
        finding = RULE.fail(pod, *evidence, component=component, restarts=restarts_total,
                            last_reason=last_reason, last=when)
        yield finding.as_info(resolved=history) if history else finding
