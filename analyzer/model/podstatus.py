"""A pod's STATUS and RESTARTS as `kubectl get pods` prints them (kubectl's printPod logic)."""

from __future__ import annotations

from analyzer.kube.views import ContainerStatus, PodView
from analyzer.model.normalize import condition_true

# The reason kube-controller-manager sets on pods of an unreachable node.
NODE_UNREACHABLE_REASON = "NodeLost"


def _terminated_text(detail, prefix: str = "") -> str:
    if detail.reason:
        return prefix + detail.reason
    if detail.signal:
        return f"{prefix}Signal:{detail.signal}"
    return f"{prefix}ExitCode:{detail.exitCode or 0}"


def _init_status(statuses: list[ContainerStatus], total: int) -> tuple[str | None, int]:
    """The Init:... status while init containers have not all succeeded (None once done),
    and the restarts of the init containers up to the one that is not done."""
    restarts = 0
    for i, cs in enumerate(statuses):
        restarts += cs.restartCount or 0
        state = cs.state
        terminated = state.terminated if state else None
        waiting = state.waiting if state else None
        if terminated is not None and (terminated.exitCode or 0) == 0 and not terminated.signal:
            continue
        if terminated is not None:
            return _terminated_text(terminated, "Init:"), restarts
        if waiting is not None and waiting.reason and waiting.reason != "PodInitializing":
            return f"Init:{waiting.reason}", restarts
        return f"Init:{i}/{total}", restarts
    return None, restarts


def pod_status(view: PodView) -> tuple[str | None, int]:
    """(STATUS, RESTARTS) of a pod as kubectl shows them.

    Examples:
        >>> from analyzer.kube.views import (ContainerState, ContainerStatus, PodStatus,
        ...                                   StateDetail)
        >>> def pod(phase, **status):
        ...     return PodView(status=PodStatus(phase=phase, **status))
        >>> waiting = ContainerState(waiting=StateDetail(reason="CrashLoopBackOff"))
        >>> pod_status(pod("Running", containerStatuses=[
        ...     ContainerStatus(name="app", restartCount=7, state=waiting)]))
        ('CrashLoopBackOff', 7)
        >>> done = ContainerState(terminated=StateDetail(reason="Completed", exitCode=0))
        >>> pod_status(pod("Succeeded", containerStatuses=[ContainerStatus(state=done)]))
        ('Completed', 0)
        >>> pod_status(pod("Failed", reason="Evicted"))
        ('Evicted', 0)
        >>> pending = ContainerState(waiting=StateDetail(reason="PodInitializing"))
        >>> pod_status(pod("Pending", initContainerStatuses=[
        ...     ContainerStatus(name="init", state=pending)]))
        ('Init:0/1', 0)
    """
    status = view.status
    reason = status.reason or status.phase
    init_statuses = status.initContainerStatuses
    initializing = None
    if init_statuses:  # most pods have no init containers: nothing to work out then
        init_total = max(len(view.spec.initContainers or ()), len(init_statuses))
        initializing, restarts = _init_status(init_statuses, init_total)
    if initializing:
        reason = initializing
    else:
        restarts = 0
        has_running = False
        for cs in reversed(status.containerStatuses or []):
            restarts += cs.restartCount or 0
            state = cs.state
            if state is None:
                continue
            if state.waiting is not None and state.waiting.reason:
                reason = state.waiting.reason
            elif state.terminated is not None:
                reason = _terminated_text(state.terminated)
            elif cs.ready and state.running is not None:
                has_running = True
        if reason == "Completed" and has_running:
            ready = condition_true(status.conditions, "Ready")
            reason = "Running" if ready else "NotReady"
    if view.metadata.deletionTimestamp is not None:
        reason = "Unknown" if status.reason == NODE_UNREACHABLE_REASON else "Terminating"
    return reason, restarts
