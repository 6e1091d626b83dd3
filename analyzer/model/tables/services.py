"""Services, their ports, and the addresses behind them (Endpoints and EndpointSlices)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pandas as pd

from analyzer.kube.views import EndpointPort, ServicePort, ServiceView
from analyzer.model.frame import empty_columns, to_frame
from analyzer.model.managed import managed_index
from analyzer.model.normalize import (
    builtin_objects,
    builtin_objects_by_kind,
    joined,
    pairs,
    source_of,
    text_age,
)

if TYPE_CHECKING:
    from analyzer.ingest.dump import Dump

SERVICE_NAME_LABEL = "kubernetes.io/service-name"


def service_port_text(p: ServicePort) -> str:
    """A Service port as port[:nodePort]/protocol->targetPort.

    Examples:
        >>> service_port_text(ServicePort(port=80, nodePort=30080, targetPort="http"))
        '80:30080/TCP->http'
    """
    node_port = f":{p.nodePort}" if p.nodePort else ""
    target = f"->{p.targetPort}" if p.targetPort is not None else ""
    return f"{p.port}{node_port}/{p.protocol or 'TCP'}{target}"


def endpoint_ports_text(ports: list[EndpointPort] | None) -> str | None:
    """Endpoint ports as [name:]port/protocol, comma-separated."""
    return joined(f"{p.name + ':' if p.name else ''}{p.port}/{p.protocol or 'TCP'}"
                  for p in ports or ())


def _endpoint_rows(cluster: Dump) -> dict[str, list[Any]]:
    e = empty_columns("endpoints")

    def add(kind: str, obj: Any, service: str | None, ip: str | None, ready: bool | None,
            node: str | None, target: Any, ports: str | None) -> None:
        e["kind"].append(kind)
        e["namespace"].append(obj.namespace)
        e["name"].append(obj.name)
        e["service"].append(service)
        e["ip"].append(ip)
        e["ready"].append(ready)
        e["node"].append(node)
        e["target_kind"].append(target.kind if target else None)
        e["target_name"].append(target.name if target else None)
        e["ports"].append(ports)

    for obj in builtin_objects_by_kind(cluster, "Endpoints", "EndpointSlice"):
        view = obj.view
        rows_before = len(e["ip"])
        if obj.kind == "Endpoints":
            for subset in view.subsets or ():
                ports = endpoint_ports_text(subset.ports)
                for ready, addresses in ((True, subset.addresses),
                                         (False, subset.notReadyAddresses)):
                    for a in addresses or ():
                        add("Endpoints", obj, obj.name, a.ip, ready, a.nodeName, a.targetRef,
                            ports)
            service = obj.name
        else:
            service = (view.metadata.labels or {}).get(SERVICE_NAME_LABEL)
            ports = endpoint_ports_text(view.ports)
            for ep in view.endpoints or ():
                cond = ep.conditions
                # The API: an unknown ready condition is to be read as ready.
                ready = True if cond is None or cond.ready is None else cond.ready
                for ip in ep.addresses or ():
                    add("EndpointSlice", obj, service, ip, ready, ep.nodeName, ep.targetRef,
                        ports)
        if len(e["ip"]) == rows_before:
            # No address at all: one row without ip keeps the (empty) object visible.
            add(obj.kind, obj, service, None, None, None, None, None)
    return e


def build(cluster: Dump) -> dict[str, pd.DataFrame]:
    """services, service_ports and endpoints."""
    s = empty_columns("services")
    sp = empty_columns("service_ports")
    managed = managed_index(cluster)
    for obj in builtin_objects(cluster, "Service"):
        view: ServiceView = obj.view
        spec = view.spec
        lb = view.status.loadBalancer if view.status else None
        s["namespace"].append(obj.namespace)
        s["name"].append(obj.name)
        s["uid"].append(obj.uid)
        s["created"].append(view.metadata.creationTimestamp)
        s["age"].append(text_age(view))
        s["type"].append(spec.type)
        s["cluster_ip"].append(spec.clusterIP)
        s["external_ips"].append(joined(spec.externalIPs or ()))
        s["load_balancer_ingress"].append(
            joined(i.ip or i.hostname for i in lb.ingress or ()) if lb else None)
        s["external_name"].append(spec.externalName)
        s["selector"].append(pairs(spec.selector))
        s["ports"].append(joined(service_port_text(p) for p in spec.ports or ()))
        s["headless"].append(spec.clusterIP == "None" if spec.clusterIP is not None else None)
        s["source"].append(source_of(obj))
        s["managed"].append(managed.of(obj.namespace, view.metadata.labels,
                                       view.metadata.annotations, None) or None)
        for p in spec.ports or ():
            sp["namespace"].append(obj.namespace)
            sp["service"].append(obj.name)
            sp["name"].append(p.name)
            sp["protocol"].append(p.protocol or "TCP")
            sp["port"].append(p.port)
            sp["target_port"].append(None if p.targetPort is None else str(p.targetPort))
            sp["node_port"].append(p.nodePort)
    capture = cluster.capture_time
    return {
        "services": to_frame("services", s, capture, ["namespace", "name"]),
        "service_ports": to_frame("service_ports", sp, capture, ["namespace", "service"]),
        "endpoints": to_frame("endpoints", _endpoint_rows(cluster), capture,
                              ["namespace", "service", "kind", "name"]),
    }
