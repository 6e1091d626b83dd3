"""Application containers told to run as root (runAsUser: 0)."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import container_path, ev, is_system_namespace, pod_containers
from analyzer.findings.suspects import pod_suspects
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="container-runs-as-root", title="Container runs as root (runAsUser 0)", severity="warning",
    category="configuration", requires=("Pod",),
    message="Pod {namespace}/{name}: container {container} runs as user 0 (set in {where})",
    remediation="Run as a non-root user (runAsUser > 0, runAsNonRoot: true) and build the image to work without root.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    # Only an explicit runAsUser: 0 is certain; an unset user depends on the image, which a dump
    # does not show, so it is not reported.
    for pod in pod_suspects(cluster).of("root"):
        if is_system_namespace(pod.namespace):
            continue
        pod_sc = pod.view.spec.securityContext
        for ctype, spec, _status in pod_containers(pod):
            if spec is None:
                continue
            sc = spec.securityContext
            if sc and sc.runAsUser is not None:
                user, field = sc.runAsUser, f"{container_path(ctype, spec.name)}.securityContext.runAsUser"
            elif pod_sc and pod_sc.runAsUser is not None:
                user, field = pod_sc.runAsUser, "spec.securityContext.runAsUser"
            else:
                continue
            if user == 0:
                yield RULE.fail(pod, ev(pod, field, 0, "a non-zero user"), container=spec.name, where=field)
