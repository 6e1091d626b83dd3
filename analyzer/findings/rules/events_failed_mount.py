"""Volumes that failed to attach or mount (from events), with how long before the capture they last fired."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.cluster import Cluster
from analyzer.findings.events import event_ago, event_fact
from analyzer.findings.facts import ev
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="events-failed-mount", title="Volumes that failed to attach or mount", severity="warning",
    category="events", requires=("Event",),
    message="{object}: {reason} {count} time(s), last {age}: {last_message}",
    remediation="Check the referenced ConfigMap/Secret/PVC exists, the CSI driver pods run on the node, and the volume is not attached to another node.",
)
REASONS = frozenset({"FailedMount", "FailedAttachVolume", "FailedMapVolume"})


def check(cluster: Cluster) -> Iterator[Finding]:
    latest: dict[tuple[str, str, str], list] = {}
    for obj in cluster.objects_of("Event"):
        fact = event_fact(obj)
        if fact.reason in REASONS:
            latest.setdefault((fact.kind, fact.namespace, fact.name), []).append(fact)
    for (kind, namespace, name), facts in sorted(latest.items()):
        facts.sort(key=lambda f: f.last_seen.timestamp() if f.last_seen else float("-inf"))
        last = facts[-1]
        yield RULE.fail(None, ev(last.event, "reason", last.reason, "no such event"),
                        kind=kind, namespace=namespace, name=name, reason=last.reason,
                        count=sum(f.count for f in facts),
                        age=event_ago(cluster, last), last_message=last.message[:300])
