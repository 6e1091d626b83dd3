"""Any object's status.conditions, custom resources included: a condition whose status means
trouble by its polarity (data/condition_polarity.yaml), with its reason and message."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta
from functools import cache
from typing import Any

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import (
    age_at_capture,
    age_text,
    ago,
    capture_is_lower_bound,
    ev,
    newest_time_text,
)
from analyzer.findings.types import Finding, RuleMeta
from analyzer.findings.versions import DATA
from analyzer.ingest.records import KubeObject
from analyzer.kube.kinds import is_builtin_group
from analyzer.kube.time import parse_time
from analyzer.safeyaml import load_yaml

RULE = RuleMeta(
    id="object-condition-bad", title="Object condition reports a problem", severity="warning",
    category="cluster",
    message="{object}: condition {type}={status} ({polarity}) since {since}: {reason}: {condition_message}",
    remediation="Read the condition's reason and message, then the controller or operator that owns the object (its logs and events); fix what it names.",
)


@cache
def _polarity_data() -> dict[str, Any]:
    """data/condition_polarity.yaml, read once for both views of it below."""
    return load_yaml((DATA / "condition_polarity.yaml").read_text(encoding="utf-8"))


@cache
def polarity() -> tuple[dict[str, tuple[str, str]], frozenset[str], frozenset[str], frozenset[str]]:
    """(type -> (bad status, severity), neutral types, covered kinds, types whose Unknown means
    in progress) from the data file."""
    raw = _polarity_data()
    bad: dict[str, tuple[str, str]] = {}
    for status, key in (("False", "bad_when_false"), ("True", "bad_when_true")):
        for severity, types in (raw.get(key) or {}).items():
            for t in types:
                bad[str(t)] = (status, str(severity))
    return (bad, frozenset(map(str, raw.get("neutral") or ())), frozenset(map(str, raw.get("covered_kinds") or ())),
            frozenset(map(str, raw.get("unknown_is_pending") or ())))


@cache
def suffix_polarity() -> tuple[tuple[str, tuple[str, str] | None], ...]:
    """(suffix, (bad status, severity), or None for a neutral one) from the data file's
    `suffixes`, longest suffix first: the polarity of a type named <something><Suffix> that is
    listed nowhere by itself (OpenShift operators' <Controller>Degraded and the like).

    >>> dict(suffix_polarity())["Degraded"], dict(suffix_polarity())["Progressing"]
    (('True', 'warning'), None)
    """
    raw = _polarity_data().get("suffixes") or {}
    found: list[tuple[str, tuple[str, str] | None]] = []
    for status, key in (("False", "bad_when_false"), ("True", "bad_when_true")):
        for severity, suffixes in (raw.get(key) or {}).items():
            found += [(str(suffix), (status, str(severity))) for suffix in suffixes]
    found += [(str(suffix), None) for suffix in raw.get("neutral") or ()]
    return tuple(sorted(found, key=lambda pair: -len(pair[0])))


def _by_suffix(ctype: str) -> tuple[str, str] | None | bool:
    """A type's polarity by its suffix: (bad status, severity), None when neutral, False when no
    suffix names it (a type that is only a suffix is the exact lists' to judge)."""
    for suffix, polar in suffix_polarity():
        if ctype.endswith(suffix) and ctype != suffix:
            return polar
    return False


@cache
def raised_by_message() -> dict[str, tuple[tuple[str, re.Pattern[str]], ...]]:
    """type -> (severity, message pattern) that raise a condition whose message names a setup
    that can never be met (data/condition_polarity.yaml)."""
    raw = _polarity_data()
    return {str(ctype): tuple((str(severity), re.compile(str(p)))
                              for severity, patterns in (by_severity or {}).items() for p in patterns)
            for ctype, by_severity in (raw.get("raised_by_message") or {}).items()}


@cache
def in_progress_while() -> dict[str, timedelta]:
    """type -> grace: a condition of that type True means the object's work is under way, a
    wait while younger than the grace (data/condition_polarity.yaml `in_progress_while`)."""
    raw = _polarity_data().get("in_progress_while") or {}
    return {str(ctype): timedelta(minutes=float(minutes)) for ctype, minutes in raw.items()}


def _work_under_way(cluster: AnalyzedDump, obj: KubeObject, conditions: list[Any]) -> str:
    """'Issuing=True for 12s' when a condition of the object says its work is under way and began
    within its grace before the capture ('' else: none, too old, or its age not known, as when
    the capture is dated by the objects' own writes or status times: the newest of them, maybe
    this very condition, says the capture came then or later, not how much later)."""
    if capture_is_lower_bound(cluster):
        return ""
    graces = in_progress_while()
    for cond in conditions:
        if not isinstance(cond, dict) or str(cond.get("status")) != "True" or \
                (grace := graces.get(str(cond.get("type")))) is None:
            continue
        age = age_at_capture(cluster, parse_time(cond.get("lastTransitionTime")), obj)
        if age is not None and timedelta(0) <= age <= grace:
            return f"{cond['type']}=True for {age_text(age)}"
    return ""


def _since(cluster: AnalyzedDump, obj, cond: dict[str, Any], ctype: str) -> str:
    """When the condition last changed: its lastTransitionTime, else what a pasted table's SINCE
    column says (`oc get co` prints it for Available only)."""
    when = parse_time(cond.get("lastTransitionTime"))
    facts = obj.view.text
    if when is not None or facts is None:
        return newest_time_text(cluster, when, obj) or ago(cluster, when)
    ages = facts.condition_ages or {}
    seconds = ages.get(ctype)
    if seconds is None:
        # the SINCE a table prints is another condition's (`oc get clusterversion`: Progressing's,
        # when the update its STATUS names began): said beside, not as this one's
        printed = "; ".join(f"when {other} last changed, {age_text(timedelta(seconds=age))} before it"
                            for other, age in sorted(ages.items()))
        return ("an unknown time (the pasted table does not print it" + (f"; it prints {printed}" if printed else "")
                + ")")
    return f"{age_text(timedelta(seconds=seconds))} before the table was printed"


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    bad, neutral, covered, pending = polarity()
    raised = raised_by_message()
    with_status = 0
    for obj in cluster.objects:
        if obj.kind in covered and is_builtin_group(obj.kind, obj.key.group):
            continue
        status = obj.body().get("status")
        with_status += isinstance(status, dict)
        conditions = status.get("conditions") if isinstance(status, dict) else None
        if not isinstance(conditions, list):
            continue
        for i, cond in enumerate(conditions):
            if not isinstance(cond, dict) or not cond.get("type"):
                continue
            # A condition with no status at all holds by being there: Argo CD's conditions are
            # a type and a message only (SyncError, ComparisonError, SharedResourceWarning).
            ctype, cstatus = str(cond["type"]), str(cond.get("status", "True"))
            if ctype in neutral:
                continue
            if ctype not in bad and (by_suffix := _by_suffix(ctype)) is not False:
                if by_suffix is None:
                    continue  # <Controller>Progressing and the like: progress, not health
                bad_status, severity = by_suffix
                failing = cstatus == bad_status
                label = f"bad when {bad_status}"
            elif ctype in bad:
                bad_status, severity = bad[ctype]
                # Unknown: the controller cannot tell, which for a must-be-True type is not fine.
                failing = cstatus == bad_status or (
                    bad_status == "False" and cstatus == "Unknown" and ctype not in pending)
                label = f"bad when {bad_status}"
            else:
                failing, severity, label = cstatus in ("False", "Unknown"), "info", "polarity unknown"
            if not failing:
                continue
            message = str(cond.get("message") or "")
            severity = next((sev for sev, pattern in raised.get(ctype, ()) if pattern.search(message)),
                            severity)
            waiting = _work_under_way(cluster, obj, conditions) if label == "bad when False" else ""
            if waiting:
                severity = "info"
                message = f"{message or 'no message'} (a wait: {waiting}, normal while the work is young)"
            finding = RULE.fail(
                obj, ev(obj, f"status.conditions[{i}]", f"{ctype}={cstatus}",
                        f"{ctype}={'True' if label == 'bad when False' else 'False'}"
                        if label != "polarity unknown" else None),
                type=ctype, status=cstatus, polarity=label,
                reason=str(cond.get("reason") or "no reason"),
                condition_message=(message or "no message")[:500],
                since=_since(cluster, obj, cond, ctype),
            )
            yield replace(finding, severity=severity) if severity != finding.severity else finding
    if not with_status:
        yield RULE.not_applicable("the dump holds no object with a status besides those other rules read "
                                  "(nodes, pods, workloads, ...)")
