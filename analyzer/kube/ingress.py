"""An Ingress as the API server serves it at networking.k8s.io/v1, whatever version saved it:
extensions/v1beta1 and networking.k8s.io/v1beta1 (kubectl read Ingresses so before 1.19) name a
backend by serviceName and servicePort and the default one as spec.backend; v1 by
service.name and service.port.number (or .name) and spec.defaultBackend (k8s.io/kubernetes
pkg/apis/networking/v1beta1 conversion.go, defaults.go: a path without a pathType is
ImplementationSpecific)."""

from __future__ import annotations

from typing import Any


def ingress_at_v1(body: dict[str, Any]) -> dict[str, Any]:
    """The Ingress in v1's shape; one already in it is returned as it is.

    >>> v1 = ingress_at_v1({"spec": {"backend": {"serviceName": "default-http-backend", "servicePort": 80},
    ...     "rules": [{"host": "a", "http": {"paths": [{"path": "/", "backend": {"serviceName": "web",
    ...                                                                      "servicePort": "http"}}]}}]}})
    >>> v1["spec"]["defaultBackend"], v1["spec"]["rules"][0]["http"]["paths"][0]
    ({'service': {'name': 'default-http-backend', 'port': {'number': 80}}}, {'path': '/', 'backend': {'service': {'name': 'web', 'port': {'name': 'http'}}}, 'pathType': 'ImplementationSpecific'})
    """
    spec = body.get("spec")
    if not isinstance(spec, dict) or not _old_shape(spec):
        return body
    new_spec = {k: v for k, v in spec.items() if k != "backend"}
    if isinstance(spec.get("backend"), dict):
        new_spec["defaultBackend"] = _backend(spec["backend"])
    rules = []
    for rule in spec.get("rules") or ():
        http = rule.get("http") if isinstance(rule, dict) else None
        if not isinstance(http, dict):
            rules.append(rule)
            continue
        paths = []
        for path in http.get("paths") or ():
            if isinstance(path, dict):
                path = dict(path)
                if isinstance(path.get("backend"), dict):
                    path["backend"] = _backend(path["backend"])
                path.setdefault("pathType", "ImplementationSpecific")
            paths.append(path)
        rules.append({**rule, "http": {**http, "paths": paths}})
    if "rules" in spec:
        new_spec["rules"] = rules
    return {**body, "spec": new_spec}


def _old_shape(spec: dict[str, Any]) -> bool:
    if "backend" in spec:
        return True
    for rule in spec.get("rules") or ():
        http = rule.get("http") if isinstance(rule, dict) else None
        for path in (http.get("paths") or ()) if isinstance(http, dict) else ():
            backend = path.get("backend") if isinstance(path, dict) else None
            if isinstance(backend, dict) and ("serviceName" in backend or "servicePort" in backend):
                return True
    return False


def _backend(old: dict[str, Any]) -> dict[str, Any]:
    """v1beta1's backend in v1's: serviceName and servicePort (a number or a port's name) to
    service.name and service.port; a resource backend as it is."""
    if "serviceName" not in old and "servicePort" not in old:
        return old
    port = old.get("servicePort")
    service: dict[str, Any] = {"name": old.get("serviceName")}
    if isinstance(port, int) and not isinstance(port, bool):  # an IntOrString's string stays a name
        service["port"] = {"number": port}
    elif isinstance(port, str) and port:
        service["port"] = {"name": port}
    rest = {k: v for k, v in old.items() if k not in ("serviceName", "servicePort")}
    return {**rest, "service": service}
