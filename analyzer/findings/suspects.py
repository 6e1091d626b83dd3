"""The pods a pod rule could fail, found in one pass per dump.

Of 20,000 pods nearly all run, ready, never restarted, with ordinary specs: a dozen rules walked
every one of them to find the few that are not. Here each pod is looked at once, and filed
under every concern it shows (a container waiting, one that restarted, a pod being deleted, a
host namespace shared, ...). Each concern is a loose condition that the rules asking about it
only narrow: a pod outside a rule's concerns cannot fail that rule, and a pod inside them is
judged by the rule exactly as before. Pods read from pasted text (their STATUS column speaks
for their containers) are a concern of their own, which every rule with a text reading asks for.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from analyzer.findings.facts import is_system_namespace
from analyzer.memo import once_per

if TYPE_CHECKING:
    from analyzer.findings.dump import AnalyzedDump
    from analyzer.ingest.records import KubeObject

# Each concern, and what puts a pod under it (any container: init, regular or ephemeral).
CONCERNS = {
    "text": "read from pasted text (a table row or a describe), not from the API's object",
    "deleting": "metadata.deletionTimestamp is set, or a describe says how long it has been Terminating",
    "reason": "status.reason is set (Evicted, NodeLost, ...)",
    "pending": "status.phase is Pending",
    "waiting": "a container's state is waiting",
    "not_ready": "a regular container's status says ready: false",
    "restarted": "a container's restartCount is above 0",
    "exited": "a container's last state ended (lastState.terminated), or its state ended other "
              "than with exit code 0 (OOMKilled included)",
    "host": "outside the system namespaces: hostNetwork, hostPID or hostIPC, or a hostPath volume",
    "root": "outside the system namespaces: a runAsUser of 0 in the pod's or a container's securityContext",
}


@dataclass(slots=True)
class PodSuspects:
    """Each concern's pods, as positions in the dump's order of pods."""

    pods: list[KubeObject]
    positions: dict[str, list[int]] = field(default_factory=dict)

    def of(self, *concerns: str) -> list[KubeObject]:
        """The pods under any of `concerns`, in dump order (each once)."""
        unknown = [c for c in concerns if c not in CONCERNS]
        if unknown:
            raise KeyError(f"unknown pod concern(s): {', '.join(unknown)}")
        if len(concerns) == 1:
            return [self.pods[i] for i in self.positions.get(concerns[0], ())]
        chosen: set[int] = set()
        for concern in concerns:
            chosen.update(self.positions.get(concern, ()))
        return [self.pods[i] for i in sorted(chosen)]


@once_per
def pod_suspects(cluster: AnalyzedDump) -> PodSuspects:
    """Every pod of the dump filed under the concerns it shows (found once per dump)."""
    pods = list(cluster.objects_of("Pod"))
    found = PodSuspects(pods, {concern: [] for concern in CONCERNS})
    text, deleting, reason, pending, waiting, not_ready, restarted, exited, host, root = (
        found.positions[c] for c in CONCERNS)
    system: dict[str, bool] = {}
    for i, pod in enumerate(pods):
        view = pod.view
        status, spec = view.status, view.spec
        if view.text is not None:
            text.append(i)
        if view.metadata.deletionTimestamp is not None or (
                view.text is not None and view.text.deletion_ago_seconds is not None):
            deleting.append(i)
        if status.reason is not None:
            reason.append(i)
        if status.phase == "Pending":
            pending.append(i)
        shows = _container_concerns(status.containerStatuses, True) if status.containerStatuses else 0
        if status.initContainerStatuses:
            shows |= _container_concerns(status.initContainerStatuses, False)
        if status.ephemeralContainerStatuses:
            shows |= _container_concerns(status.ephemeralContainerStatuses, False)
        if shows:
            for concern, positions in ((_WAITING, waiting), (_NOT_READY, not_ready),
                                       (_RESTARTED, restarted), (_EXITED, exited)):
                if shows & concern:
                    positions.append(i)
        namespace = pod.key.namespace
        in_system = system.get(namespace)
        if in_system is None:
            in_system = system[namespace] = is_system_namespace(namespace)
        if in_system:
            continue
        if spec.hostNetwork or spec.hostPID or spec.hostIPC or (spec.volumes and _mounts_host(spec.volumes)):
            host.append(i)
        if _runs_as_root(spec):
            root.append(i)
    return found


def pods_sharing_host(cluster: AnalyzedDump, fields: tuple[str, ...]) -> list[tuple[KubeObject, tuple[str, ...]]]:
    """The pods outside the system namespaces that set any of the host namespace `fields`
    (hostNetwork, hostPID, hostIPC), each with those it sets."""
    shared = []
    for pod in pod_suspects(cluster).of("host"):
        on = tuple(f for f in fields if getattr(pod.view.spec, f))
        if on and not is_system_namespace(pod.namespace):
            shared.append((pod, on))
    return shared


# What a pod's containers show, as bits (one pass over its statuses).
_WAITING, _NOT_READY, _RESTARTED, _EXITED = 1, 2, 4, 8


def _container_concerns(statuses: Iterable, regular: bool) -> int:
    shows = 0
    for s in statuses:
        state, last = s.state, s.lastState
        if state is not None:
            if state.waiting:
                shows |= _WAITING
            ended = state.terminated
            if ended and ((ended.exitCode or 0) != 0 or ended.reason == "OOMKilled"):
                shows |= _EXITED
        if last is not None and last.terminated:
            shows |= _EXITED
        if s.restartCount:
            shows |= _RESTARTED
        if regular and s.ready is False:
            shows |= _NOT_READY
    return shows


def _mounts_host(volumes: list[dict]) -> bool:
    return any(isinstance(volume.get("hostPath"), dict) for volume in volumes)


def _runs_as_root(spec) -> bool:
    pod_context = spec.securityContext
    if pod_context is not None and pod_context.runAsUser == 0:
        return True
    for containers in (spec.initContainers, spec.containers, spec.ephemeralContainers):
        for c in containers or ():
            context = c.securityContext
            if context is not None and context.runAsUser == 0:
                return True
    return False
