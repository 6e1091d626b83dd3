"""Findings: offline checks over a Cluster, one rule per file, each verdict carrying its evidence.

`run_rules(cluster)` returns the `cluster.findings` DataFrame; `list_rules()` lists the rules.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import pandas as pd

from analyzer.collector import collector_paused
from analyzer.findings.alike import fold_replicas
from analyzer.findings.facts import shared_containers
from analyzer.findings.incidents import Incident, group_incidents, incidents_frame
from analyzer.findings.logs import with_log_evidence
from analyzer.findings.managed import mark_managed
from analyzer.findings.registry import RuleError, load_rules, run_rule, select_rules
from analyzer.findings.render import message, to_frame, to_records
from analyzer.findings.said import mark_said
from analyzer.findings.toolmade import mark_tool_made
from analyzer.findings.types import Evidence, Finding, Rule, RuleMeta, sorted_findings
from analyzer.memo import once_per
from analyzer.sensitive.masking import mask_sensitive

if TYPE_CHECKING:
    from analyzer.findings.dump import AnalyzedDump

__all__ = [
    "Evidence", "Finding", "Incident", "Rule", "RuleError", "RuleMeta", "collect_findings",
    "findings_and_incidents", "group_incidents", "list_rules", "message", "run_incidents", "run_rules",
    "to_records",
]


def collect_findings(
    cluster: AnalyzedDump, rule_ids: list[str] | None = None, show_sensitive: bool = False
) -> list[Finding]:
    """Every finding of the chosen rules (all by default), in a stable order.

    Facts and evidence quote the dump (event messages, args, annotations): credential-looking
    parts of them are masked unless `show_sensitive`.
    """
    findings: list[Finding] = []
    with shared_containers():
        for rule in select_rules(rule_ids):
            findings += fold_replicas(run_rule(rule, cluster), cluster)
    findings = with_log_evidence(findings, cluster)
    findings = mark_managed(cluster, findings)
    findings = mark_tool_made(cluster, findings)
    findings = mark_said(findings, cluster)
    if not show_sensitive:
        findings = [_masked(f) for f in findings]
    return sorted_findings(findings)


@lru_cache(maxsize=65536)
def _mask_text(text: str) -> str:
    # Findings repeat the same facts (images, reasons) thousands of times: mask each once.
    return mask_sensitive(text)


def _mask_value(value: Any) -> Any:
    if isinstance(value, str):
        return _mask_text(value)
    if isinstance(value, list | tuple):
        return type(value)(_mask_value(v) for v in value)
    if isinstance(value, dict):
        return {k: _mask_value(v) for k, v in value.items()}
    return value


def _shows_credential(value: Any) -> bool:
    """Whether masking would change the value (read without building its masked copy)."""
    if isinstance(value, str):
        return _mask_text(value) != value
    if isinstance(value, list | tuple):
        return any(_shows_credential(v) for v in value)
    if isinstance(value, dict):
        return any(_shows_credential(v) for v in value.values())
    return False


def _masked(finding: Finding) -> Finding:
    if not (any(_shows_credential(v) for v in finding.facts.values())
            or any(_shows_credential(e.seen) or _shows_credential(e.expected) for e in finding.evidence)):
        return finding  # nothing to mask: most findings quote no credential
    evidence = tuple(_masked_evidence(e) for e in finding.evidence)
    facts = {k: _mask_value(v) for k, v in finding.facts.items()}
    return replace(finding, evidence=evidence, facts=facts)


def _masked_evidence(e: Evidence) -> Evidence:
    seen, expected = _mask_value(e.seen), _mask_value(e.expected)
    if seen == e.seen and expected == e.expected:
        return e
    return replace(e, seen=seen, expected=expected)


def run_rules(cluster: AnalyzedDump, rule_ids: list[str] | None = None) -> pd.DataFrame:
    """The findings of the chosen rules (all by default) as a DataFrame, one row per finding,
    with the incident each belongs to."""
    # The rules make tens of thousands of findings and few cycles, while the dump's graph
    # and tables are alive: each collection would walk them all again (found as the cycles
    # they leave are, when collection resumes).
    with collector_paused():
        if rule_ids is None:
            findings, incidents = findings_and_incidents(cluster)
        else:
            show = getattr(cluster, "show_sensitive", False)
            findings = collect_findings(cluster, rule_ids, show_sensitive=show)
            incidents = group_incidents(findings, cluster)
        return to_frame(findings, _metas(), incidents)


@once_per
def findings_and_incidents(cluster: AnalyzedDump) -> tuple[list[Finding], list[Incident]]:
    """Every finding of a cluster and the incidents they group into (computed once per cluster)."""
    findings = collect_findings(cluster, show_sensitive=getattr(cluster, "show_sensitive", False))
    return findings, group_incidents(findings, cluster)


def run_incidents(cluster: AnalyzedDump) -> pd.DataFrame:
    """The `cluster.incidents` DataFrame: findings that share a cause, ranked by severity and reach."""
    return incidents_frame(findings_and_incidents(cluster)[1])


def list_rules() -> pd.DataFrame:
    """Every registered rule: id, title, severity, category, requires, distributions."""
    rows = [{
        "id": r.meta.id, "title": r.meta.title, "severity": r.meta.severity,
        "category": r.meta.category, "requires": ", ".join(r.meta.requires),
        "distributions": ", ".join(r.meta.distributions), "remediation": r.meta.remediation,
    } for r in load_rules()]
    return pd.DataFrame(rows, columns=["id", "title", "severity", "category", "requires",
                                       "distributions", "remediation"]).astype("string")


def _metas() -> dict[str, RuleMeta]:
    return {r.meta.id: r.meta for r in load_rules()}
