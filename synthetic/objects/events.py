"""Events kubelet and the scheduler record for a pod in each state."""

from __future__ import annotations

from typing import Any

from synthetic.ids import Ids
from synthetic.times import timestamp


def core_event(metadata: dict[str, Any], involved: dict[str, Any], reason: str, message: str, first: str, last: str,
               count: int, event_type: str, component: str, host: str | None = None) -> dict[str, Any]:
    """A core/v1 Event as kubelet and the controllers record it (`first`, `last`: RFC 3339)."""
    return {
        "kind": "Event", "apiVersion": "v1", "metadata": metadata, "involvedObject": involved, "reason": reason,
        "message": message, "source": {"component": component, **({"host": host} if host else {})},
        "firstTimestamp": first, "lastTimestamp": last, "count": count, "type": event_type, "eventTime": None,
        "reportingComponent": component, "reportingInstance": host or "",
    }


def pod_events(ids: Ids, pod: dict[str, Any], state: str) -> list[dict[str, Any]]:
    """Events kubelet and the scheduler report for a pod in `state`."""
    rng = ids.rng
    meta, spec = pod["metadata"], pod["spec"]
    main = spec["containers"][0]
    node = spec.get("nodeName", "")
    involved = {"apiVersion": "v1", "kind": "Pod", "name": meta["name"], "namespace": meta["namespace"],
                "resourceVersion": meta["resourceVersion"], "uid": meta["uid"]}
    container_ref = {**involved, "fieldPath": f"spec.containers{{{main['name']}}}"}
    if state == "pending":
        reasons = [("Warning", "FailedScheduling", involved, "default-scheduler", "",
                    pod["status"]["conditions"][0]["message"], rng.randint(50, 3000))]
    elif state == "crashloop":
        reasons = [
            ("Warning", "BackOff", container_ref, "kubelet", node, "Back-off restarting failed container "
             f"{main['name']} in pod {meta['name']}_{meta['namespace']}({meta['uid']})", rng.randint(100, 5000)),
            ("Normal", "Pulled", container_ref, "kubelet", node, f'Container image "{main["image"]}" already present on machine',
             rng.randint(20, 900)),
        ]
    elif state == "imagepull":
        reasons = [
            ("Warning", "Failed", container_ref, "kubelet", node, f'Failed to pull image "{main["image"]}": rpc error: code = '
             f'NotFound desc = failed to pull and unpack image "{main["image"]}": failed to resolve reference '
             f'"{main["image"]}": {main["image"]}: not found', rng.randint(5, 80)),
            ("Normal", "BackOff", container_ref, "kubelet", node, f'Back-off pulling image "{main["image"]}"', rng.randint(50, 2000)),
        ]
    elif state == "restarted":
        reasons = [("Warning", "Unhealthy", container_ref, "kubelet", node,
                    f'Readiness probe failed: Get "http://{pod["status"].get("podIP", "10.0.0.1")}:8080/ready": dial tcp '
                    f'{pod["status"].get("podIP", "10.0.0.1")}:8080: connect: connection refused', rng.randint(1, 30))]
    elif state == "evicted":
        reasons = [("Warning", "Evicted", involved, "kubelet", node, pod["status"]["message"], 1)]
    else:
        reasons = [
            ("Normal", "Scheduled", involved, "default-scheduler", "",
             f"Successfully assigned {meta['namespace']}/{meta['name']} to {node}", 1),
            ("Normal", "Pulled", container_ref, "kubelet", node, f'Container image "{main["image"]}" already present on machine', 1),
            ("Normal", "Created", container_ref, "kubelet", node, f"Created container {main['name']}", 1),
            ("Normal", "Started", container_ref, "kubelet", node, f"Started container {main['name']}", 1),
        ]
    events = []
    for kind, reason, target, component, host, message, count in reasons:
        last_ago = rng.randint(5, 3000)
        first_ago = last_ago + rng.randint(0, 86_400) if count > 1 else last_ago
        metadata = {"creationTimestamp": timestamp(first_ago), "name": f"{meta['name']}.{ids.hex(16)}",
                    "namespace": meta["namespace"], "resourceVersion": ids.resource_version(), "uid": ids.uid()}
        event = core_event(metadata, target, reason, message, timestamp(first_ago), timestamp(last_ago), count, kind,
                           component, host)
        events.append(event)
    return events
