"""System components the catalog marks critical (DNS, CNI, kube-proxy, API tunnel, ...) that are
short of ready pods."""

from __future__ import annotations

from collections.abc import Iterator

import pandas as pd

from analyzer.cluster import Cluster
from analyzer.findings.components import ComponentsUnavailable, components
from analyzer.findings.types import Evidence, Finding, RuleMeta

RULE = RuleMeta(
    id="critical-component-unhealthy", title="Critical system component unhealthy", severity="critical",
    category="cluster", requires_any=("Pod", "Deployment", "DaemonSet", "StatefulSet"),
    message="Critical {role} component {component} ({object}) has {ready} of {desired} pods ready",
    remediation="Fix this component first: the cluster's DNS, networking or API access depends on it. Read its pods' findings and logs.",
)


def check(cluster: Cluster) -> Iterator[Finding]:
    try:
        table = components(cluster)
    except ComponentsUnavailable as exc:
        yield RULE.not_applicable(str(exc))
        return
    objects = {(o.kind, o.namespace, o.name): o for o in cluster.objects}
    for row in table.itertuples(index=False):
        if pd.isna(row.critical) or not row.critical or pd.isna(row.healthy) or row.healthy:
            continue
        obj = objects.get((row.kind, row.namespace, row.name))
        source = obj.provenance.source if obj else None
        line = obj.provenance.line if obj else None
        yield RULE.fail(None, Evidence("ready pods", int(row.ready), int(row.desired), source, line),
                        kind=str(row.kind), namespace=str(row.namespace), name=str(row.name),
                        role=row.role, component=row.component, ready=int(row.ready), desired=int(row.desired))
