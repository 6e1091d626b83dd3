"""What a finding is: facts about one object (rule, severity, status, evidence), never prose."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from analyzer.findings.dump import AnalyzedDump
    from analyzer.ingest.records import KubeObject

Severity = Literal["critical", "warning", "info"]
Status = Literal["fail", "not_applicable"]

SEVERITIES: tuple[str, ...] = ("critical", "warning", "info")
CATEGORIES: tuple[str, ...] = (
    "workloads", "nodes", "networking", "references", "configuration", "deprecations",
    "cluster", "events",
)


@dataclass(frozen=True, slots=True)
class Evidence:
    """One fact a finding rests on: which field, what it held, what was expected, and where."""

    field: str
    seen: Any
    expected: Any = None
    source: str | None = None
    line: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "field": self.field, "seen": self.seen, "expected": self.expected,
            "source": self.source, "line": self.line,
        }


@dataclass(frozen=True, slots=True)
class Finding:
    """One rule's verdict on one object (or, when not applicable, on the whole dump)."""

    rule: str
    severity: Severity
    category: str
    status: Status
    kind: str
    namespace: str
    name: str
    evidence: tuple[Evidence, ...] = ()
    facts: Mapping[str, Any] = field(default_factory=dict)
    remediation: str = ""
    # The provider-managed signal of the object ("label addonmanager.kubernetes.io/mode=
    # Reconcile"): a hygiene finding on it is info, for the provider to act on.
    managed: str = ""
    # Why the problem is no longer current ("Ready since ...", "the pod is gone"): such a
    # finding is info, kept as history.
    resolved: str = ""
    # The other pods of the same controller that this hygiene finding stands for (their
    # template gave them the same spec: `analyzer.findings.alike`), by name.
    alike: tuple[str, ...] = ()
    # The finding that already says what this one does (rule, kind, namespace, name): a group
    # of warning events another finding quotes (`analyzer.findings.said`), listed under it.
    said_by: tuple[str, str, str, str] | tuple[()] = ()

    def as_info(self, *, resolved: str = "", managed: str = "") -> Finding:
        """This finding demoted to info, saying why (resolved since, or provider-managed)."""
        from dataclasses import replace

        return replace(self, severity="info", resolved=resolved or self.resolved,
                       managed=managed or self.managed)

    @property
    def source(self) -> str:
        """The file (and line) of the first evidence that names one."""
        for ev in self.evidence:
            if ev.source:
                return f"{ev.source}:{ev.line}" if ev.line else ev.source
        return ""

    @property
    def sort_key(self) -> tuple[int, str, str, str, str, str]:
        return (*self._sort_head, self._sort_tail)

    @property
    def _sort_head(self) -> tuple[int, str, str, str, str]:
        return (SEVERITIES.index(self.severity), self.rule, self.kind, self.namespace, self.name)

    @property
    def _sort_tail(self) -> str:
        return repr(sorted(self.facts.items(), key=lambda kv: kv[0]))


def sorted_findings(findings: Iterable[Finding]) -> list[Finding]:
    """`sorted(findings, key=lambda f: f.sort_key)`, the facts' text (the key's last part, the
    dear one) made only for findings whose first parts are equal: most findings are the only
    one of their rule on their object, and a rule's findings are sorted twice.

    >>> a, b, c = (RuleMeta("r", "t", "info", "events", "m", "").fail(kind="Pod", name=n, n=i)
    ...            for n, i in (("x", 2), ("x", 1), ("a", 3)))
    >>> [f.facts["n"] for f in sorted_findings([a, b, c])]
    [3, 1, 2]
    """
    items = list(findings)
    heads = [f._sort_head for f in items]
    order = sorted(range(len(items)), key=heads.__getitem__)  # (stable, as sorting the items)
    items, heads = [items[i] for i in order], [heads[i] for i in order]
    out: list[Finding] = []
    start = 0
    for end in range(1, len(items) + 1):
        if end == len(items) or heads[end] != heads[start]:
            # a run of equal first parts, in the order it came: sorted (stably) by the rest
            out += items[start:end] if end - start == 1 else sorted(items[start:end], key=lambda f: f._sort_tail)
            start = end
    return out


@dataclass(frozen=True, slots=True)
class RuleMeta:
    """A rule's metadata, declared beside its logic in the rule's own file.

    `requires`: kinds the dump must have COLLECTED for the rule to apply (else not applicable);
    `requires_any`: at least one of these kinds must have been collected.
    `tables`: model tables the rule reads (validated against the schema at registration).
    `distributions`: the distributions it applies to (empty = all).
    `message`: a str.format template over the finding's facts plus kind, namespace and name.
    `needs_host`: the rule reads host components, not applicable to a virtual cluster.
    """

    id: str
    title: str
    severity: Severity
    category: str
    message: str
    remediation: str
    requires: tuple[str, ...] = ()
    requires_any: tuple[str, ...] = ()
    tables: tuple[str, ...] = ()
    distributions: tuple[str, ...] = ()
    # The rule reads the host's components (CNI, kube-proxy, control-plane pods): a virtual
    # cluster has none of its own, so there the rule does not apply.
    needs_host: bool = False

    def fail(self, obj: KubeObject | None = None, *evidence: Evidence,
             kind: str | None = None, namespace: str | None = None, name: str | None = None,
             **facts: Any) -> Finding:
        """A failing finding on `obj` (or on the kind/namespace/name given) with its facts."""
        return Finding(
            rule=self.id, severity=self.severity, category=self.category, status="fail",
            kind=kind if kind is not None else (obj.kind if obj else ""),
            namespace=namespace if namespace is not None else (obj.namespace if obj else ""),
            name=name if name is not None else (obj.name if obj else ""),
            evidence=tuple(evidence), facts=facts, remediation=self.remediation,
        )

    def not_applicable(self, reason: str, **facts: Any) -> Finding:
        """The rule could not tell on this dump, and says why (never a pass, never an alarm)."""
        return Finding(
            rule=self.id, severity=self.severity, category=self.category,
            status="not_applicable", kind="", namespace="", name="",
            facts={"reason": reason, **facts}, remediation="",
        )


CheckFn = Callable[["AnalyzedDump"], Iterable[Finding]]


@dataclass(frozen=True, slots=True)
class Rule:
    """A registered rule: its metadata and its check, from one file under `findings/rules/`."""

    meta: RuleMeta
    check: CheckFn
    module: str
