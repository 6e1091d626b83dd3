"""ConfigMaps: the CA bundle every namespace gets, and an app's configuration."""

from __future__ import annotations

import base64
from typing import Any

from synthetic.fields import managed_entry, top_level_fields
from synthetic.ids import Ids, digest
from synthetic.objects.metadata import object_metadata
from synthetic.objects.workloads import Workload
from synthetic.times import timestamp

# The description kube-controller-manager gives every namespace's kube-root-ca.crt.
ROOT_CA_DESCRIPTION = (
    "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints"
    " such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across"
    " distributions of Kubernetes clusters."
)


def placeholder_certificate(*parts: object) -> str:
    """A PEM block standing in for a cluster CA certificate (public data; derived, not real)."""
    body = base64.b64encode(b"".join(digest(i, *parts) for i in range(27))[:810]).decode()
    lines = [body[i:i + 64] for i in range(0, len(body), 64)]
    return "-----BEGIN CERTIFICATE-----\n" + "\n".join(lines) + "\n-----END CERTIFICATE-----\n"


def root_ca_configmap(ids: Ids, namespace: str, age: int) -> dict[str, Any]:
    """The kube-root-ca.crt ConfigMap the controller manager puts in every namespace."""
    data = {"ca.crt": placeholder_certificate("cluster-ca")}
    managed = [managed_entry("kube-controller-manager", timestamp(age), top_level_fields({
        "data": {"ca.crt": ""}, "metadata": {"annotations": {"kubernetes.io/description": ""}}}))]
    annotations = {"kubernetes.io/description": ROOT_CA_DESCRIPTION}
    return {"apiVersion": "v1", "data": data, "kind": "ConfigMap",
            "metadata": object_metadata(ids, namespace, "kube-root-ca.crt", age, managed, annotations=annotations)}


def app_configmap(w: Workload, ids: Ids) -> dict[str, Any]:
    """A team app's configuration (a multi-line YAML file and a plain key)."""
    data = dict(w.config or {})
    managed = [managed_entry("helm", timestamp(w.age), top_level_fields({"data": data, "metadata": {"labels": w.template_labels}}))]
    return {"apiVersion": "v1", "data": data, "kind": "ConfigMap",
            "metadata": object_metadata(ids, w.namespace, f"{w.name}-config", w.age, managed, w.template_labels)}
