"""Whether the volume provisioner a claim waits on runs, as far as the dump shows it
(data/provisioners.yaml: the components that run each known provisioner, and where)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

import pandas as pd

from analyzer.distributions.catalog import load_catalog
from analyzer.findings.components import ComponentsUnavailable, components
from analyzer.findings.coverage import listed_whole, namespace_coverage
from analyzer.findings.versions import DATA
from analyzer.memo import once_per
from analyzer.safeyaml import load_yaml

if TYPE_CHECKING:
    from analyzer.findings.dump import AnalyzedDump
    from analyzer.ingest.records import KubeObject

# The volume controller's words while an external provisioner has not made the volume.
_AWAITED = re.compile(r'external provisioner "([^"]+)"')
# Where the volume controller writes which provisioner is to serve the claim.
PROVISIONER_ANNOTATIONS = ("volume.kubernetes.io/storage-provisioner", "volume.beta.kubernetes.io/storage-provisioner")


@dataclass(frozen=True, slots=True)
class Provisioner:
    """A known provisioner: what it is, the components that run it, where, and who installs it."""

    name: str
    driver: str
    components: tuple[str, ...]
    namespaces: tuple[str, ...]
    install: str
    in_tree: str = ""


@cache
def known_provisioners() -> dict[str, Provisioner]:
    """data/provisioners.yaml, by provisioner name."""
    raw = load_yaml((DATA / "provisioners.yaml").read_text(encoding="utf-8")) or {}
    return {name: Provisioner(name, row["driver"], tuple(row["components"]), tuple(row["namespaces"]),
                              row["install"], row.get("in_tree", "")) for name, row in raw.items()}


def awaited_provisioner(pvc: KubeObject, message: str) -> str:
    """The provisioner a Pending claim waits on: the one the volume controller's
    ExternalProvisioning message names, else the one it wrote on the claim ('' when neither).

    >>> awaited_provisioner(None, 'waiting for a volume to be created, either by external provisioner '
    ...                     '"ebs.csi.aws.com" or manually created by system administrator')
    'ebs.csi.aws.com'
    """
    if m := _AWAITED.search(message):
        return m[1]
    annotations = (pvc.view.metadata.annotations or {}) if pvc is not None else {}
    return next((annotations[a] for a in PROVISIONER_ANNOTATIONS if annotations.get(a)), "")


def provisioner_state(cluster: AnalyzedDump, name: str, class_provisioner: str = "") -> str:
    """What the dump shows of provisioner `name` running ('' for one the data does not know):
    its components' pods and readiness, none where the dump listed their namespace's pods, or
    that it cannot tell. `class_provisioner`: the claim's class's, said when CSI migration sent
    the claim from that in-tree one to this driver. Found once per dump and provisioner: every
    claim waiting on it asks (twenty claims of a missing driver, each a walk of the pods)."""
    said = _states(cluster)
    if (name, class_provisioner) not in said:
        said[(name, class_provisioner)] = _state(cluster, name, class_provisioner)
    return said[(name, class_provisioner)]


@once_per
def _states(cluster: AnalyzedDump) -> dict[tuple[str, str], str]:
    return {}


def _state(cluster: AnalyzedDump, name: str, class_provisioner: str) -> str:
    known = known_provisioners().get(name)
    if known is None:
        return ""
    migrated = (f" (the class names the in-tree {class_provisioner}, whose claims CSI migration sends to it)"
                if class_provisioner and class_provisioner == known.in_tree else "")
    head = f"{name} is {known.driver}{migrated}"
    try:
        table = components(cluster)
    except ComponentsUnavailable:
        return ""
    rows = table[table["component"].isin(known.components)] if len(table) else table
    if len(rows):
        runs = []
        for row in rows.itertuples():
            ready, desired = row.ready, row.desired
            count = "" if pd.isna(ready) or pd.isna(desired) else f", {int(ready)} of {int(desired)} ready"
            runs.append(f"{row.namespace}/{row.name}{count}")
        return f"{head}; its workload in the dump: {', '.join(runs)}"
    where = " or ".join(known.namespaces)
    pods = namespace_coverage(cluster, "Pod")
    if not all(any(listed_whole(cluster, kind, ns) for kind in ("Pod", "Deployment", "DaemonSet"))
               for ns in known.namespaces):
        return (f"{head}; whether it runs the dump does not show (it holds no whole listing of the pods of {where}); "
                f"it comes as {known.install}")
    if pods.all_namespaces and (elsewhere := _pods_elsewhere(cluster, known)):
        # (a chart installed into a namespace of its own: not a system workload, still the driver)
        return f"{head}; its pods in the dump: {', '.join(elsewhere)}"
    registered = any(d.name == name for d in cluster.objects_of("CSIDriver"))
    if registered:
        return (f"{head}; no pod of it ({', '.join(known.components)}) runs in {where} in the dump, "
                f"though a CSIDriver {name} is registered (its pods may run in a namespace the dump did not list)")
    drivers = ", nor a CSIDriver named so" if listed_whole(cluster, "CSIDriver", "") else ""
    return (f"{head}; no pod of it ({', '.join(known.components)}) runs in {where} in the dump{drivers}: "
            f"it is not installed; it comes as {known.install}")


def _pods_elsewhere(cluster: AnalyzedDump, known: Provisioner) -> list[str]:
    """Pods of any namespace the catalog takes for one of the provisioner's components, by their
    names or images (walked only for a claim waiting on a known provisioner none of whose system
    workloads the dump shows)."""
    catalog = load_catalog()
    found = []
    for pod in cluster.objects_of("Pod"):
        images = tuple(c.image for c in pod.view.spec.containers or () if c.image)
        entry = catalog.match(pod.name, images, namespace=pod.namespace)
        if entry is not None and entry.name in known.components:
            found.append(f"{pod.namespace}/{pod.name}")
    return sorted(found)
