"""Pods placed on a node whose containers were still not created long after (ContainerCreating,
PodInitializing, Init:N/M): the network plugin, a volume or the runtime holds them."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.events import events_by_object, fold_events, resolved_reason
from analyzer.findings.facts import (
    age_text,
    capture_is_lower_bound,
    container_path,
    ev,
    lasted_text,
    object_age,
    pod_containers,
    states_no_container,
)
from analyzer.findings.rules.events_failed_mount import REASONS as MOUNT_REASONS
from analyzer.findings.suspects import pod_suspects
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="pod-stuck-starting", title="Pod stuck creating its containers", severity="warning",
    category="workloads", requires=("Pod",),
    message="Pod {namespace}/{name} is still {status} {lasted} after it was created: its containers are not created{init}",
    remediation="Describe the pod: its events say what holds it (the CNI plugin not ready on the node, a volume that does not attach or mount, an init container that never ends).",
)
# Waiting reasons (and kubectl STATUS words) of a pod being set up, not of one that failed.
CREATING = frozenset({"ContainerCreating", "PodInitializing"})
_INIT_PROGRESS = re.compile(r"Init:\d+/\d+")
# Pulling images and attaching volumes take seconds to minutes; past this the pod is held.
STUCK = timedelta(minutes=5)
# The kubelet's back-off before running a failed container again is at most 5m: a container
# restarted longer ago than this (and a margin) did not fail again since.
RESTARTED_AGAIN_WITHIN = timedelta(minutes=10)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    events: dict | None = None  # (kind, namespace, name) -> events, built at the first stuck pod
    for pod in pod_suspects(cluster).of("pending", "text"):
        if pod.view.metadata.deletionTimestamp:
            continue
        status = _creating_status(pod)
        if status is None:
            continue
        age = object_age(cluster, pod)
        # under a capture that is a lower bound its age is "at least": said as info, not skipped
        young = age is not None and age <= STUCK
        if young and not capture_is_lower_bound(cluster):
            continue
        if events is None:
            events = events_by_object(cluster)
        if _held_by_a_volume(cluster, events, pod):
            continue
        if age is None:
            # a describe shows no creation and no age: that it is setting up is all that is
            # known, so it is said, not judged (amazon-vpc-cni-k8s#59: couchdb ContainerCreating)
            if not events.get(("Pod", pod.namespace, pod.name)):
                unknown = "an unknown time (no age in the dump, no event saying what holds it)"
                yield RULE.fail(pod, ev(pod, status[0], status[1], "Running"), status=status[1],
                                age=unknown, lasted=unknown, init=_init_restarts(pod, status[1])).as_info()
            continue
        finding = RULE.fail(pod, ev(pod, status[0], status[1], "Running"),
                            status=status[1], age=age_text(age), lasted=lasted_text(cluster, age),
                            init=_init_restarts(pod, status[1]))
        yield finding.as_info() if young else finding


def _init_restarts(pod, status: str) -> str:
    """What a pasted row's restarts say of a pod still in its init containers: kubectl's printer
    sums only the init containers' restarts while one has not ended, so one of them fails and is
    run again, rather than running on (helm/charts#3154: Init:0/1 with 4 restarts in 14m)."""
    text = pod.view.text
    if not _INIT_PROGRESS.fullmatch(status) or text is None or not text.restarts:
        return ""
    said = f"; its row's {text.restarts} restart(s) are its init containers' (kubectl counts only theirs while a pod initializes)"
    last = text.last_restart_ago_seconds
    if last is not None and timedelta(seconds=last) > RESTARTED_AGAIN_WITHIN:
        # a failing init container is run again within the kubelet's back-off (at most 5m): one
        # last restarted long ago has run since (NCEAS/vegbank's helm README: `Init:1/3  2 (11m
        # ago)  11m`, its restarts at its start, then a database restore of 25 minutes)
        return (f"{said}, the last {age_text(timedelta(seconds=last))} ago and none since: the one running "
                "now has not failed since (its log says how far it has got)")
    return f"{said}: one fails and is run again (its log says why)"


def _creating_status(pod) -> tuple[str, str] | None:
    """(field, value) saying the pod is being set up: its STATUS column, else its containers."""
    text = pod.view.text
    if text is not None and text.status is not None and states_no_container(pod):
        word = text.status
        if word in CREATING or _INIT_PROGRESS.fullmatch(word):
            return "STATUS column", word
        return None
    if pod.view.status.phase != "Pending" or not pod.view.spec.nodeName:
        return None
    found = None
    for ctype, _spec, s in pod_containers(pod):
        waiting = s.state.waiting if s is not None and s.state is not None else None
        if s is not None and (s.restartCount or (waiting is not None and waiting.reason not in CREATING)):
            return None  # a crash or pull error: the rules of those say it
        if waiting is not None and waiting.reason in CREATING and found is None:
            found = (f"{container_path(ctype, s.name, True)}.state.waiting.reason", waiting.reason)
    return found


def _held_by_a_volume(cluster: AnalyzedDump, events: dict, pod) -> bool:
    """The pod's own events say a volume still fails to attach or mount: events-failed-mount
    already says this pod waits on it (one problem, one finding)."""
    facts = [f for f in events.get(("Pod", pod.namespace, pod.name), ())
             if f.reason in MOUNT_REASONS]
    return any(not resolved_reason(cluster, group) for group in fold_events(facts))
