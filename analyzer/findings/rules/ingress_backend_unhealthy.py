"""GKE Ingresses whose Google Cloud load balancer finds backends UNHEALTHY (the health the
ingress-gce controller writes in the Ingress's `ingress.kubernetes.io/backends` annotation)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import age_text, ev, known_age
from analyzer.findings.types import Finding, RuleMeta
from analyzer.model.ingress_backends import backends

if TYPE_CHECKING:
    from analyzer.ingest.records import KubeObject

RULE = RuleMeta(
    id="ingress-backend-unhealthy", title="Ingress backends the cloud load balancer finds unhealthy",
    severity="warning", category="networking", requires=("Ingress",),
    message="Ingress {namespace}/{name}: Google Cloud's load balancer finds {count} of its {total} backend(s) "
            "UNHEALTHY: {unhealthy}",
    remediation="The load balancer sends requests only to endpoints that pass its health check, and answers 502 "
    "where none does. GKE health-checks each backend on its node port or NEG: an HTTP GET of the pods' readinessProbe "
    "path (else `/`) that must answer 200. Make that path answer 200 or set the health check in a BackendConfig, "
    "and let the firewall admit Google's health checkers (130.211.0.0/22, 35.191.0.0/16).",
)

BACKENDS_ANNOTATION = "ingress.kubernetes.io/backends"

# A new load balancer's backends read UNHEALTHY or Unknown until its first health checks pass, a
# few minutes (GoogleCloudPlatform/continuous-deployment-on-kubernetes#31: 'up to 5-7 minutes')
_FIRST_CHECKS = timedelta(minutes=10)

# ingress-gce's backend service names: `k8s-be-<node port>--<cluster uid>` (instance groups) and
# `k8s1-<uid, 8>-<namespace>-<service>-<port>-<hash, 8>` (NEGs, each part cut to fit 63 characters)
_NODE_PORT_BACKEND = re.compile(r"^k8s-be-(?P<port>\d+)--")
_NEG_BACKEND = re.compile(r"^k8s1-[0-9a-f]{8}-(?P<middle>.+)-[0-9a-z]{8}$")


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    for ing in cluster.objects_of("Ingress"):
        health = _health(ing)
        unhealthy = sorted(name for name, state in health.items() if str(state).upper() == "UNHEALTHY")
        if not unhealthy:
            continue
        named = ", ".join(_named(cluster, ing, backend) for backend in unhealthy)
        finding = RULE.fail(ing, ev(ing, f"metadata.annotations[{BACKENDS_ANNOTATION}]",
                                    (ing.view.metadata.annotations or {})[BACKENDS_ANNOTATION],
                                    "every backend HEALTHY"),
                            count=len(unhealthy), total=len(health), unhealthy=named)
        age = known_age(cluster, ing)
        if age is not None and timedelta(0) <= age < _FIRST_CHECKS:
            finding = finding.as_info(resolved=f"created {age_text(age)} before capture: a new load balancer's "
                                               "health checks take several minutes to first pass")
        yield finding


def _health(ing: KubeObject) -> dict[str, Any]:
    """The backends' health the annotation states ({} when absent or not a JSON object)."""
    value = (ing.view.metadata.annotations or {}).get(BACKENDS_ANNOTATION)
    try:
        health = json.loads(value) if isinstance(value, str) else None
    except ValueError:
        return {}
    return health if isinstance(health, dict) else {}


def _named(cluster: AnalyzedDump, ing: KubeObject, backend: str) -> str:
    """A backend service's name, with the Service it serves where its name tells it."""
    if (neg := _NEG_BACKEND.match(backend)) is not None:
        # the longest of the Ingress's Services the name starts with (gauth-auth-ui over gauth-auth)
        served = [service for _field, _host, _path, service in backends(ing.view.spec or {})
                  if neg["middle"].startswith(f"{ing.namespace}-{service}-")]
        if served:
            return f"{backend} (Service {ing.namespace}/{max(served, key=len)})"
    elif (node_port := _NODE_PORT_BACKEND.match(backend)) is not None:
        wanted = int(node_port["port"])
        for svc in cluster.objects_of("Service"):
            # (a node port is the cluster's own: the default backend's Service is kube-system's)
            if any(port.nodePort == wanted for port in svc.view.spec.ports or ()):
                return f"{backend} (Service {svc.namespace}/{svc.name}, node port {wanted})"
    return backend
