"""Plan a large synthetic cluster and yield its objects in the order `kubectl get pods,nodes,... -A` prints them."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from synthetic.clusters.scalable import shapes
from synthetic.clusters.scalable.workloads import (
    Context,
    Workload,
    addon_workload,
    app_workload,
    bare_workload,
    daemonset_workload,
    stateful_workload,
    static_workload,
)
from synthetic.ids import Ids
from synthetic.objects.configmaps import app_configmap, root_ca_configmap
from synthetic.objects.controllers import daemonset_object, deployment_objects, statefulset_object
from synthetic.objects.events import pod_events
from synthetic.objects.namespaces import namespace_object
from synthetic.objects.nodes import build_node, image_size
from synthetic.objects.pod_status import pick_state
from synthetic.objects.pods import NodeSlot, PodPlan, build_pod
from synthetic.objects.services import service_objects

CATALOG_PATH = Path(__file__).with_name("catalog.yaml")
DAEMONSET_SHARE = 0.30  # at most this share of pods come from per-node agents
STATEFUL_SHARE = 0.06
BARE_SHARE = 0.005
EVENT_SAMPLE_OF_HEALTHY = 0.03  # healthy pods that still have their start-up events
KIND_ORDER = ("Pod", "Node", "Deployment", "ReplicaSet", "DaemonSet", "StatefulSet", "Service", "ConfigMap",
              "Event", "Namespace")
READY_STATES = frozenset({"running", "restarted"})


def load_catalog(path: Path = CATALOG_PATH) -> dict[str, Any]:
    """The catalog of components, shapes and sizes the cluster is drawn from."""
    with path.open(encoding="utf-8") as handle:
        return yaml.safe_load(handle)


def shape_names() -> list[str]:
    """The shapes of the catalog, `baseline` first."""
    return list(load_catalog()["shapes"])


def shaped_catalog(catalog: dict[str, Any], shape: dict[str, Any]) -> dict[str, Any]:
    """The catalog as a shape changes it: its node pools and DaemonSets."""
    catalog = dict(catalog)
    if "windows" in shape:
        share = shape["windows"]
        pools = [{**pool, "share": pool["share"] * (1 - share)} for pool in catalog["node_pools"]]
        catalog["node_pools"] = [*pools, {**shape["windows_pool"], "share": share}]
        catalog["daemonsets"] = [*catalog["daemonsets"],
                                 *({**entry, "os": "windows"} for entry in shapes.WINDOWS_DAEMONSETS)]
    node_share = shape.get("daemonset_node_share", {})
    daemonsets = [{**entry, "node_share": node_share[entry["name"]]} if entry["name"] in node_share else entry
                  for entry in catalog["daemonsets"]]
    catalog["daemonsets"] = [*daemonsets, *shapes.extra_daemonsets(shape.get("extra_daemonsets", 0))]
    return catalog


def default_nodes(pods: int, shape: str = "baseline") -> int:
    """A node count that gives ~20 pods per node, as in the benchmark clusters (or the shape's own)."""
    per_node = load_catalog()["shapes"].get(shape, {}).get("pods_per_node", 20)
    return max(3, pods // per_node)


@dataclass(slots=True)
class NodePlan:
    """A node to write, with what its builder needs."""

    slot: NodeSlot
    pool: dict[str, Any]
    control_plane: bool
    zone: str
    age: int
    condition: str
    pod_cidr: str
    images: set[str] = field(default_factory=set)

    @property
    def os(self) -> str:
        return self.pool.get("os", "linux")


@dataclass(slots=True)
class ClusterPlan:
    """Everything decided before any object is written."""

    nodes: list[NodePlan]
    workloads: list[Workload]
    pods: list[tuple[PodPlan, Workload]]


def _plan_nodes(ctx: Context, count: int) -> list[NodePlan]:
    rng, catalog = ctx.rng, ctx.catalog
    cluster = catalog["cluster"]
    control_planes = min(cluster["control_plane_nodes"], count)
    pools = catalog["node_pools"]
    plans = []
    for i in range(count):
        control_plane = i < control_planes
        if control_plane:
            pool, name = pools[0], f"k8s-cp-{i + 1:02d}"
            age, condition = cluster["age_seconds"] - 600 * i, "Ready"
        else:
            roll = rng.random()
            pool = pools[-1]
            for candidate in pools:
                if roll < candidate["share"]:
                    pool = candidate
                    break
                roll -= candidate["share"]
            name = f"k8s-{pool['name']}-{i - control_planes + 1:04d}"
            age = rng.randint(3600, cluster["age_seconds"] - 3600)
            roll = rng.random()
            condition = "NotReady" if roll < 0.005 else "Cordoned" if roll < 0.01 else "Ready"
        slot = NodeSlot(name=name, ip=f"10.20.{i // 250}.{10 + i % 250}", pod_net=f"10.{244 + i // 256}.{i % 256}.", uid=ctx.ids.uid())
        plans.append(NodePlan(slot, pool, control_plane, cluster["zones"][i % len(cluster["zones"])], age, condition,
                              f"10.{244 + i // 256}.{i % 256}.0/24"))
    return plans


def _unique(name: str, taken: set[tuple[str, str]], namespace: str) -> str:
    candidate, n = name, 1
    while (namespace, candidate) in taken:
        n += 1
        candidate = f"{name}-{n}"
    taken.add((namespace, candidate))
    return candidate


def _plan_workloads(ctx: Context, pods: int, nodes: list[NodePlan]) -> list[Workload]:
    rng, catalog = ctx.rng, ctx.catalog
    workloads: list[Workload] = []
    budget = pods
    taken: set[tuple[str, str]] = set()
    if pods >= 100:
        for node in (n for n in nodes if n.control_plane):
            for entry in catalog["static_pods"]:
                workloads.append(static_workload(ctx, entry, node.slot, node.age))
                budget -= 1
    daemonset_share = ctx.shape.get("daemonset_share", DAEMONSET_SHARE)
    for entry in catalog["daemonsets"]:
        count = len(_daemonset_nodes(nodes, entry.get("os", "linux"), entry.get("node_share", 1.0)))
        if count and pods - budget + count <= daemonset_share * pods:
            workloads.append(daemonset_workload(ctx, entry, count))
            taken.add((entry["namespace"], entry["name"]))
            budget -= count
    for entry in catalog["addons"]:
        if entry["replicas"] < budget * 0.05:
            workloads.append(addon_workload(ctx, entry))
            taken.add((entry["namespace"], entry["name"]))
            budget -= entry["replicas"]
    teams, environments = catalog["teams"], catalog["environments"]
    stateful_budget = int(pods * STATEFUL_SHARE)
    while stateful_budget > 0 and budget > 0:
        team, environment = rng.choice(teams), rng.choice(environments)
        shape = rng.choice(catalog["stateful_shapes"])
        replicas = min(rng.choice(shape["replicas"]), stateful_budget, budget)
        name = _unique(f"{team}-{shape['component']}", taken, f"{team}-{environment}")
        workloads.append(stateful_workload(ctx, team, environment, shape, replicas, name))
        stateful_budget -= replicas
        budget -= replicas
    for _ in range(int(pods * BARE_SHARE)):
        if budget <= 0:
            break
        team, environment = rng.choice(teams), rng.choice(environments)
        name = _unique(f"debug-{ctx.ids.suffix(4)}", taken, f"{team}-{environment}")
        workloads.append(bare_workload(ctx, team, environment, name))
        budget -= 1
    while budget > 0:
        team, environment = rng.choice(teams), rng.choice(environments)
        shape = rng.choice(catalog["app_shapes"])
        component = rng.choice(shape["components"])
        replicas = min(rng.choice(catalog["replica_choices"]), budget)
        name = _unique(f"{team}-{component}", taken, f"{team}-{environment}")
        workloads.append(app_workload(ctx, team, environment, component, shape, replicas, name))
        budget -= replicas
    return workloads


def _daemonset_nodes(nodes: list[NodePlan], os_name: str, share: float) -> list[NodePlan]:
    """The nodes a DaemonSet runs on: those of its OS, or the first share of them (a node selector)."""
    eligible = [n for n in nodes if n.os == os_name]
    return eligible if share >= 1.0 else eligible[:max(1, int(len(eligible) * share))]


def _plan_pods(ctx: Context, workloads: list[Workload], nodes: list[NodePlan]) -> list[tuple[PodPlan, Workload]]:
    rng, ids = ctx.rng, ctx.ids
    workers = [n for n in nodes if not n.control_plane] or nodes
    by_os = {"linux": [n for n in workers if n.os == "linux"], "windows": [n for n in workers if n.os == "windows"]}
    plans: list[tuple[PodPlan, Workload]] = []
    for w in workloads:
        targets = _daemonset_nodes(nodes, w.os, w.node_share) if w.kind == "DaemonSet" else by_os[w.os] or workers
        for i in range(w.replicas):
            node: NodePlan | None
            if w.kind == "DaemonSet":
                node = targets[i]
                state = pick_state(rng.random())
                state = state if state in ("restarted", "crashloop") else "running"
            elif w.kind == "Node":
                node = next(n for n in nodes if n.slot is w.static_node)
                state = "restarted" if rng.random() < 0.2 else "running"
            else:
                node = rng.choice(targets)
                state = pick_state(rng.random())
            age_limit = min(w.owner_age or w.age, node.age)
            age = rng.randint(min(60, age_limit), age_limit)
            labels = claim = None
            generate_name: str | None = f"{w.owner_name}-"
            if w.kind == "StatefulSet":
                name = f"{w.name}-{i}"
                labels = {**w.template.labels, "apps.kubernetes.io/pod-index": str(i), "statefulset.kubernetes.io/pod-name": name}
                claim = f"data-{name}"
            elif w.kind in ("Node", "Pod"):
                name, generate_name = w.name, None
            else:
                name = f"{w.owner_name}-{ids.suffix(5)}"
            if state != "pending":
                node.images.update(c["image"] for c in w.template.spec["containers"])
                node.images.update(c["image"] for c in w.template.spec.get("initContainers", ()))
            plan = PodPlan(w.namespace, name, w.template, w.pod_owner, node.slot if state != "pending" else None,
                           state, age, labels, claim, generate_name)
            plans.append((plan, w))
    plans.sort(key=lambda item: (item[0].namespace, item[0].name))
    return plans


def plan_cluster(pods: int, nodes: int, seed: int = 1, shape: str = "baseline") -> tuple[Context, ClusterPlan]:
    """Decide nodes, workloads and pods (cheap); objects are built later, one at a time."""
    if pods < 0 or nodes < 1:
        raise ValueError("need at least one node and a non-negative number of pods")
    catalog = load_catalog()
    if shape not in catalog["shapes"]:
        raise ValueError(f"unknown shape {shape!r}; the catalog has {', '.join(catalog['shapes'])}")
    shape_entry = catalog["shapes"][shape]
    rng = random.Random(seed)
    ctx = Context(rng, Ids(rng), shaped_catalog(catalog, shape_entry), nodes, shape_entry)
    node_plans = _plan_nodes(ctx, nodes)
    workloads = _plan_workloads(ctx, pods, node_plans)
    pod_plans = _plan_pods(ctx, workloads, node_plans)
    return ctx, ClusterPlan(node_plans, workloads, pod_plans)


def generate_objects(pods: int, nodes: int, seed: int = 1, shape: str = "baseline") -> Iterator[dict[str, Any]]:
    """Yield the cluster's objects: Pods, Nodes, workloads, Services, ConfigMaps, Events, Namespaces."""
    ctx, plan = plan_cluster(pods, nodes, seed, shape)
    cni_annotations = ctx.shape.get("cni_annotations", False)
    ids, rng = ctx.ids, ctx.rng
    ready: dict[int, int] = defaultdict(int)
    events: list[dict[str, Any]] = []
    for pod_plan, workload in plan.pods:
        pod = build_pod(pod_plan, ids, len(plan.nodes))
        if cni_annotations:
            shapes.cni_annotations(pod)
        if pod_plan.state in READY_STATES:
            ready[id(workload)] += 1
        if pod_plan.state != "running" or rng.random() < EVENT_SAMPLE_OF_HEALTHY:
            events.extend(pod_events(ids, pod, pod_plan.state))
        yield pod
    pause = "registry.k8s.io/pause:3.9"
    for node in sorted(plan.nodes, key=lambda n: n.slot.name):
        images = sorted(node.images | {pause}, key=lambda image: (-image_size(image), image))[:50]
        yield build_node(node.slot, ids, node.pool, ctx.catalog["cluster"], control_plane=node.control_plane,
                         zone=node.zone, age=node.age, condition=node.condition, images=images, pod_cidr=node.pod_cidr)
    by_key = sorted(plan.workloads, key=lambda w: (w.namespace, w.name))
    deployments = [obj for w in by_key if w.kind == "Deployment" for obj in deployment_objects(w, ids, ready[id(w)])]
    yield from (o for o in deployments if o["kind"] == "Deployment")
    yield from sorted((o for o in deployments if o["kind"] == "ReplicaSet"),
                      key=lambda o: (o["metadata"]["namespace"], o["metadata"]["name"]))
    yield from (daemonset_object(w, ids, ready[id(w)]) for w in by_key if w.kind == "DaemonSet")
    yield from (statefulset_object(w, ids, ready[id(w)]) for w in by_key if w.kind == "StatefulSet")
    services = []
    for k, w in enumerate(w for w in by_key if w.kind in ("Deployment", "StatefulSet")):
        cluster_ip = f"10.{96 + (k + 10) // 65536}.{((k + 10) // 256) % 256}.{(k + 10) % 256}"
        services.extend(service_objects(w, ids, cluster_ip))
    yield from sorted(services, key=lambda o: (o["metadata"]["namespace"], o["metadata"]["name"]))
    namespaces = sorted({w.namespace for w in plan.workloads} | {"default", "kube-node-lease", "kube-public", "kube-system"})
    age = ctx.catalog["cluster"]["age_seconds"]
    config_maps = [root_ca_configmap(ids, ns, age) for ns in namespaces]
    config_maps += [app_configmap(w, ids) for w in by_key if w.config]
    yield from sorted(config_maps, key=lambda o: (o["metadata"]["namespace"], o["metadata"]["name"]))
    yield from sorted(events, key=lambda o: (o["metadata"]["namespace"], o["metadata"]["name"]))
    for ns in namespaces:
        team = ns.rsplit("-", 1)[0] if ns.endswith(("-prod", "-staging")) else ""
        labels = {"team": team, "pod-security.kubernetes.io/enforce": "restricted"} if team else {}
        yield namespace_object(ids, ns, age - rng.randint(0, 3600) if not team else rng.randint(86_400, age), labels)
