"""Pod status blocks for the states a large cluster shows: running, restarted, crash-looping, pending, evicted."""

from __future__ import annotations

from typing import Any

from synthetic.ids import Ids
from synthetic.objects.containers import image_id
from synthetic.times import timestamp

# Share of pods in each state (the rest run healthy); drawn per pod from the seeded RNG.
STATE_SHARES: tuple[tuple[str, float], ...] = (
    ("restarted", 0.05),
    ("crashloop", 0.012),
    ("imagepull", 0.004),
    ("pending", 0.008),
    ("evicted", 0.004),
)


def pick_state(roll: float) -> str:
    """Map a uniform roll in [0, 1) to a pod state."""
    for state, share in STATE_SHARES:
        if roll < share:
            return state
        roll -= share
    return "running"


def _condition(kind: str, seconds_ago: int, ok: bool, reason: str | None = None, message: str | None = None) -> dict[str, Any]:
    condition: dict[str, Any] = {
        "lastProbeTime": None,
        "lastTransitionTime": timestamp(seconds_ago),
        "status": "True" if ok else "False",
        "type": kind,
    }
    if reason:
        condition["reason"] = reason
    if message:
        condition["message"] = message
    return condition


def _terminated(ids: Ids, reason: str, exit_code: int, started_ago: int, finished_ago: int) -> dict[str, Any]:
    return {
        "terminated": {
            "containerID": "containerd://" + ids.hex(),
            "exitCode": exit_code,
            "finishedAt": timestamp(finished_ago),
            "reason": reason,
            "startedAt": timestamp(started_ago),
        }
    }


def _running_status(container: dict[str, Any], ids: Ids, started_ago: int) -> dict[str, Any]:
    return {
        "containerID": "containerd://" + ids.hex(),
        "image": container["image"],
        "imageID": image_id(container["image"]),
        "lastState": {},
        "name": container["name"],
        "ready": True,
        "restartCount": 0,
        "started": True,
        "state": {"running": {"startedAt": timestamp(started_ago)}},
    }


def pod_status(
    state: str, pod: dict[str, Any], ids: Ids, age: int, host_ip: str | None, pod_ip: str | None,
    qos_class: str, node_count: int,
) -> dict[str, Any]:
    """The status of `pod` (metadata and spec already filled) in `state`, created `age` s ago."""
    rng = ids.rng
    spec, meta = pod["spec"], pod["metadata"]
    containers = spec["containers"]
    main = containers[0]["name"]
    scheduled_ago = max(age - rng.randint(0, 3), 0)
    if state == "pending":
        message = (
            f"0/{node_count} nodes are available: 3 node(s) had untolerated taint "
            "{node-role.kubernetes.io/control-plane: }, "
            f"{node_count - 3} Insufficient memory. preemption: 0/{node_count} nodes are available: "
            f"3 Preemption is not helpful for scheduling, {node_count - 3} No preemption victims "
            "found for incoming pod."
        )
        return {
            "conditions": [_condition("PodScheduled", scheduled_ago, False, "Unschedulable", message)],
            "phase": "Pending",
            "qosClass": qos_class,
        }
    started_ago = max(scheduled_ago - rng.randint(1, 30), 0)
    statuses = [_running_status(c, ids, started_ago) for c in containers]
    ready = True
    phase = "Running"
    extra: dict[str, Any] = {}
    first = statuses[0]
    if state == "restarted":
        restarts = rng.randint(1, 12)
        last_start = rng.randint(0, started_ago)
        first["restartCount"] = restarts
        reason, code = ("OOMKilled", 137) if rng.random() < 0.6 else ("Error", 1)
        first["lastState"] = _terminated(ids, reason, code, last_start + rng.randint(60, 90_000), last_start + 1)
        first["state"] = {"running": {"startedAt": timestamp(last_start)}}
    elif state == "crashloop":
        ready = False
        last_start = rng.randint(60, 600)
        first.update(
            ready=False, started=False, restartCount=rng.randint(20, 900),
            lastState=_terminated(ids, "Error", rng.choice((1, 2, 139)), last_start + rng.randint(1, 20), last_start),
            state={"waiting": {
                "message": f"back-off 5m0s restarting failed container={main} pod={meta['name']}_{meta['namespace']}({meta['uid']})",
                "reason": "CrashLoopBackOff",
            }},
        )
    elif state == "imagepull":
        ready = False
        phase = "Pending"
        first.update(
            imageID="", ready=False, started=False,
            state={"waiting": {"message": f'Back-off pulling image "{containers[0]["image"]}"', "reason": "ImagePullBackOff"}},
        )
        del first["containerID"]
    elif state == "evicted":
        ready = False
        phase = "Failed"
        request = containers[0].get("resources", {}).get("requests", {}).get("memory", "0")
        used = rng.randint(900_000, 4_000_000)
        message = (
            f"The node was low on resource: memory. Threshold quantity: 100Mi, available: "
            f"{rng.randint(40_000, 99_000)}Ki. Container {main} was using {used}Ki, request is "
            f"{request}, has larger consumption of memory. "
        )
        extra = {"message": message, "reason": "Evicted"}
        for status in statuses:
            status.update(ready=False, started=False, state=_terminated(ids, "ContainerStatusUnknown", 137, started_ago, max(started_ago - 3600, 0)))
            status["state"]["terminated"]["message"] = "The container could not be located when the pod was terminated"
            del status["state"]["terminated"]["containerID"]
    unready = f"containers with unready status: [{main}]"
    conditions = [
        _condition("PodReadyToStartContainers", started_ago, phase != "Failed"),
        _condition("Initialized", started_ago, True),
        _condition("Ready", started_ago, ready, None if ready else "ContainersNotReady", None if ready else unready),
        _condition("ContainersReady", started_ago, ready, None if ready else "ContainersNotReady", None if ready else unready),
        _condition("PodScheduled", scheduled_ago, True),
    ]
    if state == "evicted":
        conditions.insert(0, _condition("DisruptionTarget", started_ago, True, "TerminationByKubelet", extra["message"]))
    status: dict[str, Any] = {
        "conditions": conditions,
        "containerStatuses": statuses,
        "hostIP": host_ip,
        "hostIPs": [{"ip": host_ip}],
        "phase": phase,
        "qosClass": qos_class,
        "startTime": timestamp(scheduled_ago),
    }
    if pod_ip and phase != "Failed":
        status["podIP"] = pod_ip
        status["podIPs"] = [{"ip": pod_ip}]
    if spec.get("initContainers"):
        status["initContainerStatuses"] = [
            {
                "containerID": "containerd://" + ids.hex(),
                "image": c["image"],
                "imageID": image_id(c["image"]),
                "lastState": {},
                "name": c["name"],
                "ready": True,
                "restartCount": 0,
                "started": False,
                "state": _terminated(ids, "Completed", 0, started_ago + 5, started_ago + 1),
            }
            for c in spec["initContainers"]
        ]
    status.update(extra)
    return status

