"""Services (and a StatefulSet's headless one) as the API server stores them."""

from __future__ import annotations

from typing import Any

from synthetic.fields import managed_entry, top_level_fields
from synthetic.ids import Ids
from synthetic.objects.metadata import LAST_APPLIED, last_applied, object_metadata
from synthetic.objects.workloads import Workload
from synthetic.times import timestamp


def service_objects(w: Workload, ids: Ids, cluster_ip: str) -> list[dict[str, Any]]:
    """The Service in front of a workload (plus the headless one a StatefulSet needs)."""
    rng = ids.rng
    load_balancer = w.name == "ingress-nginx-controller"
    spec: dict[str, Any] = {
        "clusterIP": cluster_ip,
        "clusterIPs": [cluster_ip],
        "internalTrafficPolicy": "Cluster",
        "ipFamilies": ["IPv4"],
        "ipFamilyPolicy": "SingleStack",
        "ports": w.ports,
        "selector": w.selector,
        "sessionAffinity": "None",
        "type": "ClusterIP",
    }
    status: dict[str, Any] = {"loadBalancer": {}}
    annotations: dict[str, str] = {}
    if load_balancer:
        spec.update(
            type="LoadBalancer", externalTrafficPolicy="Local", healthCheckNodePort=rng.randint(30000, 32767),
            allocateLoadBalancerNodePorts=True,
            ports=[{"appProtocol": "http", "name": "http", "nodePort": rng.randint(30000, 32767), "port": 80, "protocol": "TCP", "targetPort": "http"},
                   {"appProtocol": "https", "name": "https", "nodePort": rng.randint(30000, 32767), "port": 443, "protocol": "TCP", "targetPort": "https"}],
        )
        annotations["service.beta.kubernetes.io/aws-load-balancer-type"] = "nlb"
        status = {"loadBalancer": {"ingress": [{"hostname": f"a{ids.hex(31)}-{rng.randint(10**9, 10**10)}.elb.eu-central-1.amazonaws.com"}]}}
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
