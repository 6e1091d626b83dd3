"""Events read the same way whichever API shape they came in (core/v1 or events.k8s.io/v1)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from analyzer.findings.facts import age_text, ago, ev, parse_time
from analyzer.ingest.records import CLUSTER_SCOPED_KINDS

if TYPE_CHECKING:
    from analyzer.cluster import Cluster
    from analyzer.findings.types import Finding, RuleMeta
    from analyzer.ingest.records import KubeObject


@dataclass(frozen=True, slots=True)
class EventFact:
    """One event: what it is about, why, how often, and when it was last seen."""

    event: KubeObject
    type: str
    reason: str
    message: str
    kind: str
    namespace: str
    name: str
    count: int
    last_seen: datetime | None
    # A pasted `kubectl describe` gives ages ("2m (x49 over 12m)"), not timestamps.
    last_seen_ago: timedelta | None = None


def event_fact(obj: KubeObject) -> EventFact:
    """The facts of an Event object, from either API shape."""
    v = obj.view
    about = v.involvedObject or v.regarding
    series = v.series
    when = (v.lastTimestamp or (series.lastObservedTime if series else None) or v.eventTime
            or v.deprecatedLastTimestamp or v.firstTimestamp or v.metadata.creationTimestamp)
    count = v.count or (series.count if series else None) or v.deprecatedCount or 1
    kind = (about.kind if about else None) or ""
    # Events about cluster-scoped objects (Nodes) live in some namespace; the object has none.
    namespace = "" if kind in CLUSTER_SCOPED_KINDS else (
        (about.namespace if about else None) or (obj.namespace or ""))
    return EventFact(
        event=obj, type=v.type or "", reason=v.reason or "",
        message=" ".join((v.message or v.note or "").split()),  # one line, even for probe output
        kind=kind, name=(about.name if about else None) or "", namespace=namespace,
        count=int(count), last_seen=parse_time(when),
        last_seen_ago=timedelta(seconds=v.text.last_seen_ago_seconds)
        if v.text is not None and v.text.last_seen_ago_seconds is not None else None,
    )


def event_ago(cluster: Cluster, fact: EventFact) -> str:
    """How long before the capture the event last fired, from its timestamp or its pasted age."""
    if fact.last_seen is None and fact.last_seen_ago is not None:
        return f"{age_text(fact.last_seen_ago)} before capture"
    return ago(cluster, fact.last_seen, fact.event)


def events_by_object(cluster: Cluster) -> dict[tuple[str, str, str], list[EventFact]]:
    """(kind, namespace, name) -> its events, newest last."""
    index: dict[tuple[str, str, str], list[EventFact]] = defaultdict(list)
    for obj in cluster.objects_of("Event"):
        fact = event_fact(obj)
        index[(fact.kind, fact.namespace, fact.name)].append(fact)
    for facts in index.values():
        facts.sort(key=lambda f: f.last_seen.timestamp() if f.last_seen else float("-inf"))
    return index


def findings_for_reasons(cluster: Cluster, rule: RuleMeta, reasons: frozenset[str]) -> Iterator[Finding]:
    """One finding per object whose events carry one of `reasons`: the newest such event, the
    total count, and how long before the capture it last fired."""
    latest: dict[tuple[str, str, str], list[EventFact]] = {}
    for obj in cluster.objects_of("Event"):
        fact = event_fact(obj)
        if fact.reason in reasons:
            latest.setdefault((fact.kind, fact.namespace, fact.name), []).append(fact)
    for (kind, namespace, name), facts in sorted(latest.items()):
        facts.sort(key=lambda f: f.last_seen.timestamp() if f.last_seen else float("-inf"))
        last = facts[-1]
        yield rule.fail(None, ev(last.event, "reason", last.reason, "no such event"),
                        kind=kind, namespace=namespace, name=name, reason=last.reason,
                        count=sum(f.count for f in facts),
                        age=event_ago(cluster, last), last_message=last.message[:300])
