"""Controllers short of ready pods: the one check the Deployment, StatefulSet and DaemonSet
rules share, with where each kind keeps its desired and ready counts."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

from analyzer.distributions.workloads import pod_ready
from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import (
    age_text,
    ev,
    is_manifest,
    known_age,
    objects_named,
    owner,
    pods_by_namespace,
    text_status,
    waiting_containers,
)
from analyzer.findings.ownership import owned_pods
from analyzer.findings.types import Finding, RuleMeta
from analyzer.ingest.records import KubeObject
from analyzer.kube.time import parse_time
from analyzer.memo import once_per
from analyzer.model.normalize import as_dict
from analyzer.model.podstatus import pod_status


def _counts(obj: KubeObject) -> tuple[int | None, int, str, str]:
    """(desired, ready, ready field, desired field) as the kind's status states them."""
    spec, status = obj.view.spec, obj.view.status
    # Available pods are ready ones (ready for minReadySeconds): at least that many are ready.
    # `kubectl describe` prints only the available count; the API omits a count of 0.
    if obj.kind == "DaemonSet":
        ready, available = status.numberReady or 0, status.numberAvailable or 0
        return (status.desiredNumberScheduled, max(ready, available),
                "status.numberReady" if ready >= available else "status.numberAvailable",
                "status.desiredNumberScheduled")
    desired = spec.replicas if spec.replicas is not None else 1  # the API's default
    stated_ready, stated_available = status.readyReplicas, getattr(status, "availableReplicas", None)
    ready, available = stated_ready or 0, stated_available or 0
    # the count the object states: a pasted row of an older kubectl (DESIRED CURRENT UP-TO-DATE
    # AVAILABLE) gives no ready count, so its AVAILABLE 0 is not `readyReplicas = 0`
    by_available = ready < available or (stated_ready is None and stated_available is not None)
    return (desired, max(ready, available),
            "status.availableReplicas" if by_available else "status.readyReplicas", "spec.replicas")


def _ready_column(ready: str | None) -> tuple[int, int] | None:
    """(ready, desired) of a pasted `kubectl get` READY cell such as "1/3"."""
    parts = (ready or "").split("/")
    if len(parts) == 2 and parts[0].isdigit() and parts[1].isdigit():
        return int(parts[0]), int(parts[1])
    return None


# A controller younger than this at the capture is still rolling its first pods out.
STARTING = timedelta(minutes=5)


def _starting(cluster: AnalyzedDump, obj: KubeObject) -> str:
    """ "created 19s before capture: still rolling out" for a controller that young ('' else)."""
    age = known_age(cluster, obj)  # (a capture dated by its own creation says no age)
    if age is not None and timedelta(0) <= age < STARTING and not _past_its_start(obj):
        return f"created {age_text(age)} before capture: still rolling its pods out"
    return ""


def _past_its_start(obj: KubeObject) -> bool:
    """The controller's own status says its start is over, whatever its age at a capture time
    that may be an estimate (its own creationTimestamp when nothing later dates the dump): its
    rollout timed out (Progressing=False, ProgressDeadlineExceeded), or a condition of it changed
    more than STARTING after it was created."""
    created = parse_time(obj.view.metadata.creationTimestamp)
    for cond in obj.view.status.conditions or ():
        if cond.type == "Progressing" and cond.status == "False" and cond.reason == "ProgressDeadlineExceeded":
            return True
        changed = [t for t in (parse_time(cond.lastTransitionTime), parse_time(getattr(cond, "lastUpdateTime", None)))
                   if t is not None]
        if created is not None and changed and max(changed) - created >= STARTING:
            return True
    return False


def short_of_ready(cluster: AnalyzedDump, rule: RuleMeta, kind: str) -> Iterator[Finding]:
    """A finding for each controller of `kind` with fewer ready pods than it wants; info when
    the controller is only minutes old (its pods are still starting)."""
    by_name = {(o.namespace, o.name): o for o in cluster.objects_of(kind)}
    for finding in _short_of_ready(cluster, rule, kind):
        obj = by_name.get((finding.namespace, finding.name))
        starting = _starting(cluster, obj) if obj is not None else ""
        if starting and _pods_fail_on_their_own(cluster, obj):
            # young, but stuck: its pods cannot pull, crash, are misconfigured or fit no node
            starting = ""
        if starting and _creates_no_pods(cluster, obj):
            starting = ""
        if not starting and obj is not None and (rolling := _rolling_out(cluster, obj)) \
                and not _pods_fail_on_their_own(cluster, obj):
            starting = rolling
        yield finding.as_info(resolved=starting) if starting else finding


# A Deployment's controller makes its pods within seconds of its creation; one that has made none
# this long after is not rolling out, its ReplicaSet is refused them (FailedCreate: a missing
# service account, a quota, an admission webhook).
CREATES_PODS_WITHIN = timedelta(seconds=30)


def _creates_no_pods(cluster: AnalyzedDump, obj: KubeObject) -> bool:
    """A young Deployment with no pod of its template at all (UP-TO-DATE 0, none in the dump),
    its status observed, past the seconds its controller takes to make them
    (aws-ebs-csi-driver#945: ebs-csi-controller 0/1, UP-TO-DATE 0, at 51s, its claim Pending)."""
    if obj.kind != "Deployment":
        return False
    status, meta = obj.view.status, obj.view.metadata
    age = known_age(cluster, obj)
    if age is None or age < CREATES_PODS_WITHIN or (obj.view.spec.replicas or 1) < 1:
        return False
    generation, observed = getattr(meta, "generation", None), getattr(status, "observedGeneration", None)
    if generation is not None and (observed is None or observed < generation):
        return False  # its controller has not looked at it yet
    made = [getattr(status, "updatedReplicas", None), getattr(status, "replicas", None)]
    if any(n for n in made) or obj.view.spec.replicas == 0:
        return False
    return not any(True for _ in owned_pods(cluster, obj))


# A pod waiting for one of these does not get past it by waiting longer.
OWN_FAILURES = frozenset({"ImagePullBackOff", "ErrImagePull", "InvalidImageName", "ErrImageNeverPull",
                          "CrashLoopBackOff", "CreateContainerConfigError", "CreateContainerError",
                          "RunContainerError"})


def _pods_fail_on_their_own(cluster: AnalyzedDump, obj: KubeObject) -> bool:
    return any(waiting_containers(pod, OWN_FAILURES) or _turned_down(cluster, pod) or _stopped(pod)
               for pod in owned_pods(cluster, obj))


# What kubectl shows of a pod whose containers stopped for good (kubectl's printPod: a
# terminated container's reason, the pod's own reason). A controller's pod restarts its
# containers (restartPolicy Always): one that stopped is not one still starting.
STOPPED = frozenset({"Completed", "Error", "Terminated", "Shutdown", "NodeShutdown", "Evicted",
                     "ContainerStatusUnknown", "OOMKilled"})


def _stopped(pod: KubeObject) -> bool:
    """The pod stopped and is not being deleted (kubernetes/kubernetes#104531: a Deployment's
    pod Completed on a node shut down gracefully, 2 of 3 ready at 2m54s and never replaced)."""
    if pod.view.metadata.deletionTimestamp or text_status(pod) == "Terminating":
        return False  # leaving, as an old revision's pods do in a rollout
    if pod.view.status.phase in ("Succeeded", "Failed"):
        return True
    return (text_status(pod) or pod_status(pod.view)[0]) in STOPPED


def _turned_down(cluster: AnalyzedDump, pod: KubeObject) -> bool:
    """The scheduler found no node for the pod (PodScheduled=False, Unschedulable): it is not
    starting, it waits for room it does not have (unless an earlier revision's pod is leaving
    the node it waits for)."""
    if pod.view.spec.nodeName:
        return False
    return any(c.type == "PodScheduled" and c.status == "False" and c.reason == "Unschedulable"
               for c in pod.view.status.conditions or ()) and leaving_predecessor(cluster, pod) is None


# What a Deployment's Progressing condition says while its controller moves it to a new
# ReplicaSet, before the progress deadline (after it: False, ProgressDeadlineExceeded).
_ROLLING_REASONS = frozenset({"ReplicaSetUpdated", "NewReplicaSetCreated", "FoundNewReplicaSet"})
_PROGRESS_DEADLINE = 600  # seconds, the API's default spec.progressDeadlineSeconds


def _rolling_out(cluster: AnalyzedDump, obj: KubeObject) -> str:
    """ "a rollout ... in progress" for a Deployment still Available whose controller is moving it
    to a ReplicaSet created within its progress deadline before the capture ('' else)."""
    if obj.kind != "Deployment":
        return ""
    conditions = {c.type: c for c in obj.view.status.conditions or ()}
    progressing, available = conditions.get("Progressing"), conditions.get("Available")
    if progressing is None or progressing.status != "True" or progressing.reason not in _ROLLING_REASONS \
            or available is None or available.status != "True":
        return ""
    newest = _newest_replica_sets(cluster).get((obj.namespace, obj.name))
    age = known_age(cluster, newest) if newest is not None else None
    deadline = as_dict(obj.body().get("spec")).get("progressDeadlineSeconds")
    deadline = deadline if isinstance(deadline, int) and not isinstance(deadline, bool) else _PROGRESS_DEADLINE
    if age is None or not timedelta(0) <= age < timedelta(seconds=deadline):
        return ""
    return (f"a rollout in progress: its new ReplicaSet {newest.name} was created {age_text(age)} before "
            f"capture, within its progress deadline (Progressing=True, {progressing.reason}), and it stays Available")


@once_per
def _newest_replica_sets(cluster: AnalyzedDump) -> dict[tuple[str, str], KubeObject]:
    """(namespace, Deployment) -> its newest ReplicaSet (by creation), from one walk."""
    newest: dict[tuple[str, str], KubeObject] = {}
    for rs in cluster.objects_of("ReplicaSet"):
        controller = owner(rs)
        if controller is None or controller[0] != "Deployment":
            continue
        key = (rs.namespace, controller[1])
        held = newest.get(key)
        if held is None or (rs.view.metadata.creationTimestamp or "") > (held.view.metadata.creationTimestamp or ""):
            newest[key] = rs
    return newest


def leaving_predecessor(cluster: AnalyzedDump, pod: KubeObject) -> KubeObject | None:
    """A pod of another ReplicaSet of the pod's Deployment (an earlier revision), in its
    namespace, that is being deleted (deletionTimestamp set): the pod a new one held back by its
    required anti-affinity waits for in a rolling update; None when there is none."""
    mine = owner(pod)
    if mine is None or mine[0] != "ReplicaSet":
        return None
    deployment = _deployment_of(cluster, pod.namespace, mine[1])
    for other in pods_by_namespace(cluster).get(pod.namespace, ()):
        theirs = owner(other)
        if other.view.metadata.deletionTimestamp and theirs is not None and theirs[0] == "ReplicaSet" \
                and theirs[1] != mine[1] and _deployment_of(cluster, other.namespace, theirs[1]) == deployment:
            return other
    return None


def _deployment_of(cluster: AnalyzedDump, namespace: str, replica_set: str) -> str:
    """The Deployment a ReplicaSet belongs to: its owner, else its name less the pod-template hash."""
    found = objects_named(cluster, "ReplicaSet").get((namespace, replica_set))
    controller = owner(found) if found is not None else None
    if controller is not None and controller[0] == "Deployment":
        return controller[1]
    return replica_set.rpartition("-")[0]


# `Pods Status:  3 Running / 0 Waiting / 0 Succeeded / 0 Failed`
_PODS_RUNNING = re.compile(r"^(\d+) Running\b")


def _described_ready(cluster: AnalyzedDump, obj: KubeObject) -> tuple[int, str, str] | None:
    """(ready, where it is told, what bounds it) of a controller whose describe or pasted row
    states no ready count: its pods in the dump when every one it has (its `total`, CURRENT) is
    there and says whether it is ready, else its Running pods or the pods it has when fewer than
    it wants (no more can be ready); None when unknown (kubernetes/kubernetes#64500:
    `3 desired | 3 total`, 2 of 3 pods ready, was '0 of 3'; googlecodelabs/feedback#295: an old
    `NAME DESIRED CURRENT AGE` row, 3 and 2, mongo-0 2/2 Running beside it, was '0 of 3')."""
    pods = owned_pods(cluster, obj)
    states = [pod_ready(pod) for pod in pods]
    status = obj.view.status
    if obj.kind == "DaemonSet":  # the pods it has: one per node it is scheduled on
        total, desired = status.currentNumberScheduled, status.desiredNumberScheduled or 0
    else:
        total = status.replicas
        desired = obj.view.spec.replicas if obj.view.spec.replicas is not None else 1
    if pods and None not in states and total is not None and len(pods) >= total:
        return sum(bool(state) for state in states), "its pods in the dump", ""
    running = _PODS_RUNNING.match(obj.view.text.pods_status or "") if obj.view.text else None
    if running is not None and int(running.group(1)) < desired:
        return int(running.group(1)), "Pods Status (Running)", ""
    if total is not None and total < desired:
        field = "status.currentNumberScheduled" if obj.kind == "DaemonSet" else "status.replicas"
        return total, field, f" (at most: it has {total} pod(s), and the dump says not which are ready)"
    return None


def _short_of_ready(cluster: AnalyzedDump, rule: RuleMeta, kind: str) -> Iterator[Finding]:
    for obj in cluster.objects_of(kind):
        if is_manifest(obj):
            continue  # what was asked for; the dump does not say how many run
        status, text = obj.view.status, obj.view.text
        if text is not None and all(n is None for n in (status.observedGeneration, status.replicas,
                                                         status.desiredNumberScheduled)):
            # A pasted table row: its READY column is all the dump says (a describe states its
            # counts, "0 total" among them).
            pasted = _ready_column(text.ready)
            if pasted and pasted[0] < pasted[1]:
                ready, desired = pasted
                yield rule.fail(obj, ev(obj, "READY column", text.ready, f"{desired}/{desired}"),
                                ready=ready, desired=desired, detail="",
                                state=f"has {ready} of {desired} pods ready")
            elif (timed_out := _timed_out(obj)) is not None:
                yield _rollout_timed_out(rule, obj, timed_out, pasted)
            continue
        desired, ready, ready_field, desired_field = _counts(obj)
        bound = ""
        stated = (status.numberReady, status.numberAvailable) if obj.kind == "DaemonSet" \
            else (status.readyReplicas, getattr(status, "availableReplicas", None))
        if text is not None and stated == (None, None):
            # a StatefulSet's or ReplicaSet's describe, an old StatefulSet row (DESIRED CURRENT),
            # a DaemonSet's row or describe of kubectl before 1.6 (DESIRED CURRENT NODE-SELECTOR
            # AGE; no available count: kubernetes/kubernetes#30206) print no ready count: 0 is
            # not what they say
            if (told := _described_ready(cluster, obj)) is None:
                if (timed_out := _timed_out(obj)) is not None:
                    yield _rollout_timed_out(rule, obj, timed_out, None)
                continue
            ready, ready_field, bound = told
        if desired and ready < desired:
            cond = next((c for c in status.conditions or ()
                         if c.status == "False" or c.type == "ReplicaFailure"), None)
            detail = f" ({cond.type}: {cond.message})" if cond and cond.message else bound
            yield rule.fail(obj, ev(obj, ready_field, ready, f"{desired} ({desired_field})"),
                            ready=ready, desired=desired, detail=detail,
                            state=f"has {ready} of {desired} pods ready")
        elif (timed_out := _timed_out(obj)) is not None:
            yield _rollout_timed_out(rule, obj, timed_out, (ready, desired) if desired else None)


def _timed_out(obj: KubeObject) -> Any:
    """A Deployment's Progressing=False condition of reason ProgressDeadlineExceeded: its rollout
    stopped making progress, whether or not its old pods keep it available (None else)."""
    if obj.kind != "Deployment":
        return None
    return next((c for c in obj.view.status.conditions or ()
                 if c.type == "Progressing" and c.status == "False" and c.reason == "ProgressDeadlineExceeded"), None)


def _rollout_timed_out(rule: RuleMeta, obj: KubeObject, cond: Any, counts: tuple[int, int] | None) -> Finding:
    """A Deployment all of whose wanted pods are ready (or whose paste counts none), its rollout
    timed out: the new revision's pods never became ready, the old ones still serve
    (Deepomatic/dmake#475: `rollout status` 'exceeded its progress deadline', the describe's
    Available True and Progressing False ProgressDeadlineExceeded, and nothing was said)."""
    updated, desired = getattr(obj.view.status, "updatedReplicas", None), obj.view.spec.replicas
    said = [f"{updated} of {desired} pods updated"] if updated is not None and desired else []
    if counts is not None:
        said.append(f"{counts[0]} of {counts[1]} ready")
    detail = f" ({', '.join(said)})" if said else ""
    if cond.message:
        detail += f": {cond.message}"
    return rule.fail(obj, ev(obj, "status.conditions[Progressing].reason", cond.reason, "NewReplicaSetAvailable"),
                     ready=counts[0] if counts else None, desired=counts[1] if counts else desired,
                     detail=detail, state="has a rollout that timed out (Progressing=False, ProgressDeadlineExceeded)")
