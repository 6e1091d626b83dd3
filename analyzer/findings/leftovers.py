"""Pods a node stopped for good (evicted, refused at admission, stopped as it shut down), left
behind as Failed: when the kubelet stopped them, and whether a pod of the same controller took
their place (then they are history)."""

from __future__ import annotations

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import known_age, object_age, owner, pods_by_namespace, when_text
from analyzer.ingest.records import KubeObject
from analyzer.kube.names import DEPLOYMENT_POD
from analyzer.kube.time import parse_time
from analyzer.memo import once_per
from analyzer.printing.timefmt import human_duration


def stopped_when(cluster: AnalyzedDump, pod: KubeObject) -> str:
    """When the kubelet stopped the pod: its containers' end or its conditions' last change (the
    kubelet marks them as it evicts), else at most its age (a pasted row's AGE; none under a
    capture that is a lower bound, where the age is "at least")."""
    status = pod.view.status
    times = [parse_time(c.lastTransitionTime) for c in status.conditions or ()]
    times += [parse_time(s.state.terminated.finishedAt) for s in status.containerStatuses or ()
              if s.state is not None and s.state.terminated is not None]
    known = [t for t in times if t is not None]
    if known:
        return when_text(cluster, max(known), pod)
    age = known_age(cluster, pod)
    return f"at an unknown time, at most {human_duration(age.total_seconds())} before capture (its age)" \
        if age is not None else "at an unknown time"


def replaced_by(cluster: AnalyzedDump, pod: KubeObject, what: str) -> str:
    """Why a pod its node stopped for good (`what`: evicted, refused, ...) is history ('' when
    nothing shows it): a pod of the same controller runs, every container ready, no older than
    it: it took its place (the stopped pod is left behind as Failed until deleted)."""
    made_by = _controller(pod)
    if made_by is None:
        return ""
    mine = object_age(cluster, pod)
    for other in _ready_by_controller(cluster, pod.namespace).get(made_by, ()):
        age = object_age(cluster, other)
        if mine is None or age is None or age <= mine:
            old = f" ({human_duration(age.total_seconds())} old)" if age is not None else ""
            return (f"its {made_by[0]} {made_by[1]} runs pod {other.name}{old}, every container ready: "
                    f"the {what} pod's replacement")
    return ""


def _ready_by_controller(cluster: AnalyzedDump, namespace: str) -> dict[tuple[str, str], list]:
    """The namespace's pods that run with every container ready, by controller (one walk of the
    namespace's pods when a stopped pod of it is first asked about, however many were stopped;
    the other namespaces' pods not read)."""
    known = _ready_by_namespace(cluster)
    found = known.get(namespace)
    if found is None:
        found = known[namespace] = {}
        for pod in pods_by_namespace(cluster).get(namespace, ()):
            if _running_and_ready(pod) and (made_by := _controller(pod)) is not None:
                found.setdefault(made_by, []).append(pod)
    return found


@once_per
def _ready_by_namespace(cluster: AnalyzedDump) -> dict[str, dict[tuple[str, str], list]]:
    """namespace -> controller -> its ready pods, for the namespaces asked about so far."""
    return {}


def _controller(pod) -> tuple[str, str] | None:
    """(kind, name) of what made the pod: its owner reference, else the ReplicaSet a
    Deployment pod's name says (a pasted row shows no owner)."""
    made_by = owner(pod)
    if made_by is not None:
        return made_by
    named = DEPLOYMENT_POD.fullmatch(pod.name)
    return ("ReplicaSet", f"{named[1]}-{named[2]}") if named is not None else None


def _running_and_ready(pod) -> bool:
    row = pod.view.text
    if row is not None and row.status is not None:
        ready, _, total = (row.ready or "").partition("/")
        return row.status == "Running" and ready.isdigit() and ready == total
    statuses = pod.view.status.containerStatuses or ()
    return pod.view.status.phase == "Running" and bool(statuses) and all(s.ready for s in statuses)
