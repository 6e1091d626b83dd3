"""Containers killed for exceeding their memory limit (OOMKilled)."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import (
    container_label,
    container_path,
    ev,
    pod_containers,
    row_sole_container,
    text_status,
)
from analyzer.findings.suspects import pod_suspects
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="pod-oomkilled", title="Container OOMKilled", severity="warning",
    category="workloads", requires=("Pod",),
    message="Pod {namespace}/{name}: container(s) {containers} were OOMKilled (memory limit {limits})",
    remediation="Raise the container's memory limit or reduce its memory use; check for leaks in the previous log.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    for pod in pod_suspects(cluster).of("exited", "text"):
        evidence, names, limits = [], [], []
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
                    break
        if not evidence and text_status(pod) == "OOMKilled":
            evidence.append(ev(pod, "STATUS column", "OOMKilled", "Running"))
            names, limits = [row_sole_container(pod) or "not named in the table"], ["not in the table"]
        if evidence:
            yield RULE.fail(pod, *evidence, containers=", ".join(names), limits=", ".join(limits))
