"""Containers the kubelet could not create or start (bad config reference, bad command)."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import pod_containers, row_sole_container, waiting_containers
from analyzer.findings.suspects import pod_suspects
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="pod-container-create-error", title="Container cannot be created or started", severity="critical",
    category="workloads", requires=("Pod",),
    message="Pod {namespace}/{name}: container(s) {containers} cannot start ({reasons}): {detail}",
    remediation="Read the waiting message: a missing ConfigMap/Secret key (CreateContainerConfigError), a wrong command or entrypoint (RunContainerError), or a runtime problem on the node.",
)
# (a failing postStart or preStart hook: the kubelet kills the container it started, kubelet's
# ErrPostStartHook and ErrPreStartHook)
REASONS = frozenset({"CreateContainerConfigError", "CreateContainerError", "RunContainerError",
                     "ContainerCannotRun", "PostStartHookError", "PreStartHookError"})


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    for pod in pod_suspects(cluster).of("waiting", "text"):
        evidence = waiting_containers(pod, REASONS, "container")
        if not evidence:
            continue
        failing = [e.field.split("[name=")[1].split("]")[0] for e in evidence if "[name=" in e.field]
        messages = [s.state.waiting.message for _t, _c, s in pod_containers(pod, "container")
                    if s and s.name in failing and s.state and s.state.waiting and s.state.waiting.message]
        yield RULE.fail(pod, *evidence, containers=", ".join(failing) or row_sole_container(pod) or "not named in the table",
                        reasons=", ".join(sorted({str(e.seen) for e in evidence})),
                        detail=" ".join(messages[0].split())[:300] if messages else "no message")
