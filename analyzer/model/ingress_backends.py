"""An Ingress's backends and the Services they send to, which the graph's `exposes` edges and the
findings read alike: in both API shapes, and past the backends that name an action, not a Service
(the AWS Load Balancer Controller's `use-annotation` backends), to the Services it forwards to."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
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


def backends(spec: Any, annotations: Mapping[str, Any] | None = None) -> Iterator[tuple[str, str, str, str]]:
    """(field path, host, path, Service name) of every backend, in both API shapes; the default
    backend's host is `*` and its path ""; an ALB action stands for the Services it forwards to.

    >>> list(backends({"rules": [{"host": "a", "http": {"paths": [{"path": "/", "backend": {"serviceName": "s"}}]}}]}))
    [('spec.rules[0].http.paths[0].backend', 'a', '/', 's')]
    """
    # (an Ingress's spec is untyped in its view: a hand-edited one may hold anything anywhere,
    # and only a backend that names a Service as text names one)
    spec = as_dict(spec)
    default = as_dict(spec.get("defaultBackend") or spec.get("backend"))
    for field, name in _services(default, "spec.defaultBackend", annotations):
        yield field, "*", "", name
    for i, rule in enumerate(as_list(spec.get("rules"))):
        rule = as_dict(rule)
        for j, path in enumerate(as_list(as_dict(rule.get("http")).get("paths"))):
            path = as_dict(path)
            for field, name in _services(as_dict(path.get("backend")), f"spec.rules[{i}].http.paths[{j}].backend",
                                         annotations):
                yield field, str(rule.get("host") or "*"), str(path.get("path") or "/"), name


def _services(backend: dict[str, Any], field: str, annotations: Mapping[str, Any] | None) -> Iterator[tuple[str, str]]:
    """(field path, Service name) of the Services a backend sends to: the one it names, or those
    of the ALB action it names when the Ingress has that action's annotation
    (kubernetes-sigs/aws-load-balancer-controller#232: `ssl-redirect:use-annotation`)."""
    name = as_dict(backend.get("service")).get("name") or backend.get("serviceName")
    if not isinstance(name, str) or not name:
        return
    port = as_dict(as_dict(backend.get("service")).get("port")).get("name") or backend.get("servicePort")
    action = action_annotation(annotations, name, port)
    if action is None:
        yield field, name
        return
    for forwarded in action_services((annotations or {})[action]):
        yield f"metadata.annotations[{action}]", forwarded
