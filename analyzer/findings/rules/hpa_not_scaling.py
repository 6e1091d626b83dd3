"""HorizontalPodAutoscalers that cannot scale their target: no metrics (the metrics API missing,
pods without requests), or the target's scale unreadable. Their workload then stays at whatever
size it has, whatever the load. Read from the HPA's conditions or metrics, else from its
controller's warning events (a describe's Events pasted alone)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from functools import cache
from typing import Any

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.events import (
    NOT_NAMED,
    RECENT,
    EventFact,
    before_capture,
    clipped,
    event_ago,
    events_by_object,
    first_seen_ago,
    fold_events,
    not_repeating,
)
from analyzer.findings.facts import age_text, ago, ev, known_age, newest_time_text, objects_named
from analyzer.findings.types import Finding, RuleMeta
from analyzer.findings.versions import DATA
from analyzer.kube.autoscaling import hpa_conditions
from analyzer.kube.time import parse_time
from analyzer.model.normalize import as_dict, as_list
from analyzer.printing.columns import hpa_targets
from analyzer.safeyaml import load_yaml

RULE = RuleMeta(
    id="hpa-not-scaling", title="HorizontalPodAutoscaler cannot scale", severity="warning",
    category="workloads",
    message="HorizontalPodAutoscaler {namespace}/{name} (target {target}) cannot scale: {why}",
    remediation="For missing metrics check the metrics API (`kubectl get apiservice v1beta1.metrics.k8s.io`, "
                "metrics-server's pods) and that every container of the target requests the resource its "
                "utilization target is a percentage of; for a scale error, that the target exists.",
)


@cache
def _data() -> dict[str, Any]:
    return load_yaml((DATA / "hpa_conditions.yaml").read_text(encoding="utf-8"))


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    if not cluster.covers("HorizontalPodAutoscaler") and not cluster.covers("Event"):
        yield RULE.not_applicable("the dump did not collect HorizontalPodAutoscaler or Event",
                                  missing="HorizontalPodAutoscaler")
        return
    judged: set[tuple[str, str]] = set()
    for finding in _judged_by_object(cluster):
        judged.add((finding.namespace, finding.name))
        yield finding
    if cluster.covers("Event"):
        yield from _said_by_events(cluster, judged)


def _judged_by_object(cluster: AnalyzedDump) -> Iterator[Finding]:
    """Each HPA the dump holds, judged by its conditions, else by its metrics' current values."""
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
            message = str(cond.get("message"))
            if "missing request" in message:
                why += _unrequested(cluster, hpa, body, ref)
            elif meaning := next((said for words, said in data["failure_meanings"].items() if words in message), ""):
                why += f"; {meaning}"
            yield _unless_young(cluster, hpa, data, RULE.fail(
                hpa, ev(hpa, f"{path}[{i}]", f"{cond['type']}=False", f"{cond['type']}=True"),
                target=target, why=why[:900], **cause_facts(message)))
            continue
        if conditions:
            # its conditions are read, and say it scales: up to its maxReplicas, where it may be held
            if (capped := _capped(cluster, hpa, body, conditions, path, target, data)) is not None:
                yield capped
            continue
        unknown = _unknown_targets(hpa, body, data["unknown_target"])
        if unknown is None:
            continue
        targets, field = unknown
        said_as = "its describe's Metrics:" if field.startswith("Metrics") else "TARGETS"
        yield _unless_young(cluster, hpa, data, RULE.fail(
            hpa, ev(hpa, field, targets, "a current value for each metric"),
            target=target, why=f"no current value for its metric(s) ({said_as} {targets})"
                               f"{_unrequested(cluster, hpa, body, ref)}"))


def _said_by_events(cluster: AnalyzedDump, judged: set[tuple[str, str]]) -> Iterator[Finding]:
    """An HPA the dump holds no verdict on whose controller's warnings say it could not read a
    metric or its target's scale (FailedGetResourceMetric, FailedComputeMetricsReplicas,
    FailedGetScale, ...): the newest said, an info once it has not repeated in the hour events live."""
    data = _data()
    objects = objects_named(cluster, "HorizontalPodAutoscaler")
    for (kind, namespace, name), facts in sorted(events_by_object(cluster).items()):
        if kind != "HorizontalPodAutoscaler" or (namespace, name) in judged:
            continue
        hpa = objects.get((namespace, name))
        if hpa is not None and hpa_conditions(hpa.body())[0]:
            continue  # its conditions are read, and say it scales (a failure was said above)
        failed = [f for f in facts if f.type == "Warning" and f.reason in data["event_failures"]]
        if not failed:
            continue
        last = failed[-1]
        why = f"{_warnings_said(cluster, failed)}: {clipped(last.message, 300)}"
        if meaning := next((said for words, said in data["failure_meanings"].items() if words in last.message), ""):
            why += f"; {meaning}"
        ref = as_dict(as_dict(hpa.body().get("spec")).get("scaleTargetRef")) if hpa is not None else {}
        evidence = ev(last.event, f"Event.reason ({last.reason})", last.message, "no controller warning")
        finding = RULE.fail(None, evidence, kind="HorizontalPodAutoscaler", namespace=namespace,
                            name=name or NOT_NAMED, why=why,
                            target=f"{ref.get('kind')}/{ref.get('name')}" if ref.get("name") else "not named in the dump",
                            **cause_facts(last.message))
        age = before_capture(cluster, last)
        yield finding.as_info(resolved=not_repeating(cluster, age)) if age is not None and age > RECENT else finding


def _warnings_said(cluster: AnalyzedDump, failed: list[EventFact]) -> str:
    """Each reason its controller's warnings gave, with how often, since when and how recently,
    the newest last: "its controller's FailedGetResourceMetric warnings, 34210 time(s) over 11d,
    the last 60s before capture", or for several reasons "its controller's warnings:
    FailedComputeMetricsReplicas 201 time(s) over 1h, the last 5m before capture;
    FailedGetResourceMetric 211 time(s) over 1h, the last 45s before capture"."""
    order = {id(f): i for i, f in enumerate(failed)}
    groups = sorted(fold_events(failed), key=lambda group: order[id(group.last)])
    said = []
    for group in groups:
        began = max((ago for f in group.facts if (ago := first_seen_ago(cluster, f)) is not None), default=None)
        ended = before_capture(cluster, group.last)
        over = f" over {age_text(began)}" if began is not None and (ended is None or began > ended) else ""
        said.append((group.label, f"{group.told_count} time(s){over}, the last {event_ago(cluster, group.last)}"))
    if len(said) == 1:
        return f"its controller's {said[0][0]} warnings, {said[0][1]}"
    return "its controller's warnings: " + "; ".join(f"{label} {text}" for label, text in said)


def cause_facts(message: str) -> dict[str, Any]:
    """What the controller's words say of the cause, as facts the incidents read: `metrics_api`
    and `metrics_api_state` where the metrics API itself failed it, not served or not answering
    (data/hpa_conditions.yaml shared_causes: every HPA reading that API fails alike, one cause);
    `target_gone` where its target does not exist (no workload is left for it to scale); {} for
    anything else (a missing request: the target's own).

    >>> cause_facts("unable to fetch metrics from resource metrics API: the server could not find "
    ...             "the requested resource (get pods.metrics.k8s.io)")
    {'metrics_api': 'metrics.k8s.io', 'metrics_api_state': 'not served'}
    >>> cause_facts('deployments/scale.apps "scores-ms" not found'), cause_facts("missing request for cpu")
    ({'target_gone': True}, {})
    """
    for pattern, state in _shared_causes():
        if (found := pattern.search(message)) is not None:
            return {"metrics_api": found.group("api"), "metrics_api_state": state}
    return {"target_gone": True} if _data()["target_gone"] in message else {}


@cache
def _shared_causes() -> tuple[tuple[re.Pattern[str], str], ...]:
    return tuple((re.compile(e["pattern"]), str(e["state"])) for e in _data()["shared_causes"])


def _capped(cluster: AnalyzedDump, hpa: Any, body: dict[str, Any], conditions: list[Any], path: str,
            target: str, data: dict[str, Any]) -> Finding | None:
    """Info where ScalingLimited says the HPA wants more replicas than its maxReplicas allows: it
    works as configured, and adds no pod above that bound however high its metrics (the answer to
    'it does not scale further'); None otherwise."""
    for i, cond in enumerate(conditions):
        if not (isinstance(cond, dict) and cond.get("type") == "ScalingLimited" and str(cond.get("status")) == "True"
                and cond.get("reason") in data["capped"]):
            continue
        spec = as_dict(body.get("spec"))
        why = (f"held at its maxReplicas ({spec.get('maxReplicas', 'not in the dump')}): ScalingLimited=True, "
               f"{cond['reason']}: {cond.get('message') or 'no message'}")
        if (since := parse_time(cond.get("lastTransitionTime"))) is not None:
            why += f" (since {newest_time_text(cluster, since, hpa) or ago(cluster, since, hpa)})"
        if (now := hpa_targets(body)) and now != "<none>":
            why += f"; its metrics now {now}"
        finding = RULE.fail(hpa, ev(hpa, f"{path}[{i}]", "ScalingLimited=True, TooManyReplicas", "DesiredWithinRange"),
                            target=target, why=why[:900])
        return finding.as_info(resolved="held by its own maxReplicas, as configured: it adds no pod above it however "
                                        "high the load (raise maxReplicas, or give its pods more resources, if the "
                                        "load is expected)")
    return None


def _unknown_targets(hpa: Any, body: dict[str, Any], unknown: str) -> tuple[str, str] | None:
    """(TARGETS, where it was read) of an HPA that has no current value for a metric: its pasted
    row's TARGETS cell or its describe's Metrics, else the cell kubectl would print from its status, once the controller has
    counted pods of its target (status.currentReplicas; a manifest has no status, a target scaled to
    zero no metrics); None when every metric has a value or nothing says."""
    targets = ((hpa.view.text.columns or {}) if hpa.view.text else {}).get("TARGETS")
    if isinstance(targets, str):
        return (targets, "TARGETS column") if unknown in targets else None
    # a describe's Metrics lines (`resource cpu on pods  (as a percentage of request):  <unknown> / 50%`),
    # where it was cut before its Conditions (kubernetes-sigs/metrics-server#45)
    described = as_dict(as_dict(body.get("x-kda-text")).get("metrics"))
    if described:
        said = [f"{' '.join(str(key).split())}: {value}" for key, value in described.items() if unknown in str(value)]
        return ("; ".join(said), "Metrics (describe)") if said else None
    spec, status = as_dict(body.get("spec")), as_dict(body.get("status"))
    replicas = status.get("currentReplicas")
    if not (isinstance(replicas, int) and replicas > 0) or hpa.api_version.endswith("v2beta1"):
        return None  # (v2beta1 keeps the values of its metrics other than Resource in fields of its own)
    targets = hpa_targets(body)
    if unknown not in targets:
        return None
    return targets, "status.currentMetrics" if spec.get("metrics") else "status.currentCPUUtilizationPercentage"


def _unrequested(cluster: AnalyzedDump, hpa: Any, body: dict[str, Any], ref: dict[str, Any]) -> str:
    """ "; its target's containers X request no cpu, ..." where a utilization target is a
    percentage of a request the target's pod template does not make (nor a limit, which the API
    makes the request): the HPA controller then has no utilization to compute ('missing request
    for cpu'); "" when they all request it, or the dump does not hold the target."""
    needed = _utilization_resources(as_dict(body.get("spec")))
    kind, name = ref.get("kind"), ref.get("name")
    target = objects_named(cluster, kind).get((hpa.namespace, name)) if isinstance(kind, str) else None
    if not needed or target is None:
        return ""
    template = as_dict(as_dict(as_dict(target.body().get("spec")).get("template")).get("spec"))
    containers = [c for c in as_list(template.get("containers")) if isinstance(c, dict)]
    missing: dict[str, list[str]] = {}
    for resource, only in needed:
        for c in containers:
            resources = as_dict(c.get("resources"))
            if (only is None or c.get("name") == only) and resource not in as_dict(resources.get("requests")) \
                    and resource not in as_dict(resources.get("limits")):
                missing.setdefault(resource, []).append(str(c.get("name")))
    if not missing:
        return ""
    if any(lr.namespace == hpa.namespace for lr in cluster.objects_of("LimitRange")):
        return ""  # its default request may fill what the template leaves out
    said = "; ".join(f"container {names[0]} requests no {resource}" if len(names) == 1 else
                     f"containers {', '.join(names)} request no {resource}" for resource, names in missing.items())
    unless = (" (unless a LimitRange of the namespace gives a default: the dump did not collect LimitRange)"
              if not cluster.covers("LimitRange") else "")
    return (f"; its target {kind} {hpa.namespace}/{name}'s {said}, which its utilization target is a "
            f"percentage of{unless}")


def _utilization_resources(spec: dict[str, Any]) -> list[tuple[str, str | None]]:
    """(resource, container or None for every container) of each utilization target: a
    percentage of the pods' requests (autoscaling/v1's targetCPUUtilizationPercentage, v2's
    Utilization, v2beta1's targetAverageUtilization; a ContainerResource's of one container).

    >>> _utilization_resources({"targetCPUUtilizationPercentage": 40})
    [('cpu', None)]
    >>> _utilization_resources({"metrics": [{"type": "Resource", "resource": {"name": "memory",
    ...     "target": {"type": "AverageValue", "averageValue": "500Mi"}}}]})
    []
    """
    out: list[tuple[str, str | None]] = []
    if spec.get("targetCPUUtilizationPercentage") is not None:
        out.append(("cpu", None))
    for metric in as_list(spec.get("metrics")):
        metric = as_dict(metric)
        source = as_dict(metric.get("resource") if metric.get("type") == "Resource" else
                         metric.get("containerResource") if metric.get("type") == "ContainerResource" else None)
        utilization = as_dict(source.get("target")).get("type") == "Utilization" \
            or source.get("targetAverageUtilization") is not None
        if isinstance(source.get("name"), str) and utilization:
            container = source.get("container") if metric.get("type") == "ContainerResource" else None
            out.append((source["name"], container if isinstance(container, str) else None))
    return out


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
