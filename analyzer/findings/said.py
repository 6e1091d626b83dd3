"""Warning events another finding already says: listed once, under that finding, not as a
problem of their own (data/said_events.yaml).

events-warning-summary lists every group of Warning events; a pod's FailedScheduling beside
pod-pending, its FailedMount beside events-failed-mount, its BackOff beside pod-crashloop read as
two problems where there is one; so does the NodeNotReady the node controller records on every
pod of a node turned not ready, beside that node's node-not-ready. Such a summary finding keeps
its place in the findings (counted, in JSON and SARIF) and names the finding that says it
(`said_by`); listings print it under that finding.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, replace
from functools import cache

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.events import NOT_NAMED
from analyzer.findings.types import Evidence, Finding
from analyzer.findings.versions import DATA
from analyzer.safeyaml import load_yaml

# The fields under which rules quote an event: "Event.message (FailedScheduling)", "Event.reason
# (FailedGetScale)", "Event.message (FailedScheduling, 3 pod(s))", "event Drain (AKS's drain ...)";
# the event rules' own "reason" (their evidence's seen value is the reason).
_QUOTED_EVENT = re.compile(r"Event\.\w+ \((?P<reason>[A-Za-z]+)[,)]|event (?P<word>[A-Za-z]+)\b")


@dataclass(frozen=True, slots=True)
class _StateSays:
    """An event a rule's finding says of its object from the object's state."""

    reason: str
    message: re.Pattern[str]


_Says = dict[str, tuple[_StateSays, ...]]


@cache
def _said_events() -> tuple[str, _Says, _Says]:
    """The summary rule; rule -> the events its finding says of its own object from its state;
    rule -> the events its finding on a node says of each pod bound to that node."""
    raw = load_yaml((DATA / "said_events.yaml").read_text(encoding="utf-8"))

    def says(section: str) -> _Says:
        return {rule: tuple(_StateSays(str(e["reason"]), re.compile(str(e["message"]))) for e in entries)
                for rule, entries in (raw.get(section) or {}).items()}
    return str(raw["summary_rule"]), says("said_by_state"), says("said_on_its_pods")


def quoted_reason(evidence: Evidence) -> str:
    """The reason of the event an evidence item quotes ('' when it quotes none).

    >>> quoted_reason(Evidence("Event.message (FailedScheduling)", "0/3 nodes")), quoted_reason(Evidence("reason", "FailedMount"))
    ('FailedScheduling', 'FailedMount')
    >>> quoted_reason(Evidence("status.phase", "Pending"))
    ''
    """
    if evidence.field == "reason":
        return str(evidence.seen)
    m = _QUOTED_EVENT.match(evidence.field)
    return (m.group("reason") or m.group("word")) if m else ""


def _says(finding: Finding, summary: Finding, reason: str, by_state: dict[str, tuple[_StateSays, ...]]) -> bool:
    """Whether `finding` says what the summary's event group says: it quotes an event of the
    group's reason on the group's object, or the group's newest event itself (where it is
    recorded: AKS records a pod's refused eviction on its node), or its rule says the group's
    newest message from the object's state."""
    place = summary.evidence[0] if summary.evidence else None
    # (events that name no object, pasted alone, are not known to be one object's)
    same_object = bool(summary.name) and summary.name != NOT_NAMED and (
        (finding.kind, finding.namespace, finding.name) == (summary.kind, summary.namespace, summary.name))
    for e in finding.evidence:
        if quoted_reason(e) != reason:
            continue
        if same_object or (place is not None and e.source and e.source == place.source
                           and e.line is not None and e.line == place.line):
            return True
    message = str(summary.facts.get("last_message") or "")
    return same_object and any(s.reason == reason and s.message.search(message)
                               for s in by_state.get(finding.rule, ()))


def _node_sayers(cluster: AnalyzedDump | None, findings: list[Finding], summaries: list[int],
                 on_pods: _Says) -> dict[int, list[Finding]]:
    """summary index -> the failing findings on the node its pod is bound to (spec.nodeName)
    whose rule says the group's reason and newest message of every pod on that node."""
    reasons = {s.reason for says in on_pods.values() for s in says}
    wanted = [i for i in summaries if findings[i].kind == "Pod" and findings[i].name
              and findings[i].name != NOT_NAMED and str(findings[i].evidence[0].seen) in reasons]
    nodes: dict[str, list[Finding]] = defaultdict(list)
    for f in findings:
        if f.kind == "Node" and f.status == "fail" and f.rule in on_pods:
            nodes[f.name].append(f)
    if cluster is None or not wanted or not nodes:
        return {}
    # (walked only when a node finding and such a pod group are both there)
    node_of = {(p.namespace, p.name): p.view.spec.nodeName for p in cluster.objects_of("Pod") if p.view.spec.nodeName}
    out: dict[int, list[Finding]] = {}
    for i in wanted:
        summary = findings[i]
        reason, message = str(summary.evidence[0].seen), str(summary.facts.get("last_message") or "")
        node = node_of.get((summary.namespace, summary.name))
        sayers = [f for f in nodes.get(node or "", ())
                  if any(s.reason == reason and s.message.search(message) for s in on_pods[f.rule])]
        if sayers:
            out[i] = sayers
    return out


def mark_said(findings: list[Finding], cluster: AnalyzedDump | None = None) -> list[Finding]:
    """The findings, each events-warning-summary finding that another failing finding says
    named by it (`said_by`: the most severe such finding's rule and object). With the dump, a
    pod's group its node's finding says (said_on_its_pods) too."""
    summary_rule, by_state, on_pods = _said_events()
    summaries = [i for i, f in enumerate(findings) if f.rule == summary_rule and f.status == "fail" and f.evidence]
    if not summaries:
        return findings
    objects = {(findings[i].kind, findings[i].namespace, findings[i].name) for i in summaries
               if findings[i].name and findings[i].name != NOT_NAMED}
    places = {(e.source, e.line) for i in summaries for e in findings[i].evidence[:1] if e.source and e.line is not None}
    # the other rules' findings on a summary's object, or quoting an event where one is recorded
    candidates: dict[tuple[str, str, str], list[Finding]] = defaultdict(list)
    by_place: dict[tuple[str, int | None], list[Finding]] = defaultdict(list)
    for f in findings:
        if f.rule == summary_rule or f.status != "fail":
            continue
        if (key := (f.kind, f.namespace, f.name)) in objects:
            candidates[key].append(f)
        for e in f.evidence:
            if (e.source, e.line) in places:
                by_place[(e.source, e.line)].append(f)
    by_node = _node_sayers(cluster, findings, summaries, on_pods)
    out = list(findings)
    for i in summaries:
        summary = findings[i]
        head = summary.evidence[0]
        reason = str(head.seen)
        named = summary.name and summary.name != NOT_NAMED
        pool = [*(candidates.get((summary.kind, summary.namespace, summary.name), ()) if named else ()),
                *by_place.get((head.source, head.line), ())]
        sayers = [f for f in pool if _says(f, summary, reason, by_state)] + by_node.get(i, [])
        if sayers:
            by = min(sayers, key=lambda f: f.sort_key)
            out[i] = replace(summary, said_by=(by.rule, by.kind, by.namespace, by.name))
    return out
