"""Pods, their containers and container env, built in one pass over the pod views (their
volumes are a family of their own: `volumes`)."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from analyzer.kube.quantities import resource_quantities
from analyzer.kube.views import (
    Condition,
    Container,
    ContainerState,
    ContainerStatus,
    PodIP,
    PodSecurityContext,
    PodView,
    SecurityContext,
)
from analyzer.model.frame import (
    cast_column,
    child_order,
    columns_from_rows,
    columns_of,
    dense_rank,
    in_order,
    positions,
    to_frame,
)
from analyzer.model.images import split_image
from analyzer.model.managed import managed_index
from analyzer.model.normalize import (
    builtin_objects,
    controller_of,
    joined,
    newest,
    pairs,
    ready_counts,
    source_of,
)
from analyzer.model.podstatus import pod_status
from analyzer.model.rowpool import RowPool, memo_key, take_rows
from analyzer.sensitive.masking import is_sensitive_env

if TYPE_CHECKING:
    from analyzer.ingest.dump import Dump

RESOURCE_NAMES = ("cpu", "memory", "ephemeral-storage")
MIRROR_ANNOTATION = "kubernetes.io/config.mirror"
_NO_STATUS = ContainerStatus()
_NO_RESOURCES = ((math.nan,) * 3, (math.nan,) * 3, None)


def toleration_text(tol: dict[str, Any]) -> str:
    """A toleration as key[=value][:effect], or ALL for `operator: Exists` without a key.

    Examples:
        >>> toleration_text({"key": "node-role.kubernetes.io/master", "effect": "NoSchedule"})
        'node-role.kubernetes.io/master:NoSchedule'
        >>> toleration_text({"operator": "Exists"}), toleration_text({"key": ["odd"]})
        ('ALL', "['odd']")
    """
    fields = (tol.get("key"), tol.get("operator"), tol.get("value"), tol.get("effect"))
    try:
        return _toleration_text(*fields)
    except TypeError:  # an unhashable value in a hand-edited dump: not cacheable
        return _toleration_text.__wrapped__(*fields)


@lru_cache(maxsize=4096)
def _toleration_text(key: Any, operator: Any, value: Any, effect: Any) -> str:
    # Cached: every pod carries the same few default tolerations.
    text = str(key) if key else ("ALL" if operator == "Exists" else "")
    if value:
        text += f"={value}"
    if effect:
        text += f":{effect}"
    return text


def ports_text(container: Container) -> str | None:
    """Container ports as [name:]port/protocol, comma-separated."""
    # Each item is non-empty, so this is `joined` without its filtering.
    return ",".join([
        f"{p.name + ':' if p.name else ''}{p.containerPort}/{p.protocol or 'TCP'}"
        for p in container.ports or ()
    ]) or None


def _state(state: ContainerState | None) -> tuple[str | None, Any]:
    if state is None:
        return None, None
    if state.waiting is not None:
        return "waiting", state.waiting
    if state.running is not None:
        return "running", state.running
    if state.terminated is not None:
        return "terminated", state.terminated
    return None, None


# The containers table's columns that follow from the container's spec, its type and the
# pod's securityContext: the pods of one workload share them, so they are pooled (RowPool).
CONTAINER_SPEC_COLUMNS = (
    "name", "container_type", "image", "registry", "repository", "tag", "digest",
    "cpu_request", "cpu_limit", "memory_request", "memory_limit",
    "ephemeral_storage_request", "ephemeral_storage_limit", "resources_raw", "ports",
    "liveness_probe", "readiness_probe", "startup_probe", "privileged", "run_as_user",
    "run_as_non_root", "allow_privilege_escalation", "read_only_root_fs", "capabilities_add",
    "image_pull_policy", "env_count",
)
# The columns that say how the container runs: one row tuple per container.
CONTAINER_STATE_COLUMNS = (
    "image_id", "ready", "started", "restarts", "state", "state_reason", "state_message",
    "exit_code", "last_state_reason", "last_exit_code", "last_finished", "started_at",
)


def container_spec_row(ctype: str, c: Container, psc: PodSecurityContext | None
                       ) -> tuple[Any, ...]:
    """The container's CONTAINER_SPEC_COLUMNS, in that order."""
    image = split_image(c.image)
    res = c.resources
    requests, limits, unreadable = (
        resource_quantities(res.requests, res.limits, RESOURCE_NAMES) if res else _NO_RESOURCES)
    sc = c.securityContext
    if sc is not None:
        run_as_user = sc.runAsUser if sc.runAsUser is not None else (
            psc.runAsUser if psc else None)
        non_root = sc.runAsNonRoot if sc.runAsNonRoot is not None else (
            psc.runAsNonRoot if psc else None)
        capabilities = sc.capabilities
        caps = joined(capabilities.add or ()) if capabilities else None
    else:
        run_as_user = psc.runAsUser if psc else None
        non_root = psc.runAsNonRoot if psc else None
        caps = None
    return (
        c.name, ctype, c.image, image.registry, image.repository, image.tag, image.digest,
        requests[0], limits[0], requests[1], limits[1], requests[2], limits[2], unreadable,
        ports_text(c) if c.ports else None,
        c.livenessProbe is not None, c.readinessProbe is not None, c.startupProbe is not None,
        _privileged(sc, psc), run_as_user, non_root,
        sc.allowPrivilegeEscalation if sc else None, sc.readOnlyRootFilesystem if sc else None,
        caps, c.imagePullPolicy, len(c.env or ()) + len(c.envFrom or ()),
    )


def _privileged(sc: SecurityContext | None, psc: PodSecurityContext | None) -> bool | None:
    """securityContext.privileged, or True for a Windows HostProcess container (its own
    windowsOptions.hostProcess, else the pod's): it runs on the host with the host's access."""
    own = sc.windowsOptions.hostProcess if sc is not None and sc.windowsOptions is not None else None
    pods = psc.windowsOptions.hostProcess if psc is not None and psc.windowsOptions is not None else None
    if own or (own is None and pods):
        return True
    return sc.privileged if sc else None


def _ready_and_scheduled(conditions: list[Condition] | None
                         ) -> tuple[Condition | None, Condition | None]:
    """The first Ready and PodScheduled conditions, in one pass (it runs per pod)."""
    ready = scheduled = None
    for cond in conditions or ():
        kind = cond.type
        if kind == "Ready":
            if ready is None:
                ready = cond
        elif kind == "PodScheduled" and scheduled is None:
            scheduled = cond
    return ready, scheduled


def _pod_ips_text(pod_ips: list[PodIP] | None) -> str | None:
    """The pod's IPs, comma-separated (as `joined` writes them)."""
    if not pod_ips:
        return None
    if len(pod_ips) == 1 and type(pod_ips[0].ip) is str:  # nearly every pod: one address
        return pod_ips[0].ip or None
    return joined(ip.ip for ip in pod_ips)


def _owner_maps(cluster: Dump) -> dict[tuple[str, str, str], tuple[str, str]]:
    """(kind, namespace, name) of ReplicaSets and Jobs -> their controller (Deployment, CronJob)."""
    out = {}
    for kind in ("ReplicaSet", "Job"):  # one kind at a time: no walk over every object
        for obj in builtin_objects(cluster, kind):
            owner = controller_of(obj.view.metadata)
            if owner is not None and owner.kind:
                out[(obj.kind, obj.namespace, obj.name)] = (owner.kind, owner.name)
    return out


def _workload(kind: str | None, name: str | None, ns: str, labels: dict[str, Any] | None,
              parents: dict[tuple[str, str, str], tuple[str, str]]) -> tuple[Any, Any]:
    if kind in ("ReplicaSet", "Job") and name:
        parent = parents.get((kind, ns, name))
        if parent is not None:
            return parent
        # The ReplicaSet is not in the dump: its name is <deployment>-<pod-template-hash>.
        pth = (labels or {}).get("pod-template-hash")
        if kind == "ReplicaSet" and pth and name.endswith(f"-{pth}"):
            return "Deployment", name[: -len(pth) - 1]
    return kind, name


class _Builder:
    """Accumulates the three tables' columns while walking the pods once."""

    def __init__(self, cluster: Dump) -> None:
        self.cluster = cluster
        self.pod_rows: list[tuple[Any, ...]] = []
        # The long tables are kept as row tuples (cheaper per row), without namespace and pod:
        # rows point to their pod by index (see `build`). What the pods of one workload repeat
        # is pooled, a group keyed by its msgpack encoding stored once (see RowPool): the
        # containers' spec columns (placed per pod) and env rows (placed per container).
        self.container_specs = RowPool("containers", columns=CONTAINER_SPEC_COLUMNS)
        self.container_states: list[tuple[Any, ...]] = []
        self.env_rows = RowPool("container_env", first=4)
        # msgpack encoding (of a JSON-read pod's part) -> what it comes out as.
        self.placement_memo: dict[bytes, tuple[str | None, str | None]] = {}
        self.container_memo: dict[bytes, tuple[int, int | None]] = {}
        self.pod_index = -1
        # The last pod's provenance and its source text: the pods of one document share them.
        self.provenance: Any = None
        self.source: str | None = None
        self.parents = _owner_maps(cluster)
        self.managed = managed_index(cluster)

    def add_pod(self, obj: Any) -> None:
        self.pod_index += 1
        view: PodView = obj.view
        # Read from JSON (or from YAML by the fast parser): the view holds JSON types only, so
        # equal msgpack encodings mean equal values and the memos below are exact (CSafeLoader's
        # YAML may hold dates, sets, ...).
        plain = obj.json_types
        meta, spec, status = view.metadata, view.spec, view.status
        key = obj.key
        ns, name = key.namespace, key.name
        facts = view.text
        owner = controller_of(meta)
        owner_kind = owner.kind if owner else None
        owner_name = owner.name if owner else None
        workload_kind, workload_name = _workload(owner_kind, owner_name, ns, meta.labels,
                                                 self.parents)
        kstatus, restarts = pod_status(view)
        statuses = status.containerStatuses or []
        n_containers = len(spec.containers or ()) or len(statuses) or None
        n_ready = len([cs for cs in statuses if cs.ready]) if statuses else None
        ready_cond, scheduled_cond = _ready_and_scheduled(status.conditions)
        ready = None if ready_cond is None else ready_cond.status == "True"
        if ready is None and statuses:
            ready = all(cs.ready for cs in statuses)
        if not statuses and not status.initContainerStatuses and status.phase is None:
            restarts = None  # nothing says how the pod runs (a manifest, a partial paste)
        if facts is not None:
            # A pasted table says READY/STATUS/RESTARTS directly.
            text_ready, text_total = ready_counts(facts.ready)
            if text_total is not None:
                n_ready, n_containers = text_ready, text_total
                ready = text_ready == text_total
            kstatus = facts.status or kstatus
            if facts.restarts is not None:
                restarts = facts.restarts
        last_finished: list[str | None] = []

        for ctype, containers, ctype_statuses in (
            ("init", spec.initContainers, status.initContainerStatuses),
            ("container", spec.containers, statuses),
            ("ephemeral", spec.ephemeralContainers, status.ephemeralContainerStatuses),
        ):
            if not containers:
                continue
            by_name = {cs.name: cs for cs in ctype_statuses or ()}
            for c in containers:
                cs = by_name.get(c.name, _NO_STATUS)
                self.add_container(ctype, c, cs, spec.securityContext, plain)
                last = cs.lastState.terminated if cs.lastState else None
                if last is not None:
                    last_finished.append(last.finishedAt)

        if obj.provenance is not self.provenance:
            self.provenance, self.source = obj.provenance, source_of(obj)
        # One row tuple: the pods table's columns in declared order.
        self.pod_rows.append((
            ns, name, obj.uid, meta.creationTimestamp,
            None if facts is None else facts.age_seconds, status.phase, kstatus,
            status.reason, spec.nodeName, status.podIP, _pod_ips_text(status.podIPs),
            status.hostIP, status.qosClass, spec.priorityClassName, spec.priority,
            spec.serviceAccountName or spec.serviceAccount,
            spec.hostNetwork, spec.hostPID, spec.hostIPC,
            n_containers, n_ready, ready, restarts,
            newest(last_finished) if last_finished else None, status.startTime,
            owner_kind, owner_name, workload_kind, workload_name,
            MIRROR_ANNOTATION in (meta.annotations or ()) or owner_kind == "Node",
            None if scheduled_cond is None else scheduled_cond.status == "True",
            scheduled_cond.message if scheduled_cond is not None
            and scheduled_cond.status == "False" else None,
            *self.placement_texts(spec.nodeSelector, spec.tolerations, plain),
            spec.runtimeClassName, meta.deletionTimestamp is not None, self.source,
            self.managed.of(ns, meta.labels, meta.annotations,
                            (owner_kind, owner_name) if owner_kind else None) or None,
        ))

    def add_container(self, ctype: str, c: Container, cs: ContainerStatus,
                      psc: PodSecurityContext | None, plain: bool) -> None:
        # Everything the spec columns and env rows follow from (see `plain` in add_pod).
        key = memo_key((ctype, c.name, c.image, c.imagePullPolicy, c.resources, c.ports,
                        c.securityContext, psc, c.env, c.envFrom, c.livenessProbe is None,
                        c.readinessProbe is None, c.startupProbe is None)) if plain else None
        stored = self.container_memo.get(key) if key is not None else None
        if stored is None:
            env = self.env_rows_of(c) if c.env or c.envFrom else None
            stored = (self.container_specs.store([container_spec_row(ctype, c, psc)]),
                      None if env is None else self.env_rows.store(env))
            if key is not None:
                self.container_memo[key] = stored
        spec_group, env_group = stored
        # RowPool.place, inlined: runs per container.
        if env_group is not None:
            env_rows = self.env_rows
            env_rows.placed.append(env_group)
            env_rows.parents.append(len(self.container_states))
        specs = self.container_specs
        specs.placed.append(spec_group)
        specs.parents.append(self.pod_index)

        state, detail = _state(cs.state)
        last_state = cs.lastState
        last = last_state.terminated if last_state else None
        # One row tuple: CONTAINER_STATE_COLUMNS in order.
        self.container_states.append((
            cs.imageID or None, cs.ready, cs.started, cs.restartCount,
            state, detail.reason if detail else None, detail.message if detail else None,
            detail.exitCode if state == "terminated" else None,
            last.reason if last else None, last.exitCode if last else None,
            last.finishedAt if last else None,
            detail.startedAt if state == "running" else None,
        ))

    def placement_texts(self, node_selector: Any, tolerations: list[Any] | None, plain: bool
                        ) -> tuple[str | None, str | None]:
        """The pod's nodeSelector and tolerations as text, once per distinct pair (the pods of
        a workload share them; see `plain` in add_pod)."""
        if not node_selector and not tolerations:
            return None, None
        key = memo_key((node_selector, tolerations)) if plain else None
        texts = self.placement_memo.get(key) if key is not None else None
        if texts is None:
            texts = (pairs(node_selector), joined(toleration_text(t) for t in tolerations
                                                  if isinstance(t, dict)) if tolerations else None)
            if key is not None:
                self.placement_memo[key] = texts
        return texts

    @staticmethod
    def env_rows_of(c: Container) -> tuple[tuple[Any, ...], ...]:
        """Row tuples: container_env's columns after namespace, pod, container and its type."""
        rows: list[tuple[Any, ...]] = []
        for var in c.env or ():
            src = var.valueFrom
            if src is None:
                rows.append((var.name, "value", None, None, None,
                             is_sensitive_env(var.name, var.value)))
            elif src.configMapKeyRef is not None:
                ref = src.configMapKeyRef
                rows.append((var.name, "configMapKeyRef", ref.name, ref.key,
                             ref.optional, False))
            elif src.secretKeyRef is not None:
                ref = src.secretKeyRef
                rows.append((var.name, "secretKeyRef", ref.name, ref.key,
                             ref.optional, False))
            elif src.fieldRef is not None:
                rows.append((var.name, "fieldRef", None,
                             src.fieldRef.get("fieldPath"), None, False))
            elif src.resourceFieldRef is not None:
                res = src.resourceFieldRef
                rows.append((var.name, "resourceFieldRef", res.get("containerName"),
                             res.get("resource"), None, False))
            else:
                rows.append((var.name, None, None, None, None, False))
        for ef in c.envFrom or ():
            ref = ef.configMapRef or ef.secretRef
            kind = "configMapRef" if ef.configMapRef is not None else (
                "secretRef" if ef.secretRef is not None else None)
            rows.append((ef.prefix, kind, ref.name if ref else None, None,
                         ref.optional if ref else None, False))
        return tuple(rows)

def build(cluster: Dump) -> dict[str, pd.DataFrame]:
    """pods, containers and container_env from one walk over the Pod objects."""
    b = _Builder(cluster)
    for obj in builtin_objects(cluster, "Pod"):
        b.add_pod(obj)
    capture = cluster.capture_time
    # Every table is put in order here, before it is framed: pods by namespace and name, the
    # others by their pod's rank (stably). Row tuples are reordered before they become
    # columns, pooled columns are taken once, so no cast column is taken twice.
    namespace = cast_column([row[0] for row in b.pod_rows], "category")
    name = cast_column([row[1] for row in b.pod_rows], "str")
    pod_rank = dense_rank([namespace, name])
    pod_order = np.argsort(pod_rank, kind="stable")
    pods = columns_from_rows("pods", in_order(b.pod_rows, pod_order))
    pods.update(namespace=namespace.take(pod_order), name=name.take(pod_order))

    def with_pod(columns: dict[str, Any], pod_of: np.ndarray) -> dict[str, Any]:
        return {**columns, "namespace": namespace.take(pod_of), "pod": name.take(pod_of)}

    # One spec group is placed per container, for its pod.
    spec_ids, _ = b.container_specs.layout()
    container_of = np.asarray(b.container_specs.parents, dtype=np.intp)
    container_order = child_order(pod_rank, container_of)
    containers = with_pod(
        {**take_rows(b.container_specs.distinct_columns(), spec_ids[container_order]),
         **columns_of(in_order(b.container_states, container_order), CONTAINER_STATE_COLUMNS)},
        container_of[container_order])
    container_name, container_type = containers["name"], containers["container_type"]

    # Env rows point to their container (by walk index): its name, type and pod are theirs.
    env_ids, env_placement = b.env_rows.layout()
    env_container = np.asarray(b.env_rows.parents, dtype=np.intp)[env_placement]
    env_pod = container_of[env_container]
    env_order = child_order(pod_rank, env_pod)
    env_container_row = positions(container_order)[env_container[env_order]]
    env = with_pod(take_rows(b.env_rows.distinct_columns(), env_ids[env_order]),
                   env_pod[env_order])
    env.update(container=container_name.take(env_container_row),
               container_type=container_type.take(env_container_row).remove_unused_categories())

    return {
        "pods": to_frame("pods", pods, capture),
        "containers": to_frame("containers", containers, capture),
        "container_env": to_frame("container_env", env, capture),
    }
