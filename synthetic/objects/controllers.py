"""Controller objects of the synthetic workloads: Deployments, ReplicaSets, DaemonSets, StatefulSets."""

from __future__ import annotations

from typing import Any

from synthetic.fields import managed_entry, top_level_fields
from synthetic.ids import Ids
from synthetic.objects.metadata import LAST_APPLIED, last_applied, owner_reference
from synthetic.objects.workloads import Workload
from synthetic.times import timestamp


def _metadata(w: Workload, ids: Ids, name: str, uid: str, age: int, labels: dict[str, str],
              annotations: dict[str, str], managed: list[dict[str, Any]], generation: int,
              owner: dict[str, Any] | None = None) -> dict[str, Any]:
    metadata: dict[str, Any] = {
        "creationTimestamp": timestamp(age),
        "generation": generation,
        "labels": labels,
        "managedFields": managed,
        "name": name,
        "namespace": w.namespace,
        "resourceVersion": ids.resource_version(),
        "uid": uid,
    }
    if annotations:
        metadata["annotations"] = annotations
    if owner:
        metadata["ownerReferences"] = [owner]
    return metadata


def _template(w: Workload, hash_label: dict[str, str] | None = None) -> dict[str, Any]:
    metadata: dict[str, Any] = {"creationTimestamp": None, "labels": {**w.template_labels, **(hash_label or {})}}
    annotations = {k: v for k, v in w.template.annotations.items() if k != LAST_APPLIED} if w.kind != "Node" else {}
    if w.template.annotations.get(LAST_APPLIED):
        annotations[LAST_APPLIED] = w.template.annotations[LAST_APPLIED]
    if annotations:
        metadata["annotations"] = annotations
    return {"metadata": metadata, "spec": w.template_spec}


def _applier(w: Workload, age: int, spec: dict[str, Any], annotations: dict[str, str]) -> dict[str, Any]:
    manager = "kubectl-client-side-apply" if w.applied_manifest else "helm"
    metadata = {"annotations": annotations, "labels": w.template_labels} if annotations else {"labels": w.template_labels}
    return managed_entry(manager, timestamp(age), top_level_fields({"metadata": metadata, "spec": spec}), api_version="apps/v1")


def deployment_objects(w: Workload, ids: Ids, ready: int) -> list[dict[str, Any]]:
    """The Deployment and its ReplicaSets (the current one and, often, an emptied old one)."""
    rng = ids.rng
    revision = rng.randint(1, 30)
    annotations = {"deployment.kubernetes.io/revision": str(revision)}
    if w.applied_manifest:
        annotations[LAST_APPLIED] = last_applied(w.applied_manifest)
    spec = {
        "progressDeadlineSeconds": 600,
        "replicas": w.replicas,
        "revisionHistoryLimit": 10,
        "selector": {"matchLabels": w.selector},
        "strategy": {"rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}, "type": "RollingUpdate"},
        "template": _template(w),
    }
    available = ready >= max(w.replicas - w.replicas // 4, 1)
    conditions = [
        {"lastTransitionTime": timestamp(w.owner_age), "lastUpdateTime": timestamp(w.owner_age),
         "message": "Deployment has minimum availability." if available else "Deployment does not have minimum availability.",
         "reason": "MinimumReplicasAvailable" if available else "MinimumReplicasUnavailable",
         "status": "True" if available else "False", "type": "Available"},
        {"lastTransitionTime": timestamp(w.age), "lastUpdateTime": timestamp(w.owner_age),
         "message": f'ReplicaSet "{w.owner_name}" has successfully progressed.', "reason": "NewReplicaSetAvailable",
         "status": "True", "type": "Progressing"},
    ]
    status = {"availableReplicas": ready, "conditions": conditions, "observedGeneration": revision,
              "readyReplicas": ready, "replicas": w.replicas, "updatedReplicas": w.replicas}
    if ready < w.replicas:
        status["unavailableReplicas"] = w.replicas - ready
    if ready == 0:
        del status["availableReplicas"], status["readyReplicas"]
    managed = [
        _applier(w, w.age, {k: v for k, v in spec.items() if k in ("replicas", "selector", "template")}, annotations),
        managed_entry("kube-controller-manager", timestamp(w.owner_age), top_level_fields({
            "metadata": {"annotations": {"deployment.kubernetes.io/revision": ""}}}), api_version="apps/v1"),
        managed_entry("kube-controller-manager", timestamp(max(w.owner_age - 60, 0)),
                      top_level_fields({"status": status}), api_version="apps/v1", subresource="status"),
    ]
    deployment = {
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": _metadata(w, ids, w.name, w.uid, w.age, w.template_labels, annotations, managed, revision),
        "spec": spec, "status": status,
    }
    owner = owner_reference("apps/v1", "Deployment", w.name, w.uid)
    replica_sets = [_replica_set(w, ids, w.owner_name, w.owner_uid, w.owner_age, w.revision, w.replicas, ready, revision, owner)]
    if revision > 1 and rng.random() < 0.15:
        old_hash = ids.suffix(10)
        replica_sets.insert(0, _replica_set(w, ids, f"{w.name}-{old_hash}", ids.uid(), w.age, old_hash, 0, 0, revision - 1, owner))
    return [deployment, *replica_sets]


def _replica_set(w: Workload, ids: Ids, name: str, uid: str, age: int, template_hash: str, replicas: int,
                 ready: int, revision: int, owner: dict[str, Any]) -> dict[str, Any]:
    annotations = {
        "deployment.kubernetes.io/desired-replicas": str(w.replicas),
        "deployment.kubernetes.io/max-replicas": str(w.replicas + (w.replicas + 3) // 4),
        "deployment.kubernetes.io/revision": str(revision),
    }
    hash_label = {"pod-template-hash": template_hash}
    spec = {
        "replicas": replicas,
        "selector": {"matchLabels": {**w.selector, **hash_label}},
        "template": _template(w, hash_label),
    }
    status: dict[str, Any] = {"observedGeneration": 1 if replicas else 2, "replicas": replicas}
    if replicas:
        status.update(availableReplicas=ready, fullyLabeledReplicas=replicas, readyReplicas=ready)
    managed = [
        managed_entry("kube-controller-manager", timestamp(age), top_level_fields({
            "metadata": {"annotations": annotations, "labels": spec["template"]["metadata"]["labels"], "ownerReferences": [owner]},
            "spec": spec}), api_version="apps/v1"),
        managed_entry("kube-controller-manager", timestamp(max(age - 30, 0)), top_level_fields({"status": status}),
                      api_version="apps/v1", subresource="status"),
    ]
    return {
        "apiVersion": "apps/v1", "kind": "ReplicaSet",
        "metadata": _metadata(w, ids, name, uid, age, spec["template"]["metadata"]["labels"], annotations, managed,
                              1 if replicas else 2, owner),
        "spec": spec, "status": status,
    }


def daemonset_object(w: Workload, ids: Ids, ready: int) -> dict[str, Any]:
    """A DaemonSet with one desired pod per matching node."""
    annotations = {"deprecated.daemonset.template.generation": "1"}
    spec = {
        "revisionHistoryLimit": 10,
        "selector": {"matchLabels": w.selector},
        "template": _template(w),
        "updateStrategy": {"rollingUpdate": {"maxSurge": 0, "maxUnavailable": 1}, "type": "RollingUpdate"},
    }
    status = {
        "currentNumberScheduled": w.replicas, "desiredNumberScheduled": w.replicas, "numberAvailable": ready,
        "numberMisscheduled": 0, "numberReady": ready, "observedGeneration": 1, "updatedNumberScheduled": w.replicas,
    }
    if ready < w.replicas:
        status["numberUnavailable"] = w.replicas - ready
    managed = [
        _applier(w, w.age, {k: v for k, v in spec.items() if k != "revisionHistoryLimit"}, annotations),
        managed_entry("kube-controller-manager", timestamp(60), top_level_fields({"status": status}),
                      api_version="apps/v1", subresource="status"),
    ]
    return {
        "apiVersion": "apps/v1", "kind": "DaemonSet",
        "metadata": _metadata(w, ids, w.name, w.uid, w.age, w.template_labels, annotations, managed, 1),
        "spec": spec, "status": status,
    }


def statefulset_object(w: Workload, ids: Ids, ready: int) -> dict[str, Any]:
    """A StatefulSet with a volumeClaimTemplate named `data`."""
    revision = f"{w.name}-{w.revision}"
    spec = {
        "persistentVolumeClaimRetentionPolicy": {"whenDeleted": "Retain", "whenScaled": "Retain"},
        "podManagementPolicy": "OrderedReady",
        "replicas": w.replicas,
        "revisionHistoryLimit": 10,
        "selector": {"matchLabels": w.selector},
        "serviceName": f"{w.name}-headless",
        "template": _template(w),
        "updateStrategy": {"rollingUpdate": {"partition": 0}, "type": "RollingUpdate"},
        "volumeClaimTemplates": [{
            "apiVersion": "v1", "kind": "PersistentVolumeClaim",
            "metadata": {"creationTimestamp": None, "labels": w.selector, "name": "data"},
            "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "50Gi"}},
                     "storageClassName": "gp3", "volumeMode": "Filesystem"},
            "status": {"phase": "Pending"},
        }],
    }
    status = {
        "availableReplicas": ready, "collisionCount": 0, "currentReplicas": w.replicas, "currentRevision": revision,
        "observedGeneration": 1, "readyReplicas": ready, "replicas": w.replicas, "updateRevision": revision,
        "updatedReplicas": w.replicas,
    }
    managed = [
        _applier(w, w.age, {k: v for k, v in spec.items() if k in ("replicas", "selector", "serviceName", "template", "volumeClaimTemplates")}, {}),
        managed_entry("kube-controller-manager", timestamp(120), top_level_fields({"status": status}),
                      api_version="apps/v1", subresource="status"),
    ]
    return {
        "apiVersion": "apps/v1", "kind": "StatefulSet",
        "metadata": _metadata(w, ids, w.name, w.uid, w.age, w.template_labels, {}, managed, 1),
        "spec": spec, "status": status,
    }
