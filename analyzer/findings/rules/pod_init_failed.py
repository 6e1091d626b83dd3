"""Init containers that failed, so the pod's main containers never start."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import container_path, ev, pod_containers, text_status
from analyzer.findings.suspects import pod_suspects
from analyzer.findings.types import Finding, RuleMeta
from analyzer.ingest.records import KubeObject

RULE = RuleMeta(
    id="pod-init-failed", title="Init container failed", severity="critical",
    category="workloads", requires=("Pod",),
    message="Pod {namespace}/{name}: init container {container} failed ({reason}, exit code {exit_code})",
    remediation="Read the init container's log (kubectl logs -c <init>); it usually waits on a dependency or a migration that failed.",
)
WAITING = frozenset({"CrashLoopBackOff", "ImagePullBackOff", "ErrImagePull", "CreateContainerConfigError",
                     "CreateContainerError", "RunContainerError", "InvalidImageName"})


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    for pod in pod_suspects(cluster).of("exited", "waiting", "text"):
        if pod.view.status.phase == "Succeeded":
            continue
        reported = False
        for ctype, _spec, status in pod_containers(pod, "init"):
            state = status.state if status else None
            if state is None:
                continue
            term, wait = state.terminated, state.waiting
            if term and (term.exitCode or 0) != 0:
                yield RULE.fail(pod, ev(pod, f"{container_path(ctype, status.name, True)}.state.terminated.exitCode",
                                        term.exitCode, 0),
                                container=status.name, reason=term.reason or "Error", exit_code=term.exitCode)
                reported = True
            elif wait and wait.reason in WAITING:
                last = status.lastState.terminated if status.lastState else None
                yield RULE.fail(pod, ev(pod, f"{container_path(ctype, status.name, True)}.state.waiting.reason",
                                        wait.reason, "terminated with exit code 0"),
                                container=status.name, reason=wait.reason,
                                exit_code=last.exitCode if last and last.exitCode is not None else "not recorded")
                reported = True
        status_col = text_status(pod) or ""
        if not reported and not pod.view.status.initContainerStatuses and status_col.startswith("Init:") \
                and status_col.split(":", 1)[1] in WAITING | {"Error"}:
            yield RULE.fail(pod, ev(pod, "STATUS column", status_col, "Running"),
                            container=_named_by_its_log(cluster, pod), reason=status_col, exit_code="not in the table")


def _named_by_its_log(cluster: AnalyzedDump, pod: KubeObject) -> str:
    """The failing init container a pasted row does not name, as the session's `kubectl logs
    POD -c C` of a container the pod does not run as a main one names it."""
    from analyzer.model.logsignatures import pasted_init_logs

    inits = pasted_init_logs(cluster)
    named = sorted({log.container for log in cluster.logs if inits.get(id(log)) is pod})
    if len(named) == 1:
        return f"{named[0]} (named by the session's `kubectl logs -c {named[0]}`, not by the table)"
    return "not named in the table"
