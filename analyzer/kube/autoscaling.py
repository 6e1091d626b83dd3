"""A HorizontalPodAutoscaler's conditions wherever its apiVersion keeps them: autoscaling/v2 (and
v2beta1, v2beta2) as status.conditions, autoscaling/v1 as a JSON list in an annotation, which the
API server fills when it serves the HPA at v1 (k8s.io/kubernetes pkg/apis/autoscaling
annotations.go, v1 conversion.go). kubectl before 1.23 read HPAs at v1 by default, so older
`get hpa -o yaml` and dumps hold them so."""

from __future__ import annotations

import json
from typing import Any

# The annotation an autoscaling/v1 HPA keeps its conditions in (HPAConditionsAnnotation).
CONDITIONS_ANNOTATION = "autoscaling.alpha.kubernetes.io/conditions"


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
    metadata = body.get("metadata")
    annotations = metadata.get("annotations") if isinstance(metadata, dict) else None
    text = annotations.get(CONDITIONS_ANNOTATION) if isinstance(annotations, dict) else None
    if not isinstance(text, str):
        return [], ""
    try:
        parsed = json.loads(text)
    except ValueError:
        return [], ""
    if not isinstance(parsed, list) or not parsed:
        return [], ""
    return parsed, f"metadata.annotations[{CONDITIONS_ANNOTATION}]"
