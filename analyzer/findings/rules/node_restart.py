"""A node or its container runtime restarted: many pods' containers ended at one moment."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import age_at_capture, container_path, ev, lasted_text
from analyzer.findings.restarts import restart_moments
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="node-restart", title="Node or container runtime restarted", severity="warning",
    category="nodes", requires=("Pod",),
    message="Node {name} (or its container runtime) restarted at {time}, {age}: {containers} containers of {pods} pods ended within a minute ({sample})",
    remediation="Read the node's kernel and kubelet logs around that time (journalctl -u kubelet, -u containerd or docker; last reboot): a reboot, an OOM of the runtime or a laptop's sleep restarts every container at once.",
)
# An older restart is history: reported as info.
RECENT = timedelta(hours=1)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    for moment in restart_moments(cluster):
        first = moment.members[0]
        age = age_at_capture(cluster, moment.start, first.pod)
        evidence = [ev(m.pod, f"{container_path(m.ctype, m.status.name, True)}.lastState.terminated.finishedAt",
                       m.status.lastState.terminated.finishedAt) for m in moment.members[:5]]
        pods = moment.pods
        finding = RULE.fail(None, *evidence, kind="Node", namespace="", name=moment.node,
                            time=moment.start.isoformat().replace("+00:00", "Z"),
                            age=f"{lasted_text(cluster, age)} before capture" if age is not None else "at an unknown age",
                            containers=len(moment.members), pods=len(pods),
                            sample=", ".join(pods[:4]) + (f" and {len(pods) - 4} more" if len(pods) > 4 else ""))
        if age is None or age > RECENT:
            yield finding.as_info(resolved=f"{lasted_text(cluster, age) if age is not None else 'at an unknown time'} before capture; the node runs since")
        else:
            yield finding
