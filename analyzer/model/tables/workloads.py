"""The workloads table: every controller kind with its desired/ready counts and pod template."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec
import pandas as pd

from analyzer.kube.views import Condition, PodSpec, WorkloadStatus, WorkloadView
from analyzer.model.frame import empty_columns, to_frame
from analyzer.model.managed import managed_index
from analyzer.model.normalize import (
    as_dict,
    as_list,
    builtin_objects_by_kind,
    conditions_text,
    controller_of,
    joined,
    selector_text,
    source_of,
    text_age,
)

if TYPE_CHECKING:
    from analyzer.ingest.dump import Dump

WORKLOAD_KINDS = ("Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job", "CronJob",
                  "ReplicationController")


def counts(kind: str, view: WorkloadView) -> tuple[Any, Any, Any, Any, Any]:
    """(desired, current, ready, available, updated) in each kind's own status fields.

    Examples:
        >>> from analyzer.kube.views import WorkloadSpec, WorkloadStatus
        >>> counts("DaemonSet", WorkloadView(status=WorkloadStatus(
        ...     desiredNumberScheduled=3, currentNumberScheduled=3, numberReady=2)))
        (3, 3, 2, 0, 0)
        >>> counts("Deployment", WorkloadView(spec=WorkloadSpec(replicas=2),
        ...        status=WorkloadStatus(replicas=2, availableReplicas=1)))
        (2, 2, 0, 1, 0)
        >>> counts("Deployment", WorkloadView(spec=WorkloadSpec(replicas=2)))
        (2, None, None, None, None)
    """
    spec, st = view.spec, view.status
    if kind == "DaemonSet":
        found = (st.desiredNumberScheduled, st.currentNumberScheduled, st.numberReady,
                 st.numberAvailable, st.updatedNumberScheduled)
    elif kind == "Job":
        found = (spec.completions, _active(st.active), st.ready, None, None)
    elif kind == "CronJob":
        stated = view.text.active if view.text is not None else None
        found = (None, _active(st.active) if st.active is not None else stated, None, None, None)
    else:
        found = (spec.replicas, st.replicas, st.readyReplicas, st.availableReplicas,
                 st.updatedReplicas)
    if view.text is None and _reported(st):
        # The API omits zero counters from a reported status: absent there means 0.
        found = (found[0], *(0 if v is None else v for v in found[1:3]),
                 *(None if kind in ("Job", "CronJob") else 0 if v is None else v
                   for v in found[3:]))
    return found


def _reported(status: WorkloadStatus) -> bool:
    """Whether the object carries a status at all (an applied manifest has none)."""
    return any(v is not None for v in msgspec.structs.astuple(status))


def _active(active: Any) -> int | None:
    # A Job counts its active pods; a CronJob lists its active Jobs.
    if isinstance(active, list):
        return len(active)
    return active


def failed_condition(conditions: list[Condition] | None) -> str | None:
    """The message of a condition that says the controller is failing.

    Examples:
        >>> failed_condition([Condition(type="Progressing", status="False",
        ...                             reason="ProgressDeadlineExceeded", message="too slow")])
        'ProgressDeadlineExceeded: too slow'
    """
    for c in conditions or ():
        failing = ((c.type in ("Failed", "ReplicaFailure") and c.status == "True")
                   or (c.type == "Progressing" and c.status == "False"))
        if failing:
            return ": ".join(p for p in (c.reason, c.message) if p) or c.type
    return None


def _template_spec(kind: str, view: WorkloadView) -> PodSpec | dict[str, Any] | None:
    if kind == "CronJob":
        job_spec = view.spec.jobTemplate.spec if view.spec.jobTemplate else None
        spec = as_dict(as_dict(job_spec).get("template")).get("spec")
        return spec if isinstance(spec, dict) else None
    return view.spec.template.spec if view.spec.template else None


def _template_fields(spec: PodSpec | dict[str, Any] | None) -> tuple[Any, Any, Any, Any]:
    """(images, serviceAccountName, hostNetwork, priorityClassName) of a pod template."""
    if spec is None:
        return None, None, None, None
    if isinstance(spec, dict):  # a CronJob's template is read as a plain dict
        containers = as_list(spec.get("containers"))
        images = joined(c.get("image") for c in containers if isinstance(c, dict))
        return (images, spec.get("serviceAccountName") or spec.get("serviceAccount"),
                spec.get("hostNetwork"), spec.get("priorityClassName"))
    images = joined(c.image for c in spec.containers or ())
    return (images, spec.serviceAccountName or spec.serviceAccount, spec.hostNetwork,
            spec.priorityClassName)


def build(cluster: Dump) -> dict[str, pd.DataFrame]:
    """The workloads table."""
    w = empty_columns("workloads")
    managed = managed_index(cluster)
    for obj in builtin_objects_by_kind(cluster, *WORKLOAD_KINDS):
        view: WorkloadView = obj.view
        meta, spec, st = view.metadata, view.spec, view.status
        kind = obj.kind
        desired, current, ready, available, updated = counts(kind, view)
        owner = controller_of(meta)
        images, service_account, host_network, priority_class = _template_fields(
            _template_spec(kind, view))
        w["kind"].append(kind)
        w["namespace"].append(obj.namespace)
        w["name"].append(obj.name)
        w["uid"].append(obj.uid)
        w["created"].append(meta.creationTimestamp)
        w["age"].append(text_age(view))
        w["desired"].append(desired)
        w["current"].append(current)
        w["ready"].append(ready)
        w["available"].append(available)
        w["updated"].append(updated)
        job_counts_known = kind == "Job" and view.text is None and _reported(st)
        w["succeeded"].append((st.succeeded or 0) if job_counts_known else st.succeeded)
        w["failed"].append((st.failed or 0) if job_counts_known else st.failed)
        w["selector"].append(selector_text(spec.selector))
        w["owner_kind"].append(owner.kind if owner else None)
        w["owner_name"].append(owner.name if owner else None)
        w["images"].append(images)
        w["service_account"].append(service_account)
        w["host_network"].append(host_network)
        w["priority_class"].append(priority_class)
        w["schedule"].append(spec.schedule)
        w["suspended"].append(spec.suspend)
        w["conditions"].append(conditions_text(st.conditions))
        w["failed_condition"].append(failed_condition(st.conditions))
        w["source"].append(source_of(obj))
        w["managed"].append(managed.of(obj.namespace, meta.labels, meta.annotations,
                                       (owner.kind, owner.name) if owner else None) or None)
    return {"workloads": to_frame("workloads", w, cluster.capture_time,
                                  ["kind", "namespace", "name"])}
