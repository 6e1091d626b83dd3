"""The registry validates rules when it loads them: ids, severities, categories, kinds, tables."""

from __future__ import annotations

import random
import textwrap

import pytest
from conftest import SAMPLE_DUMPS

import analyzer
from analyzer.findings import _masked, collect_findings, list_rules
from analyzer.findings.registry import RuleError, load_rules, select_rules, validate
from analyzer.findings.types import CATEGORIES, Evidence, RuleMeta, sorted_findings

GOOD = dict(id="pod-good", title="t", severity="warning", category="workloads", message="m {name}",
            remediation="r", requires=("Pod",))


def test_the_shipped_rules_load_and_cover_every_category() -> None:
    rules = load_rules()
    assert len(rules) >= 40
    assert {r.meta.category for r in rules} == set(CATEGORIES)
    assert [r.meta.id for r in rules] == sorted(r.meta.id for r in rules)


@pytest.mark.parametrize(("change", "complaint"), [
    ({"severity": "high"}, "severity 'high'"),
    ({"category": "misc"}, "category 'misc'"),
    ({"requires": ("Poddd",)}, "unknown kind 'Poddd'"),
    ({"requires_any": ("Widget",)}, "unknown kind 'Widget'"),
    ({"tables": ("podz",)}, "unknown table 'podz'"),
    ({"distributions": ("aks", "azure")}, "unknown distribution 'azure'"),
    ({"id": "Pod_Good"}, "id 'Pod_Good'"),
    ({"remediation": ""}, "remediation"),
])
def test_validation_names_the_problem_and_the_file(change: dict, complaint: str) -> None:
    with pytest.raises(RuleError, match="rules.some_file") as err:
        validate(RuleMeta(**{**GOOD, **change}), "rules.some_file")
    assert complaint in str(err.value)


def _write_rules_package(tmp_path, name: str, files: dict[str, str]) -> None:
    pkg = tmp_path / name
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    for fname, body in files.items():
        (pkg / fname).write_text(textwrap.dedent(body))


# A minimal rule file, written into a temporary rules package by the tests below.
RULE_FILE = """
from analyzer.findings.types import RuleMeta
RULE = RuleMeta(id="{id}", title="t", severity="info", category="cluster", message="m", remediation="r")
def check(cluster):
    return []
"""


def test_duplicate_ids_fail_at_load(tmp_path, monkeypatch) -> None:
    _write_rules_package(tmp_path, "dup_rules", {"a.py": RULE_FILE.format(id="same-id"),
                                                 "b.py": RULE_FILE.format(id="same-id")})
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(RuleError, match="dup_rules.b: duplicate rule id 'same-id'"):
        load_rules("dup_rules")


def test_a_file_without_rule_or_check_fails_at_load(tmp_path, monkeypatch) -> None:
    _write_rules_package(tmp_path, "bare_rules", {"a.py": "X = 1\n"})
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(RuleError, match="bare_rules.a: a rule file defines RULE"):
        load_rules("bare_rules")


def test_unknown_rule_ids_are_refused() -> None:
    with pytest.raises(KeyError, match="nope"):
        select_rules(["pod-crashloop", "nope"])


def test_list_rules_has_one_row_per_rule() -> None:
    table = list_rules()
    assert list(table.columns[:4]) == ["id", "title", "severity", "category"]
    assert len(table) == len(load_rules()) and table["id"].is_unique


# A rule that applies to AKS only, written into a temporary rules package.
DIST_RULE_FILE = """
from analyzer.findings.types import RuleMeta
RULE = RuleMeta(id="aks-only", title="t", severity="info", category="cluster", message="m {name}",
                remediation="r", requires=("Node",), distributions=("aks",))
def check(cluster):
    return [RULE.fail(n) for n in cluster.objects_of("Node")]
"""
# A node as `kubectl get node -o yaml` prints it, trimmed (hand-written).
NODE = "apiVersion: v1\nkind: Node\nmetadata:\n  name: aks-nodepool1-0\n"


@pytest.mark.parametrize(("detected", "expected"), [("aks", "fail"), ("eks", "not_applicable")])
def test_distribution_specific_rules_apply_only_there(tmp_path, monkeypatch, detected, expected) -> None:
    from types import SimpleNamespace

    import analyzer
    from analyzer.findings.registry import run_rule

    _write_rules_package(tmp_path, f"dist_rules_{detected}", {"a.py": DIST_RULE_FILE})
    monkeypatch.syspath_prepend(str(tmp_path))
    (rule,) = load_rules(f"dist_rules_{detected}")
    cluster = analyzer.load({"node.yaml": NODE})
    cluster.__dict__["distribution"] = SimpleNamespace(name=detected)
    (finding,) = run_rule(rule, cluster)
    assert finding.status == expected
    if expected == "not_applicable":
        assert finding.facts["reason"] == "applies to aks; this dump is eks"


def test_findings_are_sorted_as_by_their_whole_sort_key() -> None:
    # The findings of sample_dumps/aks and eks (hand-made, see their README), shuffled, plus
    # findings equal in all but their facts (the last part of the key) and fully equal ones.
    findings = [f for dump in ("aks", "eks") for f in collect_findings(analyzer.load(str(SAMPLE_DUMPS / dump)))]
    meta = RuleMeta(**{**GOOD, "severity": "info"})
    twins = [meta.fail(kind="Pod", namespace="ns", name="p", container=c) for c in ("b", "a", "b", "c")]
    findings += twins + [meta.fail(kind="Pod", namespace="ns", name="q")]
    assert len({f.sort_key[:5] for f in findings}) < len(findings) - 3  # ties of the first parts
    for seed in range(5):
        random.Random(seed).shuffle(findings)
        expected = sorted(findings, key=lambda f: f.sort_key)
        assert [id(f) for f in sorted_findings(findings)] == [id(f) for f in expected]


def test_a_finding_is_copied_masked_only_where_it_quotes_a_credential() -> None:
    meta = RuleMeta(**GOOD)
    clean = meta.fail(None, Evidence("spec.containers[0].args", ["--v=2"], None), kind="Pod", name="p",
                      image="nginx:1.25", ports=[80, {"name": "http"}], replicas=None)
    assert _masked(clean) is clean
    # a credential anywhere: a fact nested in a list or a dict, or what evidence saw or expected
    for finding in (
        meta.fail(kind="Pod", name="p", args=["--v=2", "--oidc-client-secret=s3cr3tvalue"]),
        meta.fail(kind="Pod", name="p", env={"DSN": "Server=db;User Id=sa;Password=hunter2;"}),
        meta.fail(None, Evidence("args", "--oidc-client-secret=s3cr3tvalue"), kind="Pod", name="p"),
        meta.fail(None, Evidence("args", None, ("--token-secret=s3cr3tvalue",)), kind="Pod", name="p"),
    ):
        masked = _masked(finding)
        assert masked is not finding and "<redacted>" in repr((masked.facts, masked.evidence))
        assert "hunter2" not in repr(masked) and "s3cr3tvalue" not in repr(masked)
        assert (masked.rule, masked.kind, masked.name) == (finding.rule, finding.kind, finding.name)


# A rule with a bug that shows on some dumps only: it walks the nodes and trips on the first.
BUGGY_RULE_FILE = """
from analyzer.findings.types import RuleMeta
RULE = RuleMeta(id="node-buggy", title="t", severity="warning", category="nodes", message="m {name}",
                remediation="r", requires=("Node",))
def check(cluster):
    for node in cluster.objects_of("Node"):
        yield RULE.fail(node)
        {}[node.name]
"""


def test_a_rule_that_raises_is_said_and_the_others_run(tmp_path, monkeypatch) -> None:
    from analyzer.findings.registry import RuleStopped, run_rule

    _write_rules_package(tmp_path, "buggy_rules", {"a.py": BUGGY_RULE_FILE})
    monkeypatch.syspath_prepend(str(tmp_path))
    (rule,) = load_rules("buggy_rules")
    cluster = analyzer.load({"node.yaml": NODE})
    with pytest.warns(RuleStopped, match="rule node-buggy: the rule stopped on this dump"):
        (finding,) = run_rule(rule, cluster)
    # not a half-made list of findings: the rule could not judge, and says where it stopped
    assert finding.status == "not_applicable"
    assert finding.facts["reason"].startswith("the rule stopped on this dump (KeyError")
    assert "'aks-nodepool1-0'" in finding.facts["reason"]
    assert finding.facts["reason"].endswith("a bug in kda: the other rules ran")


def test_the_suite_turns_a_rule_that_raises_into_a_failure() -> None:
    # pyproject.toml's filterwarnings: no rule may stop silently on a test's dump
    import warnings

    from analyzer.findings.registry import RuleStopped

    with pytest.raises(RuleStopped):
        warnings.warn("rule x: stopped", RuleStopped, stacklevel=1)
