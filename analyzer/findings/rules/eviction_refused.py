"""Pods whose eviction a PodDisruptionBudget refused, as a pasted `kubectl drain` quotes it
(`Cannot evict pod as it would violate the pod's disruption budget.`), or AKS's failed upgrade
(`Drain node NODE failed when evicting pod POD ...`) or eksctl's drain of a nodegroup (`pod eviction
error (...) on node NODE`, the pod unnamed: said of the node), or EKS's managed node group update that
gave up its drain (`PodEvictionFailure`, said of the nodes it names, else of the node group), or eksctl's
drain saying pods are still on a node a minute into it (`N pods are unevictable from node NODE`): the drain
of their node cannot finish while the budget allows no disruption, whatever the dump holds of the
budget. History once the dump shows the node schedulable again after the refusal."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from typing import TYPE_CHECKING, NamedTuple

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.events import before_capture, clipped, event_ago, events_by_object
from analyzer.findings.facts import (
    capture_is_lower_bound,
    holds_a_paste,
    quoted_pod,
    text_status,
    when_text,
)
from analyzer.findings.types import Evidence, Finding, RuleMeta
from analyzer.kube.time import parse_time

if TYPE_CHECKING:
    from analyzer.ingest.records import KubeObject

RULE = RuleMeta(
    id="eviction-refused", title="Eviction refused by a PodDisruptionBudget", severity="warning",
    category="workloads",
    message="Eviction of Pod {pod} refused {by}{budget} ({times} refusal(s) "
            "quoted, first at {where}): a drain of {node} cannot finish {until}{state}",
    remediation="Scale the pod's workload above its PodDisruptionBudget (or relax minAvailable/maxUnavailable) so "
    "one pod may go, then drain again; `kubectl drain --disable-eviction` deletes pods regardless of their budget.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    refusals = list(getattr(cluster.ingest, "eviction_refusals", None) or ())
    drains = _drain_warnings(cluster) if cluster.covers("Event") else {}
    if not refusals and not drains:
        if not holds_a_paste(cluster):
            yield RULE.not_applicable("the dump holds no pasted session to quote a drain's refusals")
        return
    yield from _said_by_events(cluster, drains)
    by_pod: dict[tuple[str, str, str, str], list] = {}
    for refusal in refusals:
        # a drain that names only the node (eksctl's, EKS's) is said of that node, else of its node group
        key = (refusal.namespace, refusal.pod, "" if refusal.pod else refusal.node,
               "" if refusal.pod or refusal.node else getattr(refusal, "group", ""))
        by_pod.setdefault(key, []).append(refusal)
    nodes = _nodes_by_id(cluster)
    for (namespace, pod, node_id, group), quoted in by_pod.items():
        first = quoted[0]
        drainer = getattr(first, "drainer", "")
        drained = {getattr(refusal, "node", "") for refusal in quoted}
        node = nodes.get(drained.pop()) if len(drained) == 1 else None
        said = _QUOTED_BY.get(drainer, "error when evicting pod")
        left = quoted[-1].pods_left if all(getattr(r, "pods_left", 0) for r in quoted) else 0
        if left:  # eksctl's `N pods are unevictable from node X`: neither the pods nor why said
            said = "eksctl: pods are unevictable from node"
        group_said = f"node group {group}" if group else "a node group the paste does not name"
        evidence = Evidence(said, first.reason if left else
                            f"{pod or 'a pod of ' + (_node_said(node_id, node) if node_id else group_said)}: "
                            f"{first.reason}", "the eviction allowed", source=first.source, line=first.line)
        if pod:
            subject = dict(kind="Pod", namespace=namespace, name=pod)
        elif node is not None or (node_id and not _INSTANCE_ID.match(node_id)):
            subject = dict(kind="Node", namespace="", name=node.name if node is not None else node_id)
        else:  # an EC2 instance the dump shows no node of, or the node group alone
            subject = dict(kind="", namespace="", name=_node_said(node_id, None) if node_id else group_said)
        finding = RULE.fail(None, evidence, **subject, times=len(quoted),
                            pod=quoted_pod(namespace, pod) if pod else
                            f"({left} pod(s) {drainer} does not name)" if left else f"(a pod {drainer} does not name)",
                            where=_where(cluster, first), budget=_budget(cluster, namespace, first.budget, named_pod=pod),
                            by=_UNEVICTABLE_BY if left else _BY.get(drainer, "by its disruption budget"),
                            until=_UNEVICTABLE_UNTIL if left else _UNTIL.get(drainer, "while the budget allows no disruption"),
                            node=_node(quoted, node), state=_state(node, quoted[-1]))
        over = _drain_over(cluster, node, quoted[-1])
        yield finding.as_info(resolved=over) if over else finding


# where a provider's drain quotes the refusal: its failed operation's words
_QUOTED_BY = {"AKS": "AKS: drain node failed when evicting pod", "eksctl": "eksctl: pod eviction error on node",
              "EKS": "EKS: node group update failed (PodEvictionFailure)"}
# what a provider's drain is part of
_DRAIN_OF = {"AKS": "AKS's upgrade or maintenance drain", "eksctl": "eksctl's drain of its nodegroup",
             "EKS": "EKS's managed node group update"}
# what refused, where the drain's words do not say it was a budget: EKS gives up after 15 minutes
# of evictions that did not succeed, most often for a budget, also for a pod that tolerates the
# node's unschedulable taint and comes back, or one that does not end
_BY = {"EKS": "(EKS gave up after its retries: most often a disruption budget, also a pod that tolerates "
              "the unschedulable taint or does not terminate)"}
_UNTIL = {"EKS": "until what holds its pods lets them go (the update failed; run it again after)"}
# eksctl's `N pods are unevictable from node X`, said once a minute while pods it must evict stay on the
# node: it retries refused evictions (429: a disruption budget's most often) and waits for pods to end
_UNEVICTABLE_BY = ("(eksctl says only that they are still on the node a minute and more into its evictions: most "
                   "often a disruption budget refuses them, also a pod slow to terminate)")
_UNEVICTABLE_UNTIL = ("while they stay (eksctl retries until its timeout; --disable-nodegroup-eviction deletes them "
                      "regardless of their budgets)")
_INSTANCE_ID = re.compile(r"i-[0-9a-f]{8,17}\Z")
# AKS's own event on a node its upgrade (or maintenance) drains, each time an eviction is refused
_AKS_BLOCKED = re.compile(r"Eviction blocked by Too many Requests \(usually a pdb\):\s*(?P<pod>[a-z0-9][a-z0-9.-]*)", re.I)
# a node's later events that end its drain: its cordon lifted, the node upgraded, removed
_DRAIN_ENDED = re.compile(r"NodeSchedulable|RemovingNode|Upgrade:(?:Successfully upgraded|Deleting node)")
# events live an hour by default: a refusal older than that, its node's state untold, is not known to
# go on (under a capture that is a lower bound, older than the last hour the dump shows)
_RECENT = timedelta(hours=1)


def _drain_warnings(cluster: AnalyzedDump) -> dict[tuple[str, str], list]:
    """(node, pod) -> AKS's `Eviction blocked by Too many Requests (usually a pdb): POD` events on
    that node, oldest first."""
    out: dict[tuple[str, str], list] = {}
    for (kind, _, node), facts in events_by_object(cluster).items():
        if kind != "Node":
            continue
        for fact in facts:
            if fact.reason == "Drain" and fact.type == "Warning" and (m := _AKS_BLOCKED.match(fact.message)):
                out.setdefault((node, m.group("pod")), []).append(fact)
    return out


def _said_by_events(cluster: AnalyzedDump, drains: dict[tuple[str, str], list]) -> Iterator[Finding]:
    """AKS's refused evictions as its node's events say them: under way while the node stays
    cordoned, history once its later events end the drain or the dump shows it schedulable."""
    if not drains:
        return
    nodes = _nodes_by_id(cluster)
    pods: dict[str, list[str]] = {}
    for pod in cluster.objects_of("Pod"):
        pods.setdefault(pod.name, []).append(pod.namespace)
    for (node_name, pod), facts in sorted(drains.items()):
        last = facts[-1]
        where = last.event.provenance
        namespaces = pods.get(pod, [])
        namespace = namespaces[0] if len(namespaces) == 1 else ""
        evidence = Evidence("event Drain (AKS's drain of the node)", clipped(last.message), "the eviction allowed",
                            source=where.source, line=where.known_line)
        ago = before_capture(cluster, last)
        finding = RULE.fail(None, evidence, kind="Pod", namespace=namespace, name=pod,
                            times=sum(f.count for f in facts), pod=quoted_pod(namespace, pod),
                            where=f"the node's events, the last {event_ago(cluster, last)}",
                            budget=_budget(cluster, namespace, "", named_pod=pod if namespace else ""),
                            by="by its disruption budget", until="while the budget allows no disruption",
                            node=f"node {node_name} ({_DRAIN_OF['AKS']})",
                            state=_event_state(cluster, node_name, nodes.get(node_name), ago))
        over = _drain_ended(cluster, node_name, ago) or _drain_over(cluster, nodes.get(node_name),
                                                                  _Place(where.source, where.known_line or 0, node_name))
        if not over and not finding.facts["state"] and (ago is None or ago > _RECENT):
            over = (f"its last refusal was {event_ago(cluster, last)} and the dump shows nothing of node {node_name} "
                    "since: not known to go on")
        yield finding.as_info(resolved=over) if over else finding


class _Place(NamedTuple):
    """Where an event was read, as a quoted refusal's place, and the node it is of."""

    source: str
    line: int
    node: str


def _drain_ended(cluster: AnalyzedDump, node: str, ago: timedelta | None) -> str:
    """The node's event no older than the refusal that ends its drain, said with its age."""
    if ago is None:
        return ""
    for fact in reversed(events_by_object(cluster).get(("Node", "", node), ())):
        when = before_capture(cluster, fact)
        if when is not None and when <= ago and _DRAIN_ENDED.match(f"{fact.reason}:{fact.message}"):
            said = fact.reason if fact.reason != "Upgrade" else f"Upgrade ({fact.message.split(':')[0]})"
            return f"node {node}'s later event {said} ({event_ago(cluster, fact)}): that drain is over"
    return ""


def _event_state(cluster: AnalyzedDump, name: str, node: KubeObject | None, ago: timedelta | None) -> str:
    """The drain still under way: the node cordoned at capture (or its last schedulability event
    NodeNotSchedulable), the refusal recent."""
    if ago is None or ago > _RECENT:
        return ""
    if node is not None and _cordoned(node):
        return f"; node {node.name} still cordoned at capture: the drain is under way"
    if node is None:
        said = [f for f in events_by_object(cluster).get(("Node", "", name), ())
                if f.reason in ("NodeSchedulable", "NodeNotSchedulable")]
        if said and said[-1].reason == "NodeNotSchedulable":
            # under a capture that is only the dump's newest time, the refusal is recent in the
            # last hour the dump shows: the drain was under way then, which is all it shows
            now = ("was under way in the last hour the dump shows" if capture_is_lower_bound(cluster)
                   else "is under way")
            return (f"; node {name}'s last word on its scheduling is NodeNotSchedulable "
                    f"({event_ago(cluster, said[-1])}): the drain {now}")
    return ""


def _nodes_by_id(cluster: AnalyzedDump) -> dict[str, KubeObject]:
    """The dump's nodes by name and by the EC2 instance id of their providerID (EKS's resource
    ids name nodes either way)."""
    out: dict[str, KubeObject] = {}
    for node in cluster.objects_of("Node"):
        out[node.name] = node
        instance = (node.view.spec.providerID or "").rsplit("/", 1)[-1]
        if _INSTANCE_ID.match(instance):
            out.setdefault(instance, node)
    return out


def _node_said(node_id: str, node: KubeObject | None) -> str:
    """ "node N", or "EC2 instance I (node N)" / "EC2 instance I" where a resource id is an instance."""
    if _INSTANCE_ID.match(node_id):
        return f"EC2 instance {node_id}" + (f" (node {node.name})" if node is not None else "")
    return f"node {node_id}"


def _node(quoted: list, node: KubeObject | None = None) -> str:
    """The node as the message names it: the one node the quoted drains say they work on
    (`kubectl drain NODE`, `node/NODE cordoned`, AKS's `Drain node NODE failed`, EKS's resource
    id), with the provider whose drain it was, else the node group it drained, else "its node"."""
    nodes = {getattr(refusal, "node", "") for refusal in quoted}
    drainers = {getattr(refusal, "drainer", "") for refusal in quoted} - {"kubectl drain", ""}
    drainer = drainers.pop() if len(drainers) == 1 else ""
    groups = {getattr(refusal, "group", "") for refusal in quoted} - {""}
    of = f" of node group {groups.pop()}" if len(groups) == 1 else ""
    by = f" ({_DRAIN_OF[drainer]})" if drainer else ""
    if len(nodes) != 1 or "" in nodes:
        return f"a node{of or ' of its node group'}{by}" if drainer == "EKS" else "its node"
    return f"{_node_said(nodes.pop(), node)}{of}{by}"


def _where(cluster: AnalyzedDump, first) -> str:
    """ "line N", and when the provider's operation that drained began, where the paste says."""
    began = parse_time(getattr(first, "began", "") or None)
    if began is None:
        return f"line {first.line}"
    return f"line {first.line}, of an update begun {when_text(cluster, began)}"


def _later_sighting(node: KubeObject | None, refusal) -> bool:
    """Whether the node as the dump holds it was seen after the refusal: collected apart from
    the paste that quotes it, or in that paste below it (a row above it is the node before)."""
    if node is None:
        return False
    return node.provenance.source != refusal.source or (node.provenance.known_line or 0) > refusal.line


def _cordoned(node: KubeObject) -> bool:
    return bool(node.view.spec.unschedulable) or "SchedulingDisabled" in (text_status(node) or "")


def _state(node: KubeObject | None, last) -> str:
    """What the dump shows of the drained node after the last refusal, when it still holds it cordoned."""
    if not _later_sighting(node, last) or not _cordoned(node):
        return ""
    return f"; the dump shows node {node.name} still cordoned after it (its drain not finished, or given up)"


def _drain_over(cluster: AnalyzedDump, node: KubeObject | None, last) -> str:
    """Why the refusals are history: the same paste's `node/N uncordoned` below the last one, or
    the drained node shown schedulable after it (the drain over: given up, or done and the node
    uncordoned); "" when the dump does not show that."""
    name = node.name if node is not None else getattr(last, "node", "")
    uncordoned = [said.line for said in getattr(cluster.ingest, "quoted_cordons", None) or ()
                  if said.node == name and not said.cordoned and said.source == last.source and said.line > last.line]
    if name and uncordoned:
        return f"kubectl said node/{name} uncordoned below the refusals (line {min(uncordoned)}): that drain is over"
    if not _later_sighting(node, last) or _cordoned(node):
        return ""
    return f"the dump shows node {node.name} schedulable after the refusals: that drain is over"


def _budget(cluster: AnalyzedDump, namespace: str, named: str, named_pod: str = "x") -> str:
    """The budget as the message names it: kubectl's own word for it, else the one budget of the
    pod's namespace the dump shows allowing no disruption; for a pod the drain does not name,
    those of any namespace (up to three); else nothing."""
    if named:
        return f" {namespace}/{named}" if namespace else f" {named}"
    blocking = [f"{pdb.namespace}/{pdb.name}" for pdb in cluster.objects_of("PodDisruptionBudget")
                if (namespace and pdb.namespace == namespace or not named_pod)
                and (pdb.view.status or {}).get("disruptionsAllowed") == 0]
    if len(blocking) == 1:
        return f" {blocking[0]} (the dump shows it allowing 0 disruptions)"
    if blocking and not named_pod:
        shown = ", ".join(sorted(blocking)[:3]) + (f" and {len(blocking) - 3} more" if len(blocking) > 3 else "")
        return f" (the dump shows {len(blocking)} budgets allowing 0 disruptions: {shown})"
    return ""
