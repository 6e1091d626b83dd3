"""The `components` table: every system workload, classified by the catalog (unknown ones kept).

Examples:
    >>> image_tag("mcr.microsoft.com/oss/kubernetes/coredns:v1.9.4")
    'v1.9.4'
    >>> image_tag("localhost:5000/kube-proxy@sha256:abcd") is None
    True
    >>> image_tag("k8s.gcr.io/etcd:3.4.9-1@sha256:abcd")
    '3.4.9-1'
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from analyzer.distributions.catalog import Catalog, CatalogEntry, load_catalog
from analyzer.distributions.operators import OPERATOR_KIND, cluster_operators, operator_row
from analyzer.distributions.profiles import load_profiles
from analyzer.distributions.workloads import ComponentWorkload, component_workloads
from analyzer.model.schema import Column, TableSpec

if TYPE_CHECKING:
    import pandas as pd

    from analyzer.distributions.health import ComponentHealth
    from analyzer.model.dump import ModeledDump

UNKNOWN_ROLE = "unknown"
COMPONENTS_SPEC = TableSpec("components", "System-namespace workloads classified by the component catalog, and OpenShift's ClusterOperators by what they run.", tuple(
    Column(*c) for c in (
        ("namespace", "category", "Namespace (empty for a ClusterOperator, which has none)"),
        ("name", "str", "Workload name (a static pod's component name without its node suffix), or the ClusterOperator's"),
        ("kind", "category", "Deployment | DaemonSet | StatefulSet | ReplicaSet | ReplicationController | StaticPod | Pod | ClusterOperator"),
        ("component", "category", "Catalog component name (missing when the catalog does not know it)"),
        ("role", "category", "dns | cni | csi | kube-proxy | control-plane | api-tunnel | ... | unknown"),
        ("distribution_specific", "bool", "The component belongs to particular distributions"),
        ("distributions", "str", "Those distributions, comma-separated"),
        ("critical", "bool", "Losing it breaks the cluster"),
        ("images", "str", "Container images, comma-separated"),
        ("version", "str", "Tag of the main container's image"),
        ("desired", "int", "Pods wanted (replicas, desiredNumberScheduled, or pods seen)"),
        ("ready", "int", "Pods ready"),
        ("host_network", "bool", "Pod template hostNetwork"),
        ("priority_class", "category", "Pod template priorityClassName"),
        ("healthy", "bool", "ready >= desired and no signal below (missing when readiness is unknown and no signal fired); a ClusterOperator: Available=True and not Degraded=True (missing without conditions)"),
        ("recent_restarts", "int", "Restarts of its containers that restarted many times, the last in the last hour the dump shows (the hour before capture, or before its newest time where that only bounds the capture; a node-wide restart moment left out)"),
        ("probe_failures", "int", "Probe failures (Unhealthy events) on its pods within the last hour the dump shows"),
        ("log_errors", "int", "Current warning/critical lines of the log signature catalog in its pods' logs"),
        ("health_evidence", "str", "Why it is not healthy beyond readiness, with the evidence (a ClusterOperator: its Available and Degraded conditions, since when, and its message); '; '-separated"),
        ("inferred", "bool", "Built from its pods or ReplicaSet because the controller was not collected"),
        ("objects", "str", "Ids of the objects it was read from, comma-separated"),
    )
))
# Schema dtypes (analyzer/model/schema.py) -> pandas dtypes.
_PANDAS_DTYPES = {"str": "string", "category": "category", "int": "Int64", "bool": "boolean"}


def image_tag(image: str) -> str | None:
    """The tag of an image reference (None when it has only a digest or nothing)."""
    ref = image.split("@", 1)[0]
    last = ref.rsplit("/", 1)[-1]
    return last.rsplit(":", 1)[1] if ":" in last else None


# Helper containers that run beside a component's own container (CSI sidecars, proxies, probes):
# their image tag is not the component's version.
SIDECAR_CONTAINERS = frozenset({
    "liveness-probe", "livenessprobe", "node-driver-registrar", "csi-provisioner", "csi-attacher",
    "csi-resizer", "csi-snapshotter", "csi-node-driver-registrar", "kube-rbac-proxy", "istio-proxy",
    "linkerd-proxy", "prometheus-to-sd", "config-reloader", "configmap-reload", "autoscaler",
    "metrics-exporter", "exporter", "sidecar", "proxy-init", "install-cni", "upgrade-ipam",
})


def main_image(w: ComponentWorkload, entry: CatalogEntry | None) -> str | None:
    """The image of the component's main container: the one whose image the catalog names, else
    the one named like the workload or component, else the first that is not a known sidecar.

    >>> w = ComponentWorkload("kube-system", "csi-azuredisk-node", "DaemonSet",
    ...     images=["mcr.microsoft.com/oss/kubernetes-csi/livenessprobe:v2.10.0",
    ...             "mcr.microsoft.com/oss/kubernetes-csi/azuredisk-csi:v1.28.3"],
    ...     containers=["liveness-probe", "azuredisk"])
    >>> main_image(w, None)
    'mcr.microsoft.com/oss/kubernetes-csi/azuredisk-csi:v1.28.3'
    """
    if not w.images:
        return None
    pairs = list(zip(w.containers, w.images, strict=False))
    if entry is not None:
        for _name, image in pairs:
            if any(re.search(pattern, image) for pattern in entry.images):
                return image
    wanted = {w.name, entry.name if entry else w.name}
    for name, image in pairs:
        if name in wanted:
            return image
    for name, image in pairs:
        if name not in SIDECAR_CONTAINERS and name and (name in w.name or (entry and name in entry.name)):
            return image
    return next((image for name, image in pairs if name not in SIDECAR_CONTAINERS), w.images[0])


def classify(workloads: list[ComponentWorkload], catalog: Catalog) -> list[tuple[ComponentWorkload, CatalogEntry | None]]:
    """Each workload with the catalog entry that names it (None: an unknown component)."""
    return [(w, catalog.match(w.name, tuple(w.images), namespace=w.namespace)) for w in workloads]


def _healthy(w: ComponentWorkload, health: ComponentHealth | None) -> bool | None:
    if health is not None and not health.healthy:
        return False
    if w.desired is None or w.ready is None:
        return None
    return w.ready >= w.desired


def _row(w: ComponentWorkload, entry: CatalogEntry | None, health: ComponentHealth | None = None) -> dict[str, Any]:
    image = main_image(w, entry)
    return {
        "namespace": w.namespace, "name": w.name, "kind": w.kind,
        "component": entry.name if entry else None,
        "role": entry.role if entry else UNKNOWN_ROLE,
        "distribution_specific": entry.distribution_specific if entry else None,
        "distributions": ",".join(entry.distributions) if entry else None,
        "critical": entry.critical if entry else None,
        "images": ",".join(w.images) or None,
        "version": image_tag(image) if image else None,
        "desired": w.desired, "ready": w.ready,
        "host_network": w.host_network, "priority_class": w.priority_class,
        "healthy": _healthy(w, health),
        "recent_restarts": health.restarts if health else 0,
        "probe_failures": health.probe_failures if health else 0,
        "log_errors": health.log_errors if health else 0,
        "health_evidence": "; ".join(health.evidence) if health and health.evidence else None,
        "inferred": w.inferred,
        "objects": ",".join(w.objects) or None,
    }


def build_components_table(cluster: ModeledDump) -> pd.DataFrame:
    """One row per system-namespace workload (component, role, images, version, replicas, health),
    then one per ClusterOperator (role, version, health from its conditions)."""
    # Here, not at the top: detecting the distribution needs neither pandas nor the health
    # checks (which use it).
    import pandas as pd

    from analyzer.distributions.health import component_health
    from analyzer.model.frame import cast_column

    workloads = component_workloads(cluster, load_profiles())
    health = component_health(cluster, workloads)
    rows = [_row(w, e, health.get((w.namespace, w.kind, w.name)))
            for w, e in classify(workloads, load_catalog())]
    rows += [operator_row(o) for o in cluster_operators(cluster.objects_of(OPERATOR_KIND))]
    columns = COMPONENTS_SPEC.columns
    # counts through the tables' cast: a hand-edited count past 64 bits is missing, not an error
    frame = pd.DataFrame({c.name: cast_column([r[c.name] for r in rows], "int") if c.dtype == "int"
                          else [r[c.name] for r in rows] for c in columns})
    return frame.astype({c.name: _PANDAS_DTYPES[c.dtype] for c in columns})
