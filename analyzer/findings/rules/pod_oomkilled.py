"""Containers killed for exceeding their memory limit (OOMKilled)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import (
    age_at_capture,
    container_label,
    container_path,
    ev,
    lasted_text,
    pod_containers,
    row_sole_container,
    text_status,
    when_text,
)
from analyzer.findings.restarts import OLD, table_last_restart_text, table_restart_bound_text
from analyzer.findings.suspects import pod_suspects
from analyzer.findings.types import Finding, RuleMeta
from analyzer.kube.time import parse_time

RULE = RuleMeta(
    id="pod-oomkilled", title="Container OOMKilled", severity="warning",
    category="workloads", requires=("Pod",),
    message="Pod {namespace}/{name}: container(s) {containers} were OOMKilled (memory limit {limits}), the last {last}",
    remediation="Raise the container's memory limit or reduce its memory use; check for leaks in the previous log.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    for pod in pod_suspects(cluster).of("exited", "text"):
        evidence, names, limits = [], [], []
        killed: list[datetime | None] = []  # when each OOM kill ended
        ready_since = True  # every killed container runs and is ready again (the kill in its lastState)
        for ctype, spec, status in pod_containers(pod):
            if status is None:
                continue
            for which, state in (("state", status.state), ("lastState", status.lastState)):
                term = state.terminated if state else None
                if term and term.reason == "OOMKilled":
                    evidence.append(ev(pod, f"{container_path(ctype, status.name, True)}.{which}.terminated.reason",
                                       "OOMKilled", "no OOM kill"))
                    names.append(container_label(status.name))
                    res = spec.resources if spec else None
                    # (a status without its spec: a pasted row or quote, which shows no limit)
                    limits.append(str((res.limits or {}).get("memory", "none")) if res
                                  else "none" if spec else "not in the dump")
                    killed.append(parse_time(term.finishedAt))
                    running = status.state.running if status.state else None
                    ready_since &= which == "lastState" and running is not None and bool(status.ready)
                    break
        if not evidence and text_status(pod) == "OOMKilled":
            evidence.append(ev(pod, "STATUS column", "OOMKilled", "Running"))
            names, limits = [row_sole_container(pod) or "not named in the table"], ["not in the table"]
            finding = RULE.fail(pod, *evidence, containers=names[0], limits=limits[0],
                                last=table_last_restart_text(pod) or table_restart_bound_text(pod)
                                or "at a time the pasted table does not give")
            yield finding
        elif evidence:
            last = max((t for t in killed if t is not None), default=None)
            finding = RULE.fail(pod, *evidence, containers=", ".join(names), limits=", ".join(limits),
                                last=when_text(cluster, last, pod) if last is not None
                                else "at a time the dump does not give")
            age = age_at_capture(cluster, last, pod) if last is not None else None
            # an OOM kill hours ago, the container running and ready since: history (as restarts are)
            if ready_since and age is not None and age > OLD:
                yield finding.as_info(resolved=f"last OOM kill {lasted_text(cluster, age)} before capture; running and ready since")
            else:
                yield finding
