"""Incidents: findings that share a cause, grouped through the dependency graph and time.

A NotReady node explains its pods' pending, terminating and not-ready states; a crashlooping
pod explains its Deployment's unavailability and its Service's missing endpoints; one node
restart explains many container restarts; one missing Secret, or one quota refusing pods, is the
cause of every workload it stops. Each incident has a headline, a severity, the
number of workloads it affects and its member findings; incidents are ranked by severity,
then reach. Hygiene findings (configuration, deprecations, versions) are never incidents.
The grouping knowledge (hygiene rules, which rule names the cause, what a node explains) is
data: data/incidents.yaml.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import cache
from typing import TYPE_CHECKING, Any

import pandas as pd

from analyzer.distributions.catalog import load_catalog
from analyzer.distributions.workloads import guess_from_pod_name
from analyzer.findings.events import ASSIGNED_TO, NAMED_NOT_FOUND, NOT_FOUND_KIND, NOT_NAMED
from analyzer.findings.facts import ago
from analyzer.findings.provisioners import known_provisioners
from analyzer.findings.render import object_ref
from analyzer.findings.suspects import pod_suspects
from analyzer.findings.types import SEVERITIES, Finding, RuleMeta
from analyzer.findings.versions import DATA
from analyzer.ingest.refusals import webhook_failures
from analyzer.kube.event_reasons import current_reason
from analyzer.kube.time import parse_time
from analyzer.model.logsignatures import Signature, load_signatures
from analyzer.model.restarts import ContainerEnd, cluster_restart_moments, container_ends
from analyzer.model.restarts import thresholds as restart_thresholds
from analyzer.safeyaml import load_yaml

if TYPE_CHECKING:
    import networkx as nx

    from analyzer.findings.dump import AnalyzedDump

INCIDENT_COLUMNS = ("incident", "rank", "severity", "headline", "cause", "cause_rule", "workloads",
                    "findings", "rules", "objects", "affected_workloads", "affects")
# Kinds that count as a workload an incident affects.
WORKLOAD_KINDS = frozenset({"Deployment", "StatefulSet", "DaemonSet", "Job", "CronJob",
                            "ReplicationController", "ReplicaSet", "StaticPod"})
# The scheduler's words for "the nodes are not ready" in a pending pod's reason.
_NOT_READY_TAINT = re.compile(r"node\.kubernetes\.io/(?:not-ready|unreachable)|node\(s\) (?:were|was) not ready")
# A ReplicaSet's pod-template-hash suffix (safe-encoded: no vowels).
_TEMPLATE_HASH = re.compile(r"[bcdfghjklmnpqrstvwxz2-9]{5,10}")
# What pod-pending says when the dump holds no reason for a pod's waiting (table rows alone).
_NO_REASON = "no reason recorded"
_NO_NODE_REASON = frozenset({"no message", "from the STATUS column"})
_CNI_NOT_READY = re.compile(r"(?i)\bcni\b|network plugin|NetworkPluginNotReady|NetworkUnavailable")


@dataclass(frozen=True, slots=True)
class Grouping:
    """The grouping knowledge of data/incidents.yaml."""

    hygiene_categories: frozenset[str]
    hygiene_rules: frozenset[str]
    cause_order: tuple[str, ...]
    node_explains: frozenset[str]
    node_causes: frozenset[str]
    own_causes: frozenset[str]
    restart_rules: frozenset[str]
    restart_window: timedelta
    together_min_pods: int
    looping_together: timedelta
    scheduler_node_states: tuple[tuple[re.Pattern[str], str], ...]
    component_explains_logs: dict[str, frozenset[str]] = field(default_factory=dict)
    component_explains_rules: dict[str, dict[str, str]] = field(default_factory=dict)
    cni_explains: frozenset[str] = frozenset()
    device_plugin_words: tuple[str, ...] = ()
    stall_effects: frozenset[str] = frozenset()
    evicted_for_condition: re.Pattern[str] | None = None
    evicted_for_resource: re.Pattern[str] | None = None
    eviction_resource_conditions: dict[str, str] = field(default_factory=dict)
    operand_stages: dict[str, tuple[tuple[str, ...], ...]] = field(default_factory=dict)
    operand_waits: frozenset[str] = frozenset()
    owner_chain_rules: frozenset[str] = frozenset()
    provisioner_not_serving: frozenset[str] = frozenset()
    quoted_causes: tuple[tuple[re.Pattern[str], str], ...] = ()
    network_cause_scopes: dict[str, tuple[tuple[re.Pattern[str], str], ...]] = field(default_factory=dict)
    named_waits: dict[str, tuple[str, tuple[re.Pattern[str], ...]]] = field(default_factory=dict)
    dump_wide_causes: frozenset[str] = frozenset()

    def operand_stage(self, name: str) -> tuple[str, int] | None:
        """(operator, stage) of a DaemonSet, or of a pod by its name's beginning, that is an
        operator's operand (data/incidents.yaml operand_stages); None for any other."""
        best: tuple[int, str, int] | None = None
        for operator, stages in self.operand_stages.items():
            for stage, names in enumerate(stages):
                for base in names:
                    if (name == base or name.startswith(base + "-")) and (best is None or len(base) > best[0]):
                        best = (len(base), operator, stage)
        return (best[1], best[2]) if best is not None else None

    def scheduler_node_state(self, finding: Finding) -> str | None:
        """What the scheduler's reason says of the nodes ("not ready"), if anything: a pending
        pod's, a pod's FailedScheduling event's (the dump holding no Pod), or the node finding
        made of those messages (the dump holding no Node)."""
        reason = scheduler_reason(finding)
        if not reason:
            return None
        return next((state for pattern, state in self.scheduler_node_states if pattern.search(reason)), None)


def scheduler_reason(finding: Finding) -> str:
    """The scheduler's words a finding carries ('' for none)."""
    if finding.rule == "pod-pending":
        return str(finding.facts.get("reason", ""))
    if finding.rule == "events-pod-problem" and finding.facts.get("reason") == "FailedScheduling":
        return str(finding.facts.get("last_message", ""))
    if finding.rule == "node-not-ready":
        return str(finding.facts.get("scheduler_message", ""))
    return ""


@cache
def grouping() -> Grouping:
    """The grouping knowledge, read once."""
    raw = load_yaml((DATA / "incidents.yaml").read_text(encoding="utf-8"))
    return Grouping(
        hygiene_categories=frozenset(raw["hygiene_categories"]), hygiene_rules=frozenset(raw["hygiene_rules"]),
        cause_order=tuple(raw["cause_order"]), node_explains=frozenset(raw["node_explains"]),
        node_causes=frozenset(raw["node_causes"]), own_causes=frozenset(raw["own_causes"]),
        restart_rules=frozenset(raw["restart_rules"]),
        restart_window=restart_thresholds().window,
        together_min_pods=int(raw["together_min_pods"]),
        looping_together=timedelta(seconds=int(raw["looping_together_seconds"])),
        scheduler_node_states=tuple((re.compile(e["pattern"]), str(e["state"]))
                                    for e in raw.get("scheduler_node_states") or ()),
        component_explains_logs={str(role): frozenset(sigs) for role, sigs
                                 in (raw.get("component_explains_logs") or {}).items()},
        component_explains_rules={str(role): {str(rule): str(word or "") for rule, word in rules.items()}
                                  for role, rules in (raw.get("component_explains_rules") or {}).items()},
        cni_explains=frozenset(raw.get("cni_explains") or ()),
        device_plugin_words=tuple(raw.get("device_plugin_words") or ()),
        stall_effects=frozenset(raw.get("stall_effects") or ()),
        evicted_for_condition=re.compile(raw["evicted_for_condition"]),
        evicted_for_resource=re.compile(raw["evicted_for_resource"]),
        eviction_resource_conditions={str(k): str(v) for k, v in raw["eviction_resource_conditions"].items()},
        operand_stages={str(op): tuple(tuple(str(n) for n in stage) for stage in stages)
                        for op, stages in (raw.get("operand_stages") or {}).items()},
        operand_waits=frozenset(raw.get("operand_waits") or ()),
        owner_chain_rules=frozenset(raw.get("owner_chain_rules") or ()),
        dump_wide_causes=frozenset(raw.get("dump_wide_causes") or ()),
        provisioner_not_serving=frozenset(raw.get("provisioner_not_serving") or ()),
        quoted_causes=tuple((re.compile(e["pattern"]), str(e["rule"])) for e in raw.get("quoted_causes") or ()),
        network_cause_scopes={str(cause): tuple((re.compile(e["pattern"]), str(e["scope"])) for e in scopes)
                              for cause, scopes in (raw.get("network_cause_scopes") or {}).items()},
        named_waits={str(e["kind"]): (str(e["names"]), tuple(re.compile(p) for p in e["patterns"]))
                     for e in raw.get("named_waits") or ()},
    )


def is_hygiene(finding: Finding) -> bool:
    """A finding about configuration or upkeep, not about something broken now."""
    return is_hygiene_rule(finding.rule, finding.category)


def is_hygiene_rule(rule: str, category: str) -> bool:
    """Whether a rule (of a category) is about configuration or upkeep."""
    g = grouping()
    return category in g.hygiene_categories or rule in g.hygiene_rules


def is_problem(finding: Finding) -> bool:
    """A failing warning or critical finding about something broken now: incident material
    (a finding marked resolved, where findings carry that mark, is history)."""
    return (finding.status == "fail" and finding.severity != "info" and not is_hygiene(finding)
            and not getattr(finding, "resolved", False))


@dataclass(slots=True)
class Incident:
    """Findings that share one cause."""

    id: str
    rank: int
    severity: str
    headline: str
    cause: str  # the object that is the cause ("Node n1"), or a moment ("Node n1 restart at ...")
    cause_rule: str
    members: list[Finding]
    affected: list[str] = field(default_factory=list)  # workloads affected ("Deployment shop/web")

    @property
    def workloads(self) -> int:
        return len(self.affected)

    @property
    def affects(self) -> str:
        """What it affects, as far as the dump knows it (`affected_text`)."""
        return affected_text(self.affected)

    def summary(self) -> dict[str, Any]:
        """What a finding's record says of its incident."""
        return {"id": self.id, "rank": self.rank, "severity": self.severity, "headline": self.headline,
                "cause": self.cause}

    def to_dict(self, metas: dict[str, RuleMeta] | None = None) -> dict[str, Any]:
        """JSON-safe form: the incident and its members as rule + object."""
        return {
            "id": self.id, "rank": self.rank, "severity": self.severity, "headline": self.headline,
            "cause": self.cause, "cause_rule": self.cause_rule, "workloads": self.workloads,
            "affected_workloads": list(self.affected), "affects": self.affects,
            "findings": [{"rule": f.rule, "severity": f.severity,
                          "object": {"kind": f.kind, "namespace": f.namespace, "name": f.name}}
                         for f in self.members],
        }


class _Union:
    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def find(self, i: int) -> int:
        while self.parent[i] != i:
            self.parent[i] = self.parent[self.parent[i]]
            i = self.parent[i]
        return i

    def join(self, i: int, j: int) -> None:
        a, b = self.find(i), self.find(j)
        if a != b:
            self.parent[max(a, b)] = min(a, b)

    def join_groups(self, groups: Iterable[list[int]]) -> None:
        """Each group's members joined: one incident per group."""
        for members in groups:
            for i in members[1:]:
                self.join(members[0], i)


class _Graph:
    """The relations of the dependency graph that incidents follow, by (kind, namespace, name)."""

    def __init__(self, graph: nx.MultiDiGraph) -> None:
        self.g = graph
        # The graph's own adjacency and attribute dicts, read directly: incidents ask tens of
        # thousands of times, and each public view costs more than the lookup it wraps (the
        # order is the same: out_edges/in_edges walk these dicts).
        self._succ, self._pred, self._attrs = graph._succ, graph._pred, graph._node
        self._refs: dict[str, tuple[str, str, str]] = {}
        self.ids: dict[tuple[str, str, str], str] = {}
        refs, ids = self._refs, self.ids
        for node, a in self._attrs.items():  # (each node's ref, as `ref` makes it)
            ref = refs[node] = (str(a.get("kind", "")), str(a.get("namespace", "")),
                                str(a.get("name", "")))
            ids.setdefault(ref, node)
        # What is asked of one node again and again (a pod with ten findings, the pods of
        # a controller named by each of its findings), found once: the graph does not change.
        self._owners: dict[str, list[str]] = {}
        self._pods_of: dict[str, list[str]] = {}
        self._workloads: dict[str, str] = {}

    def ref(self, node: str) -> tuple[str, str, str]:
        known = self._refs.get(node)
        if known is None:
            a = self._attrs[node]
            known = self._refs[node] = (str(a.get("kind", "")), str(a.get("namespace", "")),
                                        str(a.get("name", "")))
        return known

    def present(self, node: str) -> bool:
        """Whether the dump holds the object of a node (not a placeholder a reference made)."""
        return self._attrs[node].get("state", "present") == "present"

    def out(self, node: str, *relations: str) -> list[str]:
        return [t for t, keyed in self._succ[node].items() for d in keyed.values()
                if d.get("relation") in relations]

    def into(self, node: str, *relations: str) -> list[str]:
        return [s for s, keyed in self._pred[node].items() for d in keyed.values()
                if d.get("relation") in relations]

    def owners(self, node: str) -> list[str]:
        """The owner chain upwards (ReplicaSet, then its Deployment); not to be changed."""
        chain = self._owners.get(node)
        if chain is None:
            chain = self._owners[node] = self._owner_chain(node)
        return chain

    def _owner_chain(self, node: str) -> list[str]:
        chain, seen = [], {node}
        current = node
        while True:
            up = [o for o in self.into(current, "owns") if o not in seen]
            if not up:
                deployment = self._deployment_of_absent_replicaset(current)
                up = [deployment] if deployment is not None and deployment not in seen else []
            if not up:
                return chain
            current = up[0]
            seen.add(current)
            chain.append(current)

    def _deployment_of_absent_replicaset(self, node: str) -> str | None:
        """The Deployment of a ReplicaSet the dump names but did not collect (a described pod's
        "Controlled By: ReplicaSet/web-5d4f8b7c9"): the one its name continues, with a
        pod-template-hash suffix, in its namespace."""
        attrs = self.g.nodes[node]
        if attrs.get("kind") != "ReplicaSet" or attrs.get("state") == "present":
            return None
        base, _, suffix = str(attrs.get("name", "")).rpartition("-")
        if not base or not _TEMPLATE_HASH.fullmatch(suffix):
            return None
        return self.ids.get(("Deployment", str(attrs.get("namespace", "")), base))

    def pods_of(self, node: str) -> list[str]:
        """Pods a controller owns, through its ReplicaSets; not to be changed."""
        found = self._pods_of.get(node)
        if found is None:
            found = self._pods_of[node] = self._owned_pods(node)
        return found

    def _owned_pods(self, node: str, depth: int = 3) -> list[str]:
        found, frontier = [], [node]
        for _ in range(depth):
            nxt = []
            for n in frontier:
                for child in self.out(n, "owns"):
                    (found if self.ref(child)[0] == "Pod" else nxt).append(child)
            frontier = nxt
        return found

    def node_of(self, pod: str) -> str | None:
        nodes = self.out(pod, "scheduled_on", "mirror_of")
        return nodes[0] if nodes else None

    def pods_on(self, node: str) -> list[str]:
        return self.into(node, "scheduled_on", "mirror_of")

    def nodes_of_refs(self, refs: Collection[tuple[str, str, str]]) -> list[str]:
        """Every node whose (kind, namespace, name) is one of `refs` (two objects of one kind and
        name in different API groups share theirs)."""
        return [node for node, ref in self._refs.items() if ref in refs] if refs else []

    def sibling_owner(self, pod: str) -> str | None:
        """For a pod that names no owner (a pasted table's row), the controller its name
        continues when a sibling names it ("Controlled By: ReplicaSet/coredns-bd44f767b"),
        else None."""
        if self.into(pod, "owns"):
            return None
        _, namespace, name = self.ref(pod)
        base = name.rpartition("-")[0]
        return next((owner for kind in ("ReplicaSet", "DaemonSet", "StatefulSet", "Job")
                     if (owner := self.ids.get((kind, namespace, base))) is not None), None) if base else None

    def workload_of(self, node: str) -> str:
        """The top controller of an object (itself when it has none), as "Kind ns/name"."""
        found = self._workloads.get(node)
        if found is None:
            top = node
            for owner in self.owners(node):
                if self.ref(owner)[0] in WORKLOAD_KINDS:
                    top = owner
            found = self._workloads[node] = object_ref(*self.ref(top))
        return found

    def affected_workload(self, node: str) -> str:
        """The workload an incident names for an object: its top controller, or for a mirror
        pod (a kubelet's static pod, on its node by `mirror_of`) its static pod's component,
        "StaticPod ns/etcd" for etcd-cp-1, as the control-plane findings name it: eight mirror
        pods of four components on two control-plane nodes are four workloads, not "8 pods of no
        controller"."""
        workload = self.workload_of(node)
        kind, namespace, name = self.ref(node)
        if kind != "Pod" or workload != object_ref(kind, namespace, name):
            return workload
        mirrored = self.out(node, "mirror_of")
        if not mirrored:
            return workload
        guessed, base = guess_from_pod_name(name, self.ref(mirrored[0])[2])
        return object_ref("StaticPod", namespace, base if guessed == "StaticPod" else name)


def group_incidents(findings: Sequence[Finding], cluster: AnalyzedDump) -> list[Incident]:
    """The incidents of a dump's findings, ranked: most severe first, then widest reach."""
    problems = [f for f in findings if is_problem(f)]
    if not problems:
        return []
    g = grouping()
    graph = _Graph(cluster.graph)
    union = _Union(len(problems))
    by_object: dict[tuple[str, str, str], list[int]] = defaultdict(list)
    for i, f in enumerate(problems):
        by_object[(f.kind, f.namespace, f.name)].append(i)
    for members in by_object.values():
        for i in members[1:]:
            union.join(members[0], i)

    def indexes_at(node: str) -> list[int]:
        return by_object.get(graph.ref(node), [])

    component_pods = _component_pods(problems, cluster, graph)
    node_problem = {k: v for k, v in by_object.items() if k[0] == "Node"
                    and any(problems[i].rule in g.node_causes for i in v)}
    not_ready_nodes = [v[0] for k, v in node_problem.items()
                       if any(problems[i].rule == "node-not-ready" for i in v)]
    # No Node of the dump is Ready: the scheduler has nowhere to put a pod (the not-ready taint),
    # so that is why a pod waits whose scheduler's reason the dump does not hold.
    nodes = [("Node", "", o.name) for o in cluster.objects_of("Node")]
    no_node_ready = bool(nodes) and all(
        any(problems[i].rule == "node-not-ready" for i in by_object.get(n, ())) for n in nodes)
    # A pod with a failure of its own (crash, image, configuration) is not explained by its node.
    own_cause = {(f.kind, f.namespace, f.name) for f in problems if f.rule in g.own_causes}
    # Pods a node finding names as its own where the dump binds them to no node (pasted rows
    # without a NODE column that the node controller marked lost)
    stale_on = {("Pod", *str(ref).split("/", 1)): i for i, f in enumerate(problems)
                if f.rule == "node-not-ready" for ref in f.facts.get("stale_pods") or ()}
    waiting_operands, crashing_operands, past_wait = _operand_daemonsets_by_their_pods(problems, graph, g, by_object)
    # The pods bound to a node with a problem, from those nodes: a pod bound to none of them is
    # not asked for its node (a DaemonSet's thousands of pods, most on nodes without a problem).
    on_problem_nodes = {pod for node in graph.nodes_of_refs(node_problem) for pod in graph.pods_on(node)}
    for i, f in enumerate(problems):
        node_id = graph.ids.get((f.kind, f.namespace, f.name))
        pods = component_pods.get(i, [])
        if node_id is not None and f.kind not in ("Pod", "Node") and not pods:
            # a controller's pods (a Node's own mirror pods are reached by node_explains only)
            pods = graph.pods_of(node_id)
        if node_id is not None and f.kind == "Pod":
            # its owners' findings (ReplicaSet, Deployment) share its cause
            for owner in graph.owners(node_id):
                for j in indexes_at(owner):
                    if not (j in waiting_operands and (f.kind, f.namespace, f.name) in past_wait):
                        union.join(i, j)
            # a claim it mounts that is pending or lost explains a pod that cannot start
            for claim in graph.out(node_id, "mounts"):
                if graph.ref(claim)[0] == "PersistentVolumeClaim":
                    for j in indexes_at(claim):
                        union.join(i, j)
        for pod in pods:
            if i in waiting_operands and graph.ref(pod) in past_wait:
                continue
            for j in indexes_at(pod):
                union.join(i, j)
        if node_id is not None and f.kind in ("Service",):
            # a Service whose selected pods fail: the pods' cause explains it
            for pod in graph.out(node_id, "selects") + [p for ep in graph.out(node_id, "routes_to")
                                                        for p in graph.out(ep, "routes_to")]:
                for j in indexes_at(pod):
                    union.join(i, j)
        if node_id is not None and f.kind in ("Ingress", "HTTPRoute", "GRPCRoute"):
            for svc in graph.out(node_id, "exposes", "backend"):
                for j in indexes_at(svc):
                    union.join(i, j)
        if f.rule in g.node_explains and (f.kind == "Pod" or pods) and (f.kind, f.namespace, f.name) not in own_cause:
            # (a DaemonSet's thousands of pods are looked at only when some node has a problem)
            for pod in (([node_id] if f.kind == "Pod" and node_id else []) + pods) if node_problem else ():
                ref = graph.ref(pod)
                if ref in own_cause:
                    continue
                if pod in on_problem_nodes:  # (its node is one of those: asked which is its own)
                    host = graph.node_of(pod)
                    if host is not None and graph.ref(host) in node_problem:
                        union.join(i, node_problem[graph.ref(host)][0])
                elif (on := stale_on.get(ref)) is not None and graph.node_of(pod) is None:
                    union.join(i, on)
            reason = str(f.facts.get("reason", ""))
            if f.rule == "pod-pending" and not_ready_nodes and (
                    _NOT_READY_TAINT.search(reason) or (no_node_ready and reason == _NO_REASON)):
                union.join(i, not_ready_nodes[0])
    nodes_absent = next(iter(cluster.objects_of("Node")), None) is None
    if nodes_absent:
        _join_same_scheduler_node_state(problems, union, g)
    _join_same_workload(problems, union, graph)
    _join_workloads_of_one_component(problems, union, cluster)
    _join_pending_beside_eviction(problems, union, graph)
    _join_same_node_cause(problems, union)
    _join_same_scheduling_failure(problems, union)
    _join_static_pods_restarted_alike(problems, union)
    _join_static_pods_looping_together(problems, union, cluster, g)
    _join_control_plane_cascade(problems, union, cluster, g)
    _join_webhook_and_what_it_refuses(problems, union)
    _join_claims_and_their_pods(problems, union, cluster)
    provisioner_of = _join_claims_and_their_provisioner(problems, union, cluster, g)
    _join_claims_refused_alike(problems, union)
    _join_refused_by_one_command(problems, union)
    _join_same_blocking_object(problems, union)
    _join_dump_wide_causes(problems, union, g)
    _join_quoted_causes(problems, union, g)
    _join_named_waits(problems, union, g)
    _join_component_and_what_it_explains(problems, union, g, cluster)
    _join_hpas_of_one_metrics_api(problems, union)
    _join_pending_and_their_node_groups(problems, union)
    _join_cni_and_nodes(problems, union, cluster)
    _join_pressure_and_its_taint(problems, union)
    evicted_on = _join_evicted_for_one_node_condition(problems, union, cluster, graph, g)
    _join_operands_and_the_stage_they_wait_for(problems, union, graph, g, crashing_operands)
    _join_device_missing_and_plugin(problems, union, graph, g)
    moments = _join_restart_moments(problems, union, cluster, graph, g, own_cause)
    # (before the stall: a stalled pod on the nodes the network cause names waits for it)
    _join_same_network_cause(problems, union, graph, g)
    _join_sandbox_stall(problems, union, graph, g)
    _join_owner_chain(problems, union, graph, g, by_object)

    groups: dict[int, list[int]] = defaultdict(list)
    for i in range(len(problems)):
        groups[union.find(i)].append(i)
    evictions = {id(problems[i]): cause for i, cause in evicted_on.items()}
    incidents = [_incident([problems[i] for i in members], graph,
                           _moment_of(members, moments), cluster, nodes_absent, evictions, provisioner_of)
                 for members in groups.values()]
    incidents.sort(key=lambda x: (SEVERITIES.index(x.severity), -x.workloads, -len(x.members), x.cause, x.headline))
    for rank, inc in enumerate(incidents, 1):
        inc.rank, inc.id = rank, f"I{rank}"
    return incidents


def _component_pods(problems: list[Finding], cluster: AnalyzedDump, graph: _Graph) -> dict[int, list[str]]:
    """Graph pods of the component findings (a StaticPod component names its mirror pods)."""
    out: dict[int, list[str]] = {}
    wanted = [i for i, f in enumerate(problems) if f.rule.startswith("critical-component")]
    if not wanted:
        return out
    try:
        table = cluster.tables["components"]
    except KeyError:
        return out
    objects = {(str(r.kind), str(r.namespace), str(r.name)): str(r.objects)
               for r in table.itertuples(index=False) if not pd.isna(r.objects)}
    for i in wanted:
        f = problems[i]
        pods = []
        for obj_id in objects.get((f.kind, f.namespace, f.name), "").split(","):
            node = obj_id if obj_id in graph.g else None
            if node is None:
                continue
            pods += [node] if graph.ref(node)[0] == "Pod" else graph.pods_of(node)
        out[i] = pods
    return out


# A pod name is at most 63 characters: a generated one longer than that is its controller's
# prefix cut to 58 and five random characters (the API server's maxGeneratedNameLength).
_NAME_LIMIT, _GENERATED_PREFIX = 63, 58


# A suffix of Kubernetes' random alphabet (k8s.io/apimachinery/pkg/util/rand: consonants and the
# digits but 0, 1 and 3) longer than the 5 characters a ReplicaSet or DaemonSet gives its pods: a
# name an operator generated for the pods it makes itself (ECK 0.9: es-cluster-es-25g5k25k7w).
_GENERATED_NAME = re.compile(r"(?P<base>[a-z0-9][a-z0-9.-]*-)[bcdfghjklmnpqrstvwxz2456789]{6,}")


def _generated_base(name: str) -> str | None:
    """The prefix a generated pod name was made from ("es-cluster-es-"), or None.

    >>> _generated_base("es-cluster-es-cgvdvzfhhr"), _generated_base("web-server"), _generated_base("db-backup-20240101")
    ('es-cluster-es-', None, None)
    """
    if len(name) == _NAME_LIMIT:
        return name[:_GENERATED_PREFIX]
    m = _GENERATED_NAME.fullmatch(name)
    return m["base"] if m is not None else None


def _named_workload(name: str) -> tuple[str, str] | None:
    """(kind, name) of the workload a pod's name implies when its owners are unknown: a
    controller's by its name's pattern, or ("generated", prefix) for a generated name; None for a
    name no controller writes.

    >>> _named_workload("coredns-6dcc67dcbc-pfrkk"), _named_workload("es-cluster-es-25g5k25k7w"), _named_workload("web")
    (('Deployment', 'coredns'), ('generated', 'es-cluster-es-'), None)
    """
    kind, base = guess_from_pod_name(name, None)
    if kind not in ("Pod", "StaticPod") and len(name) != _NAME_LIMIT:
        return kind, base
    generated = _generated_base(name) if kind == "Pod" or len(name) == _NAME_LIMIT else None
    return ("generated", generated) if generated else None


def _workload_by_name(namespace: str, name: str) -> str | None:
    """The workload a pod's name implies when its owners are unknown (a pasted table row), or
    None for a name no controller writes."""
    named = _named_workload(name)
    if named is None:
        return None
    kind, base = named
    return f"generated {namespace}/{base}" if kind == "generated" else f"{kind} {namespace}/{base} (by name)"


def _pod_workload(f: Finding, graph: _Graph) -> str | None:
    """The workload of a finding's pod: from its owners, a sibling's, or (pasted without them) its
    name; None for a finding on no pod, or a pod no controller made."""
    if f.kind != "Pod":
        return None
    node = graph.ids.get((f.kind, f.namespace, f.name))
    if node is not None and graph.owners(node):
        return graph.workload_of(node)
    if node is not None and (sibling := graph.sibling_owner(node)) is not None:
        return graph.workload_of(sibling)
    return _workload_by_name(f.namespace, f.name)


def _join_same_workload(problems: list[Finding], union: _Union, graph: _Graph) -> None:
    """One rule failing on several pods of one workload is one problem of its pod template
    (the workload known from the pods' owners, or, for pods pasted without them, their names)."""
    by_key: dict[tuple[str, str], list[int]] = defaultdict(list)
    for i, f in enumerate(problems):
        if (workload := _pod_workload(f, graph)) is not None:
            by_key[(f.rule, workload)].append(i)
    for members in by_key.values():
        for i in members[1:]:
            union.join(members[0], i)


def _join_workloads_of_one_component(problems: list[Finding], union: _Union, cluster: AnalyzedDump) -> None:
    """One rule failing on several workloads of one component in one namespace (the catalog's
    entry, or for a family the member the workloads' names name: a CSI driver's node and
    controller plugins) is one problem of that component (kubespray#7955: csi-cinder-controllerplugin
    and csi-cinder-nodeplugin crash-looping, one driver's configuration)."""
    catalog = load_catalog()
    member: dict[tuple[str, str, str], tuple[str, str]] = {}
    for workload, component, objects in _component_rows(cluster, "component"):
        entry = None if pd.isna(component) else catalog.by_name(str(component))
        if entry is not None:
            key = (workload[1], entry.member(workload[2]))
            member.update((ref, key) for ref in [workload, *objects])
    by_key: dict[tuple[str, tuple[str, str]], list[int]] = defaultdict(list)
    for i, f in enumerate(problems):
        if (key := member.get((f.kind, f.namespace, f.name))) is not None:
            by_key[(f.rule, key)].append(i)
    for members in by_key.values():
        for i in members[1:]:
            union.join(members[0], i)


def _join_pending_beside_eviction(problems: list[Finding], union: _Union, graph: _Graph) -> None:
    """A pod pending for no recorded reason beside an eviction of its workload's that nothing
    replaced is that replacement, kept out by what evicted the other (a node under pressure
    taints itself against new pods): one incident (canonical/microk8s#3143: a Deployment's pod
    evicted 11m before, its replacement Pending 10m, were two incidents)."""
    evicted: dict[str, int] = {}
    for i, f in enumerate(problems):
        if f.rule == "pod-evicted" and (workload := _pod_workload(f, graph)) is not None:
            evicted.setdefault(workload, i)
    if not evicted:
        return
    for i, f in enumerate(problems):
        if f.rule == "pod-pending" and str(f.facts.get("reason") or "") == _NO_REASON \
                and (j := evicted.get(_pod_workload(f, graph) or "")) is not None:
            union.join(j, i)


def _join_webhook_and_what_it_refuses(problems: list[Finding], union: _Union) -> None:
    """An admission webhook the API server could not call and the objects whose events quote it
    refusing them (ReplicaSets that cannot create their pods): one incident, the webhook first."""
    by_object = {f"{f.kind}/{f.namespace}/{f.name}": i for i, f in enumerate(problems)
                 if f.rule in ("events-failed-create", "events-warning-summary")}
    for i, f in enumerate(problems):
        if f.rule == "webhook-call-failed":
            for ref in f.facts.get("blocked") or ():
                if (j := by_object.get(str(ref))) is not None:
                    union.join(i, j)


def _join_same_scheduler_node_state(problems: list[Finding], union: _Union, g: Grouping) -> None:
    """Pods pending because the scheduler finds the nodes in one state (not ready, unreachable,
    ...) share that cause when no Node is in the dump to be it."""
    by_state: dict[str, list[int]] = defaultdict(list)
    for i, f in enumerate(problems):
        state = g.scheduler_node_state(f)
        if state is not None:
            by_state[state].append(i)
    for members in by_state.values():
        for i in members[1:]:
            union.join(members[0], i)


def _join_same_node_cause(problems: list[Finding], union: _Union) -> None:
    """NotReady nodes that say the same thing (reason and message) are one incident."""
    by_detail: dict[str, list[int]] = defaultdict(list)
    for i, f in enumerate(problems):
        if f.rule == "node-not-ready":
            by_detail[str(f.facts.get("detail", ""))].append(i)
    for members in by_detail.values():
        for i in members[1:]:
            union.join(members[0], i)


# Counts in a scheduler message ("0/5 nodes are available: 2 Insufficient pods") vary from pod
# to pod of one shortage; the words say what is short.
_COUNTS = re.compile(r"\d+")


def _join_same_scheduling_failure(problems: list[Finding], union: _Union) -> None:
    """Pending pods the scheduler turns down with the same words (counts aside) wait for one
    thing: the cluster's capacity, a taint or a selector no node meets. One incident, not one
    per pod. A reason that names an object (a claim not found) groups only the pods naming it.
    Pods known only from their FailedScheduling events (an events table pasted alone) are such
    pods too (aws/amazon-vpc-cni-k8s#2123: two proxies, '2 Insufficient vpc.amazonaws.com/pod-eni')."""
    by_reason: dict[str, list[int]] = defaultdict(list)
    told: dict[str, list[int]] = defaultdict(list)  # and the events' pods
    for i, f in enumerate(problems):
        reason = str(f.facts.get("reason") or "")
        if f.rule == "pod-pending" and reason and reason != _NO_REASON:
            by_reason[key := _COUNTS.sub("N", reason.strip().rstrip("."))].append(i)
            told[key].append(i)
        elif f.rule == "events-pod-problem" and reason == "FailedScheduling" and f.facts.get("last_message") \
                and not _UNBOUND_CLAIM.search(str(f.facts["last_message"])):
            # (a pod waiting for its own claim goes with that claim: _join_claims_and_their_pods)
            told[_COUNTS.sub("N", str(f.facts["last_message"]).strip().rstrip("."))].append(i)
    for members in told.values():
        for i in members[1:]:
            union.join(members[0], i)
    # (the pods of a table without a reason join a failure their namespace's pods show, not
    # one of pods the table does not list)
    _join_pending_without_reason(problems, union, by_reason)


def _join_static_pods_restarted_alike(problems: list[Finding], union: _Union) -> None:
    """Control-plane static pods of one node that restarted as many times as each other, when
    the dump does not say when (pasted rows, kubectl before 1.25): the node or its kubelet
    restarted them together, one incident. kubernetes/website#12664: etcd, kube-apiserver and
    kube-controller-manager of k8s-master.localdomain each "restarted 3 times" (coredns too) were
    three warning incidents."""
    alike: dict[tuple[str, str, str], list[int]] = defaultdict(list)
    for i, f in enumerate(problems):
        component = str(f.facts.get("component") or "")
        if f.rule != "control-plane-restarts" or f.facts.get("last") != "at an unknown time" \
                or not f.name.startswith(component + "-"):
            continue
        alike[(f.namespace, f.name[len(component) + 1:], str(f.facts.get("restarts")))].append(i)
    for members in alike.values():
        for i in members[1:]:
            union.join(members[0], i)


def _join_static_pods_looping_together(problems: list[Finding], union: _Union, cluster: AnalyzedDump,
                                       g: Grouping) -> None:
    """Control-plane static pods of one node pasted as rows, each restarted over and over and
    each last restarted within minutes of the table's printing: they loop together, for one
    cause (the node's container runtime, etcd's loss cascading), one incident. The rows show
    when each container started, not when the one before it ended, so the cascade's chain of
    terminations cannot tie them (kubernetes/kubernetes#117293: etcd, kube-apiserver,
    kube-controller-manager and kube-scheduler of mango restarted 18, 14, 23 and 18 times in
    13m, the last 4m1s, 12s, 38s and 74s before: four incidents)."""
    looping: dict[tuple[str, str], list[int]] = defaultdict(list)
    for i, f in enumerate(problems):
        component = str(f.facts.get("component") or "")
        if f.rule == "control-plane-restarts" and f.kind == "Pod" and f.name.startswith(component + "-"):
            looping[(f.namespace, f.name)].append(i)
    if len(looping) < 2:
        return
    by_node: dict[tuple[str, str], list[int]] = defaultdict(list)
    for pod in cluster.objects_of("Pod"):
        members = looping.get((pod.namespace, pod.name))
        text = pod.view.text
        if not members or text is None or text.last_restart_ago_seconds is None \
                or timedelta(seconds=text.last_restart_ago_seconds) > g.looping_together:
            continue
        component = str(problems[members[0]].facts.get("component"))
        by_node[(pod.namespace, pod.view.spec.nodeName or pod.name[len(component) + 1:])].extend(members)
    for members in by_node.values():
        for i in members[1:]:
            union.join(members[0], i)


def _join_control_plane_cascade(problems: list[Finding], union: _Union, cluster: AnalyzedDump,
                                g: Grouping) -> None:
    """Control-plane restarts of one node whose containers last ended one after another, each
    within the restart window of the one before (etcd, then the API server that lost it, then
    the controller manager and scheduler that lost their leases): one incident at one known
    moment, as _join_static_pods_restarted_alike joins them when no time is shown. The other
    control-plane pods of the node link the chain even without a finding of their own (kubeadm
    sample: etcd ended 11:12:51, the API server 11:13:40, the controller manager and scheduler
    11:14:29; two and three warnings before)."""
    from analyzer.findings.rules.control_plane_restarts import component_of

    finding_of: dict[tuple[str, str], list[int]] = defaultdict(list)
    for i, f in enumerate(problems):
        if f.rule == "control-plane-restarts" and f.kind == "Pod":
            finding_of[(f.namespace, f.name)].append(i)
    if len(finding_of) < 2:
        return
    pods = [p for p in cluster.objects_of("Pod")
            if p.namespace == "kube-system" and component_of(p.name, p.view.metadata.labels or {}) is not None]
    ends: dict[str, list[tuple[datetime, tuple[str, str]]]] = defaultdict(list)
    for end in container_ends(pods):
        ends[end.node].append((end.finished, (end.pod.namespace, end.pod.name)))
    for items in ends.values():
        items.sort()
        chain: list[tuple[str, str]] = []
        for k, (at, pod) in enumerate(items):
            if k and at - items[k - 1][0] > g.restart_window:
                _join_pods_findings(chain, finding_of, union)
                chain = []
            chain.append(pod)
        _join_pods_findings(chain, finding_of, union)


def _join_pods_findings(pods: list[tuple[str, str]], finding_of: dict[tuple[str, str], list[int]],
                        union: _Union) -> None:
    members = [i for pod in dict.fromkeys(pods) for i in finding_of.get(pod, ())]
    for i in members[1:]:
        union.join(members[0], i)


def _join_pending_without_reason(problems: list[Finding], union: _Union, by_reason: dict[str, list[int]]) -> None:
    """Pending pods of one namespace with no reason recorded (table rows, no describe or event of
    theirs) are one incident, not one per pod; and part of the namespace's scheduling failure when
    it has exactly one (the pod described says what the others wait for). A session against a
    kubeadm HA cluster whose workers were full (`get pods -A | grep -v Running`, one Pending pod
    described) gave one incident per row: 18 critical incidents for one problem."""
    unexplained: dict[str, list[int]] = defaultdict(list)
    for i, f in enumerate(problems):
        if f.rule == "pod-pending" and str(f.facts.get("reason") or "") == _NO_REASON:
            unexplained[f.namespace].append(i)
    for namespace, members in unexplained.items():
        for i in members[1:]:
            union.join(members[0], i)
        failures = [m for m in by_reason.values() if any(problems[i].namespace == namespace for i in m)]
        if len(failures) == 1:
            union.join(failures[0][0], members[0])


# A StatefulSet's claim is `<template>-<pod>`, its pod `<set>-<ordinal>`.
_ORDINAL_POD = re.compile(r"^[a-z0-9][a-z0-9.-]*-\d+$")
# What a scheduler or kubelet says of a pod whose claim is not bound: in so many words, or the
# volume binding that timed out waiting for the claim's volume to be made.
_UNBOUND_CLAIM = re.compile(r"unbound (?:immediate )?persistentvolumeclaims|persistentvolumeclaim is not bound"
                            r"|\bVolumeBinding\b.{0,20}binding volumes", re.I)
# A claim not bound: pending (the claim read), or known only from its events.
_CLAIM_RULES = ("pvc-pending", "events-claim-unbound")


def _join_claims_and_their_pods(problems: list[Finding], union: _Union, cluster: AnalyzedDump) -> None:
    """A pending claim and the pods it keeps from starting are one incident when the dump holds
    no pod to link them through: the pods its describe says use it (`Used By`, `Mounted By`), and
    a pod the scheduler turns down for an unbound claim whose name says it is the pod's: a
    StatefulSet's `data-web-0` of `web-0`, or a claim named as the pod's Deployment (a chart's
    one volume, `prometheus-server` of `prometheus-server-6bc5fc7bc7-wfkvl`). kubernetes#81714:
    prometheus-0's FailedScheduling "pod has unbound immediate PersistentVolumeClaims" and its
    Pending claim were two incidents; FedericoGGM/mundoes (EKS): two pods' VolumeBinding timeouts
    and their claims' provisioning refusals, known from events only, four."""
    claims = {(f.namespace, f.name): i for i, f in enumerate(problems)
              if f.rule in _CLAIM_RULES and f.kind == "PersistentVolumeClaim"}
    if not claims:
        return
    used_by: dict[tuple[str, str], set[str]] = {}
    for claim in cluster.objects_of("PersistentVolumeClaim"):
        text = claim.view.text
        if (claim.namespace, claim.name) in claims and text is not None and text.used_by:
            used_by[(claim.namespace, claim.name)] = set(text.used_by)
    for j, f in enumerate(problems):
        if f.kind != "Pod":
            continue
        unbound = _UNBOUND_CLAIM.search(" ".join(str(f.facts.get(k, "")) for k in ("reason", "last_message")))
        kind, base = guess_from_pod_name(f.name, None) if unbound else ("", "")
        for (namespace, name), i in claims.items():
            if namespace != f.namespace:
                continue
            if f.name in used_by.get((namespace, name), ()) or (unbound and (
                    (_ORDINAL_POD.match(f.name) and name.endswith("-" + f.name))
                    or (kind == "Deployment" and name == base))):
                union.join(i, j)


def _join_claims_and_their_provisioner(problems: list[Finding], union: _Union, cluster: AnalyzedDump,
                                       g: Grouping) -> dict[int, str]:
    """Claims waiting on a known provisioner (the volume controller's ExternalProvisioning names
    it) and the findings that its controller is not serving (data/incidents.yaml
    provisioner_not_serving, on a workload or pod of its components, data/provisioners.yaml): one
    incident, the controller its cause. A DaemonSet of those components is the node plugin, which
    mounts volumes and makes none: a claim does not wait on it. Returns the provisioner by id of
    each controller finding joined. kubernetes-sigs/aws-ebs-csi-driver#945: ebs-csi-controller 0/1
    and the claim waiting on ebs.csi.aws.com were two incidents."""
    waiting: dict[str, list[int]] = defaultdict(list)
    for i, f in enumerate(problems):
        if f.rule in _CLAIM_RULES and f.kind == "PersistentVolumeClaim" and f.facts.get("provisioner"):
            waiting[str(f.facts["provisioner"])].append(i)
    known = known_provisioners()
    component_of = {c: name for name in waiting if name in known for c in known[name].components}
    if not component_of:
        return {}
    serving: dict[tuple[str, str, str], str] = {}
    for workload, component, objects in _component_rows(cluster, "component"):
        if component not in component_of or workload[0] == "DaemonSet":
            continue
        serving.update((ref, component_of[component]) for ref in [workload, *objects])
    joined: dict[int, str] = {}
    for i, f in enumerate(problems):
        if f.rule in g.provisioner_not_serving and (name := serving.get((f.kind, f.namespace, f.name))):
            for j in waiting[name]:
                union.join(i, j)
            joined[id(f)] = name
    return joined


def _claims_waiting_text(provisioner: str, members: list[Finding]) -> str:
    """What the incident says of the claims waiting on its provisioner's controller.

    >>> f = Finding("pvc-pending", "warning", "storage", "fail", "PersistentVolumeClaim", "default", "ebs-claim",
    ...             facts={"provisioner": "ebs.csi.aws.com"})
    >>> _claims_waiting_text("ebs.csi.aws.com", [f])
    '; 1 claim waits on ebs.csi.aws.com to make its volume: default/ebs-claim'
    """
    claims = sorted({f"{f.namespace}/{f.name}" for f in members
                     if f.rule in _CLAIM_RULES and f.facts.get("provisioner") == provisioner})
    if not claims:
        return ""
    shown = ", ".join(claims[:4]) + (f" and {len(claims) - 4} more" if len(claims) > 4 else "")
    waits = "claim waits on {} to make its volume" if len(claims) == 1 else "claims wait on {} to make their volumes"
    return f"; {len(claims)} {waits.format(provisioner)}: {shown}"


# What varies between two claims' refusals for one cause: ids (a request's, a volume's), counts.
_REFUSAL_IDS = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\b[0-9a-f]{12,}\b|\d+", re.I)
# The end of a refusal that says its cause (an error chain ends with it), compared between claims.
_REFUSAL_TAIL = 100


# The API server's words for a ResourceQuota that refuses a controller's pods (FailedCreate):
# 'is forbidden: exceeded quota: compute-resources, requested: ...', 'failed quota: q: must specify ...'.
_QUOTA_REFUSES = re.compile(r"\b(?:exceeded|failed) quota: ([a-z0-9][a-z0-9.-]*)", re.I)
# The facts in which a finding quotes such words.
_QUOTING_FACTS = ("detail", "last_message")


def blocking_object(finding: Finding) -> tuple[str, str, str] | None:
    """The object that keeps a finding's object from running, as (kind, namespace, name): one it
    needs and the cluster lacks (a missing reference, ref-missing-*; a Secret or ConfigMap the
    kubelet's words say is not found), or the ResourceQuota refusing its pods; None for any other
    finding."""
    if finding.rule.startswith("ref-missing-") and finding.facts.get("ref_name"):
        return str(finding.facts.get("ref_kind")), finding.namespace, str(finding.facts["ref_name"])
    for fact in _QUOTING_FACTS:
        said = str(finding.facts.get(fact) or "")
        if (named := NAMED_NOT_FOUND.search(said)) is not None:
            return NOT_FOUND_KIND[named[1].lower()], finding.namespace, named[2]
        if (quota := _QUOTA_REFUSES.search(said)) is not None:
            return "ResourceQuota", finding.namespace, quota[1]
    return None


def _join_same_blocking_object(problems: list[Finding], union: _Union) -> None:
    """Findings whose objects one object keeps from running (one Secret that every replica of
    three Deployments reads and the cluster lacks; one quota that refuses their pods) wait for
    that object: one incident, not one per workload. Kind, namespace and name must match: a pod
    that fails for another reason, or waits for another object, stays apart."""
    by_object: dict[tuple[str, str, str], list[int]] = defaultdict(list)
    for i, f in enumerate(problems):
        if (blocker := blocking_object(f)) is not None:
            by_object[blocker].append(i)
    union.join_groups(by_object.values())


def _join_dump_wide_causes(problems: list[Finding], union: _Union, g: Grouping) -> None:
    """Findings of a rule whose cause is the cluster's, not its objects' (data/incidents.yaml
    dump_wide_causes: pods given one address twice, one pod network doing it on every node):
    one incident, each finding joining its object's own."""
    by_rule: dict[str, list[int]] = defaultdict(list)
    for i, f in enumerate(problems):
        if f.rule in g.dump_wide_causes:
            by_rule[f.rule].append(i)
    union.join_groups(by_rule.values())


def _join_quoted_causes(problems: list[Finding], union: _Union, g: Grouping) -> None:
    """Findings quoting the API server's words for a cause another rule finds (data/incidents.yaml
    quoted_causes: '2 default StorageClasses were found' in a StatefulSet's FailedCreate) join
    that rule's findings: one incident, not one for the cause and one per object it refuses
    (elastic/cloud-on-k8s#1766: GKE's standard and e2e-default both default, the StatefulSet's
    claim refused)."""
    causes = {rule: i for i, f in reversed(list(enumerate(problems))) for _, rule in g.quoted_causes if f.rule == rule}
    if not causes:
        return
    for j, f in enumerate(problems):
        said = " ".join(str(f.facts.get(k) or "") for k in _QUOTING_FACTS + ("reason",))
        for pattern, rule in g.quoted_causes:
            if rule in causes and f.rule != rule and pattern.search(said):
                union.join(causes[rule], j)


_NAME_LIST = re.compile(r",? and |, ")


def named_waits(f: Finding, g: Grouping) -> set[tuple[str, str]]:
    """(kind, name) of the objects a finding's condition message names as what its object waits
    for, in its controller's words (data/incidents.yaml named_waits); empty for any other."""
    if f.kind not in g.named_waits:
        return set()
    kind, patterns = g.named_waits[f.kind]
    said = " ".join(str(f.facts.get(k) or "") for k in ("condition_message",) + _QUOTING_FACTS)
    return {(kind, name) for pattern in patterns for m in pattern.finditer(said)
            for name in _NAME_LIST.split(m.group("names")) if name}


def _join_named_waits(problems: list[Finding], union: _Union, g: Grouping) -> None:
    """A finding whose message names the objects its object waits for (a ClusterVersion's
    'Cluster operator authentication is degraded') joins the findings on those objects: one
    incident, not one for the operator and one for the update it holds up
    (openshift/cluster-authentication-operator#152)."""
    if not g.named_waits:
        return
    by_name: dict[tuple[str, str], list[int]] = defaultdict(list)
    for j, f in enumerate(problems):
        by_name[(f.kind, f.name)].append(j)
    for i, f in enumerate(problems):
        for ref in named_waits(f, g):
            for j in by_name.get(ref, ()):
                union.join(i, j)


def _named_cause(root: Finding, members: list[Finding], g: Grouping, order: dict[str, int]) -> Finding:
    """The cause among findings joined by a message naming what its object waits for: a finding
    on an object it names (the ClusterOperator, not the ClusterVersion waiting for it), followed
    down the chain (the pool the operator names in turn)."""
    seen = {(root.kind, root.name)}
    while named := named_waits(root, g) - seen:
        seen |= named
        nxt = min((f for f in members if (f.kind, f.name) in named), default=None,
                  key=lambda f: (SEVERITIES.index(f.severity), order.get(f.rule, len(order)), f.kind, f.name))
        if nxt is None:
            break
        root = nxt
    return root


def _join_claims_refused_alike(problems: list[Finding], union: _Union) -> None:
    """Claims their provisioner refuses with the same cause (the end of its message, ids and
    counts aside) wait for one thing: the provisioner's identity, quota or configuration. One
    incident, not one per claim. FedericoGGM/mundoes (EKS): both claims of a Prometheus chart
    refused by EBS CSI's 'AssumeRoleWithWebIdentity ... ValidationError: Request ARN is invalid'."""
    by_cause: dict[tuple[str, str], list[int]] = defaultdict(list)
    for i, f in enumerate(problems):
        if f.rule not in _CLAIM_RULES or f.kind != "PersistentVolumeClaim":
            continue
        reason = str(f.facts.get("reason") or "")
        if f.rule == "events-claim-unbound" and reason == "ProvisioningFailed":
            said = str(f.facts.get("last_message") or "")
        elif f.rule == "pvc-pending" and reason.startswith("ProvisioningFailed: "):
            said = reason.removeprefix("ProvisioningFailed: ").rsplit(" (", 1)[0]
        else:
            continue
        cause = _REFUSAL_IDS.sub("N", said)[-_REFUSAL_TAIL:]
        if cause.strip():
            by_cause[(f.namespace, cause)].append(i)
    for members in by_cause.values():
        for i in members[1:]:
            union.join(members[0], i)


_REFUSED_RULE = "api-version-refused"


def _join_refused_by_one_command(problems: list[Finding], union: _Union) -> None:
    """Objects one apply or Helm install could not send, for one reason (one removed API, one
    custom group whose CRDs are not installed), failed together: one incident, not one per object
    (cert-manager/cert-manager#5971: a chart's three PodSecurityPolicies). Another command's, or
    another reason's, stay apart."""
    by_command: dict[tuple[str, str], list[int]] = defaultdict(list)
    for i, f in enumerate(problems):
        if f.rule == _REFUSED_RULE and f.facts.get("refused_by") and f.facts.get("refused_for"):
            by_command[(str(f.facts["refused_by"]), str(f.facts["refused_for"]))].append(i)
    for members in by_command.values():
        for i in members[1:]:
            union.join(members[0], i)


# The rules whose finding is a system component failing or gone, with its role in `role`.
_COMPONENT_RULES = ("critical-component-missing", "critical-component-unhealthy", "system-component-deleted")


def _explains(component: Finding, effect: Finding, g: Grouping, role: str | None = None) -> bool:
    """Whether a failing component explains another finding: a dump-wide log pattern (a
    critical component's finding) or a rule's finding its role explains (data/incidents.yaml).
    `role`: the component's, for a finding on its workload or pods."""
    if component.rule in _COMPONENT_RULES:
        role = str(component.facts.get("role"))
        if effect.rule == "logs-dump-wide-pattern":
            return str(effect.facts.get("signature")) in g.component_explains_logs.get(role, ())
    if role is None or component is effect:
        return False
    word = g.component_explains_rules.get(role, {}).get(effect.rule)
    if word is None:
        return False
    from analyzer.findings import _metas
    from analyzer.findings.render import message

    return word in message(effect, _metas()[effect.rule])


def _join_component_and_what_it_explains(problems: list[Finding], union: _Union, g: Grouping,
                                         cluster: AnalyzedDump) -> None:
    """A failing component and what its role explains: an API tunnel and the logs the dump could
    not fetch through it (a dump-wide pattern, the API server's quoted answer), metrics-server
    and the HPAs without metrics. One incident."""
    explained = {r for rules in g.component_explains_rules.values() for r in rules}
    effects = [i for i, f in enumerate(problems) if f.rule == "logs-dump-wide-pattern" or f.rule in explained]
    if not effects:
        return
    roles = _component_roles(cluster)
    for i, f in enumerate(problems):
        role = roles.get((f.kind, f.namespace, f.name))
        for j in effects:
            if _explains(f, problems[j], g, role):
                union.join(i, j)


_HPA_RULE = "hpa-not-scaling"


def _metrics_api(f: Finding) -> tuple[str, str] | None:
    """(API group, its state) of an HPA finding whose controller's words say the metrics API
    itself failed it ('metrics.k8s.io', 'not served'), or None."""
    api = f.facts.get("metrics_api") if f.rule == _HPA_RULE else None
    return (str(api), str(f.facts.get("metrics_api_state") or "")) if api else None


def _join_hpas_of_one_metrics_api(problems: list[Finding], union: _Union) -> None:
    """HorizontalPodAutoscalers that cannot scale because one metrics API is not served, or does
    not answer, wait for that API, cluster-wide: one incident, not one per HPA
    (kubernetes-sigs/kubespray#3006: two istio HPAs, 'could not find the requested resource (get
    pods.metrics.k8s.io)', no metrics-server)."""
    by_api: dict[tuple[str, str], list[int]] = defaultdict(list)
    for i, f in enumerate(problems):
        if (api := _metrics_api(f)) is not None:
            by_api[api].append(i)
    union.join_groups(by_api.values())


def _join_pending_and_their_node_groups(problems: list[Finding], union: _Union) -> None:
    """Pods the cluster autoscaler added no node for, and the node group its status says is why
    (in backoff after a failed scale-up, at its maximum size, Unhealthy: the autoscaler's event on
    each pod and its status ConfigMap agree, analyzer/findings/autoscaler.py): one cause, the
    group's own finding."""
    by_group: dict[str, list[int]] = defaultdict(list)
    for i, f in enumerate(problems):
        if f.rule == "autoscaler-status" and f.facts.get("node_group"):
            by_group[str(f.facts["node_group"])].append(i)
    for i, f in enumerate(problems):
        for group in f.facts.get("autoscaler_groups") or ():
            for j in by_group.get(str(group), ()):
                union.join(i, j)


def _node_group(root: Finding) -> str:
    """ "Node group X (the cluster autoscaler's status ConfigMap NS/NAME)" where the cause is a node
    group its autoscaler's status names; "" else."""
    group = root.facts.get("node_group") if root.rule == "autoscaler-status" else None
    return f"Node group {group} (the cluster autoscaler's status, ConfigMap {root.namespace}/{root.name})" \
        if group else ""


def _metrics_api_headline(api: tuple[str, str], members: list[Finding]) -> tuple[str, str]:
    """The cause and headline of an incident led by HPAs one metrics API fails: the API, what the
    controller's words say of it, and the HPAs that cannot scale for it, by name."""
    group, state = api
    hpas = sorted(f"{f.namespace}/{f.name}" if f.namespace else f.name for f in members if _metrics_api(f) == api)
    cause = f"The {group} API ({state}, as the HPA controller's words say)"
    said = "s cannot read their metrics and do not" if len(hpas) != 1 else " cannot read its metrics and does not"
    headline = f"The {group} API is {state}: {len(hpas)} HorizontalPodAutoscaler{said} scale ({_first_named(hpas)})"
    others = Counter(f.rule for f in members if _metrics_api(f) != api)
    if others:
        headline += "; with it: " + ", ".join(f"{n} {rule}" for rule, n in sorted(others.items()))
    return cause, headline


def _component_roles(cluster: AnalyzedDump) -> dict[tuple[str, str, str], str]:
    """The role of each classified system component, by its workload and by each of its pods."""
    roles: dict[tuple[str, str, str], str] = {}
    for workload, role, objects in _component_rows(cluster, "role"):
        if pd.isna(role) or role in ("unknown", "other"):
            continue
        roles.update((ref, str(role)) for ref in [workload, *objects])
    return roles


def _component_rows(cluster: AnalyzedDump, column: str
                    ) -> list[tuple[tuple[str, str, str], Any, list[tuple[str, str, str]]]]:
    """Each row of the components table: its workload as (kind, namespace, name), its `column`,
    and the objects (pods) it lists ('group/kind/namespace/name,...'); none without the table."""
    try:
        table = cluster.tables["components"]
    except KeyError:
        return []
    rows = []
    for kind, namespace, name, value, objects in zip(table["kind"], table["namespace"], table["name"],
                                                     table[column], table["objects"], strict=True):
        parts = (obj_id.split("/") for obj_id in ("" if pd.isna(objects) else str(objects)).split(","))
        rows.append(((str(kind), str(namespace), str(name)), value,
                     [(p[1], p[2], p[3]) for p in parts if len(p) == 4]))  # group/kind/namespace/name
    return rows


def _join_cni_and_nodes(problems: list[Finding], union: _Union, cluster: AnalyzedDump) -> None:
    """Nodes NotReady because their network plugin is not ready, with an unhealthy CNI
    component: the CNI is the cause."""
    cni = [i for i, f in enumerate(problems) if f.rule.startswith("critical-component")
           and f.facts.get("role") == "cni"]
    # two primary CNIs side by side: the CNI workloads' own findings follow from them
    for i, f in enumerate(problems):
        if f.rule != "cni-multiple":
            continue
        named = {w for ws in (f.facts.get("workloads") or {}).values() for w in ws}
        for j, other in enumerate(problems):
            if j in cni or f"{other.kind} {other.namespace}/{other.name}" in named:
                union.join(i, j)
    if not cni:
        return
    explained = grouping().cni_explains
    # no network plugin at all (kubeadm init without a pod network): a node NotReady with no
    # reason in the dump (a pasted `get nodes`) is NotReady for it (kubernetes/website#31550)
    missing = next((i for i in cni if problems[i].rule == "critical-component-missing"), None)
    # nor, the dump holding no Node, a pod pending with no reason in the dump: the not-ready
    # taint keeps it off (weaveworks/weave#3661: coredns and a first pod Pending, no pod network)
    no_node = next(iter(cluster.objects_of("Node")), None) is None
    for i, f in enumerate(problems):
        detail = str(f.facts.get("detail", ""))
        if f.rule in ("node-not-ready", "node-network-unavailable") and _CNI_NOT_READY.search(detail):
            union.join(cni[0] if missing is None else missing, i)
        elif missing is not None and (
                (f.rule == "node-not-ready" and detail in _NO_NODE_REASON)
                or (no_node and f.rule == "pod-pending" and f.facts.get("reason") == _NO_REASON)):
            union.join(missing, i)
        elif f.rule in explained:
            union.join(cni[0], i)  # no sandbox without the network plugin


# The pressure rules, by the node condition each reads (its taint: data/node_condition_taints.yaml).
_PRESSURE_RULES = {"node-disk-pressure": "DiskPressure", "node-memory-pressure": "MemoryPressure",
                   "node-pid-pressure": "PIDPressure"}


def _join_pressure_and_its_taint(problems: list[Finding], union: _Union) -> None:
    """Pods no node will take for a taint the node lifecycle controller keeps on a node under
    pressure (node.kubernetes.io/disk-pressure while DiskPressure is True) wait on that pressure:
    one incident, the node's pressure its cause (kubernetes/kubernetes#93711: the nginx pods
    Pending for the disk-pressure taint and the node's DiskPressure were two incidents)."""
    from analyzer.findings.pressure import condition_taints

    taint_of = condition_taints()
    pressured: dict[str, list[int]] = defaultdict(list)  # taint key -> the pressure findings
    for i, f in enumerate(problems):
        if f.rule in _PRESSURE_RULES and f.kind == "Node":
            pressured[taint_of[_PRESSURE_RULES[f.rule]]].append(i)
    if not pressured:
        return
    for i, f in enumerate(problems):
        if f.rule != "node-taints-unschedulable":
            continue
        named = str(f.facts.get("taints") or "")
        for key, nodes in pressured.items():
            if f"{key}:" in named:
                for j in nodes:
                    union.join(i, j)


# The kubelet's node status events, by the condition each says became True.
_PRESSURE_EVENTS = {"NodeHasDiskPressure": "DiskPressure", "NodeHasInsufficientMemory": "MemoryPressure",
                    "NodeHasInsufficientPID": "PIDPressure"}
_EVICTION_RULES = ("pod-evicted", "events-pod-problem")


def eviction_condition(finding: Finding, g: Grouping) -> str | None:
    """The node condition an evicted pod's message names (the kubelet's admission or its
    eviction manager), None when the finding is no eviction or names none."""
    if finding.rule == "pod-evicted":
        message = str(finding.facts.get("detail", ""))
    elif finding.rule == "events-pod-problem" and finding.facts.get("reason") == "Evicted":
        message = str(finding.facts.get("last_message", ""))
    else:
        return None
    if g.evicted_for_condition is not None and (m := g.evicted_for_condition.search(message)):
        return m["conditions"].split(",")[0].strip() or None
    if g.evicted_for_resource is not None and (m := g.evicted_for_resource.search(message)):
        return g.eviction_resource_conditions.get(m["resource"].rstrip("."))
    return None


def _scheduled_to(cluster: AnalyzedDump) -> dict[tuple[str, str], str]:
    """(namespace, pod) -> the node the scheduler's Scheduled event assigned it to."""
    out: dict[tuple[str, str], str] = {}
    for obj in cluster.objects_of("Event"):
        view = obj.view
        if current_reason(view.reason or "") == "Scheduled" and (m := ASSIGNED_TO.match(view.message or "")):
            involved = view.involvedObject
            namespace = m[1] if m[1] is not None else (involved.namespace if involved is not None else None)
            out[(namespace or "", m[2])] = m[3]
    return out


def _join_evicted_for_one_node_condition(problems: list[Finding], union: _Union, cluster: AnalyzedDump,
                                         graph: _Graph, g: Grouping) -> dict[int, tuple[str, str]]:
    """Pods evicted for one condition of one node (the kubelet's words in their messages) share
    that cause, and join the node's pressure finding when the dump has one. Returns the evictions
    by finding index: (node, '' when the dump does not name it; condition)."""
    evicted: dict[int, tuple[str, str]] = {}
    assigned: dict[tuple[str, str], str] | None = None
    for i, f in enumerate(problems):
        condition = eviction_condition(f, g)
        if condition is None:
            continue
        node = str(f.facts.get("node", "")).strip("?")
        if not node and (pod := graph.ids.get(("Pod", f.namespace, f.name))) is not None:
            host = graph.node_of(pod)
            node = graph.ref(host)[2] if host is not None else ""
        if not node:
            if assigned is None:
                assigned = _scheduled_to(cluster)
            node = assigned.get((f.namespace, f.name), "")
        evicted[i] = (node, condition)
    if not evicted:
        return evicted
    by_cause: dict[tuple[str, str], list[int]] = defaultdict(list)
    for i, key in evicted.items():
        by_cause[key].append(i)
    # condition -> node -> the node's findings that show it
    pressed: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    for i, f in enumerate(problems):
        if f.kind != "Node":
            continue
        condition = _PRESSURE_RULES.get(f.rule) or (
            _PRESSURE_EVENTS.get(str(f.facts.get("reason"))) if f.rule == "events-node-problem" else None)
        if condition is not None:
            pressed[condition][f.name].append(i)
    for (node, condition), members in by_cause.items():
        shown = pressed[condition]
        if not node and len(shown) == 1:
            # evictions that name no node, and one node of the dump under that condition: it
            # (akash-network/support#226: an ephemeral-storage eviction, node1's NodeHasDiskPressure)
            node = next(iter(shown))
        for i in shown.get(node, []) + members[1:]:
            union.join(members[0], i)
    return evicted


def _evicted_for(root: Finding, members: list[Finding], evicted_on: dict[int, tuple[str, str]]
                 ) -> tuple[tuple[str, str], list[Finding]] | None:
    """The node and condition the incident's evictions name, with those evictions, when its
    cause is an eviction (no node finding, no pod's own failure before it)."""
    cause = evicted_on.get(id(root))
    if cause is None:
        return None
    condition = cause[1]
    # an eviction the dump names no node for, joined with these (its ReplicaSet's), is told beside them
    return cause, [f for f in members if evicted_on.get(id(f)) in (cause, ("", condition))]


def _evicted_headline(node: str, condition: str, evictions: list[Finding], members: list[Finding],
                      cluster: AnalyzedDump) -> str:
    """The headline of pods evicted for a node's condition that no node finding of the dump shows."""
    names = sorted({f"{f.namespace}/{f.name}" for f in evictions})
    named = _first_named(names)
    where = f"Node {node}" if node else "Their node (the dump does not name it)"
    said = evictions[0].facts.get("last_message") or evictions[0].facts.get("detail")
    text = f"{where} under {condition}, in the kubelet's words evicting {len(names)} pod(s): \"{said}\" ({named})"
    held = next((o for o in cluster.objects_of("Node") if o.name == node), None) if node else None
    now = next((c.status for c in held.view.status.conditions or () if c.type == condition), None) if held else None
    if now is not None:
        text += f"; the node reports {condition}={now} now" + (": the pressure has passed" if now == "False" else "")
    else:
        text += f"; no {condition} condition of the node is in the dump to show whether it lasts"
    others = Counter(f.rule for f in members if not any(f is e for e in evictions))
    if others:
        text += "; with it: " + ", ".join(f"{n} {rule}" for rule, n in sorted(others.items()))
    return text


def _operand_key(f: Finding, g: Grouping) -> tuple[str, str, int] | None:
    """(namespace, operator, stage) of a finding on an operator's operand DaemonSet or pod."""
    if f.kind not in ("DaemonSet", "Pod") or not g.operand_stages:
        return None
    found = g.operand_stage(f.name)
    return (f.namespace, *found) if found is not None else None


def _operand_daemonsets_by_their_pods(problems: list[Finding], graph: _Graph, g: Grouping,
                                      by_object: dict[tuple[str, str, str], list[int]],
                                      ) -> tuple[set[int], set[int], set[tuple[str, str, str]]]:
    """Operand DaemonSets short of pods (operand_waits), by their failing pods in the dump: (the
    findings of those with a pod waiting and a pod failing past its wait for its own cause; of
    those whose failing pods all fail past it; those pods). A DaemonSet joins its pods, and the
    stage before when it waits: through it a pod crashing past its wait was joined to that stage,
    and the stage named its cause (NVIDIA/gpu-operator#487: a DCGM exporter crashlooping)."""
    waiting: set[int] = set()
    crashing: set[int] = set()
    past_wait: set[tuple[str, str, str]] = set()
    for i, f in enumerate(problems):
        if f.kind != "DaemonSet" or f.rule not in g.operand_waits or _operand_key(f, g) is None:
            continue
        node_id = graph.ids.get((f.kind, f.namespace, f.name))
        failing = [graph.ref(p) for p in (graph.pods_of(node_id) if node_id is not None else ())
                   if by_object.get(graph.ref(p))]
        # (an init container failing is the wait itself failing: toolkit-validation)
        own = [ref for ref in failing if any(problems[j].rule in g.own_causes
                                             and problems[j].rule not in g.operand_waits for j in by_object[ref])]
        past_wait.update(own)
        if own and len(own) < len(failing):
            waiting.add(i)
        elif own:
            crashing.add(i)
    return waiting, crashing, past_wait


def _join_operands_and_the_stage_they_wait_for(problems: list[Finding], union: _Union, graph: _Graph,
                                               g: Grouping, crashing: set[int]) -> None:
    """Operands of one operator in one namespace waiting (data/incidents.yaml operand_waits) in
    a later stage than its earliest failing one wait for it (operand_stages): one incident; a pod
    only where that stage fails on its node (or the dump does not say on which node either is);
    a DaemonSet not where all its failing pods fail for their own cause (`crashing`)."""
    by_operator: dict[tuple[str, str], dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for i, f in enumerate(problems):
        if (key := _operand_key(f, g)) is not None:
            by_operator[key[:2]][key[2]].append(i)
    for stages in by_operator.values():
        if len(stages) < 2:
            continue
        earliest = min(stages)
        first = stages[earliest]
        hosts = {_host_of(problems[i], graph) for i in first}
        for i in first[1:]:
            union.join(first[0], i)
        for stage, members in stages.items():
            for i in members:
                f = problems[i]
                if stage > earliest and f.rule in g.operand_waits and i not in crashing and (
                        None in hosts or (host := _host_of(f, graph)) is None or host in hosts):
                    union.join(first[0], i)


def _host_of(f: Finding, graph: _Graph) -> str | None:
    """The node a pod finding's pod runs on, when the dump says; None for any other finding."""
    node = graph.ids.get((f.kind, f.namespace, f.name)) if f.kind == "Pod" else None
    host = graph.node_of(node) if node is not None else None
    return graph.ref(host)[2] if host is not None else None


def _join_owner_chain(problems: list[Finding], union: _Union, graph: _Graph, g: Grouping,
                      by_object: dict[tuple[str, str, str], list[int]]) -> None:
    """Findings of owner_chain_rules on objects one owns another of (cert-manager's Certificate,
    its CertificateRequest, Order and Challenge; an operator's custom resources): one incident."""
    for i, f in enumerate(problems):
        if f.rule not in g.owner_chain_rules or f.kind in ("Pod", "Node"):
            continue
        node_id = graph.ids.get((f.kind, f.namespace, f.name))
        if node_id is None:
            continue
        for owner in graph.owners(node_id):
            for j in by_object.get(graph.ref(owner), ()):
                if problems[j].rule in g.owner_chain_rules:
                    union.join(i, j)


def _furthest_down_the_chain(root: Finding, members: list[Finding], graph: _Graph, g: Grouping) -> Finding:
    """Of an incident's owner_chain_rules findings, the one on the object with the longest chain
    of owners among them (a Challenge under its Order, request and Certificate): what it waits on
    is why those above it are not ready. The root as it was where none is under another."""
    if root.rule not in g.owner_chain_rules:
        return root
    chained = {(f.kind, f.namespace, f.name) for f in members if f.rule in g.owner_chain_rules}

    def depth(f: Finding) -> int:
        node_id = graph.ids.get((f.kind, f.namespace, f.name))
        return 0 if node_id is None else sum(graph.ref(o) in chained for o in graph.owners(node_id))

    deepest = max((f for f in members if f.rule in g.owner_chain_rules), key=depth, default=root)
    return deepest if depth(deepest) > 0 else root


def _earliest_operand_stage(root: Finding, members: list[Finding], g: Grouping, order: dict[str, int]) -> Finding:
    """The cause among an operator's operands: a finding of its earliest failing stage (by
    cause_order within it), when the root is a later stage's."""
    at = _operand_key(root, g)
    if at is None:
        return root
    earlier = [(key[2], f) for f in members if (key := _operand_key(f, g)) is not None
               and key[:2] == at[:2] and key[2] < at[2]]
    if not earlier:
        return root
    stage = min(s for s, _ in earlier)
    return min((f for s, f in earlier if s == stage),
               key=lambda f: (order.get(f.rule, len(order)), SEVERITIES.index(f.severity), f.kind, f.name))


def _join_device_missing_and_plugin(problems: list[Finding], union: _Union, graph: _Graph, g: Grouping) -> None:
    """A node that advertises no device its pool's other nodes do, and the failing pod of a
    device plugin on that node: the plugin not running there is why the device is missing
    (rev8's EKS EFA write-up: aws-efa-k8s-device-plugin crashlooping on the one hpc7g node
    without vpc.amazonaws.com/efa)."""
    missing = {f.name: i for i, f in enumerate(problems) if f.rule == "node-device-missing" and f.kind == "Node"}
    if not missing or not g.device_plugin_words:
        return
    for j, f in enumerate(problems):
        if f.kind not in ("Pod", "DaemonSet") or not any(word in f.name for word in g.device_plugin_words):
            continue
        if f.kind == "DaemonSet":
            # its pods not in the dump: a plugin DaemonSet short of ready pods, for the device it
            # names (aws-efa-... for vpc.amazonaws.com/efa, nvidia-... for nvidia.com/gpu)
            for i in missing.values():
                if _names_device(f.name, str(problems[i].facts.get("resource", ""))):
                    union.join(i, j)
            continue
        node_id = graph.ids.get((f.kind, f.namespace, f.name))
        host = graph.node_of(node_id) if node_id is not None else None
        if host is not None and (i := missing.get(graph.ref(host)[2])) is not None:
            union.join(i, j)


def _names_device(plugin: str, resource: str) -> bool:
    """Whether a device plugin's name names an extended resource by a word of it.

    >>> _names_device("aws-efa-k8s-device-plugin-daemonset", "vpc.amazonaws.com/efa"), _names_device("nvidia-device-plugin", "vpc.amazonaws.com/efa")
    (True, False)
    """
    words = {w for w in re.split(r"[./-]", resource) if len(w) >= 3 and w not in ("com", "io", "org", "net")}
    return any(w in plugin.split("-") for w in words)


@dataclass(frozen=True, slots=True)
class RestartMoment:
    """Containers of one node whose last termination fell within one window: the node or its
    container runtime restarted then (a moment of analyzer/model/restarts.py), or, without the
    sign of a lost sandbox, they restarted together for a cause they share."""

    node: str
    at: datetime
    pods: tuple[str, ...]
    node_restart: bool


def _join_restart_moments(problems: list[Finding], union: _Union, cluster: AnalyzedDump, graph: _Graph,
                          g: Grouping, own_cause: set[tuple[str, str, str]]) -> dict[int, RestartMoment]:
    """Restart findings grouped by node and time; returns the moment of each grouped finding.

    A finding whose pod has a container that ended with a node restart joins that moment, and
    so does the node-restart finding that names it; one whose container ended within the
    after-window (it started before the API server was back) too, but for pods with a failure
    of their own. The other restart findings form moments of restarts together."""
    node_moments = cluster_restart_moments(cluster)
    found = {(m.node, m.start): RestartMoment(m.node, m.start, tuple(m.pods), True) for m in node_moments}
    moments: dict[int, RestartMoment] = {}
    anchor: dict[RestartMoment, int] = {}

    def join(i: int, moment: RestartMoment) -> None:
        moments[i] = moment
        if moment in anchor:
            union.join(anchor[moment], i)
        else:
            anchor[moment] = i

    for i, f in enumerate(problems):
        if f.rule == "node-restart" and f.kind == "Node":
            at = parse_time(str(f.facts.get("time")))
            if (f.name, at) in found:
                join(i, found[(f.name, at)])
    stamped: dict[str, list[tuple[datetime, int]]] = defaultdict(list)
    ends: dict[tuple[str, str], list[ContainerEnd]] = defaultdict(list)
    # (only pods whose containers ended before have ends)
    for end in container_ends(pod_suspects(cluster).of("exited")):
        ends[(end.pod.namespace, end.pod.name)].append(end)
    for i, f in enumerate(problems):
        if f.rule not in g.restart_rules or f.kind != "Pod":
            continue
        own = ends.get((f.namespace, f.name))
        if not own:
            continue
        node = own[0].node
        keys = {e.key for e in own}
        moment = next((m for m in node_moments if any(e.key in keys for e in m.members)), None)
        if moment is None and (f.kind, f.namespace, f.name) not in own_cause:
            moment = next((m for m in node_moments if any(m.explains(node, e.finished) for e in own)), None)
        if moment is not None:
            join(i, found[(moment.node, moment.start)])
        else:
            stamped[node].append((max(e.finished for e in own), i))
    for node, items in stamped.items():
        items.sort(key=lambda t: t[0])
        start = 0
        for k in range(1, len(items) + 1):
            if k == len(items) or items[k][0] - items[start][0] > g.restart_window:
                _together(items[start:k], problems, union, moments, node, own_cause, g)
                start = k
    return moments


def _moment_of(members: list[int], moments: dict[int, RestartMoment]) -> RestartMoment | None:
    """The moment an incident's findings share (a node restart before restarts together)."""
    found = [moments[i] for i in members if i in moments]
    return next((m for m in found if m.node_restart), found[0] if found else None)


def _together(window: list[tuple[datetime, int]], problems: list[Finding], union: _Union,
              moments: dict[int, RestartMoment], node: str, own_cause: set[tuple[str, str, str]],
              g: Grouping) -> None:
    """Restarts of one node within one window that were not a node restart: one cause only
    from enough pods without a failure of their own (crashlooping pods restart on their own
    clock and meet by chance)."""
    window = [t for t in window if (problems[t[1]].kind, problems[t[1]].namespace, problems[t[1]].name) not in own_cause]
    objects = {(problems[i].namespace, problems[i].name) for _, i in window}
    if len(objects) < g.together_min_pods:
        return
    moment = RestartMoment(node, window[0][0], tuple(sorted(f"{ns}/{n}" for ns, n in objects)), False)
    for _, i in window:
        union.join(window[0][1], i)
        moments[i] = moment


def _incident(members: list[Finding], graph: _Graph, moment: RestartMoment | None,
              cluster: AnalyzedDump, nodes_absent: bool = False,
              evicted_on: dict[int, tuple[str, str]] | None = None,
              provisioner_of: dict[int, str] | None = None) -> Incident:
    """The incident of findings that share a cause (evicted_on: the evictions' node and
    condition by id of their finding; provisioner_of: the provisioner whose controller a finding
    is on, by id of that finding, for the claims waiting on it)."""
    g = grouping()
    order = {r: k for k, r in enumerate(g.cause_order)}
    members.sort(key=lambda f: f.sort_key)
    severity = min((f.severity for f in members), key=SEVERITIES.index)
    root = min(members, key=lambda f: (order.get(f.rule, len(order)), SEVERITIES.index(f.severity),
                                       f.kind, f.namespace, f.name))
    # what a failing component explains (a dump-wide log pattern) names that component as the cause
    root = next((f for f in members if _explains(f, root, g)), root)
    # an operator's operands wait for its earliest failing stage (the GPU driver)
    root = _earliest_operand_stage(root, members, g, order)
    # custom resources in one owner chain: the one furthest down is why those above are not ready
    root = _furthest_down_the_chain(root, members, graph, g)
    # an object waiting for others its message names (a ClusterVersion's update): those are why
    root = _named_cause(root, members, g, order)
    # claims waiting on a provisioner whose controller is not serving: the controller is why
    provisioner_of = provisioner_of or {}
    controller = min((f for f in members if id(f) in provisioner_of), default=None,
                     key=lambda f: (order.get(f.rule, len(order)), SEVERITIES.index(f.severity), f.kind, f.name))
    if controller is not None and root.rule in _CLAIM_RULES:
        root = controller
    operands = {_operand_key(f, g) for f in members} - {None}
    staged = any(n > 1 for n in Counter(key[:2] for key in operands if key is not None).values())
    # no network plugin at all is why the nodes it was joined with are NotReady (not the reverse)
    if root.rule == "node-not-ready":
        root = next((f for f in members if f.rule == "critical-component-missing" and f.facts.get("role") == "cni"), root)
    affected = _affected(members, graph)
    moment_rule = "node-restart" if moment is not None and moment.node_restart else "restarts-together"
    # the moment names the cause unless a finding earlier in cause_order does (the node-restart
    # finding itself is of the moment: the same node and time, analyzer/model/restarts.py)
    # (not where one stage of an operator's operands is what the others wait for)
    stall = None if staged else _sandbox_stall(members, graph, g)
    if moment is None and stall is not None:
        cause = f"Pods held before their containers start: {stall.suspects}"
        cause_rule = "pod-stuck-starting"
        headline = _stall_headline(stall, members)
    elif moment is None and _network_cause(root):
        cause, headline = _network_headline(members)
        cause_rule = root.rule
    elif (api := _metrics_api(root)) is not None:
        cause, headline = _metrics_api_headline(api, members)
        cause_rule = root.rule
    elif moment is not None and order.get(moment_rule, 0) <= order.get(root.rule, len(order)):
        cause = (f"Node {moment.node} restart at {moment.at.isoformat()}" if moment.node_restart
                 else f"Node {moment.node} at {moment.at.isoformat()}")
        when = ago(cluster, moment.at)
        if moment.node_restart:
            headline = (f"Node {moment.node} (or its container runtime) restarted at {moment.at:%Y-%m-%d %H:%M}Z "
                        f"({when}): {len(moment.pods)} pods restarted with it")
        else:
            headline = (f"{len(moment.pods)} pods on node {moment.node} restarted together at "
                        f"{moment.at:%Y-%m-%d %H:%M}Z ({when}): {', '.join(moment.pods[:4])}")
        cause_rule = "node-restart" if moment.node_restart else "restarts-together"
    elif (unplaced := _pending_unexplained(members, graph, g)) is not None:
        # pods of several workloads pending for a reason the dump does not hold: a component
        # among them (kube-dns) waits like the rest, it is not why the others wait
        cause = "Pods Pending for a reason the dump does not hold"
        cause_rule = "pod-pending"
        headline = _pending_unexplained_headline(unplaced, members)
    elif (evicted := _evicted_for(root, members, evicted_on or {})) is not None:
        # pods the kubelet evicted for its node's condition, with no finding of that node
        (node, condition), evictions = evicted
        cause = f"Node {node} {condition}" if node else f"{condition} of a node the dump does not name"
        cause += " (the kubelet's eviction messages)"
        cause_rule = root.rule
        headline = _evicted_headline(node, condition, evictions, members, cluster)
    elif len(members) > 1 and all(f.rule == _REFUSED_RULE for f in members):
        cause = f"{_refusing_command(members)}: {root.facts.get('why')}"
        cause_rule = root.rule
        headline = _refused_headline(members)
    elif (blocker := _blocker_of_workloads(root, members, affected)) is not None:
        cause = object_ref(*blocker)
        cause_rule = root.rule
        headline = _blocker_headline(blocker, members, affected)
    elif (nodes_absent and (order.get(root.rule, len(order)) > order.get("node-not-ready", 0)
                            or root.facts.get("scheduler_message"))
          and (told := _scheduler_told(members, g)) is not None):
        state, pending = told
        cause = f"Nodes {state} (the scheduler's reason; no Node is in the dump)"
        # the node finding made of the scheduler's messages, when the incident has it
        told_nodes = next((f for f in pending if f.rule == "node-not-ready"), None)
        cause_rule = "node-not-ready" if told_nodes is not None else "pod-pending"
        headline = _scheduler_headline(state, [f for f in pending if f is not told_nodes], members, told_nodes)
    else:
        # an object whose events quote an admission webhook refusing it waits for that webhook
        # (its Service, as webhook-call-failed names it where several objects quote it)
        cause = _webhook_refusing(root) or _node_group(root) or object_ref(root.kind, root.namespace, root.name) \
            or "the whole dump"
        cause_rule = root.rule
        headline = _headline(root, members, affected, cluster)
        if root is controller:
            headline += _claims_waiting_text(provisioner_of[id(root)], members)
    return Incident(id="", rank=0, severity=severity, headline=headline, cause=cause,
                    cause_rule=cause_rule, members=members, affected=affected)


# Helm's flags that take the next word as their value (a release's name is the first word that is
# not a flag or a flag's value, its chart the next)
_HELM_VALUED_FLAGS = frozenset({"-n", "--namespace", "--set", "--set-string", "--set-file", "--set-json", "-f",
                                "--values", "--version", "--timeout", "--kube-context", "--kubeconfig", "--repo",
                                "--post-renderer", "--description", "--name", "--name-template"})


def _refusing_command(members: list[Finding]) -> str:
    """What the refused objects were sent by: a Helm release (its chart) or the manifest kubectl
    read, with the command's words; the files the refusals name when the paste shows no command."""
    command = str(members[0].facts.get("command") or "")
    words = command.split()
    tool = next((w for w in words if w.removesuffix(".exe") in ("helm", "helmfile", "kubectl", "oc", "k")), "")
    if tool.removesuffix(".exe") == "helm":
        after = words[words.index(tool) + 1:]
        positional, skip = [], False
        for word in after:  # (the verb is the first word that is not a flag or its value)
            if skip:
                skip = False
            elif word.startswith("-"):
                skip = word in _HELM_VALUED_FLAGS
            else:
                positional.append(word)
        positional = positional[1:]
        generated = "--generate-name" in words or "-g" in words
        release, chart = ("", positional[0]) if generated and positional else (positional + ["", ""])[:2]
        named = (f"Helm release {release}" + (f" of chart {chart}" if chart else "") if release
                 else f"Helm chart {chart}" if chart else "Helm")
        return f"{named} (`{_cut(command)}`)"
    # the files of objects the words name (an unnamed object is told by its file in the headline)
    files = sorted({str(f.facts.get("file")) for f in members if f.facts.get("file") and f.facts.get("named")})
    shown = _first_named(files)
    if command:
        return f"`{_cut(command)}`" + (f" ({shown})" if shown else "")
    return shown or "One pasted apply or install (its command not shown)"


# how much of a command a headline quotes
_QUOTED_COMMAND = 100


def _cut(command: str) -> str:
    return command if len(command) <= _QUOTED_COMMAND else command[:_QUOTED_COMMAND - 3] + "..."


def _refused_headline(members: list[Finding]) -> str:
    """'Helm release cert-manager of chart jetstack/cert-manager (`helm install ...`) could not
    create 3 objects, the API server serving no policy/v1beta1 PodSecurityPolicy: A, B, C: why'."""
    objects = [f"{f.kind} {f.facts.get('shown')}" if f.facts.get("named") or not f.facts.get("file")
               else f"{f.kind} of {f.facts.get('file')}" for f in members]
    named = _first_named(objects)
    served_text = _first_named(sorted({f"{f.facts.get('api_version')} {f.kind}" for f in members}))
    whys = "; ".join(dict.fromkeys(str(f.facts.get("why")) for f in members))
    return (f"{_refusing_command(members)} could not create {len(members)} objects, the API server serving no "
            f"{served_text}: {named}; {whys}")


def _webhook_refusing(root: Finding) -> str | None:
    """The admission webhook the events of a finding's object quote the API server failing to
    call, as the cause of that object's failure: its Service (`Service ns/name`, with the webhook's
    name) when its URL names one, else the webhook; None for any other finding (kubernetes-sigs/kubebuilder#3052: one
    ReplicaSet's FailedCreate quoting "mpod.kb.io" with no endpoints named the ReplicaSet)."""
    if root.rule not in ("events-failed-create", "events-warning-summary"):
        return None
    quoted = webhook_failures(str(root.facts.get("last_message") or ""), "")
    if not quoted:
        return None
    hook = quoted[-1]
    if hook.service and hook.namespace:
        return f'{object_ref("Service", hook.namespace, hook.service)} (admission webhook "{hook.webhook}")'
    return f'Admission webhook "{hook.webhook}"'


def _blocker_of_workloads(root: Finding, members: list[Finding], affected: list[str]) -> tuple[str, str, str] | None:
    """The one object that keeps several workloads from running (blocking_object), when the
    cause is it: the incident is that object's, not one pod's."""
    blocker = blocking_object(root)
    if blocker is None or len(affected) < 2:
        return None
    return blocker if all(blocking_object(f) in (None, blocker) for f in members) else None


# How many of an incident's victims a headline names before it counts the rest, and how much of
# the words that name their blocker it quotes.
_NAMED_VICTIMS, _QUOTED_WORDS = 3, 160


def _first_named(names: list[str]) -> str:
    """'A, B, C and 2 more': the first names a headline shows, the rest counted."""
    return ", ".join(names[:_NAMED_VICTIMS]) + (
        f" and {len(names) - _NAMED_VICTIMS} more" if len(names) > _NAMED_VICTIMS else "")


def _blocker_headline(blocker: tuple[str, str, str], members: list[Finding], affected: list[str]) -> str:
    """'Secret shop/db is missing (...): 3 workloads cannot start their pods (A, B, C), 6 pods; with
    it: ...', or 'ResourceQuota shop/q refuses the pods of 3 workloads (A, B, C)'; controllers
    known only by their pods' names are said so ('the pods of 3 controllers, by their names,
    cannot start (A (by name), ...)').

    >>> _blocker_headline(("Secret", "shop", "db"), [], ["Deployment shop/web"])
    'Secret shop/db is missing (the kubelet finds none by that name): 1 workload cannot start its pods (Deployment shop/web)'
    >>> _blocker_headline(("Secret", "shop", "db"), [], ["StatefulSet shop/a (by name)", "StatefulSet shop/b (by name)"])[65:]
    'the pods of 2 controllers, by their names, cannot start (StatefulSet shop/a (by name), StatefulSet shop/b (by name))'
    """
    kind = blocker[0]
    named = _first_named(affected)
    # what is refused as the dump knows it: workloads it holds, else controllers known only by
    # their pods' names, or pods of none (affected_text)
    subject = affected_text(affected)
    held_only = subject.endswith(("workload", "workloads"))
    subject += "," if subject.endswith("by their names") else ""
    if kind == "ResourceQuota":
        # the API server's words from the quota on: what is exceeded, or what pods must specify
        text = (f"{object_ref(*blocker)} refuses {'the pods of ' if held_only else ''}{subject} ({named}): "
                f"{_words_from(members, _QUOTA_REFUSES)}")
    else:
        if any(f.rule.startswith("ref-missing-") for f in members):
            why = f"not in the dump although {kind}s were collected"
        else:
            why = "the kubelet finds none by that name"
        pods = {f.name for f in members if f.kind == "Pod"}
        text = (f"{object_ref(*blocker)} is missing ({why}): {subject} cannot start"
                f"{(' its pods' if subject == '1 workload' else ' their pods') if held_only else ''} ({named})" + (f", {len(pods)} pods" if pods else ""))
    others = Counter(f.rule for f in members if blocking_object(f) is None)
    if others:
        text += "; with it: " + ", ".join(f"{n} {rule}" for rule, n in sorted(others.items()))
    return text


def _words_from(members: list[Finding], pattern: re.Pattern[str]) -> str:
    """The words a member quotes from where `pattern` finds them on (cut short), or ''."""
    for f in members:
        for fact in _QUOTING_FACTS:
            said = str(f.facts.get(fact) or "")
            if (m := pattern.search(said)) is not None:
                return said[m.start():][:_QUOTED_WORDS]
    return ""


def _is_stall(members: Iterable[Finding], g: Grouping) -> bool:
    """Findings that are all effects of pods stuck creating their containers (data/incidents.yaml
    stall_effects), one of them such a pod, and no network plugin component among them (that
    one is a cause, _join_cni_and_nodes)."""
    members = list(members)
    return (any(f.rule == "pod-stuck-starting" for f in members)
            and all(f.rule in g.stall_effects for f in members)
            and not any(f.facts.get("role") == "cni" for f in members))


def _stuck_workload(f: Finding, graph: _Graph) -> str:
    """The workload of a stuck pod: its owners', else its name's, else the pod itself."""
    node = graph.ids.get((f.kind, f.namespace, f.name))
    if node is not None and (graph.owners(node) or graph.sibling_owner(node) is not None):
        return graph.workload_of(graph.sibling_owner(node) or node)
    return _workload_by_name(f.namespace, f.name) or f"Pod {f.namespace}/{f.name}"


def _join_sandbox_stall(problems: list[Finding], union: _Union, graph: _Graph, g: Grouping) -> None:
    """Pods of several workloads stuck creating their containers, each group of them with nothing
    else that explains it: one stall of the pod sandboxes (the network plugin or the runtime),
    not one incident per workload (flannel#1558: every pod ContainerCreating for days)."""
    if not g.stall_effects:
        return
    groups: dict[int, list[int]] = defaultdict(list)
    for i in range(len(problems)):
        groups[union.find(i)].append(i)
    stalled = [m for m in groups.values() if _is_stall((problems[i] for i in m), g)]
    if len(stalled) < 2:
        return
    stuck = [problems[i] for m in stalled for i in m if problems[i].rule == "pod-stuck-starting"]
    if len(stuck) < g.together_min_pods or len({_stuck_workload(f, graph) for f in stuck}) < 2:
        return
    for m in stalled[1:]:
        union.join(stalled[0][0], m[0])


# The rule whose finding says a pod's sandbox could not be set up, with the network plugin's cause
# the log-signature catalog knows in `network_cause` (rules/events_failed_create.py).
_SANDBOX_RULE = "events-failed-create"


def _network_cause(f: Finding) -> str:
    """The network plugin's cause of a pod's failed sandbox (a log signature's id), or ''."""
    return str(f.facts.get("network_cause") or "") if f.rule == _SANDBOX_RULE else ""


def _join_same_network_cause(problems: list[Finding], union: _Union, graph: _Graph, g: Grouping) -> None:
    """Pods whose sandboxes the network plugin turned down for one cause (its IPAM out of pod
    addresses) wait for that cause: one incident, not one per pod (aws/amazon-vpc-cni-k8s#281:
    two pods of one node, 'failed to assign an IP address to container'); one per node where the
    IPAM's range is the node's own (_network_scope: host-local's range of the node's pod CIDR is
    used up on that node alone). With one such cause in
    the dump, pods stuck creating with no events of theirs (a stall, _join_sandbox_stall, which
    runs after: it would join stalls of every node) on the nodes it names, or where neither they
    nor it name a node, wait for it too (cilium/cilium#10627: one pod's events say 'range is
    full', six more ContainerCreating beside it); on any node where its words say the addresses
    are a subnet's every node draws from (aws/karpenter-provider-aws#3989: one pod's events say
    the VPC CNI 'failed to assign an IP address', its ReplicaSet's pods ContainerCreating on
    that node and two more)."""
    by_cause: dict[tuple[str, str], list[int]] = defaultdict(list)
    for i, f in enumerate(problems):
        if cause := _network_cause(f):
            scope = _network_scope(f, g)
            by_cause[(cause, scope if scope.startswith("node") else "")].append(i)
    for members in by_cause.values():
        for i in members[1:]:
            union.join(members[0], i)
    if len({cause for cause, _ in by_cause}) != 1:
        return
    # (the nodes it names, its first finding, whether every node draws from its addresses)
    nodes_of = [({str(problems[i].facts.get("node") or "") for i in members} - {""}, members[0],
                 any(_network_scope(problems[i], g) == "subnet" for i in members))
                for members in by_cause.values()]
    groups: dict[int, list[int]] = defaultdict(list)
    for i in range(len(problems)):
        groups[union.find(i)].append(i)
    for group in groups.values():
        if not _is_stall((problems[i] for i in group), g):
            continue
        hosts = {_host_of(problems[i], graph) for i in group if problems[i].rule == "pod-stuck-starting"} - {None}
        if (first := next((m for nodes, m, shared in nodes_of
                           if shared or (hosts <= nodes and (hosts or not nodes))), None)) is not None:
            union.join(first, group[0])


def _network_scope(f: Finding, g: Grouping) -> str:
    """Whose addresses a failure says are used up (data/incidents.yaml network_cause_scopes): 'node
    <name>' where the plugin's words say the IPAM hands out a range of the node's own, 'subnet'
    where they say every node draws from one subnet, '' where the words do not say."""
    said = str(f.facts.get("last_message") or "")
    scope = next((scope for pattern, scope in g.network_cause_scopes.get(_network_cause(f), ()) if pattern.search(said)), "")
    return f"node {f.facts.get('node') or ''}" if scope == "node" else scope


def _network_headline(members: list[Finding]) -> tuple[str, str]:
    """The cause and headline of an incident led by pods the network plugin turned down for one
    cause: what the cause means, on which nodes, which pods, in the plugin's words."""
    turned_down = [f for f in members if _network_cause(f)]
    meaning = str(turned_down[0].facts.get("network_meaning") or "")
    nodes = sorted({str(f.facts.get("node") or "") for f in turned_down} - {""})
    where = f"on node(s) {', '.join(nodes)}" if nodes else "on nodes the dump does not name"
    names = sorted("a pod its events do not name" if f.name == NOT_NAMED else f"{f.namespace}/{f.name}"
                   if f.namespace else f.name for f in turned_down)
    words = ""
    for f in turned_down:
        said = str(f.facts.get("last_message") or "")
        if (sig := _signature(_network_cause(f))) is not None and (m := re.search(sig.pattern, said)):
            # up to where the plugin's words end: a quote or an escape closes the diagnostic
            # they sit in (Azure/AKS#673: '... No available addresses\"\n}": invalid character')
            words = re.split(r'["\\]', said[m.start():], maxsplit=1)[0][:_QUOTED_WORDS]
            break
    cause = f"The pod network (CNI) {where}: {meaning}"
    headline = (f"{meaning[:1].upper()}{meaning[1:]}, {where}: {len(names)} pod(s) could not get a network "
                f"for their sandbox ({_first_named(names)})" + (f": \"{words}\"" if words else ""))
    others = Counter(f.rule for f in members if not _network_cause(f))
    if others:
        headline += "; with it: " + ", ".join(f"{n} {rule}" for rule, n in sorted(others.items()))
    return cause, headline


def _signature(signature_id: str) -> Signature | None:
    return next((s for s in load_signatures() if s.id == signature_id), None)


@dataclass(frozen=True, slots=True)
class _Stall:
    stuck: list[Finding]
    workloads: int
    suspects: str  # what can hold them, as far as the dump tells


def _stall_suspects(stuck: list[Finding], graph: _Graph) -> str:
    """What can hold pods stuck creating: the node's network plugin or runtime; their volumes too
    unless the dump holds every pod's spec and none mounts a claim (a pasted table row has no
    spec: Azure/AKS#615's pods stuck ContainerCreating waited for disks being detached)."""
    def mounts_nothing(f: Finding) -> bool:
        node = graph.ids.get((f.kind, f.namespace, f.name))
        from_spec = bool(f.evidence) and not str(f.evidence[0].field).endswith(" column")
        return node is not None and from_spec and not any(
            graph.ref(c)[0] == "PersistentVolumeClaim" for c in graph.out(node, "mounts"))
    suspects = (["the network plugin (CNI)", "the container runtime of their node(s)"]
                if all(mounts_nothing(f) for f in stuck)
                else ["the network plugin (CNI)", "the container runtime", "their volumes"])
    if any(str(f.facts.get("status", "")).startswith("Init:") for f in stuck):
        suspects.append("an init container that does not finish")  # Init:0/1 runs one
    return ", ".join(suspects[:-1]) + " or " + suspects[-1]


def _sandbox_stall(members: list[Finding], graph: _Graph, g: Grouping) -> _Stall | None:
    """The incident as a stall of pod sandboxes (see _join_sandbox_stall), or None."""
    if not _is_stall(members, g):
        return None
    stuck = [f for f in members if f.rule == "pod-stuck-starting"]
    workloads = len({_stuck_workload(f, graph) for f in stuck})
    if len(stuck) < g.together_min_pods or workloads < 2:
        return None
    return _Stall(stuck, workloads, _stall_suspects(stuck, graph))


def _stall_headline(stall: _Stall, members: list[Finding]) -> str:
    """N pods of M workloads stuck creating their containers, for how long, which; with it."""
    from analyzer.ingest.text.values import age_seconds

    stuck = stall.stuck
    statuses = sorted({str(f.facts.get("status", "ContainerCreating")) for f in stuck})
    ages = sorted({str(f.facts.get("age", "")) for f in stuck} - {""},
                  key=lambda a: (age_seconds(a) is None, age_seconds(a) or 0.0))
    span = ages[0] if len(ages) == 1 else f"{ages[0]} to {ages[-1]}" if ages else "an unknown time"
    namespaces = len({f.namespace for f in stuck} - {""})
    names = sorted(f"{f.namespace}/{f.name}" if f.namespace else f.name for f in stuck)
    named = _first_named(names)
    where = f" in {namespaces} namespace(s)" if namespaces and all(f.namespace for f in stuck) else ""
    text = (f"{len(stuck)} pods{where} are still "
            f"{' or '.join(statuses)} {span} after they were created ({named}), with no NotReady node, "
            f"crash or volume failure in the dump to explain any of them: {stall.suspects} "
            "(their events say which)")
    others = Counter(f.rule for f in members if f.rule != "pod-stuck-starting")
    if others:
        text += "; with it: " + ", ".join(f"{n} {rule}" for rule, n in sorted(others.items()))
    return text


def _pending_unexplained(members: list[Finding], graph: _Graph, g: Grouping) -> list[Finding] | None:
    """The pending pods of an incident made only of pods pending with no reason recorded (in two
    or more workloads) and what their waiting explains (data/incidents.yaml stall_effects: a
    component unhealthy, a workload short of pods), or None: nothing in the dump says what holds
    them, so no one of them is the others' cause (kubernetes/kubernetes#17488)."""
    pending = [f for f in members if f.rule == "pod-pending"]
    if not pending or any(str(f.facts.get("reason") or "") != _NO_REASON for f in pending):
        return None
    if not all(f.rule == "pod-pending" or f.rule in g.stall_effects for f in members):
        return None
    if len({_stuck_workload(f, graph) for f in pending}) < 2:
        return None
    return pending


def _pending_unexplained_headline(pending: list[Finding], members: list[Finding]) -> str:
    """N pods of a namespace Pending with no reason recorded, which; with it."""
    names = sorted(f"{f.namespace}/{f.name}" if f.namespace else f.name for f in pending)
    named = _first_named(names)
    namespaces = sorted({f.namespace for f in pending} - {""})
    where = f" in namespace {namespaces[0]}" if len(namespaces) == 1 else ""
    text = (f"{len(pending)} pods{where} are Pending ({named}) and the dump holds no reason for any "
            "(no scheduler's message, event or describe of theirs): their events, or the scheduler's "
            "and the nodes' state, say what holds them")
    others = Counter(f.rule for f in members if f.rule != "pod-pending")
    if others:
        text += "; with it: " + ", ".join(f"{n} {rule}" for rule, n in sorted(others.items()))
    return text


def _scheduler_told(members: list[Finding], g: Grouping) -> tuple[str, list[Finding]] | None:
    """The nodes' state the scheduler gave for the incident's pending pods (the first state of
    data/incidents.yaml that one of them shows), with those pods; None when none shows one."""
    told = [(state, f) for f in members if (state := g.scheduler_node_state(f)) is not None]
    if not told:
        return None
    order = [state for _, state in g.scheduler_node_states]
    first = min((state for state, _ in told), key=order.index)
    return first, [f for state, f in told if state == first]


def _scheduler_headline(state: str, pending: list[Finding], members: list[Finding],
                        told_nodes: Finding | None = None) -> str:
    """The headline of an incident whose cause is the scheduler's word on absent nodes."""
    names = sorted({f"{f.namespace}/{f.name}" if f.namespace else f.name for f in pending})
    named = _first_named(names)
    reason = scheduler_reason(pending[0] if pending else told_nodes).strip()
    text = f"Nodes {state}, in the scheduler's words: \"{reason}\""
    if told_nodes is not None:
        text += f" (last {told_nodes.facts.get('last_told', 'at an unknown time')})"
    if names:
        text += f" ({len(names)} pod(s) pending: {named})"
    text += "; no Node is in the dump to show why"
    counted = [*pending, *([told_nodes] if told_nodes is not None else [])]
    others = Counter(f.rule for f in members if not any(f is p for p in counted))
    if others:
        text += "; with it: " + ", ".join(f"{n} {rule}" for rule, n in sorted(others.items()))
    return text


def _affected(members: Iterable[Finding], graph: _Graph) -> list[str]:
    """The workloads the incident affects: of its objects, and of the pods on its nodes."""
    found: set[str] = set()
    for f in members:
        node = graph.ids.get((f.kind, f.namespace, f.name))
        if f.kind in WORKLOAD_KINDS:
            found.add(object_ref(f.kind, f.namespace, f.name))
        if f.kind == "HorizontalPodAutoscaler":
            # the workload it cannot scale, else the HPA names what it scales (its target not in
            # the dump, or not named: its events alone); none where its target does not exist
            targets = [t for t in graph.out(node, "selects") if graph.present(t)] if node is not None else []
            found.update(graph.workload_of(t) for t in targets)
            if not targets and f.name != NOT_NAMED and not f.facts.get("target_gone"):
                found.add(_HPA_TARGET + (f"{f.namespace}/{f.name}" if f.namespace else f.name))
            continue
        if node is None:
            if f.kind == "Pod" and f.name:
                # a pod known only from its events (a describe's Events pasted alone) is affected
                # too: "affects 0 workload(s)" said of it was wrong
                found.add(_pasted_workload(f.namespace, f.name) or object_ref("Pod", f.namespace, f.name))
            continue
        kind = f.kind
        if kind == "Pod":
            workload = graph.affected_workload(graph.sibling_owner(node) or node)
            if workload == object_ref("Pod", f.namespace, f.name) and not graph.owners(node):
                workload = _pasted_workload(f.namespace, f.name) or workload
            found.add(workload)
        elif kind == "Node":
            found.update(graph.affected_workload(p) for p in graph.pods_on(node))
            # pods a table placed on it by being the dump's only node (node-not-ready's stale pods)
            for ref in f.facts.get("stale_pods") or ():
                namespace, _, name = str(ref).partition("/")
                if (pod := graph.ids.get(("Pod", namespace, name))) is not None:
                    found.add(graph.affected_workload(pod))
        elif kind == "Service":
            found.update(graph.workload_of(p) for p in graph.out(node, "selects"))
    # A pod known by its name is its workload's when the dump names that workload too (a pasted
    # coredns row and the coredns Deployment a component finding names are one workload).
    # A control-plane component named as a StaticPod (critical-component-*) and its mirror pod
    # (`etcd-NODE`, the graph's workload of a static pod) are one workload, not two.
    static = {w[len("StaticPod "):] for w in found if w.startswith("StaticPod ")}
    return sorted(w for w in found if not (w.endswith(_BY_NAME) and w[:-len(_BY_NAME)] in found)
                  and not (w.startswith("Pod ") and any(w[len("Pod "):].startswith(s + "-") for s in static)))


_BY_NAME = " (by name)"
# What an HPA that cannot scale affects where the dump does not hold its target: that target, by the HPA.
_HPA_TARGET = "the target of HorizontalPodAutoscaler "


def affected_text(affected: Sequence[str]) -> str:
    """The workloads an incident affects, as the dump knows them: "3 workloads" it holds or its
    pods' owner references name; "the pods of 2 controllers, by their names" where only their
    pods were pasted; "6 pods of no controller in the dump" (bare or static pods, pasted ones
    whose names name none); "no workload".
    labring/sealos#670: a pasted `get pods` read as "affects 8 workload(s)", none in the dump.

    >>> affected_text(["Deployment kube-system/coredns (by name)", "Pod kube-system/etcd-gs1", "generated shop/web-"])
    'the pods of 2 controllers, by their names, and 1 pod of no controller in the dump'
    >>> affected_text(["Deployment shop/web"]), affected_text([])
    ('1 workload', 'no workload')
    >>> affected_text([_HPA_TARGET + "istio-system/istio-ingress", _HPA_TARGET + "istio-system/istio-pilot"])
    'the targets of 2 HorizontalPodAutoscalers (not in the dump)'
    """
    named = sum(1 for w in affected if w.endswith(_BY_NAME) or w.startswith("generated "))
    pods = sum(1 for w in affected if w.startswith("Pod "))
    scaled = sum(1 for w in affected if w.startswith(_HPA_TARGET))
    held = len(affected) - named - pods - scaled
    parts = []
    if held:
        parts.append(f"{held} workload{'s' if held != 1 else ''}")
    if named:
        parts.append(f"the pods of {named} controller{'s' if named != 1 else ''}, by their names,")
    if pods:
        parts.append(f"{pods} pod{'s' if pods != 1 else ''} of no controller in the dump")
    if scaled:
        parts.append(f"the target{'s' if scaled != 1 else ''} of {scaled} HorizontalPodAutoscaler"
                     f"{'s' if scaled != 1 else ''} (not in the dump)")
    if not parts:
        return "no workload"
    return (", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]).rstrip(",")


def _pasted_workload(namespace: str, name: str) -> str | None:
    """The workload of a pod pasted without its owners, by its name ("Deployment ns/web (by
    name)"), so its pods count as one workload; None for a name no controller writes."""
    named = _named_workload(name)
    if named is None:
        return None
    kind, base = named
    return f"generated {object_ref('Pod', namespace, base)[4:]}" if kind == "generated" \
        else object_ref(kind, namespace, base) + _BY_NAME


def _headline(root: Finding, members: list[Finding], affected: list[str], cluster: AnalyzedDump) -> str:
    from analyzer.findings import _metas
    from analyzer.findings.render import message

    others = Counter(f.rule for f in members if f is not root)
    same_rule = others.pop(root.rule, 0)
    if root.rule == "node-not-ready" and same_rule:
        nodes = sorted(f.name for f in members if f.rule == root.rule)
        named = _first_named(nodes)
        text = f"{len(nodes)} nodes are {root.facts.get('status', 'NotReady')} ({named}): {root.facts.get('detail', '')}"
    else:
        text = message(root, _metas()[root.rule])
        if same_rule:
            text = f"{text} (and {same_rule} more {root.rule})"
    if others:
        text += "; with it: " + ", ".join(f"{n} {rule}" for rule, n in sorted(others.items()))
    return text


def incidents_frame(incidents: Sequence[Incident]) -> pd.DataFrame:
    """The `cluster.incidents` DataFrame: one row per incident, ranked."""
    rows = [{
        "incident": inc.id, "rank": inc.rank, "severity": inc.severity, "headline": inc.headline,
        "cause": inc.cause, "cause_rule": inc.cause_rule, "workloads": inc.workloads,
        "findings": len(inc.members), "rules": ", ".join(sorted({f.rule for f in inc.members})),
        "objects": ", ".join(sorted({object_ref(f.kind, f.namespace, f.name) or "(dump)" for f in inc.members})),
        "affected_workloads": ", ".join(inc.affected), "affects": inc.affects,
    } for inc in incidents]
    frame = pd.DataFrame(rows, columns=list(INCIDENT_COLUMNS))
    frame = frame.astype({c: "string" for c in INCIDENT_COLUMNS if c not in ("rank", "workloads", "findings")})
    frame = frame.astype({"rank": "Int64", "workloads": "Int64", "findings": "Int64"})
    frame["severity"] = frame["severity"].astype(pd.CategoricalDtype(list(SEVERITIES), ordered=True))
    return frame
