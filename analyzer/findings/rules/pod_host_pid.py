"""Application pods sharing the host's PID/IPC namespace."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.alike import replica_groups, said_for_replicas
from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import ev
from analyzer.findings.suspects import pods_sharing_host
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="pod-host-pid", title="hostPID or hostIPC outside system namespaces", severity="warning",
    category="configuration", requires=("Pod",),
    message="Pod {namespace}/{name} sets {fields} outside the system namespaces",
    remediation="Remove hostPID/hostIPC: they let the pod see and signal every process on the node.",
)
FIELDS = ("hostPID", "hostIPC")


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    for pod, on, others, controller in replica_groups(cluster, pods_sharing_host(cluster, FIELDS)):
        yield said_for_replicas(RULE.fail(pod, *(ev(pod, f"spec.{f}", True, False) for f in on),
                                          fields=", ".join(on)), others, controller)
