"""Application pods sharing the host's network namespace."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.alike import replica_groups, said_for_replicas
from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import ev
from analyzer.findings.suspects import pods_sharing_host
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="pod-host-network", title="hostNetwork outside system namespaces", severity="warning",
    category="configuration", requires=("Pod",),
    message="Pod {namespace}/{name} sets {fields} outside the system namespaces",
    remediation="Remove hostNetwork: the pod sees and can bind every host interface; expose it with a Service instead.",
)
FIELDS = ("hostNetwork",)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    for pod, on, others, controller in replica_groups(cluster, pods_sharing_host(cluster, FIELDS)):
        yield said_for_replicas(RULE.fail(pod, *(ev(pod, f"spec.{f}", True, False) for f in on),
                                          fields=", ".join(on)), others, controller)
