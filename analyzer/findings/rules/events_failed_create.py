"""Controllers or kubelets failing to create pods (from events), with how long before the capture they last fired."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.cluster import Cluster
from analyzer.findings.events import event_ago, event_fact
from analyzer.findings.facts import ev
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="events-failed-create", title="Controllers or kubelets failing to create pods", severity="warning",
    category="events", requires=("Event",),
    message="{object}: {reason} {count} time(s), last {age}: {last_message}",
    remediation="Read the message: quota exceeded, an admission webhook denying, a missing ServiceAccount, or (sandbox) a broken CNI on the node.",
)
REASONS = frozenset({"FailedCreate", "FailedCreatePodSandBox"})


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
