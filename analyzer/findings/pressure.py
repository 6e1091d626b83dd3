"""A node under disk, memory or PID pressure: its condition says so, or, when the dump does not
show the condition, the taint the node lifecycle controller keeps while it is True."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import age_at_capture, age_text, ev
from analyzer.findings.types import Finding, RuleMeta
from analyzer.findings.versions import DATA
from analyzer.kube.time import parse_time
from analyzer.safeyaml import load_yaml


@cache
def condition_taints() -> dict[str, str]:
    """Condition type -> the taint key the controller sets while it is True (data file)."""
    return {str(k): str(v) for k, v in load_yaml(
        (DATA / "node_condition_taints.yaml").read_text(encoding="utf-8")).items()}


def pressure_findings(cluster: AnalyzedDump, rule: RuleMeta, ctype: str) -> Iterator[Finding]:
    """A finding per node whose `ctype` condition is True, or that shows no such condition but
    carries its taint."""
    key = condition_taints()[ctype]
    for node in cluster.objects_of("Node"):
        cond = next((c for c in node.view.status.conditions or () if c.type == ctype), None)
        if cond is not None:
            if cond.status == "True":
                since = age_at_capture(cluster, parse_time(cond.lastTransitionTime), node)
                yield rule.fail(node, ev(node, f"status.conditions[type={ctype}].status", "True", "False"),
                                since=f"{age_text(since)} before capture" if since else "an unknown time",
                                detail=": ".join(x for x in (cond.reason, cond.message) if x) or "no message")
            continue
        taint = next((t for t in node.view.spec.taints or () if t.key == key), None)
        if taint is None:
            continue
        since = age_at_capture(cluster, parse_time(taint.timeAdded), node) if taint.timeAdded else None
        shown = f"{key}:{taint.effect}" if taint.effect else key
        yield rule.fail(node, ev(node, f"spec.taints[key={key}]", shown, "no pressure taint"),
                        since=f"{age_text(since)} before capture" if since else "an unknown time",
                        detail=f"tainted {shown}, which the node controller keeps while {ctype} is True "
                               f"(the dump does not show the condition itself)")
