"""Every rule against its case file: tiny objects that must fail, pass, or be not applicable.

Case files live in tests/findings/cases/<rule id>.yaml:

    rule: pod-crashloop
    cases:
      - name: what the case shows
        expect: fail | pass | not_applicable
        objects: [ ...Kubernetes objects... ]     # loaded as one `kind: List` file
        collected: [ConfigMap]                     # kinds collected with no object (empty lists)
        one_per_file: true                         # each object alone in its own file instead
        findings: [Pod/default/web]                # fail: exactly these objects (Kind/ns/name)
        facts: {restarts: 7}                       # fail: facts of the first finding
        message_contains: "CrashLoopBackOff"       # fail: words of the first finding's message (or a list of them)
        severity: info                             # fail: the first finding's severity (else the rule's)
        resolved: "Ready since"                    # fail: words of why it is no longer current
        managed: "addonmanager"                    # fail: words of its provider-managed signal ("": none)
        distribution: eks                          # pretend detection said so
        files: {cluster-info-dump.txt: "..."}      # more files of the dump, as text (logs)
        severity: info                             # fail: the first finding's severity
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import yaml

import analyzer
from analyzer.findings import message
from analyzer.findings.managed import HYGIENE_CATEGORIES, mark_managed
from analyzer.findings.registry import load_rules, run_rule

CASES = Path(__file__).parent / "cases"
RULES = {r.meta.id: r for r in load_rules()}


def _load_cases() -> list[Any]:
    params = []
    for path in sorted(CASES.glob("*.yaml")):
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        for case in doc["cases"]:
            params.append(pytest.param(doc["rule"], case, id=f"{doc['rule']}: {case['name']}"))
    return params


def cluster_of(case: dict[str, Any]) -> analyzer.Cluster:
    """The case's objects as a dump: one List file (or one file per object), plus an empty list
    per collected kind."""
    objects = case.get("objects") or []
    if case.get("one_per_file"):
        files = {f"object-{i}.yaml": yaml.safe_dump(obj) for i, obj in enumerate(objects)}
    else:
        files = {"objects.yaml": yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": objects})}
    for kind in case.get("collected") or ():
        files[f"{kind.lower()}s.yaml"] = f"apiVersion: v1\nkind: {kind}List\nitems: []\n"
    files.update(case.get("files") or {})
    cluster = analyzer.load(files)
    # a case may say how many of its pasted files' parts are rejected (a paste cut mid-table)
    assert len(cluster.ingest.rejections) == case.get("rejected", 0), cluster.ingest.rejections
    # ... and how many of its objects are kept as far as the paste goes (a describe cut mid-section)
    assert len(cluster.ingest.truncated) == case.get("truncated", 0), cluster.ingest.truncated
    if "distribution" in case:
        cluster.__dict__["distribution"] = SimpleNamespace(name=case["distribution"])
    return cluster


def object_id(finding: Any) -> str:
    return "/".join(x for x in (finding.kind, finding.namespace, finding.name) if x)


def test_every_rule_has_a_case_file_with_each_outcome() -> None:
    files = {p.stem for p in CASES.glob("*.yaml")}
    assert files == set(RULES), f"without cases: {set(RULES) - files}; unknown: {files - set(RULES)}"
    for path in CASES.glob("*.yaml"):
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert doc["rule"] == path.stem
        outcomes = {c["expect"] for c in doc["cases"]}
        assert outcomes == {"fail", "pass", "not_applicable"}, f"{path.name}: has only {outcomes}"
        # Hygiene findings turn info on provider-managed objects, event findings once resolved:
        # each such rule shows it in a case.
        meta = RULES[doc["rule"]].meta
        if meta.category in HYGIENE_CATEGORIES:
            assert any("managed" in c for c in doc["cases"]), f"{path.name}: no managed case"
        if meta.category == "events":
            assert any("resolved" in c for c in doc["cases"]), f"{path.name}: no resolved case"


@pytest.mark.parametrize(("rule_id", "case"), _load_cases())
def test_rule_case(rule_id: str, case: dict[str, Any]) -> None:
    rule = RULES[rule_id]
    if case.get("needs_catalog"):
        from analyzer.distributions import load_catalog

        try:
            if not load_catalog().entries:
                pytest.skip("the component catalog has no entries yet")
        except FileNotFoundError:
            pytest.skip("the component catalog file does not exist yet")
    cluster = cluster_of(case)
    findings = mark_managed(cluster, run_rule(rule, cluster))
    statuses = {f.status for f in findings}
    if case["expect"] == "pass":
        assert findings == [], [message(f, rule.meta) for f in findings]
    elif case["expect"] == "not_applicable":
        assert statuses == {"not_applicable"} and len(findings) == 1, findings
        assert message(findings[0], rule.meta).startswith("Not applicable: ")
    else:
        assert statuses == {"fail"}, findings
        assert sorted(object_id(f) for f in findings) == sorted(case["findings"])
        first = findings[0]
        for key, value in (case.get("facts") or {}).items():
            assert first.facts.get(key) == value, (key, first.facts)
        text = message(first, rule.meta)
        assert "?" not in text.split(), text  # every fact the template names was given
        if "severity" in case:
            assert first.severity == case["severity"], (first.severity, first.facts)
        if "message_contains" in case:
            said = case["message_contains"]
            for words in [said] if isinstance(said, str) else said:
                assert words in text, (words, text)
        for words in case.get("message_lacks") or ():
            assert words not in text, (words, text)
        # A finding demoted to info says why: resolved since, or managed by the provider.
        assert first.severity == case.get("severity", rule.meta.severity), first
        for key in ("resolved", "managed"):
            if key in case:  # (an empty one: the finding says none)
                assert case[key] in getattr(first, key) if case[key] else not getattr(first, key), (key, first)
        assert first.evidence and all(e.field for e in first.evidence)
        assert first.evidence[0].source and first.evidence[0].source.endswith((".yaml", *(case.get("files") or ())))
