"""Services whose selector matches no running pod (in namespaces whose pods the dump holds)."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.coverage import namespace_coverage, not_listed_reason
from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import (
    ev,
    labels_unknown_in,
    pods_by_namespace,
    selected_pods,
    selector_matches,
)
from analyzer.findings.placement import tainted_off, template_spec
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="service-no-pods", title="Service selector matches no pod", severity="warning",
    category="networking", requires=("Service", "Pod"),
    message="Service {namespace}/{name} selects {selector} but no live pod in {namespace} has those labels",
    remediation="Fix the selector or the pod labels (a typo or a renamed app label is the usual cause), or scale the workload up.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    coverage = namespace_coverage(cluster, "Pod")
    if not coverage.listed:
        yield RULE.not_applicable(not_listed_reason(coverage))
        return
    pods = pods_by_namespace(cluster)
    for svc in cluster.objects_of("Service"):
        spec = svc.view.spec
        if not spec.selector or spec.type == "ExternalName" or not coverage.covers(svc.namespace):
            continue
        if not selected_pods(svc, pods) and not labels_unknown_in(pods, svc.namespace):
            selector = ",".join(f"{k}={v}" for k, v in sorted(spec.selector.items()))
            finding = RULE.fail(svc, ev(svc, "spec.selector", selector, "labels of at least one pod"),
                                selector=selector)
            scaled = scaled_to_zero(cluster, svc)
            outside = _component_outside_pods(cluster, svc)
            # A workload of these pods scaled to 0 on purpose: nothing to serve, nothing broken.
            if scaled:
                yield finding.as_info(resolved=scaled)
            elif outside:
                yield finding.as_info(resolved=outside)
            else:
                yield finding


# Labels that select control-plane components (as monitoring charts' Services do).
COMPONENT_LABELS = {"component": ("etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler"),
                    "k8s-app": ("kube-proxy", "kube-controller-manager", "kube-scheduler", "etcd")}


def _component_outside_pods(cluster: AnalyzedDump, svc) -> str:
    """Why no pod can match a selector of a control-plane component ('' when some could): the
    cluster runs that component outside pods (k3s's one server process, a managed control
    plane), so a monitoring chart's Service for it finds nothing, by design."""
    selector = svc.view.spec.selector or {}
    named = [v for k, v in selector.items() if str(v) in COMPONENT_LABELS.get(k, ())]
    if not named:
        return ""
    component = str(named[0])
    if any(p.name.startswith(component) for p in cluster.objects_of("Pod") if p.namespace == "kube-system"):
        return ""  # the component does run as pods here: the selector is wrong
    try:
        from analyzer.findings.components import distribution_name

        dist = distribution_name(cluster) or "this cluster"
    except ImportError:  # pragma: no cover - the stage is part of the package
        dist = "this cluster"
    return f"no {component} pod runs in kube-system: {dist} runs it outside pods, so nothing can match"


def scaled_to_zero(cluster: AnalyzedDump, svc) -> str:
    """ "Deployment longhorn-ui that makes these pods is scaled to 0" when a workload of the
    Service's namespace, whose pod template the selector matches, asks for 0 replicas, or a
    DaemonSet of them is to run on no node (a Linux cluster's windows-exporter: its node
    selector kubernetes.io/os=windows matches none, not nodes it selects whose taints it does not
    tolerate); '' when none does. A pasted `-o wide` row
    holds no template, but its SELECTOR: the labels every pod of it carries."""
    for obj in cluster.objects_of("Deployment", "StatefulSet", "ReplicaSet", "DaemonSet"):
        if obj.namespace != svc.namespace:
            continue
        if obj.kind == "DaemonSet":
            status = getattr(obj.view, "status", None)
            if status is None or status.desiredNumberScheduled != 0:
                continue
        elif obj.view.spec.replicas != 0:
            continue
        template = getattr(obj.view.spec, "template", None)
        labels = template.metadata.labels if template is not None else None
        if not labels and obj.view.text is not None:
            labels = (getattr(obj.view.spec, "selector", None) or {}).get("matchLabels")
        if labels and selector_matches(svc.view.spec.selector, labels):
            if obj.kind != "DaemonSet":
                return f"{obj.kind} {obj.name} that makes these pods is scaled to 0"
            if obj.view.text is None and tainted_off(template_spec(obj), list(cluster.objects_of("Node"))):
                continue  # nodes it selects are tainted against it: not by design (daemonset-tainted-off)
            node_selector = getattr(template.spec, "nodeSelector", None) if template is not None else None
            where = ", ".join(f"{k}={v}" for k, v in sorted((node_selector or {}).items()))
            return (f"DaemonSet {obj.name} that makes these pods is to run on no node"
                    + (f" (its node selector {where} matches none)" if where else ""))
    return ""
