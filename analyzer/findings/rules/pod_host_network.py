"""Application pods sharing the host's network namespace."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import ev, is_system_namespace
from analyzer.findings.suspects import pod_suspects
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="pod-host-network", title="hostNetwork outside system namespaces", severity="warning",
    category="configuration", requires=("Pod",),
    message="Pod {namespace}/{name} sets {fields} outside the system namespaces",
    remediation="Remove hostNetwork: the pod sees and can bind every host interface; expose it with a Service instead.",
)
FIELDS = ("hostNetwork",)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    for pod in pod_suspects(cluster).of("host"):
        if is_system_namespace(pod.namespace):
            continue
        on = [f for f in FIELDS if getattr(pod.view.spec, f)]
        if on:
            yield RULE.fail(pod, *(ev(pod, f"spec.{f}", True, False) for f in on), fields=", ".join(on))
