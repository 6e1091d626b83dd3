"""Services, ConfigMaps, Events and Namespaces of the synthetic cluster."""

from __future__ import annotations

import base64
import hashlib
from typing import Any

from synthetic.fields import managed_entry, top_level_fields
from synthetic.ids import Ids
from synthetic.objects.metadata import LAST_APPLIED, last_applied
from synthetic.objects.workloads import Workload
from synthetic.times import timestamp


def _metadata(ids: Ids, namespace: str, name: str, age: int, managed: list[dict[str, Any]],
              labels: dict[str, str] | None = None, annotations: dict[str, str] | None = None) -> dict[str, Any]:
    metadata: dict[str, Any] = {
        "creationTimestamp": timestamp(age),
        "managedFields": managed,
        "name": name,
        "resourceVersion": ids.resource_version(),
        "uid": ids.uid(),
    }
    if namespace:
        metadata["namespace"] = namespace
    if labels:
        metadata["labels"] = labels
    if annotations:
        metadata["annotations"] = annotations
    return metadata


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
        "metadata": _metadata(ids, w.namespace, w.name, w.age, managed, w.template_labels, annotations),
        "spec": spec, "status": status,
    }
    if w.kind != "StatefulSet":
        return [service]
    headless_spec = {**spec, "clusterIP": "None", "clusterIPs": ["None"], "publishNotReadyAddresses": True}
    headless = {
        "apiVersion": "v1", "kind": "Service",
        "metadata": _metadata(ids, w.namespace, f"{w.name}-headless", w.age, managed, w.template_labels),
        "spec": headless_spec, "status": {"loadBalancer": {}},
    }
    return [service, headless]


def _certificate(seed: str) -> str:
    """A PEM block shaped like the cluster CA certificate (random bytes, not a real certificate)."""
    body = b"".join(hashlib.sha512(f"{seed}{i}".encode()).digest() for i in range(14))[:800]
    text = base64.b64encode(body).decode()
    lines = [text[i : i + 64] for i in range(0, len(text), 64)]
    return "-----BEGIN CERTIFICATE-----\n" + "\n".join(lines) + "\n-----END CERTIFICATE-----\n"


def root_ca_configmap(ids: Ids, namespace: str, age: int) -> dict[str, Any]:
    """The kube-root-ca.crt ConfigMap the controller manager puts in every namespace."""
    data = {"ca.crt": _certificate("cluster-ca")}
    managed = [managed_entry("kube-controller-manager", timestamp(age), top_level_fields({
        "data": {"ca.crt": ""}, "metadata": {"annotations": {"kubernetes.io/description": ""}}}))]
    annotations = {"kubernetes.io/description": (
        "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as "
        "the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.")}
    return {"apiVersion": "v1", "data": data, "kind": "ConfigMap",
            "metadata": _metadata(ids, namespace, "kube-root-ca.crt", age, managed, annotations=annotations)}


def app_configmap(w: Workload, ids: Ids) -> dict[str, Any]:
    """A team app's configuration (a multi-line YAML file and a plain key)."""
    data = dict(w.config or {})
    managed = [managed_entry("helm", timestamp(w.age), top_level_fields({"data": data, "metadata": {"labels": w.template_labels}}))]
    return {"apiVersion": "v1", "data": data, "kind": "ConfigMap",
            "metadata": _metadata(ids, w.namespace, f"{w.name}-config", w.age, managed, w.template_labels)}


def pod_events(ids: Ids, pod: dict[str, Any], state: str) -> list[dict[str, Any]]:
    """Events kubelet and the scheduler report for a pod in `state`."""
    rng = ids.rng
    meta, spec = pod["metadata"], pod["spec"]
    main = spec["containers"][0]
    node = spec.get("nodeName", "")
    involved = {"apiVersion": "v1", "kind": "Pod", "name": meta["name"], "namespace": meta["namespace"],
                "resourceVersion": meta["resourceVersion"], "uid": meta["uid"]}
    container_ref = {**involved, "fieldPath": f"spec.containers{{{main['name']}}}"}
    if state == "pending":
        reasons = [("Warning", "FailedScheduling", involved, "default-scheduler", "",
                    pod["status"]["conditions"][0]["message"], rng.randint(50, 3000))]
    elif state == "crashloop":
        reasons = [
            ("Warning", "BackOff", container_ref, "kubelet", node, "Back-off restarting failed container "
             f"{main['name']} in pod {meta['name']}_{meta['namespace']}({meta['uid']})", rng.randint(100, 5000)),
            ("Normal", "Pulled", container_ref, "kubelet", node, f'Container image "{main["image"]}" already present on machine',
             rng.randint(20, 900)),
        ]
    elif state == "imagepull":
        reasons = [
            ("Warning", "Failed", container_ref, "kubelet", node, f'Failed to pull image "{main["image"]}": rpc error: code = '
             f'NotFound desc = failed to pull and unpack image "{main["image"]}": failed to resolve reference '
             f'"{main["image"]}": {main["image"]}: not found', rng.randint(5, 80)),
            ("Normal", "BackOff", container_ref, "kubelet", node, f'Back-off pulling image "{main["image"]}"', rng.randint(50, 2000)),
        ]
    elif state == "restarted":
        reasons = [("Warning", "Unhealthy", container_ref, "kubelet", node,
                    f'Readiness probe failed: Get "http://{pod["status"].get("podIP", "10.0.0.1")}:8080/ready": dial tcp '
                    f'{pod["status"].get("podIP", "10.0.0.1")}:8080: connect: connection refused', rng.randint(1, 30))]
    elif state == "evicted":
        reasons = [("Warning", "Evicted", involved, "kubelet", node, pod["status"]["message"], 1)]
    else:
        reasons = [
            ("Normal", "Scheduled", involved, "default-scheduler", "",
             f"Successfully assigned {meta['namespace']}/{meta['name']} to {node}", 1),
            ("Normal", "Pulled", container_ref, "kubelet", node, f'Container image "{main["image"]}" already present on machine', 1),
            ("Normal", "Created", container_ref, "kubelet", node, f"Created container {main['name']}", 1),
            ("Normal", "Started", container_ref, "kubelet", node, f"Started container {main['name']}", 1),
        ]
    events = []
    for kind, reason, target, component, host, message, count in reasons:
        last_ago = rng.randint(5, 3000)
        first_ago = last_ago + rng.randint(0, 86_400) if count > 1 else last_ago
        source = {"component": component, **({"host": host} if host else {})}
        name = f"{meta['name']}.{ids.hex(16)}"
        event = {
            "apiVersion": "v1", "count": count, "eventTime": None, "firstTimestamp": timestamp(first_ago),
            "involvedObject": target, "kind": "Event", "lastTimestamp": timestamp(last_ago), "message": message,
            "metadata": {"creationTimestamp": timestamp(first_ago), "name": name, "namespace": meta["namespace"],
                         "resourceVersion": ids.resource_version(), "uid": ids.uid()},
            "reason": reason, "reportingComponent": component, "reportingInstance": host, "source": source, "type": kind,
        }
        events.append(event)
    return events


def namespace_object(ids: Ids, name: str, age: int, labels: dict[str, str]) -> dict[str, Any]:
    """A Namespace."""
    all_labels = {"kubernetes.io/metadata.name": name, **labels}
    managed = [managed_entry("kubectl-create", timestamp(age), top_level_fields({"metadata": {"labels": all_labels}}))]
    return {"apiVersion": "v1", "kind": "Namespace",
            "metadata": _metadata(ids, "", name, age, managed, all_labels),
            "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": "Active"}}
