"""The state the edge builders share: objects indexed by kind and name, nodes, deduplicated edges."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from functools import cached_property
from typing import TYPE_CHECKING, Any, NamedTuple

import msgspec
import networkx as nx

from analyzer.graph.selectors import LabelIndex
from analyzer.graph.shapes import mapping
from analyzer.ingest.records import KubeObject
from analyzer.kube.kinds import (
    BUILTIN_KINDS,
    CLUSTER_SCOPED_KINDS,
    group_of,
    group_of_kind,
    is_builtin_group,
    is_cluster_scoped,
)
from analyzer.kube.views import PodSpec

if TYPE_CHECKING:
    from analyzer.model.dump import ModeledDump

PRESENT, MISSING, NOT_COLLECTED = "present", "missing", "not_collected"

# What a pod spec or an object refers to: (kind, name, optional, via).
Reference = tuple[str, str, bool, str]

# Every node carries every one of these, always a str, so GraphML/GEXF writers accept them.
NODE_ATTRIBUTES = ("kind", "group", "namespace", "name", "state", "uid", "created", "phase", "role", "type")

# Kinds that nothing depends on and that depend on nothing: records, not parts of the system.
UNRELATED_KINDS = frozenset({"Event"})

# Workload kinds whose spec.template is a pod template.
TEMPLATE_KINDS = ("Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "ReplicationController", "Job")


class PodSpecOf(NamedTuple):
    """A pod spec and the object that holds it (a Pod, or a workload's pod template)."""

    obj: KubeObject
    node: str
    spec: PodSpec
    is_pod: bool
    # The holder's namespace and name, kept here: builders reading specs by the ten thousand
    # would otherwise reach them through two more objects each (obj.key), scattered in memory.
    namespace: str
    name: str


class GraphContext:
    """Indexes the cluster's objects once; builders resolve references and add edges through it."""

    def __init__(self, cluster: ModeledDump) -> None:
        self.cluster = cluster
        self.nodes: dict[str, dict[str, str]] = {}
        # source -> target -> relation -> attributes: the shape networkx keeps its edges in.
        self.adjacency: dict[str, dict[str, dict[str, dict[str, Any]]]] = {}
        self._by_kind: dict[str, list[KubeObject]] = defaultdict(list)
        self._nodes_by_kind: dict[str, list[str]] = defaultdict(list)  # in step with _by_kind
        # (kind, namespace, name) -> its node; None when several nodes share the name (two
        # groups of one kind), all of which `_same_named` holds. One lookup finds the target
        # of most references, without a list to read through.
        self._named: dict[tuple[str, str, str], str | None] = {}
        self._same_named: dict[tuple[str, str, str], list[str]] = {}
        self._by_uid: dict[str, str] = {}
        self._namespaces_of: dict[str, set[str]] = defaultdict(set)
        # IngestResult.covers() scans every object for a kind it holds none of; the kinds seen
        # here and the collected kinds answer the same question without the scan.
        self._collected = set(cluster.ingest.collected_kinds)
        self._scopes = collected_scopes(cluster)
        self._index(cluster.objects)

    def _index(self, objects: list[KubeObject]) -> None:
        # Locals, not attributes, in a loop run once per object of the dump.
        nodes, named, by_uid, collected = self.nodes, self._named, self._by_uid, self._collected
        last_kind, related, builtin, builtin_group = None, False, False, ""
        for obj in objects:
            key = obj.key
            kind = key.kind
            if kind != last_kind:
                # Dumps list objects kind by kind: the kind's lists are looked up when it changes.
                last_kind, related, builtin = kind, kind not in UNRELATED_KINDS, kind in BUILTIN_KINDS
                builtin_group = group_of_kind(kind)
                collected.add(kind)
                if related:
                    add_object, add_node = self._by_kind[kind].append, self._nodes_by_kind[kind].append
                    add_namespace = self._namespaces_of[kind].add
            if not related:
                continue
            node = key.id
            if builtin and key.group != builtin_group and not is_builtin_group(kind, key.group):
                # A custom resource named like a built-in kind (longhorn.io's Node, Istio's
                # Gateway): a node of the graph, not what the kind's builders read (as in
                # Cluster.objects_of), so it is listed under its group.
                self._by_kind[f"{key.group}/{kind}"].append(obj)
                self._nodes_by_kind[f"{key.group}/{kind}"].append(node)
            else:
                add_object(obj)
                add_node(node)
                add_namespace(key.namespace)
            name_key = (kind, key.namespace, key.name)
            if named.setdefault(name_key, node) is not node:
                self._name_again(name_key, node)
            if obj.uid:
                by_uid.setdefault(obj.uid, node)
            if node not in nodes:
                nodes[node] = _present_attributes(obj)

    def _name_again(self, name_key: tuple[str, str, str], node: str) -> None:
        # Another node of a name already indexed: lookups by name go through `ref` from now on.
        same = self._same_named.get(name_key)
        if same is None:
            same = self._same_named[name_key] = [self._named[name_key]]
        same.append(node)
        self._named[name_key] = None

    # -- lookups --------------------------------------------------------------------------

    def objects(self, *kinds: str) -> Iterator[KubeObject]:
        """The objects of the given kinds, kind by kind, in dump order."""
        for kind in kinds:
            yield from self._by_kind.get(kind, ())

    def with_nodes(self, *kinds: str) -> Iterator[tuple[str, KubeObject]]:
        """(node, object) of the given kinds, kind by kind, in dump order.

        `objects` plus `node_of` without a lookup by id() per object: builders walking every
        pod pay for each object they reach.
        """
        for kind in kinds:
            yield from zip(self._nodes_by_kind.get(kind, ()), self._by_kind.get(kind, ()), strict=True)

    def all_with_nodes(self) -> Iterator[tuple[str, KubeObject]]:
        """(node, object) of every object that is a node of the graph, kind by kind."""
        for kind, objects in self._by_kind.items():
            yield from zip(self._nodes_by_kind[kind], objects, strict=True)

    def node_of(self, obj: KubeObject) -> str:
        """The node id of an object of the dump."""
        return self._nodes_by_id[id(obj)]

    @cached_property
    def _nodes_by_id(self) -> dict[int, str]:
        # Made when a builder first asks, in one pass per kind: most go through with_nodes.
        return {
            id(obj): node
            for kind, objects in self._by_kind.items()
            for obj, node in zip(objects, self._nodes_by_kind[kind], strict=True)
        }

    def by_uid(self, uid: str | None) -> str | None:
        """The node of the object with this uid, if the dump has it."""
        return self._by_uid.get(uid) if uid else None

    def exists(self, kind: str, namespace: str, name: str) -> bool:
        """Whether the dump holds this object (placeholders do not count)."""
        name_key = (kind, namespace, name)
        node = self._named.get(name_key)
        found = [node] if node is not None else self._same_named.get(name_key, ())
        return any(self.nodes[n]["state"] == PRESENT for n in found)

    def covers(self, kind: str, namespace: str = "") -> bool:
        """Whether the dump collected `kind` (in `namespace`): missing vs not collected.

        Dumps collect per namespace (a support bundle's `configmaps/<ns>.json`, a trimmed
        bundle, a cluster-info dump of some namespaces), and ingestion records coverage per
        kind only. Where file paths name the namespace of a list, those namespaces were
        collected (even when their list is empty); otherwise a kind the dump holds in some
        namespaces but not in this one counts as not collected here, and a kind collected
        with no object at all counts as collected everywhere.
        """
        if kind not in self._collected:
            return False
        seen = self._namespaces_of.get(kind)
        if not namespace or (seen and namespace in seen):
            return True
        scopes = self._scopes.get(kind)
        if scopes:  # file paths say which namespaces' lists the dump holds (None: all)
            return None in scopes or namespace in scopes
        return not seen

    def ref(self, kind: str, namespace: str, name: str, api_version: str = "", group: str | None = None) -> str | None:
        """The node a reference names; a placeholder node (missing / not_collected) if absent.

        Objects are found by (kind, namespace, name) whatever their group, so an old
        `extensions/v1beta1` Deployment is the one its ReplicaSets' ownerReferences name.
        """
        if not kind or not name:
            return None
        if kind in CLUSTER_SCOPED_KINDS and (
                (group is None and not api_version)  # a kind alone names the built-in kind
                or is_cluster_scoped(kind, group if group is not None else group_of(api_version))):
            namespace = ""  # (a custom resource named like such a kind has its own scope)
        node = self._named.get((kind, namespace, name))
        if node is not None:
            return node
        found = self._same_named.get((kind, namespace, name))
        if group is None:
            group = group_of(api_version) if api_version else group_of_kind(kind)
        if found:
            # Two groups can share a kind (core Node and longhorn.io Node): prefer the group
            # the reference says, else the first object of the dump.
            wanted = group or "core"
            return next((n for n in found if n.split("/", 1)[0] == wanted), found[0])
        node = f"{group or 'core'}/{kind}/{namespace}/{name}"
        if node not in self.nodes:
            state = MISSING if self.covers(kind, namespace) else NOT_COLLECTED
            self.nodes[node] = _attributes(kind, group, namespace, name, state)
            self._named[(kind, namespace, name)] = node
        return node

    # -- edges ----------------------------------------------------------------------------

    def edge(self, source: str | None, target: str | None, relation: str, via: str = "", optional: bool = False) -> None:
        """Add one edge; the same (source, target, relation) is kept once (required wins)."""
        if source is None or target is None or source == target:
            return
        out = self.adjacency.get(source)
        if out is None:
            out = self.adjacency[source] = {}
        if target not in out:  # (the common case of `_add_edge`, without the call)
            out[target] = {relation: {"relation": relation, "via": via, "optional": optional}}
        else:
            _add_edge(out, target, relation, via, optional)

    def link_each(self, kind: str, relation: str, refs: Iterable[tuple[str, str, str, str]]) -> None:
        """Add source -> the `kind` object named, for each (source, namespace, name, via).

        For builders with a reference or two per pod (its node, account, priority class): one
        call per builder instead of one per pod, and the kind's scope looked up once. A
        reference without a name adds nothing.
        """
        adjacency, named = self.adjacency, self._named
        cluster_scoped = kind in CLUSTER_SCOPED_KINDS
        # A builder says the same `via` for pod after pod: its attributes are made once and
        # copied (a copy is made faster than a dict display).
        last_via, attributes = None, {}
        for source, namespace, name, via in refs:
            if not name:
                continue
            target = named.get((kind, "" if cluster_scoped else namespace, name))
            if target is None:
                target = self.ref(kind, namespace, name)
            if target is None or target == source:
                continue
            out = adjacency.get(source)
            if out is None:
                out = adjacency[source] = {}
            if target not in out:  # (as in `edge`)
                if via is not last_via:
                    last_via, attributes = via, {"relation": relation, "via": via, "optional": False}
                out[target] = {relation: attributes.copy()}
            else:
                _add_edge(out, target, relation, via, False)

    def links(self, source: str, namespace: str, refs: Iterable[Reference], relation: str) -> None:
        """Add source -> each (kind, name, optional, via) one object refers to, in one call.

        Pod specs refer to objects of their own namespace by hundreds of thousands; one call
        per spec instead of per reference keeps the graph's build time a small part of parsing.
        """
        out = self.adjacency.get(source)
        named = self._named
        for kind, name, optional, via in refs:
            if not name:
                continue
            target = named.get((kind, "" if kind in CLUSTER_SCOPED_KINDS else namespace, name))
            if target is None:
                target = self.ref(kind, namespace, name)
            if target is None or target == source:
                continue
            if out is None:  # made with the first edge, as `edge` does: sources stay in edge order
                out = self.adjacency[source] = {}
            if target not in out:  # (as in `edge`)
                out[target] = {relation: {"relation": relation, "via": via, "optional": optional}}
            else:
                _add_edge(out, target, relation, via, optional)

    def edges_to(self, source: str, targets: list[str], relation: str, via: str) -> None:
        """Add source -> each target (a selector's matches): `edge` without a call per target."""
        out = self.adjacency.setdefault(source, {})
        # One edge's attributes, copied for each: a copy is made faster than a dict display.
        attributes = {"relation": relation, "via": via, "optional": False}
        for target in targets:
            if target == source:
                continue
            relations = out.get(target)
            if relations is None:  # (the common case, as in `edge`)
                out[target] = {relation: attributes.copy()}
                continue
            found = relations.get(relation)
            if found is None:
                relations[relation] = attributes.copy()
            elif found["optional"]:
                found["optional"] = False
                found["via"] = via

    @property
    def edges(self) -> dict[tuple[str, str, str], dict[str, Any]]:
        """(source, target, relation) -> attributes, for every edge added."""
        return {
            (source, target, relation): attrs
            for source, targets in self.adjacency.items()
            for target, relations in targets.items()
            for relation, attrs in relations.items()
        }

    # -- shared derived indexes -----------------------------------------------------------

    @cached_property
    def pod_labels(self) -> LabelIndex:
        """Pods' labels, for matching selectors namespace by namespace."""
        return LabelIndex(
            ((node, p.key.namespace, p.view.metadata.labels) for node, p in self.with_nodes("Pod")),
            keys=self.selector_keys,
        )

    @cached_property
    def selector_keys(self) -> frozenset[str]:
        """The label keys any selector of the dump names: the only ones worth indexing."""
        keys: set[str] = set()
        for obj in self.objects("Service", "ReplicationController"):
            keys.update(mapping(obj.view.spec.selector))
        for obj in self.objects("Deployment", "ReplicaSet", "StatefulSet", "DaemonSet", "Job"):
            _add_selector_keys(keys, obj.view.spec.selector)
        for obj in self.objects("PodDisruptionBudget"):
            _add_selector_keys(keys, mapping(obj.view.spec).get("selector"))
        for obj in self.objects("NetworkPolicy"):
            _add_selector_keys(keys, mapping(obj.view.spec).get("podSelector"))
        return frozenset(keys)

    @cached_property
    def pod_specs(self) -> list[PodSpecOf]:
        """Every pod spec of the dump: Pods' own, workloads' templates, CronJobs' job templates."""
        specs: list[PodSpecOf] = []
        # One per pod, so made the way a plain tuple is: the NamedTuple's __new__ is Python code.
        new_spec = tuple.__new__
        for node, pod in self.with_nodes("Pod"):
            view, key = pod.view, pod.key
            # A pasted `kubectl get pods` row has no spec: nothing is known it references.
            if view.text is not None and not view.spec.containers:
                continue
            specs.append(new_spec(PodSpecOf, (pod, node, view.spec, True, key.namespace, key.name)))
        for node, obj in self.with_nodes(*TEMPLATE_KINDS):
            template = obj.view.spec.template
            if template is not None and template.spec.containers:
                specs.append(PodSpecOf(obj, node, template.spec, False, obj.key.namespace, obj.key.name))
        for obj in self.objects("CronJob"):
            job_template = obj.view.spec.jobTemplate
            raw = mapping(mapping(mapping(job_template.spec if job_template else None).get("template")).get("spec"))
            if raw.get("containers"):
                try:
                    spec = msgspec.convert(raw, PodSpec, strict=False)
                except msgspec.ValidationError:
                    continue  # a template no API server would have stored: nothing to read
                specs.append(PodSpecOf(obj, self.node_of(obj), spec, False, obj.key.namespace, obj.key.name))
        return specs

    def to_graph(self) -> nx.MultiDiGraph:
        """The finished graph: nodes sorted, edges in the order added (the same dump, the same graph)."""
        graph = nx.MultiDiGraph()
        graph.graph["collected_kinds"] = ",".join(sorted(self.cluster.ingest.coverage_present))
        # Filled the way add_nodes_from/add_edges_from fill networkx's storage (`_node`, `_succ`,
        # `_pred`, one key dict per pair shared by both) without their per-edge overhead:
        # 190,000 edges in a tenth of a second instead of seconds. test_graph_context.py
        # checks the result equals what the public methods build. Edges keep the order the
        # builders added them in (builder by builder, dump order).
        succ, pred, node_attrs = graph._succ, graph._pred, graph._node
        new_adjacency = graph.adjlist_inner_dict_factory
        adjacency, nodes = self.adjacency, self.nodes
        for node in sorted(nodes):
            targets = adjacency.get(node)  # (the builders' dict itself, where the node has edges)
            succ[node] = new_adjacency() if targets is None else targets
            pred[node] = new_adjacency()
            node_attrs[node] = nodes[node]
        for source, targets in adjacency.items():
            for target, keydict in targets.items():
                pred[target][source] = keydict
        nx._clear_cache(graph)
        return graph


def collected_scopes(cluster: ModeledDump) -> dict[str, set[str | None]]:
    """Kind -> the namespaces whose list of it a file path names (None: a cluster-wide list).

    Read from the paths of the files ingestion read (`cluster-resources/pods/<ns>.json`,
    `yamls/namespaced/<ns>/v1/pods.yaml`, ...), through ingestion's own layout table.
    """
    from analyzer.ingest.layouts import object_hint

    scopes: dict[str, set[str | None]] = defaultdict(set)
    for report in cluster.ingest.files:
        hint = object_hint(report.source)
        if hint is not None and hint.kind and hint.name is None:
            scopes[hint.kind].add(hint.namespace)
    return scopes


def _add_edge(out: dict[str, dict[str, dict[str, Any]]], target: str, relation: str, via: str, optional: bool) -> None:
    """Add source -> target to the source's adjacency `out`; a required edge wins over an optional one."""
    relations = out.get(target)
    if relations is None:
        out[target] = {relation: {"relation": relation, "via": via, "optional": optional}}
        return
    found = relations.get(relation)
    if found is None:
        relations[relation] = {"relation": relation, "via": via, "optional": optional}
    elif found["optional"] and not optional:
        found["optional"] = False
        found["via"] = via


def _add_selector_keys(keys: set[str], selector: Any) -> None:
    selector = mapping(selector)
    keys.update(mapping(selector.get("matchLabels")))
    keys.update(e["key"] for e in selector.get("matchExpressions") or () if isinstance(e, dict) and isinstance(e.get("key"), str))


def _attributes(kind: str, group: str, namespace: str, name: str, state: str) -> dict[str, str]:
    return {
        "kind": kind, "group": group or "core", "namespace": namespace, "name": name,
        "state": state, "uid": "", "created": "", "phase": "", "role": "", "type": "",
    }


def _present_attributes(obj: KubeObject) -> dict[str, str]:
    key, view = obj.key, obj.view
    meta = view.metadata
    status = getattr(view, "status", None)
    phase = getattr(status, "phase", None)
    if phase is None and view.text is not None:
        phase = view.text.status
    # Secret and Service types (a Secret's type says whether anything should mount it).
    kind_type = getattr(view, "type", None) or getattr(getattr(view, "spec", None), "type", None)
    return {
        "kind": key.kind, "group": key.group or "core", "namespace": key.namespace,
        "name": key.name, "state": PRESENT, "uid": obj.uid or "",
        "created": meta.creationTimestamp or "", "phase": str(phase or ""),
        "role": node_roles(meta.labels or {}) if key.kind == "Node" else "",
        "type": kind_type if isinstance(kind_type, str) else "",
    }


def node_roles(labels: dict[str, Any]) -> str:
    """A node's roles from its labels, comma-separated (as `kubectl get nodes` shows them).

    >>> node_roles({"node-role.kubernetes.io/control-plane": "", "kubernetes.io/role": "master"})
    'control-plane,master'
    """
    roles = {k.split("/", 1)[1] for k in labels if k.startswith("node-role.kubernetes.io/")}
    if labels.get("kubernetes.io/role"):
        roles.add(str(labels["kubernetes.io/role"]))
    return ",".join(sorted(r for r in roles if r))
