"""Services (and a StatefulSet's headless one) as the API server stores them."""

from __future__ import annotations

from typing import Any

from synthetic.fields import managed_entry, top_level_fields
from synthetic.ids import Ids
from synthetic.objects.metadata import LAST_APPLIED, last_applied, object_metadata
from synthetic.objects.workloads import Workload
from synthetic.times import timestamp


def label_selector_matches(selector: dict[str, str], labels: dict[str, str]) -> bool:
    """Whether a Service's selector selects a pod with these labels."""
    return all(labels.get(k) == v for k, v in selector.items())


def service_port(port: dict[str, Any]) -> dict[str, Any]:
    """A Service port with the API defaults: protocol TCP, targetPort the port."""
    full = {"name": port.get("name"), "protocol": port.get("protocol", "TCP"), "appProtocol": port.get("appProtocol"),
            "port": port["port"], "targetPort": port.get("targetPort", port["port"]), "nodePort": port.get("nodePort")}
    return {key: value for key, value in full.items() if value is not None}


def service_spec(ports: list[dict[str, Any]], selector: dict[str, str] | None, cluster_ip: str,
                 service_type: str = "ClusterIP", external_traffic_policy: str = "Cluster",
                 health_check_node_port: int | None = None) -> dict[str, Any]:
    """A Service spec as the API server stores it: its defaults and the allocated cluster IP."""
    spec: dict[str, Any] = {"ports": [service_port(port) for port in ports]}
    if selector is not None:
        spec["selector"] = selector
    spec.update({"clusterIP": cluster_ip, "clusterIPs": [cluster_ip], "type": service_type, "sessionAffinity": "None",
                 "ipFamilies": ["IPv4"], "ipFamilyPolicy": "SingleStack", "internalTrafficPolicy": "Cluster"})
    if service_type in ("NodePort", "LoadBalancer"):
        spec["externalTrafficPolicy"] = external_traffic_policy
    if health_check_node_port is not None:  # allocated for externalTrafficPolicy: Local
        spec["healthCheckNodePort"] = health_check_node_port
    if service_type == "LoadBalancer":
        spec["allocateLoadBalancerNodePorts"] = True
    return spec


def service_objects(w: Workload, ids: Ids, cluster_ip: str) -> list[dict[str, Any]]:
    """The Service in front of a workload (plus the headless one a StatefulSet needs)."""
    rng = ids.rng
    load_balancer = w.name == "ingress-nginx-controller"
    status: dict[str, Any] = {"loadBalancer": {}}
    annotations: dict[str, str] = {}
    if load_balancer:
        health_check_port = rng.randint(30000, 32767)
        ports = [{"appProtocol": "http", "name": "http", "nodePort": rng.randint(30000, 32767), "port": 80, "protocol": "TCP", "targetPort": "http"},
                 {"appProtocol": "https", "name": "https", "nodePort": rng.randint(30000, 32767), "port": 443, "protocol": "TCP", "targetPort": "https"}]
        spec = service_spec(ports, w.selector, cluster_ip, "LoadBalancer", "Local", health_check_port)
        annotations["service.beta.kubernetes.io/aws-load-balancer-type"] = "nlb"
        status = {"loadBalancer": {"ingress": [{"hostname": f"a{ids.hex(31)}-{rng.randint(10**9, 10**10)}.elb.eu-central-1.amazonaws.com"}]}}
    else:
        spec = service_spec(w.ports, w.selector, cluster_ip)
    if w.applied_manifest is not None:
        manifest = {"apiVersion": "v1", "kind": "Service",
                    "metadata": {"annotations": {}, "labels": w.template_labels, "name": w.name, "namespace": w.namespace},
                    "spec": {"ports": w.ports, "selector": w.selector}}
        annotations[LAST_APPLIED] = last_applied(manifest)
    manager = "kubectl-client-side-apply" if w.applied_manifest is not None else "helm"
    managed = [managed_entry(manager, timestamp(w.age), top_level_fields({
        "metadata": {"annotations": annotations, "labels": w.template_labels} if annotations else {"labels": w.template_labels},
        "spec": {k: v for k, v in spec.items() if k in ("internalTrafficPolicy", "ports", "selector", "sessionAffinity", "type")},
    }))]
    service = {
        "apiVersion": "v1", "kind": "Service",
        "metadata": object_metadata(ids, w.namespace, w.name, w.age, managed, w.template_labels, annotations),
        "spec": spec, "status": status,
    }
    if w.kind != "StatefulSet":
        return [service]
    headless_spec = {**spec, "clusterIP": "None", "clusterIPs": ["None"], "publishNotReadyAddresses": True}
    headless = {
        "apiVersion": "v1", "kind": "Service",
        "metadata": object_metadata(ids, w.namespace, f"{w.name}-headless", w.age, managed, w.template_labels),
        "spec": headless_spec, "status": {"loadBalancer": {}},
    }
    return [service, headless]
