"""Containers as the configuration rules read them: the model's `containers` table, joined with
the few pod columns that decide whether a container is worth judging."""

from __future__ import annotations

import weakref
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pandas as pd

from analyzer.findings.alike import replica_groups, said_for_replicas
from analyzer.findings.facts import container_path, ev, is_system_namespace, objects_named
from analyzer.findings.toolmade import tool_made_namespaces
from analyzer.model.namespaces import is_dump_tool_pod

if TYPE_CHECKING:
    from analyzer.findings.dump import AnalyzedDump
    from analyzer.findings.types import Finding, RuleMeta
    from analyzer.ingest.records import KubeObject

TABLES = ("containers", "pods")


# Several rules ask for the same selection of the same cluster: join once per cluster.
_JUDGED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def judged_containers(cluster: AnalyzedDump, types: tuple[str, ...] = ("container",),
                      system: bool = False, finished: bool = False) -> pd.DataFrame:
    """Containers whose spec the dump holds (pasted tables know only names), of the given types;
    without system namespaces unless `system`, without finished pods unless `finished`."""
    cache = _JUDGED.setdefault(cluster, {})
    key = (tuple(types), system, finished)
    if key not in cache:
        cache[key] = _judged_containers(cluster, types, system, finished)
    return cache[key]


# Every selection is a part of one join: the containers of every type, in every namespace and
# phase, with their pods' columns, sorted (each selection keeps the join's order).
EVERY_TYPE = ("init", "container", "ephemeral")


def _judged_containers(cluster: AnalyzedDump, types: tuple[str, ...], system: bool,
                       finished: bool) -> pd.DataFrame:
    if (tuple(types), system, finished) == (EVERY_TYPE, True, True):
        return _joined_containers(cluster)
    rows = judged_containers(cluster, EVERY_TYPE, system=True, finished=True)
    keep = rows["container_type"].isin(types)
    if not system:
        # Decided once per namespace, not once per row.
        namespaces = rows["namespace"].astype("string")
        keep &= ~namespaces.isin([n for n in namespaces.dropna().unique() if is_system_namespace(n)])
    if not finished:
        keep &= ~rows["phase"].isin(["Succeeded", "Failed"])
    if cut := _cut_in_containers(cluster):
        # a describe pasted down to the middle of its Containers (ingress-nginx#9492, cut in a
        # container's Args): what it would have said of requests, limits, probes and security
        # context is unknown, not absent
        keys = pd.Series(list(zip(rows["namespace"].astype("string"), rows["pod"], strict=True)), index=rows.index)
        keep &= ~keys.isin(cut)
    return rows[keep]


# Describe sections that hold containers' specs: a paste cut inside one lacks their later fields.
_CONTAINER_SECTIONS = frozenset({"Init Containers", "Containers", "Ephemeral Containers"})


def _cut_in_containers(cluster: AnalyzedDump) -> set[tuple[str, str]]:
    """(namespace, name) of the pods whose pasted describe ends inside their containers."""
    return {key for key, pod in pod_index(cluster).items()
            if pod.view.text is not None and pod.view.text.cut_in in _CONTAINER_SECTIONS}


def _joined_containers(cluster: AnalyzedDump) -> pd.DataFrame:
    containers = cluster.tables["containers"]
    pods = cluster.tables["pods"][["namespace", "name", "phase", "owner_kind"]].rename(columns={"name": "pod"})
    rows = containers[containers["container_type"].isin(EVERY_TYPE) & containers["image"].notna()]
    rows = rows.merge(pods.astype({"namespace": "string"}), how="left",
                      left_on=[rows["namespace"].astype("string"), "pod"], right_on=["namespace", "pod"],
                      suffixes=("", "_pod"))
    if tools := _dump_tool_pods(cluster):
        # the pods the tool that made the dump ran (troubleshoot's run collectors, the e2e
        # suite's tests): their spec is the tool's, not the cluster owner's
        keys = pd.Series(list(zip(rows["namespace"].astype("string"), rows["pod"], strict=True)), index=rows.index)
        rows = rows[~keys.isin(tools)]
    return rows.sort_values(["namespace", "pod", "container_type", "name"], kind="stable")


def _dump_tool_pods(cluster: AnalyzedDump) -> set[tuple[str, str]]:
    """(namespace, name) of the pods a dump tool ran, by the label it sets on them or on the
    namespace its tests made (the e2e framework's)."""
    made = tool_made_namespaces(cluster)
    return {key for key, pod in pod_index(cluster).items()
            if key[0] in made or is_dump_tool_pod(pod.view.metadata.labels)}


def pod_index(cluster: AnalyzedDump) -> dict[tuple[str, str], KubeObject]:
    """(namespace, name) -> Pod object, to locate a table row's evidence in the dump."""
    return objects_named(cluster, "Pod")


_ROW_KEYS = ("namespace", "pod", "container_type", "name")


def container_rows(rows: pd.DataFrame, *columns: str) -> Iterator[tuple]:
    """Named tuples of the rows' pod, container type and name, and of `columns`: only what a
    rule reads (stepping through each of the joined table's ~40 columns per row costs more
    than the rule)."""
    return rows[[*_ROW_KEYS, *columns]].itertuples(index=False)


def containers_without_probe(cluster: AnalyzedDump, rule: RuleMeta, column: str, field: str) -> Iterator[Finding]:
    """A finding of `rule` per long-running container whose probe column `column` is False
    (the probe's spec field is `field`, e.g. livenessProbe). Run-to-completion pods (Jobs)
    need no probes."""
    rows = judged_containers(cluster)
    no_probe = rows[column].eq(False).fillna(False)
    rows = rows[no_probe & rows["owner_kind"].astype("string").ne("Job").fillna(True)]
    for pod, (kind, name), others, controller in replica_groups(cluster, pod_containers(cluster, rows)):
        yield said_for_replicas(rule.fail(pod, ev(pod, f"{container_path(kind, name)}.{field}", None, "a probe"),
                                          container=name), others, controller)


def pod_containers(cluster: AnalyzedDump, rows: pd.DataFrame) -> Iterator[tuple[KubeObject, tuple[str, str]]]:
    """Each row's pod with its container's (type, name): what a rule that names a container
    without quoting its values says of it."""
    pods = pod_index(cluster)
    for row in container_rows(rows):
        yield pods[(row.namespace, row.pod)], (row.container_type, row.name)
