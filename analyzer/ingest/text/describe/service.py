"""`kubectl describe svc`: type, addresses, ports in order, and the Endpoints it lists; and
`kubectl describe endpoints`: its subsets."""

from __future__ import annotations

import re
from typing import Any

from analyzer.ingest.text.describe.context import DescribeContext
from analyzer.ingest.text.describe.sections import DESCRIBE_ORIGIN, key_values
from analyzer.ingest.text.describe.tree import Entry
from analyzer.ingest.text.rows.services import ingress_points
from analyzer.ingest.text.types import TEXT_FACTS_KEY, TextObject
from analyzer.ingest.text.values import cell, csv, int_or_string, integer

_SPEC_FIELDS = {
    "Type": "type", "IP Family Policy": "ipFamilyPolicy", "IP": "clusterIP",
    "Session Affinity": "sessionAffinity", "External Traffic Policy": "externalTrafficPolicy",
    "Internal Traffic Policy": "internalTrafficPolicy",
}
# kubectl about 1.8 printed a named targetPort through `%d`: `%!d(string=http-web)/TCP`
# (kubernetes/kubernetes#57710); the name is what the Service holds
_GO_BAD_VERB = re.compile(r"^%!\w\(\w+=(?P<value>[^)]*)\)$")
_LIST_FIELDS = {"IP Families": "ipFamilies", "IPs": "clusterIPs", "External IPs": "externalIPs"}


def _port(text: str) -> tuple[str | None, int, str] | None:
    """`dns  53/UDP` or `<unset>  80/TCP` -> (name, port, protocol); kubectl before about 1.1
    wrote a port without a name `<unnamed>` and its protocol in lower case (openshift/origin#2941).

    >>> _port("dns  53/UDP"), _port("<unnamed>       8080/tcp")
    (('dns', 53, 'UDP'), (None, 8080, 'TCP'))
    """
    parts = text.split()
    if not parts:
        return None
    number, _, protocol = parts[-1].partition("/")
    if not number.isdigit():
        return None
    name = parts[0] if len(parts) > 1 and parts[0] not in ("<unset>", "<unnamed>") else None
    return name, int(number), protocol.upper() or "TCP"


def _target_port(text: str) -> int | str:
    """`8080`, `http` or Go's misprint of a name `%!d(string=http)` as the port it is.

    >>> _target_port("8080"), _target_port("%!d(string=http-web)")
    (8080, 'http-web')
    """
    return int_or_string(bad.group("value") if (bad := _GO_BAD_VERB.match(text)) else text)


def read_service(root: Entry, body: dict[str, Any], facts: dict[str, Any],
                 ctx: DescribeContext) -> list[TextObject]:
    """Fill a Service from its describe; its per-port Endpoints become one Endpoints object.

    Ports come as repeated `Port` / `TargetPort` / `NodePort` / `Endpoints` fields, in order.
    """
    spec: dict[str, Any] = {}
    for key, target in _SPEC_FIELDS.items():
        if value := cell(root.child_value(key)):
            spec[target] = value
    for key, target in _LIST_FIELDS.items():
        if values := csv(root.child_value(key)):
            spec[target] = values
    if (entry := root.child("Selector")) and (found := key_values(
            [part for value in entry.values for part in csv(value)], "=")):
        spec["selector"] = found
    if port := integer(root.child_value("HealthCheck NodePort")):
        spec["healthCheckNodePort"] = port
    ports: list[dict[str, Any]] = []
    subsets: list[dict[str, Any]] = []
    endpoints_said = 0  # ports whose Endpoints line the describe printed (`<none>` or blank: none)
    blank = False  # a port's Endpoints line blank, not `<none>`: addresses, none of them ready
    for entry in root.children:
        value = cell(entry.value)
        endpoints_said += entry.key == "Endpoints" and bool(ports)
        blank |= entry.key == "Endpoints" and bool(ports) and not (entry.value or "").strip()
        if entry.key == "Port" and value and (parsed := _port(value)):
            name, number, protocol = parsed
            ports.append({**({"name": name} if name else {}), "port": number, "protocol": protocol})
        elif not ports or value is None:
            continue
        elif entry.key == "TargetPort":
            ports[-1]["targetPort"] = _target_port(value.partition("/")[0])
        elif entry.key == "NodePort" and (parsed := _port(value)):
            ports[-1]["nodePort"] = parsed[1]
        elif entry.key == "Endpoints" and (subset := _subset(entry.values, ports[-1])):
            subsets.append(subset)
    if ports:
        spec["ports"] = ports
    if spec:
        body["spec"] = spec
    if ingress := csv(root.child_value("LoadBalancer Ingress")):
        body["status"] = {"loadBalancer": {"ingress": ingress_points(ingress)}}
    if not subsets and endpoints_said < len(ports) or not ports:
        return []
    # every port's Endpoints printed, none with an address: the Service's Endpoints have no ready
    # one; `<none>` says they have none at all, a blank line that those they have are not ready
    # (kubectl prints only the ready ones: deis/charts#29, gluster/gluster-kubernetes#229)
    endpoints = {"apiVersion": "v1", "kind": "Endpoints",
                 "metadata": {k: v for k, v in body["metadata"].items() if k in ("name", "namespace")},
                 "subsets": subsets}
    if blank and not subsets:
        endpoints[TEXT_FACTS_KEY] = {"not_ready_unprinted": True}
    return [TextObject(body=endpoints, line=ctx.line, origin=DESCRIBE_ORIGIN)]


def _subset(values: list[str], port: dict[str, Any]) -> dict[str, Any] | None:
    """`10.0.0.5:53,10.0.0.6:53` under a port as one Endpoints subset."""
    addresses: list[dict[str, str]] = []
    target: int | None = None
    for pair in (p for value in values for p in csv(value.partition(" + ")[0])):
        # kubectl before about 1.1 printed the port's name first: `<unnamed>  10.1.1.5:8080`
        # (openshift/origin#2941)
        ip, _, number = pair.split()[-1].rpartition(":") if pair.split() else ("", "", "")
        if not ip or not number.isdigit():
            continue
        addresses.append({"ip": ip.strip("[]")})
        target = int(number)
    if not addresses or target is None:
        return None
    endpoint_port = {**({"name": port["name"]} if "name" in port else {}), "port": target,
                     "protocol": port["protocol"]}
    return {"addresses": addresses, "ports": [endpoint_port]}


def read_endpoints(root: Entry, body: dict[str, Any], facts: dict[str, Any],
                   ctx: DescribeContext) -> list[TextObject]:
    """Fill an Endpoints object from its describe: under `Subsets:`, each subset's `Addresses`,
    `NotReadyAddresses` (comma-separated IPs, or `<none>`) and `Ports` table (Name Port Protocol)."""
    subsets: list[dict[str, Any]] = []
    for entry in (root.child("Subsets").children if root.child("Subsets") else ()):
        if entry.key == "Addresses" or not subsets:
            subsets.append({})  # each subset begins with its Addresses line
        subset = subsets[-1]
        if entry.key in ("Addresses", "NotReadyAddresses"):
            ips = [{"ip": ip} for ip in csv(cell(entry.value))]
            if ips:
                subset["addresses" if entry.key == "Addresses" else "notReadyAddresses"] = ips
        elif entry.key == "Ports":
            ports = [port for row in entry.more if (port := _endpoint_port(row)) is not None]
            if ports:
                subset["ports"] = ports
    if subsets := [s for s in subsets if s]:
        body["subsets"] = subsets
    return []


def _endpoint_port(row: str) -> dict[str, Any] | None:
    """A row of an Endpoints describe's Ports table (`http  8080  TCP`, `<unset>  53  UDP`); None
    for its header, its rule line or anything else."""
    parts = row.split()
    if len(parts) != 3 or not parts[1].isdigit():
        return None
    name, number, protocol = parts
    return {**({"name": name} if name != "<unset>" else {}), "port": int(number), "protocol": protocol}


READERS = {"Service": read_service, "Endpoints": read_endpoints}
