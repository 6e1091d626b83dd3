"""Objects a live cluster would serve that a dump holds only in another form.

kubectl 1.32's `describe service` reads a Service's endpoints only from EndpointSlices (a 404 is
taken for none). A dump that collected Endpoints but no EndpointSlices (sonobuoy results, older
support bundles) would then say `Endpoints: <none>` for every Service, where the cluster had the
slices its controllers make of the same addresses. `kda serve` serves those slices, derived here
as the EndpointSlice mirroring controller writes them, each annotated as derived by kda. They are
added to the served catalog only: tables and findings read the dump as collected.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from analyzer.ingest import KubeObject
from analyzer.ingest.objects import Hints, object_from_dict
from analyzer.printing.resources import ResourceCatalog

DERIVED_ANNOTATION = "kda.analyzer/derived-from"
SERVICE_NAME_LABEL = "kubernetes.io/service-name"
MANAGED_BY_LABEL = "endpointslice.kubernetes.io/managed-by"
MIRRORING_CONTROLLER = "endpointslicemirroring-controller.k8s.io"
# the mirroring controller's --mirroring-max-endpoints-per-subset default
MAX_ENDPOINTS_PER_SLICE = 1000
# a label of the Endpoints the mirroring controller drops (it is how a slice's writer tells it
# to stay away; the API server's own `kubernetes` Endpoints carries it)
_SKIP_MIRROR_LABEL = "endpointslice.kubernetes.io/skip-mirror"
# annotations of the Endpoints the mirroring controller does not copy to its slices
_NOT_MIRRORED = frozenset({"endpoints.kubernetes.io/last-change-trigger-time",
                           "kubectl.kubernetes.io/last-applied-configuration"})


def add_derived_endpoint_slices(catalog: ResourceCatalog) -> int:
    """Give a catalog that collected Endpoints but no EndpointSlices the slices derived from
    them; returns how many were added (0 when the dump collected slices, or no Endpoints)."""
    slices = catalog.get("discovery.k8s.io", "EndpointSlice")
    endpoints = catalog.get("", "Endpoints")
    if slices is None or endpoints is None or catalog.collected(slices) or not catalog.collected(endpoints):
        return 0
    for obj in endpoints.objects:
        for body in endpoint_slices_of(obj.body()):
            derived = object_from_dict(body, Hints(kind="EndpointSlice"), obj.provenance.derived("derived"))
            if isinstance(derived, KubeObject):
                slices.objects.append(derived)
    slices.objects.sort(key=lambda o: (o.key.namespace, o.key.name))
    # Endpoints collected and none found: no slices either, a list says so rather than "not collected"
    catalog.collected_kinds.add("EndpointSlice")
    return len(slices.objects)


def endpoint_slices_of(endpoints: dict[str, Any]) -> list[dict[str, Any]]:
    """The discovery.k8s.io/v1 EndpointSlices the mirroring controller writes for one Endpoints:
    one per address type and port set (subsets with the same ports share one, up to 1,000
    endpoints), ready as the address was listed, targetRef, nodeName and hostname kept.

    >>> ep = {"metadata": {"name": "web", "namespace": "shop", "labels": {"app": "web"}},
    ...       "subsets": [{"addresses": [{"ip": "10.0.0.5", "nodeName": "n1"}],
    ...                    "notReadyAddresses": [{"ip": "10.0.0.6"}, {"ip": "fd00::7"}],
    ...                    "ports": [{"name": "http", "port": 8080, "protocol": "TCP"}]}]}
    >>> [(s["metadata"]["name"], s["addressType"], [(e["addresses"][0], e["conditions"]["ready"])
    ...   for e in s["endpoints"]]) for s in endpoint_slices_of(ep)]
    [('web-kda-1', 'IPv4', [('10.0.0.5', True), ('10.0.0.6', False)]), ('web-kda-2', 'IPv6', [('fd00::7', False)])]
    >>> s = endpoint_slices_of(ep)[0]
    >>> s["metadata"]["labels"], s["ports"], s["endpoints"][0]["nodeName"]
    ({'app': 'web', 'kubernetes.io/service-name': 'web', 'endpointslice.kubernetes.io/managed-by': 'endpointslicemirroring-controller.k8s.io'}, [{'name': 'http', 'port': 8080, 'protocol': 'TCP'}], 'n1')
    >>> endpoint_slices_of({"metadata": {"name": "empty"}, "subsets": None})
    []
    """
    meta = endpoints.get("metadata") if isinstance(endpoints.get("metadata"), dict) else {}
    name = str(meta.get("name") or "")
    if not name:
        return []
    groups: dict[tuple[str, bytes], tuple[list[dict[str, Any]], list[list[dict[str, Any]]]]] = {}
    for subset in _dicts(endpoints.get("subsets")):
        ports = [_slice_port(p) for p in _dicts(subset.get("ports"))]
        for key, ready in (("addresses", True), ("notReadyAddresses", False)):
            for address in _dicts(subset.get(key)):
                ip = address.get("ip")
                kind = _address_type(ip)
                if kind is None:
                    continue  # no IP the mirroring controller could use
                group_key = (kind, repr(sorted(ports, key=repr)).encode())
                chunks = groups.setdefault(group_key, (ports, [[]]))[1]
                if len(chunks[-1]) >= MAX_ENDPOINTS_PER_SLICE:
                    chunks.append([])
                chunks[-1].append(_endpoint(address, str(ip), ready))
    labels = {k: v for k, v in meta["labels"].items() if k != _SKIP_MIRROR_LABEL} \
        if isinstance(meta.get("labels"), dict) else {}
    labels[SERVICE_NAME_LABEL] = name
    labels[MANAGED_BY_LABEL] = MIRRORING_CONTROLLER
    annotations = {k: v for k, v in (meta.get("annotations") or {}).items() if k not in _NOT_MIRRORED} \
        if isinstance(meta.get("annotations"), dict) else {}
    namespace = meta.get("namespace")
    source = f"Endpoints {namespace}/{name}" if namespace else f"Endpoints {name}"
    annotations[DERIVED_ANNOTATION] = f"derived by kda from {source}: the dump collected no EndpointSlices"
    out = []
    for (kind, _), (ports, chunks) in groups.items():
        for chunk in chunks:
            slice_meta: dict[str, Any] = {"name": f"{name}-kda-{len(out) + 1}", "labels": dict(labels),
                                          "annotations": dict(annotations)}
            for field in ("namespace", "creationTimestamp", "resourceVersion"):
                if meta.get(field):
                    slice_meta[field] = meta[field]
            if meta.get("uid"):
                slice_meta["ownerReferences"] = [{"apiVersion": "v1", "kind": "Endpoints", "name": name,
                                                  "uid": meta["uid"], "controller": True,
                                                  "blockOwnerDeletion": True}]
            out.append({"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice", "metadata": slice_meta,
                        "addressType": kind, "endpoints": chunk, "ports": ports})
    return out


def _dicts(value: Any) -> list[dict[str, Any]]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _address_type(ip: Any) -> str | None:
    try:
        return "IPv6" if isinstance(ipaddress.ip_address(str(ip)), ipaddress.IPv6Address) else "IPv4"
    except ValueError:
        return None


def _slice_port(port: dict[str, Any]) -> dict[str, Any]:
    # the name always set, "" for an unnamed port: kubectl matches a Service port by it
    out: dict[str, Any] = {"name": str(port.get("name") or ""), "port": port.get("port"),
                           "protocol": port.get("protocol") or "TCP"}
    if port.get("appProtocol"):
        out["appProtocol"] = port["appProtocol"]
    return out


def _endpoint(address: dict[str, Any], ip: str, ready: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"addresses": [ip], "conditions": {"ready": ready}}
    if address.get("hostname"):
        out["hostname"] = address["hostname"]
    if address.get("nodeName"):
        out["nodeName"] = address["nodeName"]
    if isinstance(address.get("targetRef"), dict):
        out["targetRef"] = address["targetRef"]
    return out
