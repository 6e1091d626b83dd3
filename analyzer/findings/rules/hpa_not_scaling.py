"""HorizontalPodAutoscalers that cannot scale their target: no metrics (the metrics API missing,
pods without requests), or the target's scale unreadable. Their workload then stays at whatever
size it has, whatever the load."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from functools import cache
from typing import Any

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import age_text, ago, ev, known_age, newest_time_text
from analyzer.findings.types import Finding, RuleMeta
from analyzer.findings.versions import DATA
from analyzer.kube.autoscaling import hpa_conditions
from analyzer.kube.time import parse_time
from analyzer.model.normalize import as_dict
from analyzer.safeyaml import load_yaml

RULE = RuleMeta(
    id="hpa-not-scaling", title="HorizontalPodAutoscaler cannot scale", severity="warning",
    category="workloads", requires=("HorizontalPodAutoscaler",),
    message="HorizontalPodAutoscaler {namespace}/{name} (target {target}) cannot scale: {why}",
    remediation="For missing metrics check the metrics API (`kubectl get apiservice v1beta1.metrics.k8s.io`, "
                "metrics-server's pods) and that every container of the target requests the resource its "
                "utilization target is a percentage of; for a scale error, that the target exists.",
)


@cache
def _data() -> dict[str, Any]:
    return load_yaml((DATA / "hpa_conditions.yaml").read_text(encoding="utf-8"))


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    data = _data()
    fine: dict[str, list[str]] = data["fine_when_false"]
    for hpa in cluster.objects_of("HorizontalPodAutoscaler"):
        body = hpa.body()
        ref = as_dict(as_dict(body.get("spec")).get("scaleTargetRef"))
        target = f"{ref.get('kind')}/{ref.get('name')}" if ref.get("name") else "not named in the dump"
        # an autoscaling/v1 HPA keeps its conditions in an annotation (kubectl before 1.23 read HPAs at v1)
        conditions, path = hpa_conditions(body)
        failing = [(i, c) for i, c in enumerate(conditions)
                   if isinstance(c, dict) and isinstance(c.get("type"), str) and c["type"] in fine and str(c.get("status")) == "False"
                   and c.get("reason") not in fine[c["type"]]]
        if failing:
            i, cond = failing[0]
            since = parse_time(cond.get("lastTransitionTime"))
            why = f"{cond['type']}=False, {cond.get('reason') or 'no reason'}: {cond.get('message') or 'no message'}"
            if since is not None:
                # the condition may be the newest time the dump holds: not '0s before capture'
                why += f" (since {newest_time_text(cluster, since, hpa) or ago(cluster, since, hpa)})"
            yield _unless_young(cluster, hpa, data, RULE.fail(
                hpa, ev(hpa, f"{path}[{i}]", f"{cond['type']}=False", f"{cond['type']}=True"),
                target=target, why=why[:600]))
            continue
        if conditions:
            continue  # its conditions are read, and say it scales
        targets = ((hpa.view.text.columns or {}) if hpa.view.text else {}).get("TARGETS")
        if not (isinstance(targets, str) and data["unknown_target"] in targets):
            continue
        yield _unless_young(cluster, hpa, data, RULE.fail(
            hpa, ev(hpa, "TARGETS column", targets, "a current value for each metric"),
            target=target, why=f"no current value for its metric(s) (TARGETS {targets})"))


def _unless_young(cluster: AnalyzedDump, hpa: Any, data: dict[str, Any], finding: Finding) -> Finding:
    """Info when the HPA is too young to have had its first metrics."""
    age = _age(cluster, hpa)
    if age is not None and age.total_seconds() < data["first_read_seconds"]:
        return finding.as_info(resolved=f"created {age_text(age)} before capture: its first metrics may "
                                        "not be read yet")
    return finding


def _age(cluster: AnalyzedDump, hpa: Any) -> timedelta | None:
    """Its age at the capture; None when only creation times date the capture (its own, it may
    be: then the age is 0 by construction, a lower bound, not an age)."""
    return known_age(cluster, hpa)
