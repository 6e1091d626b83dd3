"""Ingress backends that name an action, not a Service: the AWS Load Balancer Controller's
`use-annotation` backends, which the graph and the findings read past to the Services they send to."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from analyzer.model.normalize import as_dict, as_list

# A backend whose port is named `use-annotation` names the action the Ingress's annotation
# `alb.ingress.kubernetes.io/actions.<its service name>` holds (a redirect, a fixed response, a
# forward to target groups), never a Service of that name (the controller's ingress annotations guide).
ACTION_PORT = "use-annotation"
ACTION_PREFIX = "alb.ingress.kubernetes.io/actions."


def action_annotation(annotations: Mapping[str, Any] | None, service: str, port: Any) -> str | None:
    """The annotation holding the ALB action a backend names, when the backend is one and the
    Ingress has that annotation; else None (the backend names a Service).

    Examples:
        >>> action_annotation({"alb.ingress.kubernetes.io/actions.ssl-redirect": "{}"}, "ssl-redirect", "use-annotation")
        'alb.ingress.kubernetes.io/actions.ssl-redirect'
        >>> action_annotation({}, "ssl-redirect", "use-annotation") is None
        True
    """
    if port != ACTION_PORT:
        return None
    key = ACTION_PREFIX + service
    return key if key in (annotations or {}) else None


def action_services(value: Any) -> list[str]:
    """The Services an ALB action forwards to (its forwardConfig's target groups named by
    serviceName); none for a redirect, a fixed response, a target group's ARN, or an annotation
    that is not whole JSON (a describe cuts a long one with `...`).

    Examples:
        >>> action_services('{"type":"forward","forwardConfig":{"targetGroups":[{"serviceName":"blue","servicePort":80},'
        ...                 '{"targetGroupARN":"arn:aws:elasticloadbalancing:x"}]}}')
        ['blue']
        >>> action_services('{"type":"forward","targetGroupARN": "arn:aws:elasticloadbalancing:us-west-2:1:targetgroup/k...')
        []
    """
    try:
        action = json.loads(value) if isinstance(value, str) else None
    except ValueError:
        return []
    groups = as_list(as_dict(as_dict(action).get("forwardConfig")).get("targetGroups"))
    names = (as_dict(group).get("serviceName") for group in groups)
    return [name for name in names if isinstance(name, str) and name]
