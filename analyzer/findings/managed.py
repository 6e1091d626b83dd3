"""Findings about provider-managed objects: marked with the signal; hygiene ones become info."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from analyzer.distributions.catalog import load_catalog
from analyzer.findings.facts import objects_named
from analyzer.findings.types import Finding
from analyzer.memo import once_per
from analyzer.model.managed import managed_of

if TYPE_CHECKING:
    from analyzer.findings.dump import AnalyzedDump

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
        if obj is None:
            signal = ""
        else:  # several rules fail on one pod: its signal is read once
            signal = signals.get(id(obj))
            if signal is None:
                signal = signals[id(obj)] = (managed_of(cluster, obj)  # type: ignore[arg-type]
                                             or _pasted_platform_components(cluster).get((f.kind, f.namespace, f.name), ""))
        if not signal:
            out.append(f)
        elif f.category in HYGIENE_CATEGORIES and f.severity != "info":
            out.append(f.as_info(managed=signal))
        else:
            from dataclasses import replace

            out.append(replace(f, managed=signal))
    return out


@once_per
def _pasted_platform_components(cluster: AnalyzedDump) -> dict[tuple[str, str, str], str]:
    """(kind, namespace, name) -> signal, for objects read from pasted text (a table row shows
    no labels, so no label can say who manages them) that the component catalog names as part
    of the platform of the distribution the dump was detected as: GKE's event-exporter-gke,
    k3s's helm-install jobs, kind's kindnet. What a structured dump's labels say is left to them."""
    dist = cluster.distribution.name
    table = cluster.tables["components"]
    found: dict[tuple[str, str, str], str] = {}
    if dist == "unknown" or table.empty:
        return found
    catalog = load_catalog()
    for component, dists, objects in zip(table["component"].tolist(), table["distributions"].tolist(),
                                         table["objects"].tolist(), strict=True):
        if not isinstance(dists, str) or dist not in dists.split(",") or not isinstance(objects, str):
            continue
        entry = catalog.by_name(component)
        if entry is None or entry.user_installed:
            continue  # (aws-load-balancer-controller: EKS's own, installed by the cluster's owner)
        signal = f"component {component}, part of {dist} by the component catalog (pasted text shows no label that says so)"
        for ref in objects.split(","):
            _group, kind, namespace, name = (ref.split("/", 3) + ["", "", ""])[:4]
            obj = objects_named(cluster, kind).get((namespace, name)) if kind else None
            if obj is not None and obj.view.text is not None:
                found[(kind, namespace, name)] = signal
    # a pasted controller's pods, named after it (`<deployment>-<hash>-<5>`, `<daemonset>-<5>`):
    # the structured dump's pods carry their controller's mark too (AKS's coredns-autoscaler)
    controllers = {(ns, name): signal for (kind, ns, name), signal in found.items() if kind in _CONTROLLERS}
    if controllers:
        for (namespace, name), pod in objects_named(cluster, "Pod").items():
            if pod.view.text is None or ("Pod", namespace, name) in found:
                continue
            parts = name.split("-")
            for cut in (1, 2):
                if (signal := controllers.get((namespace, "-".join(parts[:-cut])))) is not None:
                    found[("Pod", namespace, name)] = signal
                    break
    return found


_CONTROLLERS = frozenset({"Deployment", "DaemonSet", "StatefulSet", "ReplicaSet", "Job", "CronJob"})
