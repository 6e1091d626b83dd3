"""Aggregated APIs (metrics.k8s.io and the like) the API server cannot reach: an APIService whose
Available condition is not True, or one whose group a paste quotes kubectl's discovery failing
for (`unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: ...`)."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import ev
from analyzer.findings.types import Evidence, Finding, RuleMeta
from analyzer.model.normalize import as_dict, as_list

RULE = RuleMeta(
    id="apiservice-unavailable", title="Aggregated API unavailable", severity="critical",
    category="cluster",
    message="APIService {name} is not Available ({reason}): {detail}",
    remediation="Check the Service and pods behind the APIService (e.g. metrics-server); an unavailable aggregated API breaks discovery, kubectl and namespace deletion.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    quoted = list(getattr(cluster.ingest, "discovery_failures", None) or ())
    if not quoted and not cluster.covers("APIService"):
        yield RULE.not_applicable("the dump did not collect APIService", missing="APIService")
        return
    available: dict[str, bool] = {}
    for obj in cluster.objects_of("APIService"):
        for cond in as_list(as_dict(obj.view.status).get("conditions")):
            if not isinstance(cond, dict) or cond.get("type") != "Available":
                continue
            available[obj.name] = cond.get("status") == "True"
            if cond.get("status") != "True":
                yield RULE.fail(obj, ev(obj, "status.conditions[type=Available].status", cond.get("status"), "True"),
                                reason=cond.get("reason") or "?", detail=cond.get("message") or _no_message(obj))
    yield from _quoted_failures(quoted, available)


def _quoted_failures(quoted: list, available: dict[str, bool]) -> Iterator[Finding]:
    """One finding per APIService whose group kubectl's discovery failed on, as quoted; none
    when the dump holds that APIService not Available (its own finding says it), info when the
    dump shows it Available (it came back, or was read before it failed: either way not now)."""
    by_apiservice: dict[str, list] = {}
    for failure in quoted:
        by_apiservice.setdefault(failure.apiservice, []).append(failure)
    for name, failures in by_apiservice.items():
        if available.get(name) is False:
            continue
        first = failures[0]
        evidence = Evidence("discovery of " + f"{first.group}/{first.version}", first.reason, "its resources listed",
                            source=first.source, line=first.line)
        detail = (f"kubectl could not list the resources of {first.group}/{first.version} "
                  f"({len(failures)} quoted, first at line {first.line}): {first.reason}")
        finding = RULE.fail(None, evidence, kind="APIService", namespace="", name=name,
                            reason="discovery failed", detail=detail, times=len(failures))
        if available.get(name):
            yield finding.as_info(resolved=f"the dump shows APIService {name} Available")
        else:
            yield finding


def _no_message(obj) -> str:
    """What the finding says when the condition has no message: a pasted `kubectl get
    apiservices` row never prints it (its describe does)."""
    text = obj.view.text
    if text is not None and not text.described:
        return f"the pasted listing prints no message (`kubectl describe apiservice {obj.name}` shows it)"
    return "no message"
