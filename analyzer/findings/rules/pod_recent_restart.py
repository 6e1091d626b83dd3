"""Containers that restarted in the last hour the dump shows: the hour before its capture, or,
where the capture is dated only by the dump's own status times (a lower bound), the hour before
its newest time, which may be hours before the capture."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import (
    age_at_capture,
    age_text,
    capture_is_lower_bound,
    container_label,
    container_path,
    ev,
    newest_time_words,
    pod_containers,
    when_text,
)
from analyzer.findings.suspects import pod_suspects
from analyzer.findings.types import Finding, RuleMeta
from analyzer.kube.time import parse_time

RULE = RuleMeta(
    id="pod-recent-restart", title="Container restarted in the last hour the dump shows",
    severity="info", category="workloads", requires=("Pod",),
    message="Pod {namespace}/{name}: container {container} last terminated {when} ({reason}, exit code {exit_code})",
    remediation="A recent restart is often the incident itself: read the previous log and the events around that time.",
)
WINDOW = timedelta(hours=1)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    if cluster.capture_time is None:
        yield RULE.not_applicable("the dump's capture time is unknown")
        return
    lower_bound = capture_is_lower_bound(cluster)
    for pod in pod_suspects(cluster).of("exited"):
        for ctype, _spec, status in pod_containers(pod):
            last = status.lastState.terminated if status and status.lastState else None
            if not last:
                continue  # never terminated before (most containers)
            finished = parse_time(last.finishedAt if last else None)
            age = age_at_capture(cluster, finished)
            if last and age is not None and timedelta(0) <= age <= WINDOW:
                if lower_bound and age > timedelta(0):
                    # the newest time may be the restart's own recovery: how recent at the
                    # capture the dump does not say (kubernetes/kubernetes#122256)
                    anchor = newest_time_words(cluster, cluster.capture_time)
                    when = f"{age_text(age)} before {anchor}, at least {age_text(age)} before capture"
                else:
                    when, anchor = when_text(cluster, finished, pod), "capture"
                yield RULE.fail(pod, ev(pod, f"{container_path(ctype, status.name, True)}.lastState.terminated.finishedAt",
                                        last.finishedAt, f"more than {age_text(WINDOW)} before {anchor}"),
                                container=container_label(status.name), age=age_text(age), when=when,
                                reason=last.reason or "?",
                                exit_code=last.exitCode if last.exitCode is not None else "?")
