"""System components the catalog marks critical (DNS, CNI, kube-proxy, API tunnel, ...) that are
short of ready pods, or that restart, fail their probes or log known errors while they look ready
(the components table's health signals)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pandas as pd

from analyzer.distributions.health import health_of
from analyzer.findings.components import ComponentsUnavailable, components
from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import objects_by_id, objects_by_identity
from analyzer.findings.logs import log_evidence
from analyzer.findings.types import Evidence, Finding, RuleMeta

RULE = RuleMeta(
    id="critical-component-unhealthy", title="Critical system component unhealthy", severity="critical",
    category="cluster", requires_any=("Pod", "Deployment", "DaemonSet", "StatefulSet"),
    message="Critical {role} component {component} ({object}) is not healthy: {why}",
    remediation="Fix this component first: the cluster's DNS, networking or API access depends on it. Read its pods' findings and logs.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    try:
        table = components(cluster)
    except ComponentsUnavailable as exc:
        yield RULE.not_applicable(str(exc))
        return
    signals = "health_evidence" in table
    health = health_of(cluster) if signals else {}
    for row in table.itertuples(index=False):
        if pd.isna(row.critical) or not row.critical or pd.isna(row.healthy) or row.healthy:
            continue
        obj = objects_by_identity(cluster).get((row.kind, row.namespace, row.name))
        if obj is None and row.objects and not pd.isna(row.objects):
            obj = objects_by_id(cluster).get(str(row.objects).split(",")[0])
        source = obj.provenance.source if obj else None
        line = obj.provenance.known_line if obj else None  # (as `facts.ev` locates evidence)
        known = not pd.isna(row.ready) and not pd.isna(row.desired)
        short = known and int(row.ready) < int(row.desired)
        evidence, why = [], []
        if short or not signals:
            evidence.append(Evidence("ready pods", _int(row.ready), _int(row.desired), source, line))
            why.append(f"{_int(row.ready)} of {_int(row.desired)} pods ready")
        reasons = str(row.health_evidence).split("; ") if signals and not pd.isna(row.health_evidence) else []
        evidence += [Evidence("health", r, "no recent restarts, probe failures or error logs", source, line)
                     for r in reasons]
        # the log lines behind a log verdict, quoted where they are in the dump
        h = health.get((str(row.namespace), str(row.kind), str(row.name)))
        if h is not None and h.log_matches:
            evidence += [log_evidence(m) for m in h.log_matches[-2:]]
        why += [r.split(", e.g. ")[0] for r in reasons]
        finding = RULE.fail(None, *evidence,
                        kind=str(row.kind), namespace=str(row.namespace), name=str(row.name),
                        role=row.role, component=row.component, ready=_int(row.ready), desired=_int(row.desired),
                        why="; ".join(why))
        # Ready but restarting, failing probes or logging errors: degraded, not down.
        yield finding if short or not reasons else replace(finding, severity="warning")


def _int(value: object) -> int | None:
    return None if pd.isna(value) else int(value)
