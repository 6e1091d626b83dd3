"""Service, Endpoints and Ingress rows: ports, external addresses, endpoint addresses, hosts."""

from __future__ import annotations

import re
from typing import Any

from analyzer.ingest.text.rows.context import RowContext
from analyzer.ingest.text.values import cell, csv, service_ports, set_path

_IP = re.compile(r"^[0-9.]+$|^[0-9a-fA-F:]+:[0-9a-fA-F:]*$")

# What an EXTERNAL-IP cell of kubectl's holds for one Service type alone: a LoadBalancer without
# an address yet, a NodePort without external IPs
_TYPE_OF_EXTERNAL = {"<pending>": "LoadBalancer", "<nodes>": "NodePort"}


def ingress_points(addresses: list[str]) -> list[dict[str, str]]:
    """Load-balancer addresses as `status.loadBalancer.ingress` entries (IP or hostname).

    >>> ingress_points(["20.1.2.3", "a1.elb.amazonaws.com"])
    [{'ip': '20.1.2.3'}, {'hostname': 'a1.elb.amazonaws.com'}]
    """
    return [{"ip": a} if _IP.match(a) else {"hostname": a} for a in addresses]


def read_service(body: dict[str, Any], cells: dict[str, str | None], facts: dict[str, Any],
                 ctx: RowContext | None) -> None:
    """Fill a Service from its row.

    >>> body = {"spec": {"type": "LoadBalancer"}}
    >>> read_service(body, {"EXTERNAL-IP": "20.1.2.3", "PORT(S)": "80:31380/TCP"}, {}, None)
    >>> body
    {'spec': {'type': 'LoadBalancer', 'ports': [{'port': 80, 'protocol': 'TCP', 'nodePort': 31380}]}, 'status': {'loadBalancer': {'ingress': [{'ip': '20.1.2.3'}]}}}
    """
    kind = body.get("spec", {}).get("type")
    external = cell(cells.get("EXTERNAL-IP"))
    if kind is None and external in _TYPE_OF_EXTERNAL:
        # kubectl before 1.6 printed no TYPE column, and these words for one type alone
        # (pkg/kubectl/resource_printer.go, getServiceExternalIP): kelseyhightower/
        # kubernetes-the-hard-way#100's `web  10.32.0.116  <pending>` is a LoadBalancer,
        # kubernetes/kubernetes#34100's `foobar  10.0.0.98  <nodes>` a NodePort, no external IP
        kind = _TYPE_OF_EXTERNAL[external]
        set_path(body, "spec.type", kind)
    if external == "<pending>":
        facts["external_ip"] = "pending"
    elif external == "<nodes>" and kind == "NodePort":
        pass
    elif external and kind == "LoadBalancer":
        set_path(body, "status.loadBalancer.ingress", ingress_points(csv(external)))
    elif external and kind == "ExternalName":
        set_path(body, "spec.externalName", external)
    elif external:
        set_path(body, "spec.externalIPs", csv(external))
    if ports := service_ports(cells.get("PORT(S)")):
        set_path(body, "spec.ports", ports)


def read_endpoints(body: dict[str, Any], cells: dict[str, str | None], facts: dict[str, Any],
                   ctx: RowContext | None) -> None:
    """Fill Endpoints from `ip:port,...` (kubectl shows three and `+ N more...`).

    >>> body, facts = {}, {}
    >>> read_endpoints(body, {"ENDPOINTS": "10.0.0.5:53,10.0.0.6:53 + 2 more..."}, facts, None)
    >>> body["subsets"], facts
    ([{'addresses': [{'ip': '10.0.0.5'}, {'ip': '10.0.0.6'}], 'ports': [{'port': 53}]}], {'endpoints_not_shown': 2})
    >>> facts = {}; read_endpoints({}, {"ENDPOINTS": None}, facts, None); facts
    {'not_ready_unprinted': True}
    """
    raw = cell(cells.get("ENDPOINTS"))
    if "ENDPOINTS" in cells and cells["ENDPOINTS"] is None:
        # blank, where an Endpoints with no subsets shows `<none>`: its addresses are all not
        # ready (luksa/kubernetes-in-action-2nd-edition#15: `quiz`, its pod not ready)
        facts["not_ready_unprinted"] = True
    if not raw:
        return
    shown, _, more = raw.partition(" + ")
    if more:
        count = re.match(r"(\d+)", more)
        if count:
            facts["endpoints_not_shown"] = int(count.group(1))
    by_port: dict[int, list[dict[str, str]]] = {}
    for pair in csv(shown):
        address, _, port = pair.rpartition(":")
        if not address or not port.isdigit():
            return
        by_port.setdefault(int(port), []).append({"ip": address.strip("[]")})
    subsets = [{"addresses": ips, "ports": [{"port": port}]} for port, ips in sorted(by_port.items())]
    if subsets:
        body["subsets"] = subsets


def read_ingress(body: dict[str, Any], cells: dict[str, str | None], facts: dict[str, Any],
                 ctx: RowContext | None) -> None:
    """Fill an Ingress from CLASS, HOSTS, ADDRESS, PORTS.

    >>> body = {}
    >>> read_ingress(body, {"CLASS": "nginx", "HOSTS": "a.example.com,*", "ADDRESS": "20.1.2.3"}, {}, None)
    >>> body
    {'spec': {'ingressClassName': 'nginx', 'rules': [{'host': 'a.example.com'}, {}]}, 'status': {'loadBalancer': {'ingress': [{'ip': '20.1.2.3'}]}}}
    """
    if klass := cell(cells.get("CLASS")):
        set_path(body, "spec.ingressClassName", klass)
    if hosts := csv(cells.get("HOSTS")):
        set_path(body, "spec.rules", [{} if host == "*" else {"host": host} for host in hosts])
    if address := csv(cells.get("ADDRESS")):
        set_path(body, "status.loadBalancer.ingress", ingress_points(address))
    if ports := cell(cells.get("PORTS")):
        facts["ports"] = ports


READERS = {"Service": read_service, "Endpoints": read_endpoints, "Ingress": read_ingress}
