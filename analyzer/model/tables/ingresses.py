"""The ingresses table: one row per rule path and backend, from either API shape."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import pandas as pd

from analyzer.model.frame import empty_columns, to_frame
from analyzer.model.normalize import as_dict, as_list, builtin_objects, joined

if TYPE_CHECKING:
    from analyzer.ingest.dump import Dump

CLASS_ANNOTATION = "kubernetes.io/ingress.class"


class Backend(NamedTuple):
    service: str | None
    service_port: str | None
    resource_kind: str | None
    resource_name: str | None


def backend_of(backend: Any) -> Backend:
    """A backend of networking.k8s.io/v1 (service.name/port) or v1beta1 (serviceName/servicePort).

    Examples:
        >>> backend_of({"service": {"name": "web", "port": {"number": 80}}})
        Backend(service='web', service_port='80', resource_kind=None, resource_name=None)
        >>> backend_of({"serviceName": "web", "servicePort": "http"})
        Backend(service='web', service_port='http', resource_kind=None, resource_name=None)
        >>> backend_of({"resource": {"kind": "StorageBucket", "name": "static"}})
        Backend(service=None, service_port=None, resource_kind='StorageBucket', resource_name='static')
    """
    if not isinstance(backend, dict):
        return Backend(None, None, None, None)
    if isinstance(backend.get("service"), dict):
        svc = backend["service"]
        port = as_dict(svc.get("port"))
        number, name = port.get("number"), port.get("name")
        port_text = str(number) if number is not None else name
        return Backend(svc.get("name"), port_text, None, None)
    if isinstance(backend.get("resource"), dict):
        res = backend["resource"]
        return Backend(None, None, res.get("kind"), res.get("name"))
    port = backend.get("servicePort")
    return Backend(backend.get("serviceName"), None if port is None else str(port), None, None)


def host_matches(pattern: str, host: str | None) -> bool:
    """Whether a TLS host entry covers a rule host (a `*.` wildcard covers one label).

    Examples:
        >>> host_matches("*.foo.com", "a.foo.com"), host_matches("*.foo.com", "a.b.foo.com")
        (True, False)
    """
    if host is None:
        return False
    if pattern.startswith("*."):
        first, _, rest = host.partition(".")
        return bool(first) and rest == pattern[2:]
    return pattern == host


def _tls_for(tls: list[Any], host: str | None) -> tuple[bool, str | None]:
    for entry in tls:
        if not isinstance(entry, dict):
            continue
        hosts = as_list(entry.get("hosts"))
        if any(host_matches(h, host) for h in hosts if isinstance(h, str)):
            return True, entry.get("secretName")
    return False, None


def build(cluster: Dump) -> dict[str, pd.DataFrame]:
    """The ingresses table; an Ingress without rules or backend still gets one row."""
    g = empty_columns("ingresses")
    for obj in builtin_objects(cluster, "Ingress"):
        view = obj.view
        spec = as_dict(view.spec)
        status = as_dict(view.status)
        annotations = view.metadata.annotations or {}
        ingress_class = spec.get("ingressClassName") or annotations.get(CLASS_ANNOTATION)
        lb = as_list(as_dict(status.get("loadBalancer")).get("ingress"))
        load_balancer = joined(i.get("ip") or i.get("hostname") for i in lb if isinstance(i, dict))
        tls = as_list(spec.get("tls"))

        rows: list[tuple[Any, Any, Any, Backend]] = []
        default = spec.get("defaultBackend") or spec.get("backend")
        if default:
            rows.append((None, None, None, backend_of(default)))
        for rule in as_list(spec.get("rules")):
            if not isinstance(rule, dict):
                continue
            host = rule.get("host")
            paths = as_list(as_dict(rule.get("http")).get("paths"))
            if not paths:
                rows.append((host, None, None, Backend(None, None, None, None)))
            for p in paths:
                if isinstance(p, dict):
                    rows.append((host, p.get("path"), p.get("pathType"),
                                 backend_of(p.get("backend"))))
        if not rows:
            rows.append((None, None, None, Backend(None, None, None, None)))

        for host, path, path_type, backend in rows:
            covered, secret = _tls_for(tls, host)
            g["namespace"].append(obj.namespace)
            g["ingress"].append(obj.name)
            g["ingress_class"].append(ingress_class)
            g["host"].append(host)
            g["path"].append(path)
            g["path_type"].append(path_type)
            g["service"].append(backend.service)
            g["service_port"].append(backend.service_port)
            g["resource_kind"].append(backend.resource_kind)
            g["resource_name"].append(backend.resource_name)
            g["tls"].append(covered)
            g["tls_secret"].append(secret)
            g["load_balancer"].append(load_balancer)
    return {"ingresses": to_frame("ingresses", g, cluster.capture_time,
                                  ["namespace", "ingress"])}
