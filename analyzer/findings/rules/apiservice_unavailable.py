"""Aggregated APIs (metrics.k8s.io and the like) the API server cannot reach."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import ev
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="apiservice-unavailable", title="Aggregated API unavailable", severity="critical",
    category="cluster", requires=("APIService",),
    message="APIService {name} is not Available ({reason}): {detail}",
    remediation="Check the Service and pods behind the APIService (e.g. metrics-server); an unavailable aggregated API breaks discovery, kubectl and namespace deletion.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    for obj in cluster.objects_of("APIService"):
        for cond in (obj.view.status or {}).get("conditions") or ():
            if cond.get("type") == "Available" and cond.get("status") != "True":
                yield RULE.fail(obj, ev(obj, "status.conditions[type=Available].status", cond.get("status"), "True"),
                                reason=cond.get("reason") or "?", detail=cond.get("message") or _no_message(obj))


def _no_message(obj) -> str:
    """What the finding says when the condition has no message: a pasted `kubectl get
    apiservices` row never prints it (its describe does)."""
    text = obj.view.text
    if text is not None and not text.described:
        return f"the pasted listing prints no message (`kubectl describe apiservice {obj.name}` shows it)"
    return "no message"
