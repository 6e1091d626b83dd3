"""Warning events, summarised by reason and object, with how long before the capture they last fired."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.cluster import Cluster
from analyzer.findings.events import event_ago, event_fact
from analyzer.findings.facts import ev
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="events-warning-summary", title="Warning events", severity="info",
    category="events", requires=("Event",),
    message="{reason} on {object}: {count} time(s), last {age}: {last_message}",
    remediation="Read the events in time order around the incident; reasons with many repeats point at the failing component.",
)


def check(cluster: Cluster) -> Iterator[Finding]:
    groups: dict[tuple[str, str, str, str], list] = {}
    for obj in cluster.objects_of("Event"):
        fact = event_fact(obj)
        if fact.type == "Warning":
            groups.setdefault((fact.reason, fact.kind, fact.namespace, fact.name), []).append(fact)
    for (reason, kind, namespace, name), facts in sorted(groups.items()):
        facts.sort(key=lambda f: f.last_seen.timestamp() if f.last_seen else float("-inf"))
        last = facts[-1]
        yield RULE.fail(None, ev(last.event, "reason", reason, "Normal events only"),
                        kind=kind, namespace=namespace, name=name, reason=reason,
                        count=sum(f.count for f in facts), age=event_ago(cluster, last),
                        last_message=last.message[:300])
