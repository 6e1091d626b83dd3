"""A HorizontalPodAutoscaler's conditions and metrics wherever its apiVersion keeps them:
autoscaling/v2 (and v2beta1, v2beta2) as status.conditions, autoscaling/v1 as a JSON list in an
annotation, which the API server fills when it serves the HPA at v1 (k8s.io/kubernetes
pkg/apis/autoscaling annotations.go, v1 conversion.go); its metrics in v2's shape, as kubectl
reads them at autoscaling/v2. kubectl before 1.23 read HPAs at v1 by default, so older
`get hpa -o yaml` and dumps hold them so."""

from __future__ import annotations

import json
from typing import Any

# The annotations an autoscaling/v1 HPA keeps its conditions and other metrics in
# (HPAConditionsAnnotation, MetricSpecsAnnotation, MetricStatusesAnnotation: v2beta1's shapes).
CONDITIONS_ANNOTATION = "autoscaling.alpha.kubernetes.io/conditions"
METRICS_ANNOTATION = "autoscaling.alpha.kubernetes.io/metrics"
CURRENT_METRICS_ANNOTATION = "autoscaling.alpha.kubernetes.io/current-metrics"


def hpa_conditions(body: dict[str, Any]) -> tuple[list[Any], str]:
    """Its conditions, and the field path they were read at: status.conditions when it has
    them, else the v1 annotation's list; ([], "") when neither holds a list (an annotation cut
    short, as a v1 describe prints it, is no list).

    >>> hpa_conditions({"status": {"conditions": [{"type": "ScalingActive", "status": "True"}]}})
    ([{'type': 'ScalingActive', 'status': 'True'}], 'status.conditions')
    >>> hpa_conditions({"metadata": {"annotations": {CONDITIONS_ANNOTATION:
    ...     '[{"type":"ScalingActive","status":"False","reason":"FailedGetResourceMetric"}]'}}})[0][0]["reason"]
    'FailedGetResourceMetric'
    >>> hpa_conditions({"metadata": {"annotations": {CONDITIONS_ANNOTATION: '[{"type":"AbleToScale","sta...'}}})
    ([], '')
    """
    status = body.get("status")
    conditions = status.get("conditions") if isinstance(status, dict) else None
    if isinstance(conditions, list) and conditions:
        return conditions, "status.conditions"
    parsed = _annotated(body, CONDITIONS_ANNOTATION)
    return (parsed, f"metadata.annotations[{CONDITIONS_ANNOTATION}]") if parsed else ([], "")


def hpa_metrics(body: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Its metric specs and their current values in autoscaling/v2's shape (what kubectl reads),
    told by their shape, not the apiVersion a store may have rewritten: v2's and v2beta2's as they
    are; v1's CPU target and its annotated metrics, and v2beta1's metrics, converted
    (`targetAverageUtilization` to a Utilization target, a Pods metric's metricName to metric.name).

    >>> specs, now = hpa_metrics({"spec": {"targetCPUUtilizationPercentage": 40},
    ...                           "status": {"currentCPUUtilizationPercentage": 12}})
    >>> specs[0]["resource"]["target"], now[0]["resource"]["current"]
    ({'type': 'Utilization', 'averageUtilization': 40}, {'averageUtilization': 12})
    """
    spec, status = _dict(body.get("spec")), _dict(body.get("status"))
    specs = [m for m in spec.get("metrics") or () if isinstance(m, dict)]
    current = [m for m in status.get("currentMetrics") or () if isinstance(m, dict)]
    if not specs:  # autoscaling/v1: one CPU target in its spec, other metrics in an annotation
        if spec.get("targetCPUUtilizationPercentage") is not None:
            specs.append({"type": "Resource", "resource": {"name": "cpu", "targetAverageUtilization":
                                                           spec["targetCPUUtilizationPercentage"]}})
            current = [{"type": "Resource", "resource": {
                "name": "cpu", "currentAverageUtilization": status.get("currentCPUUtilizationPercentage")}}]
        specs += [m for m in _annotated(body, METRICS_ANNOTATION) if isinstance(m, dict)]
        current += [m for m in _annotated(body, CURRENT_METRICS_ANNOTATION) if isinstance(m, dict)]
    return [_resource(m) for m in specs], [_resource_now(m) for m in current]


def _resource(metric: dict[str, Any]) -> dict[str, Any]:
    """A metric spec of v2beta1's shape (the shape of v1's annotated metrics too) in v2's, as
    k8s.io/kubernetes pkg/apis/autoscaling/v2beta1 conversion.go converts it: Resource and
    ContainerResource targets, Pods' and External's metricName and target values, Object's target
    object; a metric already in v2's shape, or of a type it does not know, as it is.

    >>> _resource({"type": "Pods", "pods": {"metricName": "http_requests", "targetAverageValue": 10}})
    {'type': 'Pods', 'pods': {'metric': {'name': 'http_requests'}, 'target': {'type': 'AverageValue', 'averageValue': 10}}}
    """
    kind = metric.get("type")
    key = METRIC_SOURCE_KEYS.get(kind) if isinstance(kind, str) else None
    old = _dict(metric.get(key)) if key else {}
    # v2's Object metric has a target too (its value), and the object it reads as describedObject
    if not key or not old or "describedObject" in old or ("target" in old and key != "object"):
        return metric
    if key in ("resource", "containerResource"):
        if old.get("targetAverageValue") is not None:
            target = {"type": "AverageValue", "averageValue": old["targetAverageValue"]}
        else:
            target = {"type": "Utilization", "averageUtilization": old.get("targetAverageUtilization")}
    elif key == "pods":
        target = {"type": "AverageValue", "averageValue": old.get("targetAverageValue")}
    elif key == "object":
        target = {"type": "Value" if old.get("averageValue") is None else "AverageValue",
                  "value": old.get("targetValue"), "averageValue": old.get("averageValue")}
    else:  # external
        target = {"type": "Value" if old.get("targetAverageValue") is None else "AverageValue",
                  "value": old.get("targetValue"), "averageValue": old.get("targetAverageValue")}
    new = _v2_source(key, old)
    new["target"] = {k: v for k, v in target.items() if v is not None}
    return {"type": kind, key: new}


def _resource_now(metric: dict[str, Any]) -> dict[str, Any]:
    """A metric's current value of v2beta1's shape in v2's (currentAverageUtilization,
    currentAverageValue, currentValue to current's), the values it does not state left out; one
    in v2's shape or of a type it does not know as it is."""
    kind = metric.get("type")
    key = METRIC_SOURCE_KEYS.get(kind) if isinstance(kind, str) else None
    old = _dict(metric.get(key)) if key else {}
    if not key or not old or "current" in old:
        return metric
    new = _v2_source(key, old)
    now = {"averageUtilization": old.get("currentAverageUtilization"),
           "averageValue": old.get("currentAverageValue", old.get("averageValue") if key == "object" else None),
           "value": old.get("currentValue")}
    new["current"] = {k: v for k, v in now.items() if v is not None}
    return {"type": kind, key: new}


def _v2_source(key: str, old: dict[str, Any]) -> dict[str, Any]:
    """What a metric of v2beta1's shape reads from, in v2's shape: a resource's name (and
    container), else the metric's name and selector (and an Object metric's describedObject)."""
    if key in ("resource", "containerResource"):
        return {k: old[k] for k in ("name", "container") if k in old}
    metric = {"metric": _identifier(old.get("metricName"), old.get("metricSelector" if key == "external" else "selector"))}
    return {"describedObject": old.get("target"), **metric} if key == "object" else metric


# The field of a metric that holds its source, by the metric's type (the same in every version).
METRIC_SOURCE_KEYS = {"Resource": "resource", "ContainerResource": "containerResource", "Pods": "pods",
                "Object": "object", "External": "external"}


def _identifier(name: Any, selector: Any) -> dict[str, Any]:
    return {"name": name, "selector": selector} if selector is not None else {"name": name}


def _annotated(body: dict[str, Any], key: str) -> list[Any]:
    """The JSON list an annotation holds, or [] (none, not JSON: cut short as a v1 describe prints it)."""
    text = _dict(_dict(body.get("metadata")).get("annotations")).get(key)
    if not isinstance(text, str):
        return []
    try:
        parsed = json.loads(text)
    except ValueError:
        return []
    return parsed if isinstance(parsed, list) else []


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def hpa_at_v2(body: dict[str, Any]) -> dict[str, Any]:
    """The HPA as the API server serves it at autoscaling/v2 (what kubectl asks for since 1.23):
    an autoscaling/v1 one's CPU target, annotated metrics and annotated conditions moved to
    spec.metrics, status.currentMetrics and status.conditions, the annotations that held them
    dropped (k8s.io/kubernetes pkg/apis/autoscaling/v1 conversion.go); v2beta1's metrics in v2's
    shape. Anything already in v2's shape is returned as it is.

    >>> v2 = hpa_at_v2({"metadata": {"name": "web"}, "spec": {"targetCPUUtilizationPercentage": 50},
    ...                 "status": {"currentReplicas": 1}})
    >>> v2["spec"], v2["status"]
    ({'metrics': [{'type': 'Resource', 'resource': {'name': 'cpu', 'target': {'type': 'Utilization', 'averageUtilization': 50}}}]}, {'currentReplicas': 1})
    """
    spec, status = _dict(body.get("spec")), _dict(body.get("status"))
    annotations = _dict(_dict(body.get("metadata")).get("annotations"))
    v1_keys = (CONDITIONS_ANNOTATION, METRICS_ANNOTATION, CURRENT_METRICS_ANNOTATION)
    old_shape = ("targetCPUUtilizationPercentage" in spec or "currentCPUUtilizationPercentage" in status
                 or any(k in annotations for k in v1_keys)
                 or any(isinstance(m, dict) and _resource(m) is not m for m in spec.get("metrics") or ())
                 or any(isinstance(m, dict) and _resource_now(m) is not m for m in status.get("currentMetrics") or ()))
    if not old_shape:
        return body
    specs, current = hpa_metrics(body)
    conditions, _ = hpa_conditions(body)
    out = dict(body)
    out["spec"] = {k: v for k, v in spec.items() if k != "targetCPUUtilizationPercentage"}
    if specs:
        out["spec"]["metrics"] = specs
    new_status = {k: v for k, v in status.items() if k != "currentCPUUtilizationPercentage"}
    # a metric without a current value has no entry, as the server converts a v1 status without one
    current = [m for m in current if m.get("type") != "Resource" or _dict(m.get("resource")).get("current")]
    if current:
        new_status["currentMetrics"] = current
    if conditions:
        new_status["conditions"] = conditions
    if status or new_status:
        out["status"] = new_status
    if any(k in annotations for k in v1_keys):
        meta = out["metadata"] = dict(_dict(body.get("metadata")))
        kept = {k: v for k, v in annotations.items() if k not in v1_keys}
        if kept:
            meta["annotations"] = kept
        else:
            meta.pop("annotations", None)
    return out
