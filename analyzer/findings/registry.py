"""The rule registry: finds one rule per file under `rules/`, validates it, and runs them."""

from __future__ import annotations

import importlib
import pkgutil
import re
import traceback
import warnings
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from analyzer.findings.types import CATEGORIES, SEVERITIES, Finding, Rule, RuleMeta, sorted_findings
from analyzer.kube.kinds import KNOWN_KINDS
from analyzer.model.schema import TABLE_SPECS

if TYPE_CHECKING:
    from analyzer.findings.dump import AnalyzedDump

RULES_PACKAGE = "analyzer.findings.rules"
_PACKAGE = Path(__file__).resolve().parents[1]  # analyzer/
_ID = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)+$")
KNOWN_DISTRIBUTIONS = frozenset({
    "aks", "eks", "oke", "gke", "kubeadm", "k3s", "rke2", "openshift", "kind", "minikube",
    "docker-desktop", "microk8s", "doks", "vanilla",
})


class RuleError(Exception):
    """A rule file is wrong (duplicate id, unknown kind or table, bad severity): a bug, not input."""


class RuleStopped(RuntimeWarning):
    """A rule raised on this dump: its bug, said as a warning while the other rules run on (the
    test suite turns it into an error, see pyproject.toml)."""


def validate(meta: RuleMeta, module: str) -> None:
    """Raise RuleError naming the rule file if its metadata is not sound."""
    problems = []
    if not _ID.match(meta.id):
        problems.append(f"id {meta.id!r} is not lower-case words joined by '-'")
    if meta.severity not in SEVERITIES:
        problems.append(f"severity {meta.severity!r} not in {SEVERITIES}")
    if meta.category not in CATEGORIES:
        problems.append(f"category {meta.category!r} not in {CATEGORIES}")
    problems += [f"requires unknown kind {k!r}" for k in (*meta.requires, *meta.requires_any)
                 if k not in KNOWN_KINDS]
    problems += [f"reads unknown table {t!r}" for t in meta.tables if t not in TABLE_SPECS]
    problems += [f"unknown distribution {d!r}" for d in meta.distributions
                 if d not in KNOWN_DISTRIBUTIONS]
    if not meta.title or not meta.message or not meta.remediation:
        problems.append("title, message and remediation must all be given")
    if problems:
        raise RuleError(f"{module}: " + "; ".join(problems))


@cache
def load_rules(package_name: str = RULES_PACKAGE) -> tuple[Rule, ...]:
    """Every rule of a rules package (one per module), validated, sorted by id."""
    package = importlib.import_module(package_name)
    rules: dict[str, Rule] = {}
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        name = f"{package_name}.{info.name}"
        module = importlib.import_module(name)
        meta, check = getattr(module, "RULE", None), getattr(module, "check", None)
        if not isinstance(meta, RuleMeta) or not callable(check):
            raise RuleError(f"{name}: a rule file defines RULE = RuleMeta(...) and check(cluster)")
        validate(meta, name)
        if meta.id in rules:
            raise RuleError(f"{name}: duplicate rule id {meta.id!r} (also in {rules[meta.id].module})")
        rules[meta.id] = Rule(meta, check, name)
    return tuple(rules[k] for k in sorted(rules))


def run_rule(rule: Rule, cluster: AnalyzedDump) -> list[Finding]:
    """One rule over a cluster: not applicable when its kinds or distribution do not fit."""
    meta = rule.meta
    missing = [k for k in meta.requires if not cluster.covers(k)]
    if missing:
        return [meta.not_applicable(f"the dump did not collect {', '.join(missing)}",
                                    missing=", ".join(missing))]
    if meta.requires_any and not any(cluster.covers(k) for k in meta.requires_any):
        kinds = list(meta.requires_any)
        named = ", ".join(kinds) if len(kinds) <= 5 else f"{', '.join(kinds[:4])} or {len(kinds) - 4} other kinds"
        return [meta.not_applicable(f"the dump collected none of {named}", missing=", ".join(kinds))]
    if meta.needs_host:
        virtual = getattr(cluster, "virtual", None)
        if virtual is not None and virtual.detected:
            return [meta.not_applicable(
                f"a virtual cluster ({virtual.name}): the host's CNI, kube-proxy and control plane "
                "are not part of this dump", evidence="; ".join(virtual.evidence[:3]))]
    if meta.distributions:
        from analyzer.findings.components import distribution_name

        dist = distribution_name(cluster)
        if dist not in meta.distributions:
            return [meta.not_applicable(
                f"applies to {', '.join(meta.distributions)}; this dump is {dist or 'undetected'}")]
    try:
        return sorted_findings(rule.check(cluster))
    except Exception as exc:  # one rule's bug must not lose the other rules' findings
        return [meta.not_applicable(_stopped(rule, exc))]


def _stopped(rule: Rule, exc: Exception) -> str:
    """Why a rule could not judge this dump: where in kda it stopped, and what (warned too)."""
    where = ""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        path = Path(frame.filename).resolve()
        if path.is_relative_to(_PACKAGE):
            where = f" at {path.relative_to(_PACKAGE).as_posix()}:{frame.lineno}"
            break
    reason = (f"the rule stopped on this dump ({type(exc).__name__}{where}: {str(exc)[:200]}); "
              "a bug in kda: the other rules ran")
    warnings.warn(f"rule {rule.meta.id}: {reason}", RuleStopped, stacklevel=2)
    return reason


def select_rules(rule_ids: list[str] | tuple[str, ...] | None = None) -> tuple[Rule, ...]:
    """The registered rules, or only those named (KeyError naming an unknown id)."""
    rules = load_rules()
    if not rule_ids:
        return rules
    by_id = {r.meta.id: r for r in rules}
    unknown = [r for r in rule_ids if r not in by_id]
    if unknown:
        raise KeyError(f"unknown rule id(s): {', '.join(unknown)}")
    return tuple(by_id[r] for r in rule_ids)
