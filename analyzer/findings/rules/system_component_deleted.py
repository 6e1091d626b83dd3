"""System components (DNS, CNI, kube-proxy, the API tunnel, CSI, ...) that a paste shows deleted
by a `kubectl delete` typed in it, and not back since: what the component does for the cluster
stops with it (a blog that deletes OKE's proxymux-client to see what breaks: `kubectl logs` to
every node fails after it)."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.distributions.catalog import load_catalog
from analyzer.findings.components import distribution_name, running_components, spoken_name
from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import holds_a_paste, is_system_namespace
from analyzer.findings.types import Evidence, Finding, RuleMeta

RULE = RuleMeta(
    id="system-component-deleted", title="System component deleted in the session", severity="critical",
    category="cluster",
    message="{kind} {namespace}/{name}, {what}, was deleted by '{command}' at {where}, "
            "and the paste does not show it back{after}",
    remediation="Re-create it as it was installed: on a managed cluster the provider's add-on (re-enable it, or let "
    "its reconciler restore it; the provider's support can restore what it owns), elsewhere its manifest or chart "
    "(kubeadm: `kubeadm init phase addon coredns|kube-proxy`). Until then, everything its role serves fails.",
)

# What each role of the component catalog does, as a message says it.
ROLE_WORDS = {
    "dns": "DNS", "cni": "pod network (CNI)", "csi": "storage driver (CSI)",
    "kube-proxy": "Service routing (kube-proxy)", "control-plane": "control plane component",
    "api-tunnel": "API server tunnel to the nodes", "metrics": "metrics API", "autoscaler": "autoscaler",
    "cloud-controller": "cloud controller", "ingress": "ingress controller",
    "load-balancer": "Service load balancer",
    "logging-monitoring": "logging or monitoring agent", "device-plugin": "device plugin",
    "storage": "storage component", "network-policy": "network policy engine", "security": "security agent",
    "addon-manager": "add-on manager", "operator": "operator",
}
# Controllers: a deleted pod of one comes back by itself (its controller, or the kubelet for a static pod).
_KINDS = frozenset({"Deployment", "DaemonSet", "StatefulSet"})


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    if not holds_a_paste(cluster):
        yield RULE.not_applicable("the dump holds no pasted session to show commands run against the cluster")
        return
    deleted = [d for d in getattr(cluster.ingest, "deleted", None) or () if d.obj.kind in _KINDS and not d.owner]
    catalog, dist = load_catalog(), distribution_name(cluster) or ""
    present = {(o.kind, o.namespace, o.name) for o in cluster.objects_of(*_KINDS)}
    unreachable = list(getattr(cluster.ingest, "kubelet_unreachable", None) or ())
    running = running_components(cluster)
    for gone in deleted:
        obj = gone.obj
        if not is_system_namespace(obj.namespace or "") or (obj.kind, obj.namespace, obj.name) in present:
            continue  # not a system component, or a later listing shows it (re-created) again
        template = getattr(obj.view.spec, "template", None)
        images = tuple(c.image for c in (template.spec.containers or ()) if isinstance(c.image, str)) \
            if template is not None and template.spec is not None else ()
        entry = catalog.match(obj.name, images)
        if entry is None or entry.role == "other":
            continue
        after = ""
        if entry.role == "api-tunnel":
            since = [u for u in unreachable if u.source == gone.source and u.line > gone.line]
            if since:
                after = (f"; after it the API server could not reach a kubelet (line {since[0].line}: "
                         f"{since[0].reason})")
        evidence = Evidence("kubectl delete (typed in the paste)", gone.command,
                            f"{obj.kind} {obj.name} running", source=gone.source, line=gone.line)
        words = ROLE_WORDS.get(entry.role, entry.role)
        platform = entry.platform_of(dist, running)
        what = f"{spoken_name(dist)}'s {words}" if platform else f"the cluster's {words}"
        if entry.name != obj.name:
            what += f" ({entry.name})"
        finding = RULE.fail(obj, evidence, component=entry.name, role=entry.role, what=what, command=gone.command,
                            where=f"line {gone.line}", after=after, critical=entry.critical, platform=platform)
        yield finding if entry.critical else _warning(finding)


def _warning(finding: Finding) -> Finding:
    from dataclasses import replace

    return replace(finding, severity="warning")
