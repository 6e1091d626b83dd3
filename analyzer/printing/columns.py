"""kubectl's columns per kind: the server-side Table an API server builds for `kubectl get`.

One table code for `kda serve` (which answers `as=Table` with it) and `kda get` (which prints it),
so the two cannot drift. Columns, their order, priorities (1 = `-o wide` only) and cell formats
follow Kubernetes' pkg/printers/internalversion/printers.go; cells are computed as the API server
does (always with the wide cells; kubectl hides priority-1 columns unless `-o wide`).
Ages are measured from the dump's capture time.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from analyzer.kube.autoscaling import hpa_metrics
from analyzer.kube.time import parse_time
from analyzer.printing.timefmt import Clock, human_duration

Row = list[Any]
Body = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Column:
    name: str
    type: str = "string"
    priority: int = 0
    format: str = ""
    description: str = ""

    def definition(self) -> dict[str, Any]:
        """The column as a Table's `columnDefinitions` entry."""
        return {"name": self.name, "type": self.type, "format": self.format,
                "description": self.description or self.name, "priority": self.priority}


@dataclass(frozen=True, slots=True)
class Printer:
    columns: tuple[Column, ...]
    row: Callable[[Body, Clock], Row]


PRINTERS: dict[tuple[str, str], Printer] = {}

NAME = Column("Name", format="name", description="Name must be unique within a namespace.")
AGE = Column("Age", description="CreationTimestamp is a timestamp representing the server time when this object was created.")


def printer(group: str, kind: str, *columns: Column) -> Callable[[Callable[[Body, Clock], Row]], Callable[[Body, Clock], Row]]:
    """Register the row function of one built-in kind with its columns."""
    def register(fn: Callable[[Body, Clock], Row]) -> Callable[[Body, Clock], Row]:
        if (group, kind) in PRINTERS:
            raise ValueError(f"two printers for {group}/{kind}")
        PRINTERS[(group, kind)] = Printer(tuple(columns), fn)
        return fn
    return register


def wide(name: str, type: str = "string") -> Column:
    return Column(name, type=type, priority=1)


# -- helpers -------------------------------------------------------------------------------

def _d(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _l(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def pod_ips(status: dict[str, Any]) -> list[str]:
    """A pod's IPs as the API server serves them: `podIPs`, or `[podIP]` where only that was
    written (a pod of a cluster before 1.16, or a pasted one): the server converts one into the
    other, so kubectl shows the IP of such a pod too.

    >>> pod_ips({"podIP": "10.1.0.4"}), pod_ips({"podIP": "10.1.0.4", "podIPs": [{"ip": "10.1.0.4"}, {"ip": "fd00::4"}]})
    (['10.1.0.4'], ['10.1.0.4', 'fd00::4'])
    """
    ips = [str(_d(ip).get("ip") or "") for ip in _l(status.get("podIPs"))]
    if not ips and status.get("podIP"):
        ips = [str(status["podIP"])]
    return ips


def by_field(items: Any, field: str) -> dict[str, dict[str, Any]]:
    """The mappings of a list by one text field, the last of each; items of another shape or
    whose field is not text are left out (a hand-edited dump can hold anything there).

    >>> by_field([{"type": "Ready"}, {"type": ["x"]}, "y", {"type": "Ready", "status": "True"}], "type")
    {'Ready': {'type': 'Ready', 'status': 'True'}}
    """
    return {item[field]: item for item in _l(items) if isinstance(item, dict) and isinstance(item.get(field), str)}


def _meta(o: Body) -> dict[str, Any]:
    return _d(o.get("metadata"))


def _age(o: Body, clock: Clock) -> str:
    return clock.since(_meta(o).get("creationTimestamp"))


def as_int(value: Any, default: int = 0) -> int:
    """A count or number field as an int: zero or unset is the default, and so is another type
    in a hand-edited dump (text that is not a whole number, a list, a mapping).

    >>> as_int(3), as_int(None), as_int("7"), as_int("1Gi"), as_int([1]), as_int(0, 10)
    (3, 0, 7, 0, 0, 10)
    """
    try:
        return int(value or default)
    except (TypeError, ValueError, OverflowError):
        return default


def format_labels(labels: Any) -> str:
    """`a=b,c=d` sorted by key, `<none>` when empty (labels.FormatLabels)."""
    labels = _d(labels)
    if not labels:
        return "<none>"
    return ",".join(f"{k}={labels[k]}" for k in sorted(labels))


def format_selector(selector: Any) -> str:
    """A LabelSelector as kubectl prints it (metav1.FormatLabelSelector)."""
    sel = _d(selector)
    if selector is None:
        return "<none>"
    parts = [f"{k}={v}" for k, v in sorted(_d(sel.get("matchLabels")).items())]
    for expr in _l(sel.get("matchExpressions")):
        expr = _d(expr)
        key, op, values = expr.get("key", ""), expr.get("operator", ""), sorted(map(str, _l(expr.get("values"))))
        if op == "In":
            parts.append(f"{key} in ({','.join(values)})")
        elif op == "NotIn":
            parts.append(f"{key} notin ({','.join(values)})")
        elif op == "Exists":
            parts.append(key)
        elif op == "DoesNotExist":
            parts.append(f"!{key}")
    text = ",".join(parts)
    return text if text else "<none>"


def _containers(spec: Any) -> tuple[str, str]:
    cs = _l(_d(spec).get("containers"))
    return ",".join(str(_d(c).get("name", "")) for c in cs), ",".join(str(_d(c).get("image", "")) for c in cs)


def _template_spec(o: Body) -> dict[str, Any]:
    return _d(_d(_d(o.get("spec")).get("template")).get("spec"))


def quantity_text(value: Any) -> str:
    return "" if value is None else str(value)


# -- core ----------------------------------------------------------------------------------

@printer("", "Pod", NAME, Column("Ready"), Column("Status"), Column("Restarts"), AGE,
         wide("IP"), wide("Node"), wide("Nominated Node"), wide("Readiness Gates"))
def pod_row(o: Body, clock: Clock) -> Row:
    meta, spec, status = _meta(o), _d(o.get("spec")), _d(o.get("status"))
    containers = _l(spec.get("containers"))
    init_specs = by_field(spec.get("initContainers"), "name")
    total = len(containers) + sum(1 for c in init_specs.values() if c.get("restartPolicy") == "Always")
    ready = 0
    restarts = 0
    sidecar_restarts = 0
    last_restart: str | None = None
    sidecar_last: str | None = None
    phase = status.get("phase") or ""
    reason = status.get("reason") or phase
    conditions = [_d(c) for c in _l(status.get("conditions"))]
    for c in conditions:
        if c.get("type") == "PodScheduled" and c.get("reason") == "SchedulingGated":
            reason = "SchedulingGated"

    def later(a: str | None, b: Any) -> str | None:
        return b if isinstance(b, str) and (a is None or b > a) else a

    initializing = False
    init_statuses = _l(status.get("initContainerStatuses"))
    for i, cs in enumerate(init_statuses):
        cs = _d(cs)
        state, last = _d(cs.get("state")), _d(_d(cs.get("lastState")).get("terminated"))
        restarts += as_int(cs.get("restartCount"))
        if last:
            last_restart = later(last_restart, last.get("finishedAt"))
        name = cs.get("name")
        sidecar = isinstance(name, str) and _d(init_specs.get(name)).get("restartPolicy") == "Always"
        if sidecar:
            sidecar_restarts += as_int(cs.get("restartCount"))
            if last:
                sidecar_last = later(sidecar_last, last.get("finishedAt"))
        term, waiting = state.get("terminated"), state.get("waiting")
        if term is not None and as_int(_d(term).get("exitCode")) == 0:
            continue
        if sidecar and cs.get("started"):
            if cs.get("ready"):
                ready += 1
            continue
        if term is not None:
            term = _d(term)
            if not term.get("reason"):
                reason = (f"Init:Signal:{as_int(term.get('signal'))}" if as_int(term.get("signal"))
                          else f"Init:ExitCode:{as_int(term.get('exitCode'))}")
            else:
                reason = "Init:" + str(term["reason"])
        elif waiting is not None and _d(waiting).get("reason") and _d(waiting).get("reason") != "PodInitializing":
            reason = "Init:" + str(_d(waiting)["reason"])
        else:
            reason = f"Init:{i}/{len(_l(spec.get('initContainers')))}"
        initializing = True
        break
    initialized = any(c.get("type") == "Initialized" and c.get("status") == "True" for c in conditions)
    if not initializing or initialized:
        restarts, last_restart = sidecar_restarts, sidecar_last
        has_running = False
        for cs in reversed(_l(status.get("containerStatuses"))):
            cs = _d(cs)
            state, last = _d(cs.get("state")), _d(_d(cs.get("lastState")).get("terminated"))
            restarts += as_int(cs.get("restartCount"))
            if last:
                last_restart = later(last_restart, last.get("finishedAt"))
            waiting, term = state.get("waiting"), state.get("terminated")
            if waiting is not None and _d(waiting).get("reason"):
                reason = str(_d(waiting)["reason"])
            elif term is not None and _d(term).get("reason"):
                reason = str(_d(term)["reason"])
            elif term is not None:
                term = _d(term)
                reason = (f"Signal:{as_int(term.get('signal'))}" if as_int(term.get("signal"))
                          else f"ExitCode:{as_int(term.get('exitCode'))}")
            elif cs.get("ready") and state.get("running") is not None:
                has_running = True
                ready += 1
        if reason == "Completed" and has_running:
            ready_cond = any(c.get("type") == "Ready" and c.get("status") == "True" for c in conditions)
            reason = "Running" if ready_cond else "NotReady"
    if meta.get("deletionTimestamp") and status.get("reason") == "NodeLost":
        reason = "Unknown"
    elif meta.get("deletionTimestamp") and phase not in ("Succeeded", "Failed"):
        reason = "Terminating"
    restarts_text = str(restarts)
    if restarts and last_restart and parse_time(last_restart):
        restarts_text = f"{restarts} ({clock.since(last_restart)} ago)"
    ips = pod_ips(status)
    ip = ips[0] if ips else ""
    gates = _l(spec.get("readinessGates"))
    gates_text = "<none>"
    if gates:
        by_type = {}
        for c in conditions:
            if isinstance(c.get("type"), str):
                by_type.setdefault(c["type"], c)
        true = sum(1 for g in gates if _d(by_type.get(_d(g).get("conditionType"))).get("status") == "True")
        gates_text = f"{true}/{len(gates)}"
    return [meta.get("name", ""), f"{ready}/{total}", reason, restarts_text, _age(o, clock),
            ip or "<none>", spec.get("nodeName") or "<none>", status.get("nominatedNodeName") or "<none>", gates_text]


@printer("", "Node", NAME, Column("Status"), Column("Roles"), AGE, Column("Version"),
         wide("Internal-IP"), wide("External-IP"), wide("OS-Image"), wide("Kernel-Version"),
         wide("Container-Runtime"))
def node_row(o: Body, clock: Clock) -> Row:
    meta, spec, status = _meta(o), _d(o.get("spec")), _d(o.get("status"))
    conditions = by_field(status.get("conditions"), "type")
    states = []
    if "Ready" in conditions:
        states.append("Ready" if conditions["Ready"].get("status") == "True" else "NotReady")
    if not states:
        states.append("Unknown")
    if spec.get("unschedulable"):
        states.append("SchedulingDisabled")
    info = _d(status.get("nodeInfo"))
    addresses = [_d(a) for a in _l(status.get("addresses"))]

    def address(kind: str) -> str:
        return next((str(a.get("address")) for a in addresses if a.get("type") == kind), "<none>")

    return [meta.get("name", ""), ",".join(states), ",".join(node_roles(meta.get("labels"))) or "<none>",
            _age(o, clock), info.get("kubeletVersion", ""), address("InternalIP"), address("ExternalIP"),
            info.get("osImage") or "<unknown>", info.get("kernelVersion") or "<unknown>",
            info.get("containerRuntimeVersion") or "<unknown>"]


def node_roles(labels: Any) -> list[str]:
    """A node's roles from its `node-role.kubernetes.io/<role>` and `kubernetes.io/role` labels."""
    roles = set()
    for k, v in _d(labels).items():
        if k.startswith("node-role.kubernetes.io/") and k[len("node-role.kubernetes.io/"):]:
            roles.add(k[len("node-role.kubernetes.io/"):])
        elif k == "kubernetes.io/role" and v:
            roles.add(str(v))
    return sorted(roles)


@printer("", "Namespace", NAME, Column("Status"), AGE)
def namespace_row(o: Body, clock: Clock) -> Row:
    return [_meta(o).get("name", ""), _d(o.get("status")).get("phase", ""), _age(o, clock)]


def _lb_ingress(status: Any) -> str:
    seen = set()
    for ing in _l(_d(_d(status).get("loadBalancer")).get("ingress")):
        ing = _d(ing)
        if ing.get("ip"):
            seen.add(str(ing["ip"]))
        elif ing.get("hostname"):
            seen.add(str(ing["hostname"]))
    return ",".join(sorted(seen))


@printer("", "Service", NAME, Column("Type"), Column("Cluster-IP"), Column("External-IP"),
         Column("Port(s)"), AGE, wide("Selector"))
def service_row(o: Body, clock: Clock) -> Row:
    spec = _d(o.get("spec"))
    svc_type = spec.get("type") or "ClusterIP"
    cluster_ips = _l(spec.get("clusterIPs")) or ([spec["clusterIP"]] if spec.get("clusterIP") else [])
    external = _l(spec.get("externalIPs"))
    if svc_type in ("ClusterIP", "NodePort"):
        ext = ",".join(map(str, external)) if external else "<none>"
    elif svc_type == "LoadBalancer":
        lb = _lb_ingress(o.get("status"))
        parts = (lb.split(",") if lb else []) + [str(e) for e in external]
        ext = ",".join(parts) if external else (lb or "<pending>")
    elif svc_type == "ExternalName":
        ext = spec.get("externalName", "")
    else:
        ext = "<unknown>"
    ports = []
    for p in _l(spec.get("ports")):
        p = _d(p)
        proto = p.get("protocol") or "TCP"
        ports.append(f"{p.get('port')}:{p['nodePort']}/{proto}" if as_int(p.get("nodePort")) > 0 else f"{p.get('port')}/{proto}")
    return [_meta(o).get("name", ""), svc_type, str(cluster_ips[0]) if cluster_ips else "<none>", ext,
            ",".join(ports) or "<none>", _age(o, clock), format_labels(spec.get("selector"))]


@printer("", "Endpoints", NAME, Column("Endpoints"), AGE)
def endpoints_row(o: Body, clock: Clock) -> Row:
    return [_meta(o).get("name", ""), format_endpoints(o), _age(o, clock)]


def format_endpoints(o: Body) -> str:
    subsets = _l(o.get("subsets"))
    if not subsets:
        # pasted blank, not `<none>`: addresses, none ready, as kubectl printed them
        return "" if _d(o.get("x-kda-text")).get("not_ready_unprinted") else "<none>"
    shown: list[str] = []
    count, limit, more = 0, 3, False
    for ss in subsets:
        ss = _d(ss)
        addresses = [_d(a) for a in _l(ss.get("addresses"))]
        ports = _l(ss.get("ports"))
        if not ports:
            count += len(addresses)
            for a in addresses:
                if len(shown) == limit:
                    more = True
                    break
                shown.append(str(a.get("ip", "")))
            continue
        for port in ports:
            count += len(addresses)
            for a in addresses:
                if len(shown) == limit:
                    more = True
                    break
                ip = str(a.get("ip", ""))
                host = f"[{ip}]" if ":" in ip else ip
                shown.append(f"{host}:{_d(port).get('port')}")
    text = ",".join(shown)
    return f"{text} + {count - limit} more..." if more else text


@printer("", "ConfigMap", NAME, Column("Data", "integer"), AGE)
def configmap_row(o: Body, clock: Clock) -> Row:
    return [_meta(o).get("name", ""), len(_d(o.get("data"))) + len(_d(o.get("binaryData"))), _age(o, clock)]


@printer("", "Secret", NAME, Column("Type"), Column("Data", "integer"), AGE)
def secret_row(o: Body, clock: Clock) -> Row:
    # values are never kept, so the count is that of the keys the dump listed
    return [_meta(o).get("name", ""), o.get("type", ""), len(_d(o.get("data"))), _age(o, clock)]


@printer("", "ServiceAccount", NAME, Column("Secrets", "integer"), AGE)
def serviceaccount_row(o: Body, clock: Clock) -> Row:
    return [_meta(o).get("name", ""), len(_l(o.get("secrets"))), _age(o, clock)]


def access_modes(modes: Any) -> str:
    """Access modes as kubectl prints them: short, in its fixed order, comma-separated."""
    short = {"ReadWriteOnce": "RWO", "ReadOnlyMany": "ROX", "ReadWriteMany": "RWX", "ReadWriteOncePod": "RWOP"}
    present = [m for m in ("ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany", "ReadWriteOncePod") if m in _l(modes)]
    return ",".join(short[m] for m in present)


@printer("", "PersistentVolume", NAME, Column("Capacity"), Column("Access Modes"), Column("Reclaim Policy"),
         Column("Status"), Column("Claim"), Column("StorageClass"), Column("VolumeAttributesClass"),
         Column("Reason"), AGE, wide("VolumeMode"))
def pv_row(o: Body, clock: Clock) -> Row:
    spec, status, meta = _d(o.get("spec")), _d(o.get("status")), _meta(o)
    claim = _d(spec.get("claimRef"))
    claim_text = f"{claim.get('namespace', '')}/{claim.get('name', '')}" if spec.get("claimRef") else ""
    phase = "Terminating" if meta.get("deletionTimestamp") else status.get("phase", "")
    sc = spec.get("storageClassName") or _d(meta.get("annotations")).get("volume.beta.kubernetes.io/storage-class", "")
    return [meta.get("name", ""), quantity_text(_d(spec.get("capacity")).get("storage", "0")),
            access_modes(spec.get("accessModes")), spec.get("persistentVolumeReclaimPolicy", ""), phase,
            claim_text, sc, spec.get("volumeAttributesClassName") or "<unset>", status.get("reason", ""),
            _age(o, clock), spec.get("volumeMode") or "<unset>"]


@printer("", "PersistentVolumeClaim", NAME, Column("Status"), Column("Volume"), Column("Capacity"),
         Column("Access Modes"), Column("StorageClass"), Column("VolumeAttributesClass"), AGE, wide("VolumeMode"))
def pvc_row(o: Body, clock: Clock) -> Row:
    spec, status, meta = _d(o.get("spec")), _d(o.get("status")), _meta(o)
    phase = "Terminating" if meta.get("deletionTimestamp") else status.get("phase", "")
    capacity = modes = ""
    if spec.get("volumeName"):
        modes = access_modes(status.get("accessModes"))
        capacity = quantity_text(_d(status.get("capacity")).get("storage", ""))
    sc = spec.get("storageClassName")
    if sc is None:
        sc = _d(meta.get("annotations")).get("volume.beta.kubernetes.io/storage-class", "")
    return [meta.get("name", ""), phase, spec.get("volumeName", ""), capacity, modes, sc,
            spec.get("volumeAttributesClassName") or "<unset>", _age(o, clock), spec.get("volumeMode") or "<unset>"]


def event_reporter(o: Body) -> str:
    """The controller that reported an event (core/v1 names it `reportingComponent`,
    events.k8s.io/v1 `reportingController`).

    >>> event_reporter({"reportingComponent": "default-scheduler"})
    'default-scheduler'
    """
    return str(o.get("reportingComponent") or o.get("reportingController") or "")


def _event_source(o: Body) -> str:
    """SOURCE of `get events -o wide`: the source's component and host, each else the reporting
    controller and instance (kubectl's formatEventSource).

    >>> _event_source({"source": {}, "reportingComponent": "default-scheduler", "reportingInstance": "ds-1"})
    'default-scheduler, ds-1'
    >>> _event_source({"source": {"component": "kubelet", "host": "node-1"}, "reportingInstance": "ds-1"})
    'kubelet, node-1'
    """
    src = _d(o.get("source"))
    component = src.get("component") or event_reporter(o)
    host = src.get("host") or o.get("reportingInstance") or ""
    return f"{component}, {host}" if host else component


def event_since(o: Body, clock: Clock, stamp: Any, *pasted: str) -> str:
    """How long before the capture an event's time was, as kubectl prints it; for an event read
    from pasted text with no time (a describe's Events row "2m12s (x2 over 7m14s)"), the first
    age the paste gave of those named, as kubectl printed it then (else `<unknown>`).

    >>> clock = Clock(None)
    >>> event_since({"x-kda-text": {"last_seen_ago_seconds": 132.0}}, clock, None, "first_seen_ago_seconds", "last_seen_ago_seconds")
    '2m12s'
    >>> event_since({}, clock, None, "last_seen_ago_seconds")
    '<unknown>'
    """
    age = clock.since(stamp)
    if age == "<unknown>" and not stamp:
        facts = _d(o.get("x-kda-text"))
        ago = next((facts[k] for k in pasted if isinstance(facts.get(k), (int, float))), None)
        if ago is not None:
            return human_duration(ago)
    return age


@printer("", "Event", Column("Last Seen"), Column("Type"), Column("Reason"), Column("Object"),
         wide("Subobject"), wide("Source"), Column("Message"), wide("First Seen"), wide("Count"),
         Column("Name", priority=1, format="name"))
def event_row(o: Body, clock: Clock) -> Row:
    first = event_since(o, clock, o.get("firstTimestamp") or o.get("eventTime"),
                        "first_seen_ago_seconds", "last_seen_ago_seconds")
    last = event_since(o, clock, o.get("lastTimestamp") or o.get("firstTimestamp") or o.get("eventTime"),
                       "last_seen_ago_seconds")
    count = as_int(o.get("count"))
    series = o.get("series")
    if isinstance(series, dict):
        last = clock.since(series.get("lastObservedTime"))
        count = as_int(series.get("count"))
    elif count == 0:
        count = 1
    inv = _d(o.get("involvedObject") or o.get("regarding"))
    target = f"{str(inv.get('kind', '')).lower()}/{inv['name']}" if inv.get("name") else str(inv.get("kind", "")).lower()
    return [last, o.get("type", ""), o.get("reason", ""), target, inv.get("fieldPath", ""), _event_source(o),
            str(o.get("message") or o.get("note") or "").strip(), first, count, _meta(o).get("name", "")]


@printer("", "ReplicationController", NAME, Column("Desired", "integer"), Column("Current", "integer"),
         Column("Ready", "integer"), AGE, wide("Containers"), wide("Images"), wide("Selector"))
def rc_row(o: Body, clock: Clock) -> Row:
    spec, status = _d(o.get("spec")), _d(o.get("status"))
    names, images = _containers(_template_spec(o))
    return [_meta(o).get("name", ""), as_int(spec.get("replicas")), as_int(status.get("replicas")),
            as_int(status.get("readyReplicas")), _age(o, clock), names, images, format_labels(spec.get("selector"))]


@printer("", "LimitRange", NAME, Column("Created At", "date"))
def limitrange_row(o: Body, clock: Clock) -> Row:
    return [_meta(o).get("name", ""), _meta(o).get("creationTimestamp", "")]


@printer("", "ResourceQuota", NAME, AGE, Column("Request"), Column("Limit"))
def quota_row(o: Body, clock: Clock) -> Row:
    hard, used = _d(_d(o.get("status")).get("hard")), _d(_d(o.get("status")).get("used"))
    req, lim = [], []
    for name in sorted(hard):
        text = f"{name}: {used.get(name, '0')}/{hard[name]}"
        (lim if name.startswith("limits.") else req).append(text)
    return [_meta(o).get("name", ""), _age(o, clock), ", ".join(req), ", ".join(lim)]


@printer("", "PodTemplate", NAME, Column("Containers"), Column("Images"), Column("Pod Labels"))
def podtemplate_row(o: Body, clock: Clock) -> Row:
    tpl = _d(o.get("template"))
    names, images = _containers(tpl.get("spec"))
    return [_meta(o).get("name", ""), names, images, format_labels(_d(tpl.get("metadata")).get("labels"))]


@printer("", "ComponentStatus", NAME, Column("Status"), Column("Message"), Column("Error"))
def componentstatus_row(o: Body, clock: Clock) -> Row:
    status, message, error = "Unknown", "", ""
    for c in _l(o.get("conditions")):
        c = _d(c)
        if c.get("type") == "Healthy":
            status = "Healthy" if c.get("status") == "True" else "Unhealthy"
            message, error = c.get("message", ""), c.get("error", "")
            break
    return [_meta(o).get("name", ""), status, message, error]


# -- apps, batch, autoscaling, policy ------------------------------------------------------

@printer("apps", "Deployment", NAME, Column("Ready"), Column("Up-to-date"), Column("Available"), AGE,
         wide("Containers"), wide("Images"), wide("Selector"))
def deployment_row(o: Body, clock: Clock) -> Row:
    spec, status = _d(o.get("spec")), _d(o.get("status"))
    names, images = _containers(_template_spec(o))
    desired = spec.get("replicas", 1)
    return [_meta(o).get("name", ""), f"{as_int(status.get('readyReplicas'))}/{as_int(desired)}",
            as_int(status.get("updatedReplicas")), as_int(status.get("availableReplicas")), _age(o, clock),
            names, images, format_selector(spec.get("selector"))]


@printer("apps", "ReplicaSet", NAME, Column("Desired", "integer"), Column("Current", "integer"),
         Column("Ready", "integer"), AGE, wide("Containers"), wide("Images"), wide("Selector"))
def replicaset_row(o: Body, clock: Clock) -> Row:
    spec, status = _d(o.get("spec")), _d(o.get("status"))
    names, images = _containers(_template_spec(o))
    return [_meta(o).get("name", ""), as_int(spec.get("replicas", 1)), as_int(status.get("replicas")),
            as_int(status.get("readyReplicas")), _age(o, clock), names, images, format_selector(spec.get("selector"))]


@printer("apps", "DaemonSet", NAME, Column("Desired", "integer"), Column("Current", "integer"),
         Column("Ready", "integer"), Column("Up-to-date", "integer"), Column("Available", "integer"),
         Column("Node Selector"), AGE, wide("Containers"), wide("Images"), wide("Selector"))
def daemonset_row(o: Body, clock: Clock) -> Row:
    spec, status = _d(o.get("spec")), _d(o.get("status"))
    names, images = _containers(_template_spec(o))
    return [_meta(o).get("name", ""), as_int(status.get("desiredNumberScheduled")),
            as_int(status.get("currentNumberScheduled")), as_int(status.get("numberReady")),
            as_int(status.get("updatedNumberScheduled")), as_int(status.get("numberAvailable")),
            format_labels(_template_spec(o).get("nodeSelector")), _age(o, clock), names, images,
            format_selector(spec.get("selector"))]


@printer("apps", "StatefulSet", NAME, Column("Ready"), AGE, wide("Containers"), wide("Images"))
def statefulset_row(o: Body, clock: Clock) -> Row:
    spec, status = _d(o.get("spec")), _d(o.get("status"))
    names, images = _containers(_template_spec(o))
    return [_meta(o).get("name", ""), f"{as_int(status.get('readyReplicas'))}/{as_int(spec.get('replicas', 1))}",
            _age(o, clock), names, images]


@printer("apps", "ControllerRevision", NAME, Column("Controller"), Column("Revision", "integer"), AGE)
def controllerrevision_row(o: Body, clock: Clock) -> Row:
    owner = next((_d(r) for r in _l(_meta(o).get("ownerReferences")) if _d(r).get("controller")), None)
    controller = "<none>"
    if owner:
        group = str(owner.get("apiVersion", "")).rpartition("/")[0] if "/" in str(owner.get("apiVersion", "")) else ""
        controller = f"{str(owner.get('kind', '')).lower()}{'.' + group if group else ''}/{owner.get('name', '')}"
    return [_meta(o).get("name", ""), controller, as_int(o.get("revision")), _age(o, clock)]


def _job_condition(status: dict[str, Any], kind: str) -> bool:
    for c in _l(status.get("conditions")):
        if _d(c).get("type") == kind:
            return _d(c).get("status") == "True"
    return False


@printer("batch", "Job", NAME, Column("Status"), Column("Completions"), Column("Duration"), AGE,
         wide("Containers"), wide("Images"), wide("Selector"))
def job_row(o: Body, clock: Clock) -> Row:
    spec, status, meta = _d(o.get("spec")), _d(o.get("status")), _meta(o)
    succeeded = as_int(status.get("succeeded"))
    if spec.get("completions") is not None:
        completions = f"{succeeded}/{as_int(spec.get('completions'))}"
    elif as_int(spec.get("parallelism")) > 1:
        completions = f"{succeeded}/1 of {as_int(spec.get('parallelism'))}"
    else:
        completions = f"{succeeded}/1"
    duration = ""
    if status.get("startTime"):
        duration = (clock.between(status["startTime"], status["completionTime"]) if status.get("completionTime")
                    else clock.since(status["startTime"], ""))
    if _job_condition(status, "Complete"):
        state = "Complete"
    elif _job_condition(status, "Failed"):
        state = "Failed"
    elif meta.get("deletionTimestamp"):
        state = "Terminating"
    elif _job_condition(status, "Suspended"):
        state = "Suspended"
    elif _job_condition(status, "FailureTarget"):
        state = "FailureTarget"
    else:
        state = "Running"
    names, images = _containers(_template_spec(o))
    return [meta.get("name", ""), state, completions, duration, _age(o, clock), names, images,
            format_selector(spec.get("selector"))]


@printer("batch", "CronJob", NAME, Column("Schedule"), Column("Timezone"), Column("Suspend", "boolean"),
         Column("Active", "integer"), Column("Last Schedule"), AGE, wide("Containers"), wide("Images"),
         wide("Selector"))
def cronjob_row(o: Body, clock: Clock) -> Row:
    spec, status = _d(o.get("spec")), _d(o.get("status"))
    job_spec = _d(_d(spec.get("jobTemplate")).get("spec"))
    names, images = _containers(_d(_d(job_spec.get("template")).get("spec")))
    last = clock.since(status["lastScheduleTime"]) if status.get("lastScheduleTime") else "<none>"
    suspend = spec.get("suspend")
    return [_meta(o).get("name", ""), spec.get("schedule", ""), spec.get("timeZone") or "<none>",
            "<unset>" if suspend is None else bool(suspend), len(_l(status.get("active"))), last,
            _age(o, clock), names, images, format_selector(job_spec.get("selector"))]


def hpa_targets(body: Body) -> str:
    """An HPA's TARGETS cell as kubectl prints it: each metric's current value over its target (an
    autoscaling/v1 HPA's as the API server converts it: its CPU target, its annotated metrics)."""
    specs, current = hpa_metrics(body)
    if not specs:
        return "<none>"
    out = []
    for i, m in enumerate(specs):
        m = _d(m)
        typ = m.get("type")
        cur_m = _d(current[i]) if i < len(current) else {}
        if typ in ("Resource", "ContainerResource"):
            key = "resource" if typ == "Resource" else "containerResource"
            res, cur = _d(m.get(key)), _d(_d(cur_m.get(key)).get("current"))
            target = _d(res.get("target"))
            if target.get("averageValue") is not None:
                out.append(f"{res.get('name')}: {cur.get('averageValue', '<unknown>')}/{target['averageValue']}")
            else:
                util = cur.get("averageUtilization")
                tgt = target.get("averageUtilization")
                out.append(f"{res.get('name')}: {f'{util}%' if util is not None else '<unknown>'}/"
                           f"{f'{tgt}%' if tgt is not None else '<auto>'}")
        elif typ in ("Pods", "Object", "External"):
            key = typ.lower()
            target = _d(_d(m.get(key)).get("target"))
            cur = _d(_d(cur_m.get(key)).get("current"))
            if target.get("averageValue") is not None:
                suffix = " (avg)" if typ != "Pods" else ""
                out.append(f"{cur.get('averageValue', '<unknown>')}/{target['averageValue']}{suffix}")
            else:
                out.append(f"{cur.get('value', '<unknown>')}/{target.get('value')}")
        else:
            out.append("<unknown type>")
    if len(out) > 2:
        return ", ".join(out[:2]) + f" + {len(out) - 2} more..."
    return ", ".join(out)


@printer("autoscaling", "HorizontalPodAutoscaler", NAME, Column("Reference"), Column("Targets"),
         Column("MinPods"), Column("MaxPods", "integer"), Column("Replicas", "integer"), AGE)
def hpa_row(o: Body, clock: Clock) -> Row:
    spec, status = _d(o.get("spec")), _d(o.get("status"))
    ref = _d(spec.get("scaleTargetRef"))
    min_pods = str(spec["minReplicas"]) if spec.get("minReplicas") is not None else "<unset>"
    return [_meta(o).get("name", ""), f"{ref.get('kind', '')}/{ref.get('name', '')}", hpa_targets(o),
            min_pods, as_int(spec.get("maxReplicas")), as_int(status.get("currentReplicas")), _age(o, clock)]


@printer("policy", "PodDisruptionBudget", NAME, Column("Min Available"), Column("Max Unavailable"),
         Column("Allowed Disruptions", "integer"), AGE)
def pdb_row(o: Body, clock: Clock) -> Row:
    spec, status = _d(o.get("spec")), _d(o.get("status"))
    min_a = str(spec["minAvailable"]) if spec.get("minAvailable") is not None else "N/A"
    max_u = str(spec["maxUnavailable"]) if spec.get("maxUnavailable") is not None else "N/A"
    return [_meta(o).get("name", ""), min_a, max_u, as_int(status.get("disruptionsAllowed")), _age(o, clock)]


# -- networking, discovery -----------------------------------------------------------------

@printer("networking.k8s.io", "Ingress", NAME, Column("Class"), Column("Hosts"), Column("Address"),
         Column("Ports"), AGE)
def ingress_row(o: Body, clock: Clock) -> Row:
    spec = _d(o.get("spec"))
    rules = [_d(r) for r in _l(spec.get("rules"))]
    hosts: list[str] = []
    more = False
    for r in rules:
        if len(hosts) == 3:
            more = True
        if not more and r.get("host"):
            hosts.append(str(r["host"]))
    hosts_text = ",".join(hosts) if hosts else "*"
    if hosts and more:
        hosts_text += f" + {len(rules) - 3} more..."
    return [_meta(o).get("name", ""), spec.get("ingressClassName") or "<none>", hosts_text,
            _lb_ingress(o.get("status")), "80, 443" if _l(spec.get("tls")) else "80", _age(o, clock)]


@printer("networking.k8s.io", "IngressClass", NAME, Column("Controller"), Column("Parameters"), AGE)
def ingressclass_row(o: Body, clock: Clock) -> Row:
    spec = _d(o.get("spec"))
    params = "<none>"
    if spec.get("parameters"):
        p = _d(spec["parameters"])
        params = str(p.get("kind", "")) + (f".{p['apiGroup']}" if p.get("apiGroup") else "") + f"/{p.get('name', '')}"
    return [_meta(o).get("name", ""), spec.get("controller", ""), params, _age(o, clock)]


@printer("networking.k8s.io", "NetworkPolicy", NAME, Column("Pod-Selector"), AGE)
def networkpolicy_row(o: Body, clock: Clock) -> Row:
    return [_meta(o).get("name", ""), format_selector(_d(o.get("spec")).get("podSelector") or {}), _age(o, clock)]


@printer("discovery.k8s.io", "EndpointSlice", NAME, Column("AddressType"), Column("Ports"), Column("Endpoints"), AGE)
def endpointslice_row(o: Body, clock: Clock) -> Row:
    def listed(items: list[str], count: int) -> str:
        text = ",".join(items[:3])
        if count > 3:
            return f"{text} + {count - 3} more..."
        return text or "<unset>"

    ports = []
    for p in _l(o.get("ports")):
        p = _d(p)
        ports.append(str(p["port"]) if p.get("port") is not None else (str(p["name"]) if p.get("name") is not None else "*"))
    addresses = [str(a) for e in _l(o.get("endpoints")) for a in _l(_d(e).get("addresses"))]
    return [_meta(o).get("name", ""), o.get("addressType", ""), listed(ports, len(ports)),
            listed(addresses, len(addresses)), _age(o, clock)]


# -- rbac, storage, scheduling, coordination, admission ------------------------------------

def _subjects(o: Body) -> tuple[str, str, str]:
    users, groups, sas = [], [], []
    for s in _l(o.get("subjects")):
        s = _d(s)
        kind = s.get("kind")
        if kind == "User":
            users.append(str(s.get("name", "")))
        elif kind == "Group":
            groups.append(str(s.get("name", "")))
        elif kind == "ServiceAccount":
            sas.append(f"{s.get('namespace', '')}/{s.get('name', '')}")
    return ", ".join(users), ", ".join(groups), ", ".join(sas)


def _binding_row(o: Body, clock: Clock) -> Row:
    ref = _d(o.get("roleRef"))
    return [_meta(o).get("name", ""), f"{ref.get('kind', '')}/{ref.get('name', '')}", _age(o, clock), *_subjects(o)]


_BINDING_COLUMNS = (NAME, Column("Role"), AGE, wide("Users"), wide("Groups"), wide("ServiceAccounts"))
printer("rbac.authorization.k8s.io", "RoleBinding", *_BINDING_COLUMNS)(_binding_row)
PRINTERS[("rbac.authorization.k8s.io", "ClusterRoleBinding")] = Printer(_BINDING_COLUMNS, _binding_row)


@printer("storage.k8s.io", "StorageClass", NAME, Column("Provisioner"), Column("ReclaimPolicy"),
         Column("VolumeBindingMode"), Column("AllowVolumeExpansion", "boolean"), AGE)
def storageclass_row(o: Body, clock: Clock) -> Row:
    ann = _d(_meta(o).get("annotations"))
    default = "true" in (ann.get("storageclass.kubernetes.io/is-default-class"),
                         ann.get("storageclass.beta.kubernetes.io/is-default-class"))
    name = _meta(o).get("name", "") + (" (default)" if default else "")
    return [name, o.get("provisioner", ""), o.get("reclaimPolicy") or "Delete",
            o.get("volumeBindingMode") or "Immediate", bool(o.get("allowVolumeExpansion")), _age(o, clock)]


@printer("storage.k8s.io", "CSIDriver", NAME, Column("AttachRequired", "boolean"), Column("PodInfoOnMount", "boolean"),
         Column("StorageCapacity", "boolean"), Column("TokenRequests"), Column("RequiresRepublish", "boolean"),
         Column("Modes"), AGE)
def csidriver_row(o: Body, clock: Clock) -> Row:
    spec = _d(o.get("spec"))
    tokens = spec.get("tokenRequests")
    return [_meta(o).get("name", ""), bool(spec.get("attachRequired", True)), bool(spec.get("podInfoOnMount")),
            bool(spec.get("storageCapacity")),
            ",".join(str(_d(t).get("audience", "")) for t in _l(tokens)) if tokens is not None else "<unset>",
            bool(spec.get("requiresRepublish")), ",".join(map(str, _l(spec.get("volumeLifecycleModes")))) or "<none>",
            _age(o, clock)]


@printer("storage.k8s.io", "CSINode", NAME, Column("Drivers", "integer"), AGE)
def csinode_row(o: Body, clock: Clock) -> Row:
    return [_meta(o).get("name", ""), len(_l(_d(o.get("spec")).get("drivers"))), _age(o, clock)]


@printer("storage.k8s.io", "VolumeAttachment", NAME, Column("Attacher", format="name"), Column("PV"),
         Column("Node"), Column("Attached", "boolean"), AGE)
def volumeattachment_row(o: Body, clock: Clock) -> Row:
    spec = _d(o.get("spec"))
    return [_meta(o).get("name", ""), spec.get("attacher", ""),
            _d(spec.get("source")).get("persistentVolumeName") or "", spec.get("nodeName", ""),
            bool(_d(o.get("status")).get("attached")), _age(o, clock)]


@printer("scheduling.k8s.io", "PriorityClass", NAME, Column("Value", "integer"), Column("Global-Default", "boolean"),
         AGE, Column("PreemptionPolicy"))
def priorityclass_row(o: Body, clock: Clock) -> Row:
    return [_meta(o).get("name", ""), as_int(o.get("value")), bool(o.get("globalDefault")), _age(o, clock),
            o.get("preemptionPolicy") or "PreemptLowerPriority"]


@printer("node.k8s.io", "RuntimeClass", NAME, Column("Handler"), AGE)
def runtimeclass_row(o: Body, clock: Clock) -> Row:
    return [_meta(o).get("name", ""), o.get("handler", ""), _age(o, clock)]


@printer("coordination.k8s.io", "Lease", NAME, Column("Holder"), AGE)
def lease_row(o: Body, clock: Clock) -> Row:
    return [_meta(o).get("name", ""), _d(o.get("spec")).get("holderIdentity") or "", _age(o, clock)]


def _webhooks_row(o: Body, clock: Clock) -> Row:
    return [_meta(o).get("name", ""), len(_l(o.get("webhooks"))), _age(o, clock)]


_WEBHOOK_COLUMNS = (NAME, Column("Webhooks", "integer"), AGE)
PRINTERS[("admissionregistration.k8s.io", "MutatingWebhookConfiguration")] = Printer(_WEBHOOK_COLUMNS, _webhooks_row)
PRINTERS[("admissionregistration.k8s.io", "ValidatingWebhookConfiguration")] = Printer(_WEBHOOK_COLUMNS, _webhooks_row)


@printer("certificates.k8s.io", "CertificateSigningRequest", NAME, AGE, Column("SignerName"),
         Column("Requestor"), Column("RequestedDuration"), Column("Condition"))
def csr_row(o: Body, clock: Clock) -> Row:
    spec, status = _d(o.get("spec")), _d(o.get("status"))
    types = set(by_field(status.get("conditions"), "type"))
    state = "Denied" if "Denied" in types else "Approved" if "Approved" in types else "Pending"
    if "Failed" in types:
        state += ",Failed"
    if status.get("certificate"):
        state += ",Issued"
    requested = human_duration(as_int(spec["expirationSeconds"])) if spec.get("expirationSeconds") else "<none>"
    return [_meta(o).get("name", ""), _age(o, clock), spec.get("signerName") or "<none>", spec.get("username", ""),
            requested, state]


@printer("apiregistration.k8s.io", "APIService", NAME, Column("Service"), Column("Available"), AGE)
def apiservice_row(o: Body, clock: Clock) -> Row:
    svc = _d(_d(o.get("spec")).get("service"))
    service = f"{svc.get('namespace', '')}/{svc.get('name', '')}" if svc else "Local"
    available = "Unknown"
    for c in _l(_d(o.get("status")).get("conditions")):
        c = _d(c)
        if c.get("type") == "Available":
            available = "True" if c.get("status") == "True" else f"{c.get('status')} ({c.get('reason', '')})"
    return [_meta(o).get("name", ""), service, available, _age(o, clock)]


@printer("apiextensions.k8s.io", "CustomResourceDefinition", NAME, Column("Created At", "date"))
def crd_row(o: Body, clock: Clock) -> Row:
    return [_meta(o).get("name", ""), _meta(o).get("creationTimestamp", "")]


# Kinds the API server prints with its default table (no printer of their own).
DEFAULT_COLUMNS = (NAME, Column("Created At", "date", description="CreationTimestamp is a timestamp representing the server time when this object was created."))


def default_row(o: Body, clock: Clock) -> Row:
    return [_meta(o).get("name", ""), _meta(o).get("creationTimestamp", "")]


DEFAULT_PRINTER = Printer(DEFAULT_COLUMNS, default_row)


def cell_text(value: Any) -> str:
    """A Table cell as kubectl prints it (nil -> empty, bools lower case, text up to a newline)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        for i, ch in enumerate(value):
            if ch in "\n\r\f":
                return value[:i] + "..."
        return value
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, dict | list):
        return json.dumps(value, separators=(",", ":"))
    return str(value)
