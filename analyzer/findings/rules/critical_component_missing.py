"""Roles a distribution cannot work without (DNS, CNI, kube-proxy, API tunnel, metrics) that no
system workload of the dump fills, in dumps that listed kube-system's Deployments and DaemonSets."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from analyzer.findings.components import (
    ComponentsUnavailable,
    components,
    distribution_name,
    expected_roles,
    role_namespaces,
    roles_run_by_nodes,
)
from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.types import Evidence, Finding, RuleMeta

RULE = RuleMeta(
    id="critical-component-missing", title="Critical system component missing", severity="critical",
    category="cluster", needs_host=True,
    message="No {role} component runs in the system namespaces of this {distribution} cluster (found roles: {found})",
    remediation="Reinstall or re-enable the add-on that fills this role (for managed clusters, the provider's add-on); without it DNS, pod networking or API access fails.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    # (the kinds it needs, said here: a pasted `kubectl get pods -A` stands in for them below)
    missing = [kind for kind in ("Deployment", "DaemonSet") if not cluster.covers(kind)]
    if missing and not _every_pod_listed_with_nodes_not_ready(cluster):
        yield RULE.not_applicable(f"the dump did not collect {', '.join(missing)}", missing=", ".join(missing))
        return
    dist = distribution_name(cluster)
    expected = expected_roles().get(dist or "")
    if not expected:
        yield RULE.not_applicable(f"no expected components are known for distribution {dist or 'undetected'}")
        return
    by_nodes, why = roles_run_by_nodes(cluster, dist)
    if by_nodes:
        expected = tuple(role for role in expected if role not in by_nodes)
        yield RULE.not_applicable(why)
        if not expected:
            return
    try:
        table = components(cluster)
    except ComponentsUnavailable as exc:
        yield RULE.not_applicable(str(exc))
        return
    # Absence means something only where the dump listed kube-system's controllers: a few
    # single objects (a pasted pod, a fixture) would make every other component look missing.
    # Pasted rows of them are no such listing either: a ticket quotes the rows it is about
    # (rancher/rke2#3449 quoted RKE2's ingress DaemonSet and DNS Deployments, its canal above).
    controllers = [o for o in cluster.objects_of("Deployment", "DaemonSet") if o.namespace == "kube-system"]
    if not any(o.view.text is None for o in controllers):
        if not _every_pod_listed_with_nodes_not_ready(cluster):
            yield RULE.not_applicable("the dump holds no kube-system Deployments or DaemonSets" if not controllers
                                      else "its kube-system Deployments and DaemonSets are pasted rows, which a "
                                      "ticket may quote in part")
            return
        # A pasted `kubectl get pods -A` shows every pod, but a ticket may paste part of it: its
        # absences are read only for the network plugin, and only where NotReady nodes bear them
        # out (kubeadm init without a pod network: kubernetes/website#31550).
        expected = tuple(role for role in expected if role == "cni")
        if not expected:
            yield RULE.not_applicable(f"the dump holds no kube-system Deployments or DaemonSets, and {dist} "
                                      "runs no network plugin it must have as a pod (all its `get pods -A` can show)")
            return
    roles = set(table["role"].astype("string").dropna())
    no_pod = _no_pod_in_a_full_listing(cluster)
    if roles <= {"unknown"} and not no_pod:
        yield RULE.not_applicable("the component catalog classified no component")
        return
    found = ", ".join(sorted(roles - {"unknown"})) or ("none: `get pods -A` listed no pod at all" if no_pod else "none")
    # Where we looked: the files holding kube-system workloads.
    looked = sorted({o.provenance.source for o in cluster.objects_of("Deployment", "DaemonSet", "StatefulSet", "Pod")
                     if o.namespace == "kube-system"})
    where = (looked[0], None) if looked else _empty_pod_listing(cluster) or (None, None)
    uncollected = []
    for role in expected:
        if role in roles:
            continue
        elsewhere = role_namespaces(dist or "", role)
        if elsewhere and not _holds_any_of(cluster, elsewhere):
            # (a must-gather of one operator's namespaces: OpenShift's DNS is in openshift-dns)
            uncollected.append(f"{', '.join(elsewhere)}, where {dist} runs its {role}")
            continue
        yield RULE.fail(None, Evidence("components.role (kube-system workloads)", found, role, *where),
                        kind="Component", namespace="kube-system", name=role,
                        role=role, distribution=dist, found=found)
    if uncollected:
        yield RULE.not_applicable(f"the dump holds nothing of {'; '.join(uncollected)}")


def _holds_any_of(cluster: AnalyzedDump, namespaces: tuple[str, ...]) -> bool:
    """Whether the dump holds any object of these namespaces (a Namespace object itself aside: a
    cluster-wide listing names namespaces whose contents it did not collect)."""
    wanted = frozenset(namespaces)
    return any(o.namespace in wanted for o in cluster.objects)


def _every_pod_listed_with_nodes_not_ready(cluster: AnalyzedDump) -> bool:
    """Whether the dump holds an unfiltered `kubectl get pods -A` with kube-system's pods in it
    (or one that printed none at all), and a node whose Ready condition is not True, or (the dump
    holding no Node) every DNS pod of that listing Pending: the not-ready taint of a node without
    a network plugin is what keeps DNS off it (weaveworks/weave#3661: a kubeadm cluster 16m after
    init, coredns Pending, no pod network in the listing)."""
    listed = [p for p in cluster.objects_of("Pod")
              if p.namespace == "kube-system" and p.view.text is not None and p.view.text.every_pod_listed]
    if not listed and not _no_pod_in_a_full_listing(cluster):
        return False
    if next(iter(cluster.objects_of("Node")), None) is None:
        return _every_dns_pod_pending(cluster, listed)
    return any(c.type == "Ready" and c.status != "True"
               for n in cluster.objects_of("Node") for c in n.view.status.conditions or ())


def _every_dns_pod_pending(cluster: AnalyzedDump, listed: list[Any]) -> bool:
    """Whether the listed kube-system pods hold a DNS component's pods, each of them Pending."""
    try:
        table = components(cluster)
    except ComponentsUnavailable:
        return False
    dns = {obj.rsplit("/", 1)[-1] for objects in table.loc[table["role"] == "dns", "objects"].dropna()
           for obj in str(objects).split(",")}
    phases = [p.view.status.phase for p in listed if p.name in dns]
    return bool(phases) and all(phase == "Pending" for phase in phases)


def _no_pod_in_a_full_listing(cluster: AnalyzedDump) -> bool:
    """Whether an unfiltered `kubectl get pods -A` printed no pod at all ("No resources found")
    and the dump holds none: the cluster ran no pod, its network plugin's neither
    (aws/amazon-vpc-cni-k8s#1278: an EKS node NotReady for 22h, `get pods -A` empty)."""
    return _empty_pod_listing(cluster) is not None


def _empty_pod_listing(cluster: AnalyzedDump) -> tuple[str, int] | None:
    """(file, line) of such an empty listing of every pod, or None."""
    if next(iter(cluster.objects_of("Pod")), None) is not None:
        return None
    return next(((source, line) for source, line, kinds, namespace, _c in cluster.ingest.full_listings
                 if "Pod" in kinds and namespace is None), None)
