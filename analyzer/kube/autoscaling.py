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
    are; v1's CPU target and its annotated Resource metrics, and v2beta1's Resource metrics,
    converted (`targetAverageUtilization` to a Utilization target).

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
    """A Resource metric spec of v2beta1's shape (targetAverageUtilization, targetAverageValue) in
    v2's; any other metric as it is."""
    old = _dict(metric.get("resource"))
    if metric.get("type") != "Resource" or "target" in old:
        return metric
    if old.get("targetAverageValue") is not None:
        target = {"type": "AverageValue", "averageValue": old["targetAverageValue"]}
    else:
        target = {"type": "Utilization", "averageUtilization": old.get("targetAverageUtilization")}
    return {"type": "Resource", "resource": {"name": old.get("name"), "target": target}}


def _resource_now(metric: dict[str, Any]) -> dict[str, Any]:
    """A Resource metric's current value of v2beta1's shape (currentAverageUtilization,
    currentAverageValue) in v2's, the values it does not state left out; any other as it is."""
    old = _dict(metric.get("resource"))
    if metric.get("type") != "Resource" or "current" in old:
        return metric
    now = {"averageUtilization": old.get("currentAverageUtilization"), "averageValue": old.get("currentAverageValue")}
    return {"type": "Resource", "resource": {"name": old.get("name"),
                                             "current": {k: v for k, v in now.items() if v is not None}}}


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
    dropped (k8s.io/kubernetes pkg/apis/autoscaling/v1 conversion.go); v2beta1's Resource metrics
    in v2's shape. Anything already in v2's shape is returned as it is.

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
                 or any(isinstance(m, dict) and m.get("type") == "Resource" and "target" not in _dict(m.get("resource"))
                        for m in spec.get("metrics") or ()))
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
