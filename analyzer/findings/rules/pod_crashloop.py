"""Containers restarting in a loop (CrashLoopBackOff)."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import (
    ev,
    row_sole_container,
    states_no_container,
    waiting_containers,
)
from analyzer.findings.restarts import (
    ContainerRestart,
    container_restarts,
    last_restart_text,
    restarted_without_last_exit,
    table_last_restart_text,
    table_restart_bound_text,
)
from analyzer.findings.suspects import pod_suspects
from analyzer.findings.types import Evidence, Finding, RuleMeta
from analyzer.ingest.records import KubeObject
from analyzer.model.normalize import ready_counts

RULE = RuleMeta(
    id="pod-crashloop", title="Container in CrashLoopBackOff", severity="critical",
    category="workloads", requires=("Pod",),
    message="Pod {namespace}/{name} has {count} container(s) in CrashLoopBackOff ({containers}), {restarts} restarts, the last {last}",
    remediation="Read the previous container log (kubectl logs --previous) and the last exit code; fix the crash cause (config, dependency, OOM, probe).",
)
REASONS = frozenset({"CrashLoopBackOff"})
# What a pasted row's STATUS says while a looping container is between back-offs: the reason
# of its last exit, until the kubelet waits again (kubectl's pod printer).
EXIT_STATUSES = frozenset({"Error", "OOMKilled", "ContainerCannotRun", "StartError"})


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    # The newest restart of each pod's containers, to say when the loop last turned.
    newest_of: dict[int, ContainerRestart] = {}
    for r in container_restarts(cluster):
        current = newest_of.get(id(r.pod))
        if current is None or (r.last_restart and (current.last_restart is None
                                                   or r.last_restart > current.last_restart)):
            newest_of[id(r.pod)] = r
    for pod in pod_suspects(cluster).of("waiting", "text"):
        evidence = waiting_containers(pod, REASONS, "container")
        between = not evidence and bool(evidence := _exited_between_backoffs(cluster, pod))
        if evidence:
            names = [e.field.split("[name=")[1].split("]")[0] for e in evidence if "[name=" in e.field]
            statuses = pod.view.status.containerStatuses or ()
            restarts = sum(s.restartCount or 0 for s in statuses) or _row_restarts(pod)
            newest = newest_of.get(id(pod))
            yield RULE.fail(pod, *evidence, count=_looping(pod, len(evidence)) if not names else len(evidence),
                            containers=", ".join(names) or _row_containers(pod, between), restarts=restarts,
                            last=last_restart_text(cluster, newest) if newest
                            else table_last_restart_text(pod) or table_restart_bound_text(pod)
                            or "at an unknown time")


def _row_restarts(pod: KubeObject) -> int | str:
    """The restarts a pasted row counts; a row whose writer left RESTARTS out counts none it shows
    (nebari-dev/nebari#3213: `ebs-csi-controller-xxxxx   1/6   CrashLoopBackOff`)."""
    text = pod.view.text
    if text is not None and text.restarts is None and "RESTARTS" not in (text.columns or {}):
        return "an unknown number of"
    return (text.restarts if text else 0) or 0


def _row_containers(pod: KubeObject, between: bool) -> str:
    """Which container a pasted row's loop is in, and how the row says it: the row names none,
    but a spec of one container (another file's record of the pod) does."""
    said = f"the STATUS column says {pod.view.text.status}: it exited and waits to restart" \
        if between and pod.view.text else "from the STATUS column"
    sole = row_sole_container(pod)
    return f"{sole}; {said}" if sole else said


def _looping(pod: KubeObject, found: int) -> int | str:
    """How many containers a pasted row says are looping: its STATUS names one reason for the pod,
    so all that is known is that 1 to (not ready) of them are (nixpkgs#181790: svclb-traefik 0/2).

    >>> from analyzer.kube.views import TextFacts
    >>> from types import SimpleNamespace as NS
    >>> _looping(NS(view=NS(text=TextFacts(ready="0/2", status="CrashLoopBackOff"))), 1)
    '1 to 2'
    >>> _looping(NS(view=NS(text=TextFacts(ready="1/2", status="CrashLoopBackOff"))), 1)
    1
    """
    text = pod.view.text
    if text is None or text.status != "CrashLoopBackOff":
        return found
    ready, total = ready_counts(text.ready)
    if ready is not None and total is not None and total - ready > 1:
        return f"1 to {total - ready}"
    return found


def _exited_between_backoffs(cluster: AnalyzedDump, pod: KubeObject) -> list[Evidence]:
    """A pasted `kubectl get pods` row saying `Error` (or `OOMKilled`, ...) after restarts: the
    loop caught between its back-offs (kubectl shows the last exit until the kubelet waits
    again), not a pod that failed once. Rows only: an API status says CrashLoopBackOff itself."""
    text = pod.view.text
    if not states_no_container(pod) or text is None or text.status not in EXIT_STATUSES \
            or not (text.restarts or 0) >= 1:
        return []
    if restarted_without_last_exit(cluster, pod):
        return []  # no last exit to wait out: the pod ended (pod-evicted says why)
    return [ev(pod, "STATUS column", f"{text.status} after {text.restarts} restarts", "Running")]
