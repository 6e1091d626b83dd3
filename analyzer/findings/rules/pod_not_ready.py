"""Running pods whose containers are not ready (and no crash or pull error explains it), and pods
whose phase is Unknown (their node has stopped reporting them) with containers not ready."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import (
    age_at_capture,
    age_text,
    capture_is_lower_bound,
    container_path,
    ev,
    pod_containers,
    row_sole_container,
    states_no_container,
)
from analyzer.findings.rules.pod_crashloop import EXIT_STATUSES
from analyzer.findings.suspects import pod_suspects
from analyzer.findings.types import Finding, RuleMeta
from analyzer.kube.time import parse_time

RULE = RuleMeta(
    id="pod-not-ready", title="Running (or Unknown) pod not ready", severity="warning",
    category="workloads", requires=("Pod",),
    message="Pod {namespace}/{name} is {state} {not_ready} of {total} containers are not ready ({containers})",
    remediation="Check the readiness probe and the container log; a pod that is not ready receives no Service traffic.",
)
# Containers waiting for these reasons are already reported by pod-crashloop / pod-image-pull.
EXPLAINED = frozenset({"CrashLoopBackOff", "ImagePullBackOff", "ErrImagePull", "InvalidImageName"})
# Containers that started this shortly before the capture may still be warming up.
STARTING = timedelta(minutes=5)
# What the pod is, by its phase (a table row's STATUS): kubectl prints `Unknown` for a pod in
# phase Unknown and for one deleted while its node is unreachable (reason NodeLost); either way
# its node no longer reports it, and what it shows of its containers is the last it heard.
STATES = {"Running": "Running but", "Unknown": "Unknown (its node has stopped reporting it), and"}


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    for pod in pod_suspects(cluster).of("not_ready", "text"):
        if pod.view.metadata.deletionTimestamp:
            continue
        if pod.view.text is not None and states_no_container(pod):
            yield from _table_row(pod)
            continue
        if pod.view.status.phase not in STATES:
            continue
        statuses = [(t, s) for t, _c, s in pod_containers(pod, "container") if s is not None]
        not_ready = [(t, s) for t, s in statuses if s.ready is False]
        explained = any(s.state and s.state.waiting and s.state.waiting.reason in EXPLAINED
                        for _t, s in statuses)
        if not_ready and not explained:
            finding = RULE.fail(pod, *(ev(pod, f"{container_path(t, s.name, True)}.ready", False, True)
                                       for t, s in not_ready),
                                state=STATES[pod.view.status.phase],
                                not_ready=len(not_ready), total=len(statuses),
                                containers=", ".join(s.name for _t, s in not_ready))
            starting = _starting(cluster, pod, [s for _t, s in not_ready])
            yield finding.as_info(resolved=starting) if starting else finding


def _starting(cluster: AnalyzedDump, pod, statuses: list) -> str:
    """ "started 40s before capture: still starting" when every not-ready container started
    that recently, or "exited 0 0s before capture: between runs" when they ended that recently
    with success (a one-shot container caught as it finished, as troubleshoot's run-pod
    collector was in its own bundle); '' otherwise, and under a capture that is a lower bound
    (a container's start may be the newest time the dump holds: "0s before" by construction)."""
    if capture_is_lower_bound(cluster):
        return ""
    ages, ended = [], False
    for s in statuses:
        running = s.state.running if s.state else None
        done = s.state.terminated if s.state else None
        if running is None and done is not None and done.exitCode == 0:
            when, ended = done.finishedAt, True
        else:
            when = running.startedAt if running else None
        age = age_at_capture(cluster, parse_time(when), pod)
        if age is None or not timedelta(0) <= age < STARTING:
            return ""
        ages.append(age)
    if not ages:
        return ""
    if ended:
        return f"exited 0 {age_text(max(ages))} before capture: between runs"
    return f"started {age_text(max(ages))} before capture: still starting"


_READY = re.compile(r"(\d+)/(\d+)")


def _table_row(pod) -> Iterator[Finding]:
    """A pasted row `0/1  Running`: its READY column speaks for the containers the row does not
    name. A row that is minutes old, or whose last restart is, may still be starting."""
    facts = pod.view.text
    ready = _READY.fullmatch(facts.ready or "")
    if ready is None or int(ready.group(1)) >= int(ready.group(2)):
        return
    # `1/2  Error  0`: a container exited with an error and is not restarted (restartPolicy
    # Never) while another still runs, so the pod is Running; after restarts it is
    # pod-crashloop's loop between back-offs, and with none ready the pod may have ended.
    exited = facts.status in EXIT_STATUSES and not facts.restarts and int(ready.group(1)) > 0
    # (`NotReady`: kubectl's word for a Running pod whose container completed while another runs)
    if facts.status not in STATES and facts.status != "NotReady" and not exited:
        return
    containers = row_sole_container(pod) or "not named in the table"
    if exited:
        containers += (f"; the STATUS column says {facts.status}: one exited with an error "
                       "and, with 0 restarts, is not restarted")
    elif facts.status == "NotReady":
        # kubectl's word for a pod with a container that completed while another runs, not Ready
        containers += "; the STATUS column says NotReady: a container completed while another runs"
    finding = RULE.fail(pod, ev(pod, "READY column", facts.ready, f"{ready.group(2)}/{ready.group(2)}"),
                        state=STATES.get(facts.status, STATES["Running"]), not_ready=int(ready.group(2)) - int(ready.group(1)), total=int(ready.group(2)),
                        containers=containers)
    recent = [(seconds, what) for seconds, what in ((facts.age_seconds, "created"),
                                                   (facts.last_restart_ago_seconds, "restarted"))
              if seconds is not None and seconds < STARTING.total_seconds()]
    if recent and facts.status != "Unknown":
        seconds, what = min(recent)
        yield finding.as_info(resolved=f"{what} {age_text(timedelta(seconds=seconds))} before the table "
                                       "was printed: still starting")
    else:
        yield finding
