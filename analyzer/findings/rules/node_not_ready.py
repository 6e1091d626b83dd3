"""Nodes whose kubelet is not Ready (or has stopped reporting: Unknown), however the dump shows it:
the Ready condition, a not-ready/unreachable taint on a node without conditions, or pods the
node controller marked NodeLost; with no Node in the dump, its status events or the scheduler's
messages."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta
from typing import Any

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.events import ASSIGNED_TO, ONCE, RECENT, before_capture, event_facts
from analyzer.findings.facts import (
    age_at_capture,
    age_text,
    ev,
    known_age,
    newest_time_text,
    object_age,
    stitched_reason,
    text_status,
)
from analyzer.findings.rules.control_plane_restarts import component_of
from analyzer.findings.suspects import pod_suspects
from analyzer.findings.types import Finding, RuleMeta
from analyzer.kube.time import parse_time
from analyzer.memo import once_per

RULE = RuleMeta(
    id="node-not-ready", title="Node not Ready", severity="critical",
    category="nodes", requires_any=("Node", "Pod", "Event"),
    message="Node {name} is {status} ({detail}), for {since}{pods_note}",
    remediation="Check the kubelet and container runtime on the node (journalctl -u kubelet), its network to the API server, and its resources.",
)
# Taints the node lifecycle controller sets on a node that is not Ready or stopped reporting.
NOT_READY_TAINTS = ("node.kubernetes.io/unreachable", "node.kubernetes.io/not-ready")
# The reason the node controller gives every condition of a node whose kubelet stopped posting.
STOPPED_POSTING = "NodeStatusUnknown"
# The scheduler's count of the nodes it turned a pod away from for a taint of the node lifecycle
# controller: "0/1 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }"
# (1.18+ words; "had taint {...}, that the pod didn't tolerate" before, and "node(s) were not
# ready" before taint-based scheduling). With no Node in the dump, that is the word on the nodes.
_AVAILABLE = re.compile(r"(\d+)/(\d+) nodes are available")
_TOLD = re.compile(r"(\d+) node\(s\) (?:had (?:untolerated )?taints? \{(node\.kubernetes\.io/(?:unreachable|not-ready))\b"
                   r"|(?:were|was) (not ready|unreachable))")
_TOLD_STATUS = {"node.kubernetes.io/unreachable": "unreachable", "unreachable": "unreachable",
                "node.kubernetes.io/not-ready": "NotReady", "not ready": "NotReady"}


def _since(cluster: AnalyzedDump, node, when: str | None) -> str:
    at = parse_time(when)
    if (newest := newest_time_text(cluster, at, node)) is not None:
        return f"an unknown time: since {newest}"
    age = age_at_capture(cluster, at, node)
    if age is not None:
        return f"{age_text(age)} before capture"
    return _at_most_its_age(cluster, node)


def _at_most_its_age(cluster: AnalyzedDump, node) -> str:
    """When it turned NotReady is not in the dump; its age (a pasted row's AGE, its creation)
    bounds it: a node a few minutes old is still joining, one of weeks has been lost for a while.
    (Under a capture that is a lower bound its age is "at least", so bounds nothing.)"""
    age = known_age(cluster, node)
    if age is None or age <= timedelta(0):
        # (no age, or the capture time is the node's creation itself: the newest time a describe
        # of a just-made node holds)
        return "an unknown time"
    return f"an unknown time, at most {age_text(age)} (the node's age)"


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    if not cluster.covers("Node"):
        # Without Node objects only pods and events can tell: NodeLost pods name their lost
        # node, the node's status events and the scheduler's messages say what it last was.
        lost = list(_lost_nodes(cluster, set(), {})) + list(_status_told_nodes(cluster)) \
            + list(_scheduler_told_nodes(cluster))
        yield from lost or [RULE.not_applicable("the dump did not collect Node", missing="Node")]
        return
    flagged: set[str] = set()
    nodes = {n.name: n for n in cluster.objects_of("Node")}
    taken = _addresses_of_ready_nodes(nodes) if not stitched_reason(cluster) else {}
    for finding in _node_findings(cluster, nodes, flagged):
        yield _still_joining(cluster, _left_behind(cluster, _with_its_pods(cluster, finding, nodes), nodes, taken), nodes)
    yield from _lost_nodes(cluster, flagged, nodes)


def _addresses_of_ready_nodes(nodes: dict) -> dict[str, str]:
    """InternalIP -> the Ready node that holds it."""
    held: dict[str, str] = {}
    for node in nodes.values():
        ready = next((c for c in node.view.status.conditions or () if c.type == "Ready"), None)
        if ready is None or ready.status != "True":
            continue
        for address in node.view.status.addresses or ():
            if address.type == "InternalIP" and address.address:
                held.setdefault(address.address, node.name)
    return held


def _joined_after(cluster: AnalyzedDump, later, earlier) -> bool:
    """Whether node `later` was younger at the capture than node `earlier` (by the AGE their rows
    show, or their creation); False when either age is unknown."""
    a, b = object_age(cluster, later), object_age(cluster, earlier)
    return a is not None and b is not None and a < b


def _left_behind(cluster: AnalyzedDump, finding: Finding, nodes: dict, taken: dict[str, str]) -> Finding:
    """A NotReady node whose InternalIP a Ready node of another name holds at the same capture:
    the machine runs as that node now (renamed and joined again, or a new machine given the
    address), and this Node object was left behind; nothing runs on it. A warning, not the
    outage of a node (a kubectl session against kda serve of realdata kubeadm/cka-3c97: cka-worker1
    NotReady, its 10.10.1.61 held by k8s-worker1, Ready)."""
    node = nodes.get(finding.name)
    if node is None or finding.severity != "critical":
        return finding
    mine = [a.address for a in node.view.status.addresses or () if a.type == "InternalIP" and a.address]
    holder = next(((ip, taken[ip]) for ip in mine if taken.get(ip) not in (None, node.name)), None)
    # ... and joined after it (two clusters pasted together may share a private range: a Ready
    # node of the other one, as old or older, says nothing of this one)
    if holder is None or not _joined_after(cluster, nodes[holder[1]], node):
        return finding
    note = (f"; its address {holder[0]} is node {holder[1]}'s now (Ready): a Node object left behind by a "
            f"machine that joined again under another name, most likely")
    return replace(finding, severity="warning",
                   facts={**finding.facts, "pods_note": str(finding.facts.get("pods_note", "")) + note})


# A joining node's kubelet reports NotReady until its network plugin is up, a minute or two after
# it registers (kind's nodes in some 40 s): younger than this, NotReady is no outage yet.
_JOINING = timedelta(minutes=3)


def _still_joining(cluster: AnalyzedDump, finding: Finding, nodes: dict) -> Finding:
    """A node NotReady (Ready=False, its kubelet reporting) that joined under _JOINING before the
    capture: a warning to look at again, not the outage of a node (fujitatomoya/ros_k8s#22: a
    node 4s old, the control plane 100s old, both NotReady as their CNI came up)."""
    node = nodes.get(finding.name)
    if node is None or finding.severity != "critical" or finding.facts.get("status") != "NotReady":
        return finding
    age = known_age(cluster, node)
    if age is None or not timedelta(0) < age < _JOINING:
        return finding
    note = (f"; it joined {age_text(age)} before capture: a node is NotReady until its network plugin "
            "is up, a minute or two after it joins")
    return replace(finding, severity="warning",
                   facts={**finding.facts, "pods_note": str(finding.facts.get("pods_note", "")) + note})


def _node_findings(cluster: AnalyzedDump, nodes: dict, flagged: set[str]) -> Iterator[Finding]:
    for node in nodes.values():
        conditions = node.view.status.conditions
        ready = next((c for c in conditions or () if c.type == "Ready"), None)
        taint = next((t for t in node.view.spec.taints or () if t.key in NOT_READY_TAINTS), None)
        if ready is not None and ready.status != "True":
            flagged.add(node.name)
            yield RULE.fail(node, ev(node, "status.conditions[type=Ready].status", ready.status, "True"),
                            status="NotReady" if ready.status == "False" else f"Ready={ready.status}",
                            detail=": ".join(x for x in (ready.reason, ready.message) if x) or "no message",
                            since=_since(cluster, node, ready.lastTransitionTime))
        elif ready is None and (unknown := next((c for c in conditions or () if c.reason == STOPPED_POSTING), None)):
            # the Ready row cut off (a paste ending mid-Conditions): the node controller marks
            # every condition at once, so one said NodeStatusUnknown says Ready is Unknown too
            flagged.add(node.name)
            yield RULE.fail(node, ev(node, f"status.conditions[type={unknown.type}].reason", STOPPED_POSTING,
                                     "a kubelet-reported reason"),
                            status="Ready=Unknown",
                            detail=f"no Ready condition in the dump; its {unknown.type} condition says "
                                   + ": ".join(x for x in (unknown.reason, unknown.message) if x)
                                   + (f"; tainted {taint.key}:{taint.effect}" if taint is not None else ""),
                            since=_since(cluster, node, unknown.lastTransitionTime))
        elif ready is None and taint is not None:
            # `conditions: null` but the node controller tainted it: the kubelet stopped reporting.
            flagged.add(node.name)
            # conditions shown without their Ready row (a paste cut mid-Conditions) are named by
            # type, not printed as objects
            shown = ", ".join(f"{c.type}={c.status}" for c in conditions or ()) or None
            text = node.view.text
            cut = text.cut_in if text is not None else None
            ended = text.ends_after if text is not None else None
            # a describe pasted only down to its Taints (flannel#2039), or ending with a whole
            # section before its Conditions (rancher/rancher#29997's `Unschedulable:  false`),
            # shows no conditions: not a node without any, a paste that stops before them
            unseen = (f"its conditions are not in the paste (its describe ends in '{cut}')" if cut
                      else f"its conditions are not in the paste (its describe ends after '{ended}')" if ended
                      else "no conditions reported")
            yield RULE.fail(node, ev(node, f"spec.taints[key={taint.key}]", f"{taint.key}:{taint.effect}",
                                     "no not-ready taint"),
                            ev(node, "status.conditions", shown, "a Ready condition"),
                            status="NotReady",
                            detail=(f"no Ready condition in the dump, only {shown}" if shown else unseen)
                            + f"; tainted {taint.key}:{taint.effect}",
                            since=_since(cluster, node, taint.timeAdded))
        elif ready is None and (text_status(node) or "").startswith("NotReady"):
            flagged.add(node.name)
            yield RULE.fail(node, ev(node, "STATUS column", text_status(node), "Ready"),
                            status=text_status(node), detail="from the STATUS column",
                            since=_at_most_its_age(cluster, node))


# Pod phases whose status a silent kubelet leaves as it last posted it (a finished pod's is final).
_LIVE_PHASES = frozenset({"Running", "Unknown"})


def _with_its_pods(cluster: AnalyzedDump, finding: Finding, nodes: dict) -> Finding:
    """The node finding, saying what its pods' status is worth: a kubelet that stopped posting
    (Ready=Unknown; a pasted NotReady, which kubectl prints for both) leaves its pods' status as
    it last reported it, "Running" included: their state now is unknown (Azure/AKS#491: the
    only node NotReady for days, its pods "Running" and unreachable)."""
    node = nodes.get(finding.name)
    status = str(finding.facts.get("status", ""))
    if node is None or status == "NotReady" and text_status(node) is None:
        # Ready=False from the kubelet itself: it still posts, its pods' status is current
        return replace(finding, facts={**finding.facts, "pods_note": ""})
    pods = [p for p in _pods_on(cluster, node, nodes) if p.view.status.phase in _LIVE_PHASES or _stuck_with_it(p)]
    if not pods:
        return replace(finding, facts={**finding.facts, "pods_note": ""})
    phases = Counter(text_status(p) or p.view.status.phase for p in pods)
    shown = ", ".join(f"{n} {phase}" for phase, n in sorted(phases.items()))
    certain = status != "NotReady"
    note = (f"; its {len(pods)} pod(s) ({shown}) show the status its kubelet last reported: their state now is unknown"
            if certain else
            f"; its {len(pods)} pod(s) ({shown}) may show a stale status: a pasted NotReady does not say whether "
            "its kubelet still reports, so their state now is unknown")
    placed = "" if all(p.view.spec.nodeName for p in pods) else (
        " (the pods' table names no node: this is the dump's only node, so they run on it)")
    return replace(finding, evidence=[*finding.evidence, *(ev(p, "status.phase", p.view.status.phase,
                                                              "a status its kubelet still reports") for p in pods[:5])],
                   facts={**finding.facts, "pods_note": note + placed,
                          "stale_pods": [f"{p.namespace}/{p.name}" for p in pods]})


def _stuck_with_it(pod) -> bool:
    """A pod whose pasted row gives no phase but what the node's silence made of it: marked lost
    (NodeLost, Unknown), or Terminating, its deletion waiting for a kubelet that does not answer
    (kubernetes/kubernetes#62389: kube-flannel-ds-h9dcc NodeLost on the NotReady k8s-node2)."""
    return _marked_lost(pod) or (pod.view.text is not None and text_status(pod) == "Terminating")


def _pods_on(cluster: AnalyzedDump, node, nodes: dict) -> list:
    """The pods bound to a node; with the dump's one node listed in a `get nodes` table, also
    the pods of a table without a NODE column (a running pod is bound to some node, and the
    list shows no other)."""
    only = len(nodes) == 1 and node.view.text is not None and node.view.text.columns is not None
    return [p for p in _pods_by_node(cluster).get(node.name, ())] + (
        [p for p in _pods_by_node(cluster).get("", ()) if p.view.text is not None] if only else [])


@once_per
def _pods_by_node(cluster: AnalyzedDump) -> dict[str, list]:
    """nodeName -> its pods ('' for pods bound to none), walked once however many nodes are NotReady."""
    found: dict[str, list] = {}
    for pod in cluster.objects_of("Pod"):
        found.setdefault(pod.view.spec.nodeName or "", []).append(pod)
    return found


def _lost_nodes(cluster: AnalyzedDump, flagged: set[str], nodes: dict) -> Iterator[Finding]:
    """Nodes that pods were marked NodeLost on (and that no condition already flags), unless
    the node reports Ready now. A pasted row shows it in STATUS: NodeLost, or Unknown for a lost
    pod being deleted; a table without a NODE column names the node only in the name of a
    control-plane static pod (`kube-apiserver-node1`), and its other lost pods go with that node
    when it is the only one named (kubernetes/kubernetes#73875: node1's pods NodeLost and
    Unknown, no NODE column, and no finding at all)."""
    lost: dict[str, list] = {}
    named_by_pod: dict[str, list[str]] = {}
    for pod in pod_suspects(cluster).of("reason", "text"):
        if not _marked_lost(pod):
            continue
        node_name = pod.view.spec.nodeName or ""
        if not node_name and (node_name := _static_pod_node(pod)):
            named_by_pod.setdefault(node_name, []).append(pod.name)
        if node_name not in flagged:
            lost.setdefault(node_name, []).append(pod)
    unnamed = lost.pop("", [])
    if unnamed and len(lost) == 1 and set(lost) == set(named_by_pod):
        lost[next(iter(lost))].extend(unnamed)
    elif unnamed:
        lost[_NOT_NAMED] = unnamed
    for node_name, pods in sorted(lost.items()):
        node = nodes.get(node_name)
        ready = next((c for c in node.view.status.conditions or () if c.type == "Ready"), None) if node else None
        if ready is not None and ready.status == "True":
            continue  # the node came back; its pods' NodeLost is history
        yield RULE.fail(None, *(_lost_evidence(p) for p in pods[:5]),
                        kind="Node", namespace="", name=node_name, status="NotReady",
                        detail=_lost_detail(pods, named_by_pod.get(node_name, [])),
                        since="an unknown time", pods_note="",
                        stale_pods=[f"{p.namespace}/{p.name}" for p in pods])


# The node of lost pods a table does not place (no NODE column, and no static pod names it).
_NOT_NAMED = "(not named: the table has no NODE column)"
# kubectl's STATUS of a pod the node controller marked lost (status.reason NodeLost); of one
# that is being deleted too, Unknown (the printer's word for a deletionTimestamp over NodeLost).
_LOST_STATUSES = frozenset({"NodeLost", "Unknown"})


def _marked_lost(pod) -> bool:
    status = pod.view.status
    if status.reason is not None:
        return status.reason == "NodeLost"
    return pod.view.text is not None and text_status(pod) in _LOST_STATUSES


def _static_pod_node(pod) -> str:
    """The node a pasted control-plane static pod's name ends in (its mirror pod is named
    `<manifest>-<node>`); '' for any other pod."""
    component = component_of(pod.name, pod.view.metadata.labels or {}) if pod.namespace == "kube-system" else None
    if component is None or not pod.name.startswith(component + "-"):
        return ""
    return pod.name[len(component) + 1:]


def _lost_evidence(pod):
    if pod.view.status.reason == "NodeLost":
        return ev(pod, "status.reason", "NodeLost", "a running pod")
    return ev(pod, "STATUS column", text_status(pod), "Running")


def _lost_detail(pods: list, named_by: list[str]) -> str:
    deleting = sum(1 for p in pods if p.view.metadata.deletionTimestamp)
    detail = f"{len(pods)} pod(s) on it marked NodeLost by the node controller" \
        + (f", {deleting} of them terminating" if deleting else "")
    shown = Counter(text_status(p) for p in pods if p.view.status.reason is None)
    if shown:
        detail += "; their STATUS: " + ", ".join(f"{n} {s}" for s, n in sorted(shown.items())) \
            + (" (kubectl's word for a lost pod being deleted)" if "Unknown" in shown else "")
    if named_by:
        others = len(pods) - len(named_by)
        detail += f"; its static pod(s) {', '.join(named_by)} name it" \
            + (f", the table names no node for the other {others}" if others else "")
    return detail


# The node status events of the kubelet ("Node X status is now: NodeNotReady") and of the node
# lifecycle controller (NodeNotReady "Node is not ready"), and the kubelet's start.
_READY_REASONS = ("NodeNotReady", "NodeReady")
_STATUS_NODE = re.compile(r"^Node (\S+) (?:status is now|event):")


def _status_told_nodes(cluster: AnalyzedDump) -> Iterator[Finding]:
    """Nodes whose status events say NotReady, when the dump holds no Node (a describe's Events
    pasted alone): the newer of NodeNotReady and NodeReady is the word on the node, a NodeReady
    after it making the NotReady history (gardener/machine-controller-manager#208: NodeReady 5m,
    NodeHasInsufficientMemory 3m, NodeNotReady 2m, the kubelet Starting 1m before, and no word
    that the node was NotReady)."""
    told: dict[str, list[tuple[timedelta, int, Any]]] = {}
    facts = event_facts(cluster)
    pods_on = _pods_nodes(cluster, facts)
    for fact in facts:
        if fact.reason not in (*_READY_REASONS, "Starting"):
            continue
        name = _status_node(fact) or (pods_on.get((fact.namespace, fact.name), "")
                                      if fact.kind == "Pod" and fact.reason == "NodeNotReady" else "")
        ago_ = before_capture(cluster, fact)
        if name and ago_ is not None:
            told.setdefault(name, []).append((ago_, -(fact.event.provenance.line or 0), fact))
    for name, seen in sorted(told.items()):
        # newest first; in one describe's Events, of two of one age the later row is the later
        seen.sort(key=lambda t: (t[0], t[1]))
        ready_words = [(a, f) for a, _, f in seen if f.reason in _READY_REASONS]
        if not ready_words or ready_words[0][1].reason != "NodeNotReady":
            if ready_words and any(f.reason == "NodeNotReady" for _, f in ready_words):
                down = next((a, f) for a, f in ready_words if f.reason == "NodeNotReady")
                yield _status_finding(name, *down, seen, ready_since=True).as_info(
                    resolved=f"followed by NodeReady {age_text(ready_words[0][0])} before capture")
            continue
        yield _status_finding(name, *ready_words[0], seen)


def _pods_nodes(cluster: AnalyzedDump, facts: list) -> dict[tuple[str, str], str]:
    """(namespace, name) -> node of each pod the node controller marked NodeNotReady (it records
    that on every pod of a node it finds not ready): the pod's spec.nodeName, else the node its
    Scheduled event assigned it to (a ka0s deployment report: a pod's describe from its Volumes
    on, no Node in the dump, `Successfully assigned storage-system/POD to k8-node-20`)."""
    marked = {(f.namespace, f.name) for f in facts if f.kind == "Pod" and f.reason == "NodeNotReady" and f.name}
    if not marked:
        return {}
    nodes: dict[tuple[str, str], str] = {}
    for fact in facts:
        if fact.reason == "Scheduled" and fact.kind == "Pod" and (fact.namespace, fact.name) in marked \
                and (m := ASSIGNED_TO.match(fact.message)) and m.group(2) == fact.name:
            nodes[(fact.namespace, fact.name)] = m.group(3)
    for pod in cluster.objects_of("Pod"):
        if (pod.namespace, pod.name) in marked and pod.view.spec is not None and pod.view.spec.nodeName:
            nodes[(pod.namespace, pod.name)] = pod.view.spec.nodeName
    return nodes


def _status_node(fact) -> str:
    """The node a status event is about: the object it names, else the node its message names,
    else the host of the kubelet that sent it."""
    if fact.kind == "Node" and fact.name:
        return fact.name
    if fact.kind:
        return ""
    if (named := _STATUS_NODE.match(fact.message)) is not None:
        return named.group(1)
    source = fact.event.view.source
    return (source.host or "") if source is not None and source.component == "kubelet" else ""


def _status_finding(name: str, ago_: timedelta, fact, seen: list, ready_since: bool = False) -> Finding:
    # the newest start after the NotReady, the kubelet's before kube-proxy's; `ready_since`: a
    # NodeReady came after (Azure/acs-engine#4236: NodeNotReady 23m, Starting and NodeReady 22m)
    starts = [(a, f) for a, _, f in seen if f.reason == "Starting" and a < ago_]
    started = next((s for s in starts if _starter(s[1]) == "its kubelet"), starts[0] if starts else None)
    restarted = (f"; {_starter(started[1])} started again {age_text(started[0])} before capture"
                 + ("" if ready_since else ", with no NodeReady since")) if started is not None else ""
    on_pod = f" on its pod {'/'.join(filter(None, (fact.namespace, fact.name)))}" if fact.kind == "Pod" else ""
    return RULE.fail(None, ev(fact.event, "reason", fact.reason, "NodeReady"),
                     kind="Node", namespace="", name=name, status="NotReady",
                     detail=(f"the node controller's {fact.reason}{on_pod}" if on_pod else "its status events: "
                             + fact.reason) + f" {age_text(ago_)} before capture"
                            + (f" ({fact.message[:120]})" if fact.message and not _STATUS_NODE.match(fact.message) else "")
                            + f"{restarted}; the dump holds no Node",
                     # (the event is the transition itself: the kubelet and the node controller
                     # record it as the status changes)
                     since=f"{age_text(ago_)} before capture (its {fact.reason} event)",
                     pods_note="")


def _starter(fact) -> str:
    """Who a node's `Starting` event says started: its kubelet, or kube-proxy on it (kube-proxy
    records a `Starting` of its own on the node, which says nothing of the kubelet)."""
    source = fact.event.view.source
    component = (source.component if source is not None else None) or fact.event.view.reportingComponent or ""
    return f"{component} on it" if component and component != "kubelet" else "its kubelet"


def _scheduler_told_nodes(cluster: AnalyzedDump) -> Iterator[Finding]:
    """Nodes the scheduler found not ready or unreachable (its FailedScheduling messages), when
    the dump holds no Node: one finding per taint, at the time of the newest such message;
    history (info) when the scheduler placed a pod or stopped naming the taint since."""
    told: dict[str, list] = {}
    scheduler_events = []
    for fact in event_facts(cluster):
        if fact.reason not in ("FailedScheduling", "Scheduled"):
            continue
        ago_ = before_capture(cluster, fact)
        scheduler_events.append((ago_, fact))
        match = _TOLD.search(fact.message) if fact.reason == "FailedScheduling" else None
        if match is not None:
            told.setdefault(_TOLD_STATUS[match.group(2) or match.group(3)], []).append((ago_, fact, match))
    for status, seen in sorted(told.items()):
        # newest first: a pasted age is "how long before", a smaller one newer; unknown ones last
        seen.sort(key=lambda t: (t[0] is None, t[0] or timedelta(0)))
        last_ago, last, match = seen[0]
        available = _AVAILABLE.search(last.message)
        count = f"{match.group(1)} of {available.group(2)}" if available else match.group(1)
        # the scheduler's own words: "had the taint node.kubernetes.io/not-ready", "were not ready"
        taint = match.group(2) or match.group(0).split("node(s) ", 1)[1]
        oldest = max((a for a, _, _ in seen if a is not None), default=None)
        first = max((f.first_seen for _, f, _ in seen if f.first_seen), default=None)
        count_times = sum(f.count for _, f, _ in seen)
        when = f"{age_text(last_ago)} before capture" if last_ago is not None else "at an unknown time"
        finding = RULE.fail(None, *(ev(f.event, "message", f.message[:200], "a node available") for _, f, _ in seen[:3]),
                            kind="Node", namespace="", name="(not named: counted by the scheduler)",
                            status=status,
                            detail=f"{count} node(s) {'had the taint ' + taint if match.group(2) else taint} "
                                   f"when the scheduler last tried to place a pod, {when}; "
                                   f"{count_times} FailedScheduling message(s) say so, and the dump holds no Node",
                            since=_told_since(cluster, oldest, first, last_ago),
                            scheduler_message=last.message[:300], last_told=when, pods_note="")
        # (the pod the message was about, Scheduled with the same pasted age: placed after it)
        newer = [(a, f) for a, f in scheduler_events if a is not None and last_ago is not None
                 and (a < last_ago or (a == last_ago and f.reason in ONCE
                                       and (f.kind, f.namespace, f.name) == (last.kind, last.namespace, last.name)))
                 and not _TOLD.search(f.message)]
        if newer:
            a, f = min(newer, key=lambda t: t[0])
            named = "the taint" if match.group(2) else f"nodes {match.group(3)}"
            yield finding.as_info(resolved=f"the scheduler's {f.reason} {age_text(a)} before capture no longer names {named}")
        elif last_ago is not None and last_ago > RECENT:
            # the scheduler retries a pending pod every few minutes: an old last word is history
            yield finding.as_info(resolved=f"last said {age_text(last_ago)} before capture, not repeating at capture")
        else:
            yield finding


def _told_since(cluster: AnalyzedDump, oldest: timedelta | None, first, last_ago: timedelta | None) -> str:
    """ "at least 39h before capture" from the oldest of the scheduler's messages, when it is older than the newest."""
    if first is not None:
        age = age_at_capture(cluster, first, None)
        if age is not None and (oldest is None or age > oldest):
            oldest = age
    if oldest is not None and last_ago is not None and oldest > last_ago:
        return f"at least {age_text(oldest)} before capture (the scheduler's first such message)"
    return "an unknown time before its message" if last_ago is None else f"an unknown time: the scheduler's message was {age_text(last_ago)} before capture"
