"""Nodes marked unschedulable (cordoned): no new pods land there, since when where the dump
says (a drain minutes old is maintenance under way, one weeks old a node left behind). Also a
node the paste shows nothing else of, when kubectl's cordon or drain says it left it cordoned
(`node/X already cordoned`) and nothing later uncordoned it; and a node an autoscaler is removing
(the cluster autoscaler's ToBeDeletedByClusterAutoscaler taint, Karpenter's disruption taint),
a node being scaled down, not a node problem (one whose removal stopped: node-removal-stopped)."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.events import before_capture, event_ago, events_by_object, first_seen_ago
from analyzer.findings.facts import age_text, ev, is_static_pod, owner, text_status, when_text
from analyzer.findings.removal import AUTOSCALER_TAINT, removal_of
from analyzer.findings.types import Evidence, Finding, RuleMeta
from analyzer.kube.time import parse_time

RULE = RuleMeta(
    id="node-cordoned", title="Node cordoned", severity="info",
    category="nodes",
    message="Node {name} is {how}{since}; {pods} pod(s) still run on it{left}",
    remediation="If the maintenance is over, uncordon it (kubectl uncordon); a node left cordoned shrinks the cluster's capacity.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    quoted = list(getattr(cluster.ingest, "quoted_cordons", None) or ())
    if not cluster.covers("Node") and not quoted:
        yield RULE.not_applicable("the dump did not collect Node", missing="Node")
        return
    pods_known = cluster.covers("Pod")
    per_node: dict[str, list[int]] | None = None

    def counts(name: str) -> list[int]:
        """[pods on the node, of them those a drain leaves]: counted once, when a node is
        cordoned (most dumps have none)."""
        nonlocal per_node
        if per_node is None:
            per_node = {}
            for pod in cluster.objects_of("Pod"):
                if on := pod.view.spec.nodeName:
                    tally = per_node.setdefault(on, [0, 0])
                    tally[0] += 1
                    tally[1] += _drain_leaves(pod)
        return per_node.get(name, [0, 0])

    def pods_on(name: str) -> int | str:
        return counts(name)[0] if pods_known else "unknown (pods not collected)"

    def left(name: str) -> str:
        """What of its pods a drain leaves: a node whose only pods are those is drained."""
        if not pods_known:
            return ""
        pods, kept = counts(name)
        if not kept:
            return ""
        if kept == pods:
            return " (all DaemonSet or static pods, which a drain leaves: the node is drained)"
        return f" ({kept} of them DaemonSet or static pods, which a drain leaves)"

    nodes = set()
    for node in cluster.objects_of("Node"):
        nodes.add(node.name)
        if node.view.spec.unschedulable:
            evidence = ev(node, "spec.unschedulable", True, False)
        elif "SchedulingDisabled" in (text_status(node) or ""):
            evidence = ev(node, "STATUS column", text_status(node), "Ready")
        else:
            if (removed := _being_removed(cluster, node, pods_on)) is not None:
                yield removed
            continue
        yield RULE.fail(node, evidence, pods=pods_on(node.name), since=_cordoned_since(cluster, node),
                        how=_CORDONED, left=left(node.name))
    last: dict[str, object] = {}
    for said in quoted:
        last[said.node] = said  # in file order: the last word on a node is its state
    for name, said in last.items():
        if name in nodes or not said.cordoned:
            continue  # the node's own object says it (a row before the drain is restated by it)
        evidence = Evidence("kubectl cordon/drain", f"node/{name} cordoned", "uncordoned",
                            source=said.source, line=said.line)
        yield RULE.fail(None, evidence, kind="Node", namespace="", name=name, pods=pods_on(name), since="",
                        how=_CORDONED, left=left(name))


_CORDONED = "cordoned (spec.unschedulable)"


def _drain_leaves(pod) -> bool:
    """A pod `kubectl drain` does not evict: its DaemonSet's (with --ignore-daemonsets; the
    controller would put it back) or a static pod's mirror (the kubelet runs it from its
    manifest). A pasted row, without owners, counts as neither."""
    controller = owner(pod)
    return (controller is not None and controller[0] == "DaemonSet") or is_static_pod(pod)


def _being_removed(cluster: AnalyzedDump, node, pods_on) -> Finding | None:
    """A node an autoscaler's taint says it is removing, while that may be under way (one that
    stopped is node-removal-stopped's); None for another."""
    removal = removal_of(cluster, node)
    if removal is None or removal.stopped:
        return None
    evidence = ev(node, f"spec.taints[{removal.index}]", removal.taint, "no removal taint")
    if removal.by == "Karpenter":
        how = f"being disrupted by Karpenter (its {removal.taint.split('=')[0].split(':')[0]} taint: consolidation, drift or expiry)"
    else:
        how = f"being removed by {removal.by} (its {AUTOSCALER_TAINT} taint)"
    since = f" since {when_text(cluster, removal.added, node)} (the taint's value)" if removal.added else ""
    return RULE.fail(node, evidence, pods=pods_on(node.name), since=since, how=how, left="")


_UNSCHEDULABLE_TAINT = "node.kubernetes.io/unschedulable"


def _cordoned_since(cluster: AnalyzedDump, node) -> str:
    """ " since 19m before capture (...)": when the node controller tainted it unschedulable
    (the taint's timeAdded), else when its kubelet first said NodeNotSchedulable after its last
    NodeSchedulable (it says so again each time it restarts while cordoned; events live an hour
    by default, so an older cordon has none); "" when the dump does not say."""
    taint = next((t for t in node.view.spec.taints or () if t.key == _UNSCHEDULABLE_TAINT), None)
    if taint is not None and taint.timeAdded:
        return f" since {when_text(cluster, parse_time(taint.timeAdded), node)} (its {_UNSCHEDULABLE_TAINT} taint's timeAdded)"
    facts = events_by_object(cluster).get(("Node", "", node.name), ())  # oldest first
    first = None
    for fact in facts:
        if fact.reason == "NodeSchedulable":
            first = None
        elif fact.reason == "NodeNotSchedulable" and first is None:
            first = fact
    if first is None:
        return ""
    began = first_seen_ago(cluster, first)
    # a NodeSchedulable no older than that (the same printed age, or within its repeats) may
    # have come after it: then the dump does not tell when this cordon began
    if began is None or any(f.reason == "NodeSchedulable" and (ago := before_capture(cluster, f)) is not None
                            and ago <= began for f in facts):
        return ""
    said = event_ago(cluster, first) if first.count <= 1 else f"{age_text(began)} before capture"
    return f" since {said} (its kubelet's NodeNotSchedulable event)"
