"""Findings about provider-managed objects: marked with the signal; hygiene ones become info."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING

from analyzer.distributions.catalog import load_catalog
from analyzer.distributions.profiles import load_profiles
from analyzer.findings.components import running_components
from analyzer.findings.facts import objects_named
from analyzer.findings.types import Finding
from analyzer.findings.versions import DATA
from analyzer.memo import once_per
from analyzer.model.managed import managed_of
from analyzer.safeyaml import load_yaml

if TYPE_CHECKING:
    from analyzer.findings.dump import AnalyzedDump
    from analyzer.ingest.records import KubeObject

# Categories of advice about how an object is written (probes, limits, tags, old APIs): for a
# provider-managed object the provider writes it, so the finding is theirs to act on.
HYGIENE_CATEGORIES = frozenset({"configuration", "deprecations"})


def mark_managed(cluster: AnalyzedDump, findings: Iterable[Finding]) -> list[Finding]:
    """Each finding with its object's managed signal; hygiene findings on managed objects info."""
    out: list[Finding] = []
    signals: dict[int, str] = {}
    for f in findings:
        if f.status != "fail" or not f.kind or f.managed:
            out.append(f)
            continue
        obj = objects_named(cluster, f.kind).get((f.namespace, f.name))  # (the rules' index)
        if obj is not None and f.kind == "Pod" and f.category in HYGIENE_CATEGORIES \
                and (injector := injected_by(obj, f.facts.get("container"))):
            out.append(f.as_info(managed=injector) if f.severity != "info" else replace(f, managed=injector))
            continue
        if obj is None:  # a component known from its pods alone (critical-component-unhealthy)
            signal = _signal_of_absent(cluster, f.kind, f.namespace, f.name) if f.kind in _CONTROLLERS else ""
        else:  # several rules fail on one pod: its signal is read once
            signal = signals.get(id(obj))
            if signal is None:
                signal = signals[id(obj)] = (managed_of(cluster, obj)  # type: ignore[arg-type]
                                             or _pasted_platform_components(cluster).get((f.kind, f.namespace, f.name), "")
                                             or _pasted_beside_served(cluster).get((f.kind, f.namespace, f.name), "")
                                             or _bundled_chart_signal(cluster, obj))
        if not signal:
            out.append(f)
        elif f.category in HYGIENE_CATEGORIES and f.severity != "info":
            out.append(f.as_info(managed=signal))
        elif f.severity in _ACTED_ON:
            out.append(replace(f, managed=signal, remediation=_where_to_change(cluster, f.remediation)))
        else:  # (history, a log line, hygiene: nothing to change, so no word on where to change it)
            out.append(replace(f, managed=signal))
    return out


# The severities of a finding someone acts on now: its remedy on a managed component says where
# the provider takes the change.
_ACTED_ON = frozenset({"warning", "critical"})


def _where_to_change(cluster: AnalyzedDump, remediation: str) -> str:
    """A remedy on a provider-managed object, followed by where the distribution's owner makes
    such a change (profiles.yaml managed_changes): an edit to its spec is written back."""
    where = load_profiles().managed_changes.get(cluster.distribution.name, "")
    return f"{remediation} {where}" if where and remediation else remediation or where


@cache
def _injectors() -> tuple[tuple[str, str, tuple[str, ...], frozenset[str]], ...]:
    """(name, annotation, JSON keys listing its containers, fixed container names) per mesh
    injector, from data/injected_containers.yaml."""
    raw = load_yaml((DATA / "injected_containers.yaml").read_text(encoding="utf-8"))
    return tuple((str(i["name"]), str(i["annotation"]), tuple(map(str, i.get("listed_in") or ())),
                  frozenset(map(str, i.get("containers") or ()))) for i in raw.get("injectors") or ())


def injected_by(pod: KubeObject, container: object) -> str:
    """The managed signal of a container a mesh injector added to `pod` ('' when it did not):
    the injector, and the annotation that says so.

    >>> from types import SimpleNamespace as NS
    >>> pod = NS(view=NS(metadata=NS(annotations={"sidecar.istio.io/status":
    ...     '{"initContainers":["istio-init"],"containers":["istio-proxy"]}'})))
    >>> injected_by(pod, "istio-init"), injected_by(pod, "ratings")
    ("Istio's sidecar injector added it: annotation sidecar.istio.io/status lists istio-init", '')
    """
    annotations = pod.view.metadata.annotations or {}
    if not isinstance(container, str) or not isinstance(annotations, dict):
        return ""
    for name, annotation, listed_in, fixed in _injectors():
        value = annotations.get(annotation)
        if value is None:
            continue
        if container in fixed:
            return f"{name} added it: its annotation {annotation} is on the pod, {container} its container's name"
        try:
            listed = json.loads(value) if listed_in else {}
        except (TypeError, ValueError):
            continue  # an annotation cut or masked in a paste says nothing of its containers
        if isinstance(listed, dict) and any(container in (listed.get(key) or ()) for key in listed_in):
            return f"{name} added it: annotation {annotation} lists {container}"
    return ""


@once_per
def _pasted_platform_components(cluster: AnalyzedDump) -> dict[tuple[str, str, str], str]:
    """(kind, namespace, name) -> signal, for objects that the component catalog names as part of
    the platform of the distribution the dump was detected as (GKE's event-exporter-gke, k3s's
    helm-install jobs, kind's kindnet; and the generic coredns, kube-proxy, flannel where that
    platform installs and reconciles them: `managed_on`). Read by mark_managed only where an
    object's own labels (or its controller's) name no manager: pasted text, which shows no
    labels, and the kube-system objects of a structured dump whose platform labels nothing (OKE's
    proxymux-client, coredns, kube-proxy carry no label saying OKE runs them)."""
    dist = cluster.distribution.name
    table = cluster.tables["components"]
    found: dict[tuple[str, str, str], str] = {}
    if dist in _NO_PROVIDER or table.empty:
        return found
    catalog = load_catalog()
    running = running_components(cluster)
    for component, objects in zip(table["component"].tolist(), table["objects"].tolist(), strict=True):
        if not isinstance(component, str) or not isinstance(objects, str):
            continue
        entry = catalog.by_name(component)
        if entry is None or not entry.platform_of(dist, running):
            continue  # (aws-load-balancer-controller: EKS's own, installed by the cluster's owner)
        for ref in objects.split(","):
            _group, kind, namespace, name = (ref.split("/", 3) + ["", "", ""])[:4]
            obj = objects_named(cluster, kind).get((namespace, name)) if kind else None
            if obj is None:
                continue
            if obj.view.text is not None:
                found[(kind, namespace, name)] = (f"component {component}, part of {dist} by the component "
                                                  "catalog (pasted text shows no label that says so)")
            elif namespace == "kube-system":  # (elsewhere a chart the owner installed may share its name)
                found[(kind, namespace, name)] = (f"component {component}, part of {dist} by the component "
                                                  "catalog (its labels name no manager)")
    # a controller's pods, named after it (`<deployment>-<hash>-<5>`, `<daemonset>-<5>`): the
    # structured dump's pods carry their controller's mark too (AKS's coredns-autoscaler)
    controllers = {(ns, name): signal for (kind, ns, name), signal in found.items() if kind in _CONTROLLERS}
    if controllers:
        for (namespace, name), pod in objects_named(cluster, "Pod").items():
            if ("Pod", namespace, name) in found or (pod.view.text is None and namespace != "kube-system"):
                continue
            parts = name.split("-")
            for cut in (1, 2):
                if (signal := controllers.get((namespace, "-".join(parts[:-cut])))) is not None:
                    if pod.view.text is None:
                        signal = signal.replace("pasted text shows no label that says so", "its labels name no manager")
                    found[("Pod", namespace, name)] = signal
                    break
    return found


@once_per
def _pasted_beside_served(cluster: AnalyzedDump) -> dict[tuple[str, str, str], str]:
    """(kind, namespace, name) -> signal, for pasted pods outside the system namespaces (which the
    components table, and so _pasted_platform_components, leaves out) of a catalog component that
    runs in the namespace of what it serves (`any_namespace`) and is part of the detected
    distribution's platform: k3s's ServiceLB, whose svclb-<service> DaemonSet stood beside its
    Service before k3s moved them to kube-system (alexellis/arkade#390: four
    svclb-ingress-nginx-controller pods Pending in default). A structured dump's say so by their
    svccontroller.k3s.cattle.io labels; a pasted row shows none."""
    dist = cluster.distribution.name
    found: dict[tuple[str, str, str], str] = {}
    if dist in _NO_PROVIDER:
        return found
    catalog = load_catalog()
    wanted = [e for e in catalog.entries if e.any_namespace and e.platform_of(dist)]
    if not wanted:
        return found
    profiles = load_profiles()
    for (namespace, name), pod in objects_named(cluster, "Pod").items():
        if pod.view.text is None or profiles.is_system_namespace(namespace):
            continue
        entry = catalog.match(name, (), namespace=namespace)
        if entry is not None and entry in wanted:
            found[("Pod", namespace, name)] = (f"component {entry.name}, part of {dist} by the component "
                                               "catalog (pasted text shows no label that says so)")
    return found


# The chart release a k3s/RKE2 helm controller's job installs: job `helm-install-<release>`, its
# pod `helm-install-<release>-<5 chars>`.
_HELM_INSTALL = re.compile(r"^helm-install-(?P<release>[a-z0-9][a-z0-9.-]*?)(?P<pod>-[a-z0-9]{5})?$")
_RELEASE = "meta.helm.sh/release-name"


@once_per
def _bundled_releases(cluster: AnalyzedDump) -> dict[str, str]:
    """Release -> the helm controller job that installed it, for the charts the component catalog
    names as the detected distribution's own (k3s's traefik, RKE2's rke2-*: component
    helm-install), not the HelmCharts the cluster's owner wrote (helm-install-chart)."""
    table = cluster.tables["components"]
    if table.empty or cluster.distribution.name in _NO_PROVIDER:
        return {}
    entry = load_catalog().by_name("helm-install")
    if entry is None or not entry.platform_of(cluster.distribution.name):
        return {}
    found: dict[str, str] = {}
    for component, objects in zip(table["component"].tolist(), table["objects"].tolist(), strict=True):
        if component != "helm-install" or not isinstance(objects, str):
            continue
        for ref in objects.split(","):
            kind, name = (ref.split("/", 3) + ["", "", ""])[1], ref.rsplit("/", 1)[-1]
            if (m := _HELM_INSTALL.match(name)) is not None and (kind == "Pod") == bool(m.group("pod")):
                found.setdefault(m.group("release"), f"helm-install-{m.group('release')}")
    return found


def _bundled_chart_signal(cluster: AnalyzedDump, obj: KubeObject) -> str:
    """The managed signal of an object of a chart the distribution bundles (its Helm release
    annotation names a release its helm controller's job installed): k3s's traefik Service, whose
    labels name only Helm (realdata k3s/udacity-nd064: its LoadBalancer with no address was the
    owner's to fix)."""
    annotations = obj.view.metadata.annotations or {}
    release = annotations.get(_RELEASE)
    if not release:
        return ""
    job = _bundled_releases(cluster).get(str(release))
    if job is None:
        return ""
    return (f"annotation {_RELEASE}={release}, a chart {cluster.distribution.name} bundles "
            f"(its helm controller's job {job} installed it)")


@once_per
def _component_rows(cluster: AnalyzedDump) -> dict[tuple[str, str, str], tuple[str, ...]]:
    """(kind, namespace, name) of each component of the components table -> its objects' ids:
    a component told from its pods alone (a pasted listing: no DaemonSet in the dump) is named
    by a controller the dump does not hold, whose pods say who manages it."""
    table = cluster.tables["components"]
    if table.empty:
        return {}
    return {(str(k), str(ns), str(n)): tuple(str(o).split(",")) if isinstance(o, str) else ()
            for k, ns, n, o in zip(table["kind"].tolist(), table["namespace"].tolist(),
                                   table["name"].tolist(), table["objects"].tolist(), strict=True)}


def _signal_of_absent(cluster: AnalyzedDump, kind: str, namespace: str, name: str) -> str:
    """The managed signal of a component's controller the dump does not hold: that of its pods."""
    for ref in _component_rows(cluster).get((kind, namespace, name), ()):
        _group, okind, ons, oname = (ref.split("/", 3) + ["", "", ""])[:4]
        obj = objects_named(cluster, okind).get((ons, oname)) if okind else None
        if obj is None:
            continue
        signal = managed_of(cluster, obj) or _pasted_platform_components(cluster).get((okind, ons, oname), "")  # type: ignore[arg-type]
        if signal:
            return f"{signal}, on its pods"
    return ""


# No provider stands behind these: a kubeadm cluster's owner runs all of it (an HA setup's haproxy
# static pods are theirs, as kURL's are kURL's: the name cannot tell; kURL's own namespace can)
_NO_PROVIDER = frozenset({"unknown", "kubeadm"})

_CONTROLLERS = frozenset({"Deployment", "DaemonSet", "StatefulSet", "ReplicaSet", "Job", "CronJob"})
