"""Custom resources that tell their state in a status field of their own, not in
status.conditions (an Argo CD Application's health and sync, an ACME Order's or Challenge's
state): a value that means trouble by data/status_states.yaml, with its message and since when."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
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
from analyzer.kube.time import parse_time
from analyzer.safeyaml import load_yaml

RULE = RuleMeta(
    id="object-state-bad", title="Custom resource's state reports a problem", severity="warning",
    category="cluster",
    message="{object}: {field}={value} since {since}: {state_message}",
    remediation="Read the state's message, then the controller that owns the object (Argo CD's application "
                "controller, cert-manager, GKE's managed certificates): its logs and the object's events; fix what it names.",
)


@dataclass(frozen=True)
class StateField:
    """One status field of a kind, and which of its values mean trouble."""

    path: tuple[str, ...]
    bad: dict[str, str]                      # value -> severity
    message: tuple[str, ...] = ()
    since: tuple[str, ...] = ()
    quiet_when: tuple[tuple[tuple[str, ...], frozenset[str]], ...] = ()
    resolved_when: tuple[tuple[tuple[str, ...], frozenset[str]], ...] = ()
    said_by_conditions: frozenset[str] = frozenset()
    says: dict[str, str] = field(default_factory=dict)          # value -> what it means, unmessaged
    info_when_absent: tuple[tuple[str, ...], ...] = ()   # paths all absent: info, for info_values
    info_values: frozenset[str] = frozenset()
    info_why: str = ""
    waiting: frozenset[str] = frozenset()
    warn_after: timedelta | None = None


def _path(text: Any) -> tuple[str, ...]:
    return tuple(str(text).split(".")) if text else ()


def _when(raw: Any) -> tuple[tuple[tuple[str, ...], frozenset[str]], ...]:
    return tuple((_path(path), frozenset(map(str, values))) for path, values in (raw or {}).items())


@cache
def state_fields() -> dict[tuple[str, str], tuple[StateField, ...]]:
    """(group, kind) -> its state fields, from data/status_states.yaml."""
    raw = load_yaml((DATA / "status_states.yaml").read_text(encoding="utf-8"))
    found: dict[tuple[str, str], tuple[StateField, ...]] = {}
    for entry in raw.get("kinds") or ():
        fields = []
        for f in entry.get("fields") or ():
            waiting = f.get("waiting") or {}
            after = waiting.get("warn_after_minutes")
            fields.append(StateField(
                path=_path(f["path"]),
                bad={str(v): str(sev) for sev, values in (f.get("bad") or {}).items() for v in values},
                message=_path(f.get("message")), since=_path(f.get("since")),
                quiet_when=_when(f.get("quiet_when")), resolved_when=_when(f.get("resolved_when")),
                said_by_conditions=frozenset(map(str, f.get("said_by_conditions") or ())),
                says={str(k): str(v) for k, v in (f.get("says") or {}).items()},
                info_when_absent=tuple(_path(p) for p in (f.get("info_when_absent") or {}).get("paths") or ()),
                info_values=frozenset(map(str, (f.get("info_when_absent") or {}).get("values") or ())),
                info_why=str((f.get("info_when_absent") or {}).get("why") or ""),
                waiting=frozenset(map(str, waiting.get("values") or ())),
                warn_after=timedelta(minutes=float(after)) if after else None,
            ))
        found[(str(entry["group"]), str(entry["kind"]))] = tuple(fields)
    return found


def _get(body: dict[str, Any], path: tuple[str, ...]) -> Any:
    value: Any = body
    for part in path:
        if not isinstance(value, dict):
            return None
        value = value.get(part)
    return value


def _matches(body: dict[str, Any], when: tuple[tuple[tuple[str, ...], frozenset[str]], ...]) -> str:
    """The first `path=value` of `when` the object holds ('' if none)."""
    for path, values in when:
        value = _get(body, path)
        if value is not None and str(value) in values:
            return f"{'.'.join(path)}={value}"
    return ""


def _holds_condition(body: dict[str, Any], types: frozenset[str]) -> bool:
    """Whether the object holds one of these conditions (status True, or none: Argo CD's
    conditions hold by being there), which object-condition-bad says already."""
    conditions = _get(body, ("status", "conditions"))
    return isinstance(conditions, list) and any(
        isinstance(c, dict) and str(c.get("type")) in types and str(c.get("status", "True")) == "True"
        for c in conditions)


def _text(value: Any, meaning: str | None = None) -> str:
    """A message field as text: a list of entries (a ManagedCertificate's domains) as their
    `key=value` pairs, one entry after another; where there is none, what the value means.

    >>> _text([{"domain": "a.example", "status": "FailedNotVisible"}]), _text(None)
    ('domain=a.example status=FailedNotVisible', 'no message')
    """
    if not value:
        return f"no message; {meaning}" if meaning else "no message"
    entries = value if isinstance(value, list) else [value]
    return "; ".join(" ".join(f"{k}={v}" for k, v in e.items()) if isinstance(e, dict) else str(e)
                     for e in entries)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    fields_of = state_fields()
    kinds = sorted({kind for _, kind in fields_of})
    if not any(cluster.covers(kind) for kind in kinds):
        yield RULE.not_applicable(f"the dump collected none of {', '.join(kinds)}", missing=", ".join(kinds))
        return
    for kind in kinds:  # (one kind at a time: each from the dump's index, not a walk of all objects)
        for obj in cluster.objects_of(kind, custom=True):
            fields = fields_of.get((obj.key.group, obj.kind))
            if not fields:
                continue  # a kind of that name from another group (Kubernetes' own Application, say)
            body = obj.body()
            for state in fields:
                yield from _judge(cluster, obj, body, state)


def _judge(cluster: AnalyzedDump, obj: KubeObject, body: dict[str, Any], field: StateField) -> Iterator[Finding]:
    value = _get(body, field.path)
    if value is None or isinstance(value, (dict, list)):
        return
    value = str(value)
    severity = field.bad.get(value)
    if (severity is None and value not in field.waiting) or _matches(body, field.quiet_when) or (
            field.said_by_conditions and _holds_condition(body, field.said_by_conditions)):
        return
    when = parse_time(_get(body, field.since)) if field.since else None
    pasted_age = obj.view.text.age_seconds if obj.view.text is not None else None
    if when is None and severity is None and pasted_age is None:
        when = parse_time(obj.view.metadata.creationTimestamp)  # a wait starts with the object
    if when is not None:
        since = newest_time_text(cluster, when, obj) or ago(cluster, when, obj)
    elif severity is None and pasted_age is not None:  # a pasted row's AGE: how long it waits
        since = f"{age_text(timedelta(seconds=pasted_age))} before the table was printed (its AGE)"
    else:
        since = f"an unknown time (the object does not say when {'.'.join(field.path)} changed)"
    name = ".".join(field.path)
    message = _text(_get(body, field.message), field.says.get(value))[:500]
    if severity is None:  # a wait: normal while young, stuck once it has lasted
        age = timedelta(seconds=pasted_age) if when is None and pasted_age is not None \
            else age_at_capture(cluster, when, obj)
        # a capture dated by the objects' own writes or status times may be any time after them:
        # their age is a lower bound, enough to say stuck, never to say young
        lower_bound = when is not None and capture_is_lower_bound(cluster)
        stuck = field.warn_after is not None and age is not None and age > field.warn_after
        severity = "warning" if stuck else "info"
        if stuck:
            message += f" (stuck: waiting longer than the {age_text(field.warn_after)} this normally takes)"
        elif age is not None and not lower_bound:
            message += " (a wait, normal at this age)"
        elif age is not None and age > timedelta(0) and field.warn_after is not None:
            # (at 0s, the wait is the dump's newest time: "how long, the dump does not say" below)
            message += (f" (a wait, maybe past the {age_text(field.warn_after)} this normally takes: "
                        "the dump is dated only by its own times)")
        else:
            message += " (a wait; how long it has lasted the dump does not say)"
    finding = RULE.fail(obj, ev(obj, name, value), field=name, value=value, since=since,
                        state_message=message)
    if severity != "info" and value in field.info_values and obj.view.text is None \
            and all(_get(body, path) in (None, []) for path in field.info_when_absent):
        # (`automated: {}` is an automated sync policy with its defaults: there, not absent)
        severity = "info"  # its first state, before anyone synced it
        finding = replace(finding, facts={**finding.facts, "state_message": f"{message} ({field.info_why})"})
    if severity != finding.severity:
        finding = replace(finding, severity=severity)
    if resolved := _matches(body, field.resolved_when):
        finding = finding.as_info(resolved=f"the object shows {resolved} since")
    yield finding
