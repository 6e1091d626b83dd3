"""Pods the kubelet evicted (node pressure), left behind as Failed."""

from __future__ import annotations

import re
from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import (
    ev,
    object_age,
    owner,
    pods_by_namespace,
    text_status,
    when_text,
)
from analyzer.findings.suspects import pod_suspects
from analyzer.findings.types import Finding, RuleMeta
from analyzer.kube.names import DEPLOYMENT_POD
from analyzer.kube.time import parse_time
from analyzer.memo import once_per
from analyzer.printing.timefmt import human_duration

RULE = RuleMeta(
    id="pod-evicted", title="Pod evicted", severity="warning",
    category="workloads", requires=("Pod",),
    message="Pod {namespace}/{name} was evicted from node {node} {when}: {detail}",
    remediation="Evictions follow node pressure (memory, disk, PIDs): set requests close to real usage and check the node's conditions; delete the leftover pods.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    for pod in pod_suspects(cluster).of("reason", "text"):
        status = pod.view.status
        if status.reason == "Evicted":
            finding = RULE.fail(pod, ev(pod, "status.reason", "Evicted", "not evicted"),
                                node=pod.view.spec.nodeName or "?", detail=status.message or "no message",
                                when=_when(cluster, pod))
        elif status.reason is None and text_status(pod) == "Evicted":
            finding = RULE.fail(pod, ev(pod, "STATUS column", "Evicted", "Running"),
                                node=pod.view.spec.nodeName or "?", detail="from the STATUS column",
                                when=_when(cluster, pod))
        elif status.reason is None and _stopped_deployment_row(pod):
            finding = RULE.fail(pod, ev(pod, "STATUS column", "Completed", "Running"),
                                node=pod.view.spec.nodeName or "?", when=_when(cluster, pod),
                                detail="a Deployment's pod (by its name) that Completed without a restart, its IP "
                                       "gone: its node stopped it for good (an eviction whose containers' exit kubectl "
                                       "printed instead, kubernetes#105467, or a node shutdown)")
        else:
            continue
        replaced = _replaced(cluster, pod)
        yield finding.as_info(resolved=replaced) if replaced else finding


def _when(cluster: AnalyzedDump, pod) -> str:
    """When the kubelet stopped the pod: its containers' end or its conditions' last change (the
    kubelet marks them as it evicts), else at most its age (a pasted row's AGE)."""
    status = pod.view.status
    times = [parse_time(c.lastTransitionTime) for c in status.conditions or ()]
    times += [parse_time(s.state.terminated.finishedAt) for s in status.containerStatuses or ()
              if s.state is not None and s.state.terminated is not None]
    known = [t for t in times if t is not None]
    if known:
        return when_text(cluster, max(known), pod)
    age = object_age(cluster, pod)
    return f"at an unknown time, at most {human_duration(age.total_seconds())} before capture (its age)" \
        if age is not None else "at an unknown time"


def _replaced(cluster: AnalyzedDump, pod) -> str:
    """Why the eviction is history ('' when nothing shows it): a pod of the same controller runs,
    every container ready, no older than the evicted one: it took its place (the evicted pod is
    left behind as Failed until deleted)."""
    made_by = _controller(pod)
    if made_by is None:
        return ""
    mine = object_age(cluster, pod)
    for other in _ready_by_controller(cluster).get((pod.namespace, made_by), ()):
        age = object_age(cluster, other)
        if mine is None or age is None or age <= mine:
            old = f" ({human_duration(age.total_seconds())} old)" if age is not None else ""
            return (f"its {made_by[0]} {made_by[1]} runs pod {other.name}{old}, every container ready: "
                    "the evicted pod's replacement")
    return ""


@once_per
def _ready_by_controller(cluster: AnalyzedDump) -> dict[tuple[str, tuple[str, str]], list]:
    """(namespace, controller) -> its pods that run with every container ready (one walk of the
    pods, however many were evicted)."""
    found: dict[tuple[str, tuple[str, str]], list] = {}
    for namespace, pods in pods_by_namespace(cluster).items():
        for pod in pods:
            if _running_and_ready(pod) and (made_by := _controller(pod)) is not None:
                found.setdefault((namespace, made_by), []).append(pod)
    return found


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


def _stopped_deployment_row(pod) -> bool:
    """A pasted `-o wide` row of a Deployment's pod that Completed with no restart and no IP
    left, on a node: a pod that restarts always does not complete, unless its node stopped it
    (cilium-cli#2594, GKE: a test pod evicted, `0/2 Completed 0 ... <none>`). A row without the
    IP column may be a container between two runs, and is not judged."""
    text = pod.view.text
    if text is None or text.status != "Completed" or (text.restarts or 0) != 0 or not pod.view.spec.nodeName:
        return False
    if (text.columns or {}).get("IP") != "<none>":
        return False
    # a Deployment's pod by its name: its pod-template-hash has a letter, where a CronJob's Job
    # has the minute in digits
    named = DEPLOYMENT_POD.fullmatch(pod.name)
    return named is not None and re.search("[a-z]", named[2]) is not None
