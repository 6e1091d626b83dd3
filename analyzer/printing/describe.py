"""`kubectl describe` layouts (kubectl's pkg/describe): nodes, pods, deployments, services, and any
other kind generically, with the events of the object. Ages are measured from the capture time.

Text is written with tabs and aligned like kubectl's tabwriter (minimum width 0, padding 2).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from analyzer.kube.autoscaling import METRIC_SOURCE_KEYS, hpa_conditions, hpa_metrics
from analyzer.printing.columns import (
    access_modes,
    as_int,
    by_field,
    event_reporter,
    event_since,
    format_labels,
    format_selector,
    node_roles,
    pod_ips,
)
from analyzer.printing.pasted import containers_unknown
from analyzer.printing.quantity import ZERO, Quantity
from analyzer.printing.resources import Resource
from analyzer.printing.store import DumpStore, NotCollected
from analyzer.printing.tables import PASTED
from analyzer.printing.tabwriter import align
from analyzer.printing.timefmt import Clock, describe_time

Body = dict[str, Any]
MAX_ANNOTATION = 140
# annotations kubectl describe leaves out
_SKIP_ANNOTATIONS = {"kubectl.kubernetes.io/last-applied-configuration"}


def _d(v: Any) -> dict[str, Any]:
    return v if isinstance(v, dict) else {}


def _l(v: Any) -> list[Any]:
    return v if isinstance(v, list) else []


def _s(v: Any) -> str:
    """A value as Go's %v prints it (bools lower case, nothing for nil)."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


class Writer:
    """kubectl's PrefixWriter: levels of two spaces; `flush` ends the current alignment blocks."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.buf: list[str] = []

    def write(self, level: int, text: str) -> None:
        self.buf.append("  " * level + text)

    def line(self, text: str) -> None:
        self.buf.append(text + "\n")

    def flush(self) -> None:
        self.parts.append(align("".join(self.buf), 0, 2))
        self.buf = []

    def text(self) -> str:
        self.flush()
        return "".join(self.parts)


def labels_multiline(w: Writer, title: str, labels: Any, indent: str = "") -> None:
    w.write(0, f"{indent}{title}:\t")
    labels = _d(labels)
    if not labels:
        w.line("<none>")
        return
    for i, key in enumerate(sorted(labels)):
        if i:
            w.write(0, indent + "\t")
        w.write(0, f"{key}={_s(labels[key])}\n")


def annotations_multiline(w: Writer, title: str, annotations: Any) -> None:
    w.write(0, f"{title}:\t")
    ann = {k: v for k, v in _d(annotations).items() if k not in _SKIP_ANNOTATIONS}
    if not ann:
        w.line("<none>")
        return
    for i, key in enumerate(sorted(ann)):
        if i:
            w.write(0, "\t")
        value = _s(ann[key]).removesuffix("\n")
        if len(value) + len(key) + 2 > MAX_ANNOTATION or "\n" in value:
            w.write(0, f"{key}:\n")
            for part in value.split("\n"):
                short = part if len(part) <= MAX_ANNOTATION - 2 else part[:MAX_ANNOTATION - 2] + "..."
                w.write(0, f"\t  {short}\n")
        else:
            w.write(0, f"{key}: {value}\n")


def taints_multiline(w: Writer, title: str, taints: Any) -> None:
    items = sorted((_d(t) for t in _l(taints)),
                   key=lambda t: f"{t.get('effect', '')},{t.get('key', '')}")
    _multiline(w, title, [_key_value_effect(t) for t in items])


def tolerations_multiline(w: Writer, title: str, tolerations: Any) -> None:
    texts = []
    for t in sorted((_d(t) for t in _l(tolerations)), key=lambda t: str(t.get("key", ""))):
        text = _key_value_effect(t)
        if t.get("operator") == "Exists" and not t.get("value"):
            text += " op=Exists" if (t.get("key") or t.get("effect")) else "op=Exists"
        if t.get("tolerationSeconds") is not None:
            text += f" for {t['tolerationSeconds']}s"
        texts.append(text)
    _multiline(w, title, texts)


def _key_value_effect(t: dict[str, Any]) -> str:
    text = str(t.get("key", ""))
    if t.get("value"):
        text += f"={t['value']}"
    if t.get("effect"):
        text += f":{t['effect']}"
    return text


def _multiline(w: Writer, title: str, texts: list[str]) -> None:
    """kubectl's `Title:  first` then one indented line per further item, or `<none>`."""
    w.write(0, f"{title}:\t")
    if not texts:
        w.line("<none>")
        return
    for i, text in enumerate(texts):
        if i:
            w.write(0, "\t")
        w.write(0, text + "\n")


def describe_events(w: Writer, events: list[Body] | None, clock: Clock) -> None:
    if events is None:
        w.write(0, "Events:\t<the dump did not collect Events>\n")
        return
    if not events:
        w.write(0, "Events:\t<none>\n")
        return
    w.flush()
    # kubectl sorts by last time; events pasted with ages and no times by their ages, oldest first
    # (their names, <object>.line<N>, do not sort by line: line10 before line9)
    events = sorted(events, key=lambda e: (str(e.get("lastTimestamp") or ""), -_pasted_ago(e)))
    w.write(0, "Events:\n  Type\tReason\tAge\tFrom\tMessage\n")
    w.write(1, "----\t------\t----\t----\t-------\n")
    for e in events:
        first = event_since(e, clock, e.get("eventTime") or e.get("firstTimestamp"),
                            "first_seen_ago_seconds", "last_seen_ago_seconds")
        series = e.get("series")
        count = as_int(e.get("count"))
        if isinstance(series, dict):
            interval = f"{clock.since(series.get('lastObservedTime'))} (x{series.get('count', 0)} over {first})"
        elif count > 1:
            interval = f"{event_since(e, clock, e.get('lastTimestamp'), 'last_seen_ago_seconds')} (x{count} over {first})"
        else:
            interval = first
        source = _d(e.get("source")).get("component") or event_reporter(e)
        message = str(e.get("message") or "").strip()
        path = _d(e.get("involvedObject")).get("fieldPath")
        if path:
            message = f"{path}: {message}"
        w.write(1, f"{_s(e.get('type'))}\t{_s(e.get('reason'))}\t{interval}\t{source}\t{message}\n")


def _pasted_ago(event: Body) -> float:
    """How long before the capture a pasted event without times last fired, as its paste said (0 else)."""
    ago = _d(event.get(PASTED)).get("last_seen_ago_seconds")
    return float(ago) if isinstance(ago, (int, float)) else 0.0


# -- what describe reads besides the object -----------------------------------------------------

def search_events(store: DumpStore, body: Body) -> list[Body] | None:
    """The events kubectl describe lists for an object (its field selector: name, namespace,
    kind, uid); None when the dump did not collect events."""
    res = store.catalog.get("", "Event")
    if res is None or not store.catalog.collected(res):
        # a pasted describe that said `Events: <none>` said so of this object
        return [] if _d(body.get(PASTED)).get("events_none") else None
    meta = _d(body.get("metadata"))
    name, ns, kind, uid = meta.get("name", ""), meta.get("namespace") or "", body.get("kind", ""), meta.get("uid") or ""
    uid = uid if isinstance(uid, str) else ""  # (a hand-edited one may be anything)
    uids = {uid} | ({name} if kind == "Node" else set())
    out = []
    for obj in res.objects:
        if ns and obj.namespace != ns:
            continue
        e = store.body(res, obj)
        inv = _d(e.get("involvedObject"))
        if inv.get("name") != name or (inv.get("namespace") or "") != ns or inv.get("kind") != kind:
            continue
        if uid and (inv.get("uid") if isinstance(inv.get("uid"), str) else "") not in uids:
            continue
        out.append(e)
    return out


def _related(store: DumpStore, group: str, kind: str) -> tuple[Resource | None, bool]:
    res = store.catalog.get(group, kind)
    return res, res is not None and store.catalog.collected(res)


# -- nodes ----------------------------------------------------------------------------------

def _resource_lines(w: Writer, resources: dict[str, Any]) -> None:
    for name in sorted(resources):
        w.write(0, f"  {name}:\t{Quantity.parse(resources[name])}\n")


def pod_requests(pod: Body, which: str) -> dict[str, Quantity]:
    """A pod's effective requests or limits (resourcehelper.PodRequests/PodLimits)."""
    spec = _d(pod.get("spec"))

    def of(c: Any) -> dict[str, Quantity]:
        return {k: Quantity.parse(v) for k, v in _d(_d(_d(c).get("resources")).get(which)).items()}

    def add(a: dict[str, Quantity], b: dict[str, Quantity]) -> dict[str, Quantity]:
        out = dict(a)
        for k, v in b.items():
            out[k] = out[k] + v if k in out else v
        return out

    def maxed(a: dict[str, Quantity], b: dict[str, Quantity]) -> dict[str, Quantity]:
        out = dict(a)
        for k, v in b.items():
            if k not in out or v.value > out[k].value:
                out[k] = v
        return out

    total: dict[str, Quantity] = {}
    for c in _l(spec.get("containers")):
        total = add(total, of(c))
    sidecars: dict[str, Quantity] = {}
    init_max: dict[str, Quantity] = {}
    for c in _l(spec.get("initContainers")):
        this = of(c)
        if _d(c).get("restartPolicy") == "Always":
            total = add(total, this)
            sidecars = add(sidecars, this)
            this = sidecars
        else:
            this = add(this, sidecars)
        init_max = maxed(init_max, this)
    total = maxed(total, init_max)
    overhead = {k: Quantity.parse(v) for k, v in _d(spec.get("overhead")).items()}
    if overhead and total:
        total = add(total, overhead)
    return total


def _pct(part: Quantity, whole: Quantity, milli: bool) -> int:
    denominator = whole.milli() if milli else whole.whole()
    if denominator == 0:
        return 0
    return int((part.milli() if milli else part.whole()) / denominator * 100)


def describe_node(store: DumpStore, body: Body) -> str:
    clock = store.clock
    meta, spec, status = _d(body.get("metadata")), _d(body.get("spec")), _d(body.get("status"))
    w = Writer()
    w.write(0, f"Name:\t{meta.get('name', '')}\n")
    w.write(0, f"Roles:\t{','.join(node_roles(meta.get('labels'))) or '<none>'}\n")
    labels_multiline(w, "Labels", meta.get("labels"))
    annotations_multiline(w, "Annotations", meta.get("annotations"))
    w.write(0, f"CreationTimestamp:\t{describe_time(meta.get('creationTimestamp'))}\n")
    taints_multiline(w, "Taints", spec.get("taints"))
    w.write(0, f"Unschedulable:\t{_s(bool(spec.get('unschedulable')))}\n")
    leases, leases_collected = _related(store, "coordination.k8s.io", "Lease")
    lease_obj = None
    if leases is not None and leases_collected:
        lease_obj = store.find(leases, "kube-node-lease", meta.get("name", ""))
    if lease_obj is not None:
        lease = _d(store.body(leases, lease_obj).get("spec"))
        w.write(0, "Lease:\n")
        w.write(1, f"HolderIdentity:\t{lease.get('holderIdentity') or '<unset>'}\n")
        w.write(1, f"AcquireTime:\t{describe_time(lease.get('acquireTime')) if lease.get('acquireTime') else '<unset>'}\n")
        w.write(1, f"RenewTime:\t{describe_time(lease.get('renewTime')) if lease.get('renewTime') else '<unset>'}\n")
    elif leases_collected:
        w.write(0, f'Lease:\tFailed to get lease: leases.coordination.k8s.io "{meta.get("name", "")}" not found\n')
    elif isinstance(said := _d(body.get(PASTED)).get("lease"), dict) and said:
        # the node's pasted describe printed its lease: as it printed it
        w.write(0, "Lease:\n")
        w.write(1, f"HolderIdentity:\t{said.get('holderIdentity') or '<unknown>'}\n")
        for label, key in (("AcquireTime", "acquireTime"), ("RenewTime", "renewTime")):
            value = said.get(key)
            w.write(1, f"{label}:\t{value if value in (None, '<unset>') and value else describe_time(value) if value else '<unknown>'}\n")
    else:
        w.write(0, "Lease:\tFailed to get lease: the dump did not collect Leases\n")
    conditions = [_d(c) for c in _l(status.get("conditions"))]
    if conditions:
        w.write(0, "Conditions:\n  Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n")
        w.write(1, "----\t------\t-----------------\t------------------\t------\t-------\n")
        for c in conditions:
            w.write(1, f"{_s(c.get('type'))} \t{_s(c.get('status'))} \t{describe_time(c.get('lastHeartbeatTime'))} \t"
                       f"{describe_time(c.get('lastTransitionTime'))} \t{_s(c.get('reason'))} \t{_s(c.get('message'))}\n")
    w.write(0, "Addresses:\n")
    for a in _l(status.get("addresses")):
        w.write(1, f"{_s(_d(a).get('type'))}:\t{_s(_d(a).get('address'))}\n")
    if _d(status.get("capacity")):
        w.write(0, "Capacity:\n")
        _resource_lines(w, _d(status.get("capacity")))
    if _d(status.get("allocatable")):
        w.write(0, "Allocatable:\n")
        _resource_lines(w, _d(status.get("allocatable")))
    info = _d(status.get("nodeInfo"))
    w.write(0, "System Info:\n")
    for label, key in (("Machine ID", "machineID"), ("System UUID", "systemUUID"), ("Boot ID", "bootID"),
                       ("Kernel Version", "kernelVersion"), ("OS Image", "osImage"),
                       ("Operating System", "operatingSystem"), ("Architecture", "architecture"),
                       ("Container Runtime Version", "containerRuntimeVersion"),
                       ("Kubelet Version", "kubeletVersion")):
        w.write(0, f"  {label}:\t{_s(info.get(key))}\n")
    if info.get("kubeProxyVersion"):
        w.write(0, f"  Kube-Proxy Version:\t{_s(info.get('kubeProxyVersion'))}\n")
    if spec.get("podCIDR"):
        w.write(0, f"PodCIDR:\t{spec['podCIDR']}\n")
    if _l(spec.get("podCIDRs")):
        w.write(0, f"PodCIDRs:\t{','.join(map(str, spec['podCIDRs']))}\n")
    if spec.get("providerID"):
        w.write(0, f"ProviderID:\t{spec['providerID']}\n")
    pods_res, pods_collected = _related(store, "", "Pod")
    if pods_res is not None and pods_collected:
        pods = store.bodies(pods_res, store.select(
            pods_res, None, None, f"spec.nodeName={meta.get('name', '')},status.phase!=Succeeded,status.phase!=Failed"))
        _node_resources(w, body, pods, clock)
    else:
        w.write(0, "Pods:\tthe dump did not collect Pods\n")
    describe_events(w, search_events(store, body), clock)
    return w.text()


def _node_resources(w: Writer, node: Body, pods: list[Body], clock: Clock) -> None:
    status = _d(node.get("status"))
    alloc_raw = _d(status.get("allocatable")) or _d(status.get("capacity"))
    alloc = {k: Quantity.parse(v) for k, v in alloc_raw.items()}
    cpu, mem = alloc.get("cpu", ZERO), alloc.get("memory", ZERO)
    w.write(0, f"Non-terminated Pods:\t({len(pods)} in total)\n")
    w.write(1, "Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n")
    w.write(1, "---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n")
    total_req: dict[str, Quantity] = {}
    total_lim: dict[str, Quantity] = {}
    for pod in pods:
        req, lim = _stated_requests(pod, "requests"), _stated_requests(pod, "limits")
        for total, part in ((total_req, req), (total_lim, lim)):
            for k, v in part.items():
                total[k] = total[k] + v if k in total else v
        cr, cl = req.get("cpu", ZERO), lim.get("cpu", ZERO)
        mr, ml = req.get("memory", ZERO), lim.get("memory", ZERO)
        pm = _d(pod.get("metadata"))
        cells = [f"{cr} ({_pct(cr, cpu, True)}%)", f"{cl} ({_pct(cl, cpu, True)}%)",
                 f"{mr} ({_pct(mr, mem, False)}%)", f"{ml} ({_pct(ml, mem, False)}%)"]
        printed = _d(_d(pod.get(PASTED)).get("columns")) if containers_unknown(pod) else {}
        # a pasted row's cells as it printed them (its shares of an allocatable the paste may cut)
        cells = [str(printed.get(h) or c) for h, c in zip(_POD_RESOURCE_COLUMNS, cells, strict=True)]
        w.write(1, f"{pm.get('namespace', '')}\t{pm.get('name', '')}\t\t{cells[0]}\t{cells[1]}\t{cells[2]}\t"
                   f"{cells[3]}\t{clock.since(pm.get('creationTimestamp'), _pasted_age(pod))}\n")
    w.write(0, "Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n")
    w.write(1, "Resource\tRequests\tLimits\n")
    w.write(1, "--------\t--------\t------\n")
    for name, milli in (("cpu", True), ("memory", False), ("ephemeral-storage", False)):
        r, lim = total_req.get(name, ZERO), total_lim.get(name, ZERO)
        whole = alloc.get(name, ZERO)
        w.write(1, f"{name}\t{r} ({_pct(r, whole, milli)}%)\t{lim} ({_pct(lim, whole, milli)}%)\n")
    # kubectl lists every allocatable resource that is not a standard container one (nor pods)
    standard = {"cpu", "memory", "ephemeral-storage", "pods"}
    huge = sorted(k for k in alloc if k.startswith("hugepages-"))
    ext = sorted(k for k in alloc if k not in standard and not k.startswith("hugepages-"))
    for name in huge:
        r, lim = total_req.get(name, ZERO), total_lim.get(name, ZERO)
        w.write(1, f"{name}\t{r} ({_pct(r, alloc[name], False)}%)\t{lim} ({_pct(lim, alloc[name], False)}%)\n")
    for name in ext:
        w.write(1, f"{name}\t{total_req.get(name, ZERO)}\t{total_lim.get(name, ZERO)}\n")


_POD_RESOURCE_COLUMNS = ("CPU Requests", "CPU Limits", "Memory Requests", "Memory Limits")


def _stated_requests(pod: Body, which: str) -> dict[str, Quantity]:
    """A pod's requests or limits, or, for a pod read from a row of a node's pasted describe (its
    containers unknown), the totals that row printed (`100m`, `70Mi`), not a made-up 0."""
    found = pod_requests(pod, which)
    said = _d(pod.get(PASTED)).get(which)
    if found or not isinstance(said, dict) or not containers_unknown(pod):
        return found
    return {k: Quantity.parse(v) for k, v in said.items() if isinstance(v, str)}


def _pasted_age(pod: Body) -> str:
    """The AGE a pasted row printed for a pod with no creation time, else kubectl's `<unknown>`."""
    columns = _d(_d(pod.get(PASTED)).get("columns"))
    age = columns.get("Age") or columns.get("AGE")
    return age if isinstance(age, str) and age else "<unknown>"


# -- pods -----------------------------------------------------------------------------------

def _controller(meta: dict[str, Any]) -> str:
    for ref in _l(meta.get("ownerReferences")):
        ref = _d(ref)
        if ref.get("controller"):
            return f"{ref.get('kind', '')}/{ref.get('name', '')}"
    return ""


def _ports(ports: list[Any], key: str) -> str:
    out = []
    for p in ports:
        p = _d(p)
        text = f"{as_int(p.get(key))}/{p.get('protocol') or 'TCP'}"
        if p.get("name"):
            text += f" ({p['name']})"
        out.append(text)
    return ", ".join(out)


def _probe(p: dict[str, Any]) -> str:
    attrs = (f"delay={as_int(p.get('initialDelaySeconds'))}s timeout={as_int(p.get('timeoutSeconds'), 1)}s "
             f"period={as_int(p.get('periodSeconds'), 10)}s #success={as_int(p.get('successThreshold'), 1)} "
             f"#failure={as_int(p.get('failureThreshold'), 3)}")
    if p.get("exec") is not None:
        return f"exec [{' '.join(map(str, _l(_d(p['exec']).get('command'))))}] {attrs}"
    if p.get("httpGet") is not None:
        h = _d(p["httpGet"])
        host = f"{h.get('host', '')}:{h.get('port', '')}" if h.get("port") is not None else h.get("host", "")
        return f"http-get {str(h.get('scheme') or 'HTTP').lower()}://{host}{h.get('path', '')} {attrs}"
    if p.get("tcpSocket") is not None:
        t = _d(p["tcpSocket"])
        return f"tcp-socket {t.get('host', '')}:{t.get('port', '')} {attrs}"
    if p.get("grpc") is not None:
        g = _d(p["grpc"])
        return f"grpc <pod>:{g.get('port')} {g.get('service', '')} {attrs}"
    return f"unknown {attrs}"


def _state(w: Writer, title: str, state: dict[str, Any]) -> None:
    if state.get("running") is not None:
        w.write(2, f"{title}:\tRunning\n")
        w.write(3, f"Started:\t{describe_time(_d(state['running']).get('startedAt'))}\n")
    elif state.get("waiting") is not None:
        w.write(2, f"{title}:\tWaiting\n")
        if _d(state["waiting"]).get("reason"):
            w.write(3, f"Reason:\t{state['waiting']['reason']}\n")
    elif state.get("terminated") is not None:
        t = _d(state["terminated"])
        w.write(2, f"{title}:\tTerminated\n")
        if t.get("reason"):
            w.write(3, f"Reason:\t{t['reason']}\n")
        if t.get("message"):
            w.write(3, f"Message:\t{t['message']}\n")
        w.write(3, f"Exit Code:\t{as_int(t.get('exitCode'))}\n")
        if as_int(t.get("signal")) > 0:
            w.write(3, f"Signal:\t{t['signal']}\n")
        w.write(3, f"Started:\t{describe_time(t.get('startedAt'))}\n")
        w.write(3, f"Finished:\t{describe_time(t.get('finishedAt'))}\n")
    else:
        w.write(2, f"{title}:\tWaiting\n")


def _unstated_by_paste(status: dict[str, Any], pod: Body | None, containers: int) -> dict[str, Any]:
    """What to print for a pasted pod's container fields its describe did not reach (cut before
    them): the pod's table row's READY and RESTARTS when it runs one container, else `<unknown>`;
    not kubectl's Waiting, False and 0 for fields the API always fills (projectcalico/calico#4519:
    a describe cut after Image printed a 1/1 Running API server with 2 restarts as Waiting, not
    ready, 0 restarts). Empty for an object of the API, and for fields the describe stated.

    >>> pod = {"x-kda-text": {"ready": "1/1", "restarts": 2}}
    >>> _unstated_by_paste({"name": "kube-apiserver"}, pod, 1)
    {'state': '<unknown>', 'ready': 'True', 'restartCount': 2}
    >>> _unstated_by_paste({"name": "a"}, pod, 2)["ready"], _unstated_by_paste({"ready": False}, pod, 1).get("ready")
    ('<unknown>', None)
    """
    facts = pod.get(PASTED) if isinstance(pod, dict) else None
    if not isinstance(facts, dict):
        return {}
    row_ready = str(facts.get("ready") or "").partition("/")
    unstated: dict[str, Any] = {}
    if "state" not in status:
        unstated["state"] = "<unknown>"
    if "ready" not in status:
        one = containers == 1 and row_ready[2] == "1" and row_ready[0] in ("0", "1")
        unstated["ready"] = ("True" if row_ready[0] == "1" else "False") if one else "<unknown>"
    if "restartCount" not in status:
        count = facts.get("restarts")
        unstated["restartCount"] = count if containers == 1 and isinstance(count, int) else "<unknown>"
    return unstated


def _resources(w: Writer, resources: dict[str, Any], level: int) -> None:
    for which, title in (("limits", "Limits"), ("requests", "Requests")):
        items = _d(resources.get(which))
        if items:
            w.write(level, f"{title}:\n")
        for name in sorted(items):
            w.write(level + 1, f"{name}:\t{Quantity.parse(items[name])}\n")


def _containers(w: Writer, label: str, containers: list[Any], statuses: list[Any], pod: Body | None,
                space: str = "") -> None:
    """`space` is kubectl's for a pod template: before the label, and one space before each name;
    the containers' own fields stay where a pod's are."""
    by_name = by_field(statuses, "name")
    w.write(0, f"{space}{label}:{' <none>' if not containers else ''}\n")
    for c in containers:
        c = _d(c)
        st = by_name.get(c["name"]) if isinstance(c.get("name"), str) else None
        w.write(1, f"{' ' if space else ''}{c.get('name', '')}:\n")
        if st is not None:
            w.write(2, f"Container ID:\t{_s(st.get('containerID'))}\n")
        w.write(2, f"Image:\t{_s(c.get('image'))}\n")
        if st is not None:
            w.write(2, f"Image ID:\t{_s(st.get('imageID'))}\n")
        ports = _ports(_l(c.get("ports")), "containerPort")
        w.write(2, f"{'Ports' if ',' in ports else 'Port'}:\t{ports or '<none>'}\n")
        host_ports = _ports(_l(c.get("ports")), "hostPort")
        w.write(2, f"{'Host Ports' if ',' in host_ports else 'Host Port'}:\t{host_ports or '<none>'}\n")
        for key, title in (("command", "Command"), ("args", "Args")):
            if _l(c.get(key)):
                w.write(2, f"{title}:\n")
                for item in c[key]:
                    for part in str(item).split("\n"):
                        w.write(3, f"{part}\n")
        if st is not None:
            unstated = _unstated_by_paste(st, pod, len(containers))
            if "state" in unstated:
                w.write(2, "State:\t<unknown>\n")
            else:
                _state(w, "State", _d(st.get("state")))
            if _d(st.get("lastState")).get("terminated") is not None:
                _state(w, "Last State", _d(st.get("lastState")))
            ready = unstated.get("ready", "True" if st.get("ready") else "False")
            w.write(2, f"Ready:\t{ready}\n")
            w.write(2, f"Restart Count:\t{unstated.get('restartCount', as_int(st.get('restartCount')))}\n")
        _resources(w, _d(c.get("resources")), 2)
        for key, title in (("livenessProbe", "Liveness"), ("readinessProbe", "Readiness"), ("startupProbe", "Startup")):
            if c.get(key) is not None:
                w.write(2, f"{title}:\t{_probe(_d(c[key]))}\n")
        if _l(c.get("envFrom")):
            w.write(2, "Environment Variables from:\n")
            for e in c["envFrom"]:
                e = _d(e)
                ref, kind = (_d(e.get("configMapRef")), "ConfigMap") if e.get("configMapRef") else (_d(e.get("secretRef")), "Secret")
                optional = "true" if ref.get("optional") else "false"
                prefix = f" with prefix '{e['prefix']}'" if e.get("prefix") else ""
                w.write(3, f"{ref.get('name', '')}\t{kind}{prefix}\tOptional: {optional}\n")
        env = _l(c.get("env"))
        w.write(2, f"Environment:{'' if env else chr(9) + '<none>'}\n")
        for e in env:
            e = _d(e)
            src = _d(e.get("valueFrom"))
            if not src:
                for i, part in enumerate(_s(e.get("value")).split("\n")):
                    w.write(3, f"{e.get('name', '')}:\t{part}\n" if i == 0 else f"\t{part}\n")
            elif src.get("fieldRef"):
                ref = _d(src["fieldRef"])
                value = _field_path(pod or {}, str(ref.get("fieldPath", "")))
                w.write(3, f"{e.get('name', '')}:\t{value} ({ref.get('apiVersion', '')}:{ref.get('fieldPath', '')})\n")
            elif src.get("resourceFieldRef"):
                ref = _d(src["resourceFieldRef"])
                w.write(3, f"{e.get('name', '')}:\t{_resource_ref(c, ref)} ({ref.get('resource', '')})\n")
            elif src.get("secretKeyRef"):
                ref = _d(src["secretKeyRef"])
                w.write(3, f"{e.get('name', '')}:\t<set to the key '{ref.get('key', '')}' in secret '{ref.get('name', '')}'>\t"
                           f"Optional: {'true' if ref.get('optional') else 'false'}\n")
            elif src.get("configMapKeyRef"):
                ref = _d(src["configMapKeyRef"])
                w.write(3, f"{e.get('name', '')}:\t<set to the key '{ref.get('key', '')}' of config map '{ref.get('name', '')}'>\t"
                           f"Optional: {'true' if ref.get('optional') else 'false'}\n")
        mounts = sorted((_d(m) for m in _l(c.get("volumeMounts"))), key=lambda m: str(m.get("mountPath", "")))
        w.write(2, f"Mounts:{'' if mounts else chr(9) + '<none>'}\n")
        for m in mounts:
            flags = ["ro" if m.get("readOnly") else "rw"]
            if m.get("subPath"):
                flags.append(f'path="{m["subPath"]}"')
            w.write(3, f"{m.get('mountPath', '')} from {m.get('name', '')} ({','.join(flags)})\n")
        devices = sorted((_d(d) for d in _l(c.get("volumeDevices"))), key=lambda d: str(d.get("devicePath", "")))
        if devices:
            w.write(2, "Devices:\n")
            for dev in devices:
                w.write(3, f"{dev.get('devicePath', '')} from {dev.get('name', '')}\n")


def _field_path(pod: Body, path: str) -> str:
    """The value kubectl shows beside an env var's fieldRef: it converts the path with client-go's
    scheme, which knows only metadata.name and metadata.namespace, and prints nothing for the rest
    (`NODE_NAME:   (v1:spec.nodeName)`, as pasted describes show it)."""
    meta = _d(pod.get("metadata"))
    return _s({"metadata.name": meta.get("name"), "metadata.namespace": meta.get("namespace")}.get(path))


def _resource_ref(container: dict[str, Any], ref: dict[str, Any]) -> str:
    which, _, name = str(ref.get("resource", "")).partition(".")
    value = _d(_d(container.get("resources")).get(which)).get(name)
    if value is None:
        return "node allocatable" if which == "limits" and name in ("cpu", "memory") else "0"
    q = Quantity.parse(value)
    divisor = Quantity.parse(ref.get("divisor") or "1")
    if divisor.value == 0:
        return str(q)
    import math

    return str(math.ceil(q.value / divisor.value))


_VOLUME_TYPES: dict[str, Callable[[dict[str, Any]], list[str]]] = {
    "hostPath": lambda v: ["Type:\tHostPath (bare host directory volume)", f"    Path:\t{_s(v.get('path'))}",
                           f"    HostPathType:\t{v.get('type') or '<none>'}"],
    "emptyDir": lambda v: ["Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)",
                           f"    Medium:\t{_s(v.get('medium'))}",
                           f"    SizeLimit:\t{Quantity.parse(v['sizeLimit']) if v.get('sizeLimit') else '<unset>'}"],
    "secret": lambda v: ["Type:\tSecret (a volume populated by a Secret)", f"    SecretName:\t{_s(v.get('secretName'))}",
                         f"    Optional:\t{_s(bool(v.get('optional')))}"],
    "configMap": lambda v: ["Type:\tConfigMap (a volume populated by a ConfigMap)", f"    Name:\t{_s(v.get('name'))}",
                            f"    Optional:\t{_s(bool(v.get('optional')))}"],
    "persistentVolumeClaim": lambda v: [
        "Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)",
        f"    ClaimName:\t{_s(v.get('claimName'))}", f"    ReadOnly:\t{_s(bool(v.get('readOnly')))}"],
    "nfs": lambda v: ["Type:\tNFS (an NFS mount that lasts the lifetime of a pod)", f"    Server:\t{_s(v.get('server'))}",
                      f"    Path:\t{_s(v.get('path'))}", f"    ReadOnly:\t{_s(bool(v.get('readOnly')))}"],
    "csi": lambda v: ["Type:\tCSI (a Container Storage Interface (CSI) volume source)", f"    Driver:\t{_s(v.get('driver'))}",
                      f"    FSType:\t{_s(v.get('fsType'))}", f"    ReadOnly:\t{_s(bool(v.get('readOnly')))}"],
}


def _volumes(w: Writer, volumes: list[Any], space: str = "") -> None:
    """As kubectl's: a source's first line at level 2, the lines after it indented by their own
    four spaces alone (kubectl's writer prefixes the level once per write, not per line)."""
    if not volumes:
        w.write(0, f"{space}Volumes:\t<none>\n")
        return
    w.write(0, f"{space}Volumes:\n")
    for vol in volumes:
        vol = _d(vol)
        w.write(1, f"{' ' if space else ''}{vol.get('name', '')}:\n")
        kind = next((k for k in _VOLUME_TYPES if vol.get(k) is not None), None)
        if kind is not None:
            _write_source(w, _VOLUME_TYPES[kind](_d(vol[kind])))
        elif vol.get("projected") is not None:
            w.write(2, "Type:\tProjected (a volume that contains injected data from multiple sources)\n")
            for src in _l(_d(vol["projected"]).get("sources")):
                src = _d(src)
                if src.get("secret") is not None:
                    w.write(2, f"SecretName:\t{_s(_d(src['secret']).get('name'))}\n")
                    w.write(0, f"    Optional:\t{_s(bool(_d(src['secret']).get('optional')))}\n")
                elif src.get("downwardAPI") is not None:
                    w.write(2, "DownwardAPI:\ttrue\n")
                elif src.get("configMap") is not None:
                    w.write(2, f"ConfigMapName:\t{_s(_d(src['configMap']).get('name'))}\n")
                    w.write(0, f"    Optional:\t{_s(bool(_d(src['configMap']).get('optional')))}\n")
                elif src.get("serviceAccountToken") is not None:
                    w.write(2, f"TokenExpirationSeconds:\t{_s(_d(src['serviceAccountToken']).get('expirationSeconds'))}\n")
        elif vol.get("downwardAPI") is not None:
            w.write(2, "Type:\tDownwardAPI (a volume populated by information about the pod)\n    Items:\n")
            for item in _l(_d(vol["downwardAPI"]).get("items")):
                item = _d(item)
                ref = _d(item.get("fieldRef")).get("fieldPath") or _d(item.get("resourceFieldRef")).get("resource")
                w.write(3, f"{ref} -> {item.get('path', '')}\n")
        else:
            w.write(1, "<unknown>\n")


def _topology_spread(w: Writer, constraints: list[Any], space: str = "") -> None:
    """kubectl's Topology Spread Constraints: one per line, by topology key."""
    for i, c in enumerate(sorted((_d(c) for c in constraints), key=lambda c: str(c.get("topologyKey", "")))):
        head = f"{space}Topology Spread Constraints:\t" if i == 0 else f"{space}\t"
        text = f"{_s(c.get('topologyKey'))}:{_s(c.get('whenUnsatisfiable'))} when max skew {_s(c.get('maxSkew'))} is exceeded"
        if c.get("labelSelector") is not None:
            text += f" for selector {format_selector(c['labelSelector'])}"
        w.write(0, head + text + "\n")


def qos_class(pod: Body) -> str:
    """Guaranteed, Burstable or BestEffort, as the API computes it."""
    if _d(pod.get("status")).get("qosClass"):
        return str(pod["status"]["qosClass"])
    spec = _d(pod.get("spec"))
    containers = [_d(c) for c in _l(spec.get("containers")) + _l(spec.get("initContainers"))]
    any_set = False
    guaranteed = True
    for c in containers:
        res = _d(c.get("resources"))
        req, lim = _d(res.get("requests")), _d(res.get("limits"))
        if req or lim:
            any_set = True
        for name in ("cpu", "memory"):
            if name not in lim or Quantity.parse(req.get(name, lim.get(name))).value != Quantity.parse(lim[name]).value:
                guaranteed = False
    if not any_set:
        return "BestEffort"
    return "Guaranteed" if guaranteed else "Burstable"


def describe_pod(store: DumpStore, body: Body) -> str:
    clock = store.clock
    meta, spec, status = _d(body.get("metadata")), _d(body.get("spec")), _d(body.get("status"))
    w = Writer()
    w.write(0, f"Name:\t{meta.get('name', '')}\n")
    w.write(0, f"Namespace:\t{meta.get('namespace', '')}\n")
    if spec.get("priority") is not None:
        w.write(0, f"Priority:\t{spec['priority']}\n")
    if spec.get("priorityClassName"):
        w.write(0, f"Priority Class Name:\t{spec['priorityClassName']}\n")
    if spec.get("runtimeClassName"):
        w.write(0, f"Runtime Class Name:\t{spec['runtimeClassName']}\n")
    if spec.get("serviceAccountName"):
        w.write(0, f"Service Account:\t{spec['serviceAccountName']}\n")
    node = spec.get("nodeName")
    w.write(0, f"Node:\t{node}/{_s(status.get('hostIP'))}\n" if node else "Node:\t<none>\n")
    if status.get("startTime"):
        w.write(0, f"Start Time:\t{describe_time(status['startTime'])}\n")
    labels_multiline(w, "Labels", meta.get("labels"))
    annotations_multiline(w, "Annotations", meta.get("annotations"))
    if meta.get("deletionTimestamp") and status.get("phase") not in ("Failed", "Succeeded"):
        w.write(0, f"Status:\tTerminating (lasts {clock.since(meta['deletionTimestamp'])})\n")
        w.write(0, f"Termination Grace Period:\t{_s(meta.get('deletionGracePeriodSeconds'))}s\n")
    else:
        w.write(0, f"Status:\t{_s(status.get('phase'))}\n")
    if status.get("reason"):
        w.write(0, f"Reason:\t{status['reason']}\n")
    if status.get("message"):
        w.write(0, f"Message:\t{status['message']}\n")
    seccomp = _d(_d(spec.get("securityContext")).get("seccompProfile"))
    if seccomp:
        w.write(0, f"SeccompProfile:\t{_s(seccomp.get('type'))}\n")
    w.write(0, f"IP:\t{_s(status.get('podIP'))}\n")
    ips = pod_ips(status)
    if not ips:
        w.write(0, "IPs:\t<none>\n")
    else:
        w.write(0, "IPs:\n")
        for ip in ips:
            w.write(1, f"IP:\t{_s(ip)}\n")
    if _controller(meta):
        w.write(0, f"Controlled By:\t{_controller(meta)}\n")
    if status.get("nominatedNodeName"):
        w.write(0, f"NominatedNodeName:\t{status['nominatedNodeName']}\n")
    if _l(spec.get("initContainers")):
        _containers(w, "Init Containers", _l(spec.get("initContainers")), _l(status.get("initContainerStatuses")), body)
    _containers(w, "Containers", _l(spec.get("containers")), _l(status.get("containerStatuses")), body)
    if _l(spec.get("ephemeralContainers")):
        _containers(w, "Ephemeral Containers", _l(spec.get("ephemeralContainers")),
                    _l(status.get("ephemeralContainerStatuses")), body)
    conditions = [_d(c) for c in _l(status.get("conditions"))]
    if _l(spec.get("readinessGates")):
        w.write(0, "Readiness Gates:\n  Type\tStatus\n")
        for g in spec["readinessGates"]:
            t = _d(g).get("conditionType")
            found = next((c.get("status") for c in conditions if c.get("type") == t), "<none>")
            w.write(1, f"{_s(t)} \t{_s(found)} \n")
    if conditions:
        w.write(0, "Conditions:\n  Type\tStatus\n")
        for c in conditions:
            w.write(1, f"{_s(c.get('type'))} \t{_s(c.get('status'))} \n")
    _volumes(w, _l(spec.get("volumes")))
    w.write(0, f"QoS Class:\t{qos_class(body)}\n")
    labels_multiline(w, "Node-Selectors", spec.get("nodeSelector"))
    tolerations_multiline(w, "Tolerations", spec.get("tolerations"))
    _topology_spread(w, _l(spec.get("topologySpreadConstraints")))
    describe_events(w, search_events(store, body), clock)
    return w.text()


# -- deployments and services ------------------------------------------------------------------

def _pod_template(w: Writer, template: dict[str, Any]) -> None:
    meta, spec = _d(template.get("metadata")), _d(template.get("spec"))
    w.write(0, "Pod Template:\n")
    labels_multiline(w, "Labels", meta.get("labels"), indent="  ")
    if _d(meta.get("annotations")):
        annotations_multiline(w, "  Annotations", meta.get("annotations"))
    if spec.get("serviceAccountName"):
        w.write(1, f"Service Account:\t{spec['serviceAccountName']}\n")
    if _l(spec.get("initContainers")):
        _containers(w, "Init Containers", _l(spec.get("initContainers")), [], None, space="  ")
    _containers(w, "Containers", _l(spec.get("containers")), [], None, space="  ")
    _volumes(w, _l(spec.get("volumes")), space="  ")
    _topology_spread(w, _l(spec.get("topologySpreadConstraints")), space="  ")
    if spec.get("priorityClassName"):
        w.write(1, f"Priority Class Name:\t{spec['priorityClassName']}\n")
    labels_multiline(w, "Node-Selectors", spec.get("nodeSelector"), indent="  ")
    tolerations_multiline(w, "  Tolerations", spec.get("tolerations"))


def describe_deployment(store: DumpStore, body: Body) -> str:
    meta, spec, status = _d(body.get("metadata")), _d(body.get("spec")), _d(body.get("status"))
    w = Writer()
    w.write(0, f"Name:\t{meta.get('name', '')}\n")
    w.write(0, f"Namespace:\t{meta.get('namespace', '')}\n")
    w.write(0, f"CreationTimestamp:\t{describe_time(meta.get('creationTimestamp'))}\n")
    labels_multiline(w, "Labels", meta.get("labels"))
    annotations_multiline(w, "Annotations", meta.get("annotations"))
    w.write(0, f"Selector:\t{format_selector(spec.get('selector')).replace('<none>', '')}\n")
    w.write(0, f"Replicas:\t{as_int(spec.get('replicas', 1))} desired | {as_int(status.get('updatedReplicas'))} updated | "
               f"{as_int(status.get('replicas'))} total | {as_int(status.get('availableReplicas'))} available | "
               f"{as_int(status.get('unavailableReplicas'))} unavailable\n")
    strategy = _d(spec.get("strategy"))
    w.write(0, f"StrategyType:\t{_s(strategy.get('type'))}\n")
    w.write(0, f"MinReadySeconds:\t{as_int(spec.get('minReadySeconds'))}\n")
    if strategy.get("rollingUpdate") is not None:
        ru = _d(strategy["rollingUpdate"])
        w.write(0, f"RollingUpdateStrategy:\t{_s(ru.get('maxUnavailable'))} max unavailable, {_s(ru.get('maxSurge'))} max surge\n")
    _pod_template(w, _d(spec.get("template")))
    conditions = [_d(c) for c in _l(status.get("conditions"))]
    if conditions:
        w.write(0, "Conditions:\n  Type\tStatus\tReason\n")
        w.write(1, "----\t------\t------\n")
        for c in conditions:
            w.write(1, f"{_s(c.get('type'))} \t{_s(c.get('status'))}\t{_s(c.get('reason'))}\n")
    rs_res, rs_collected = _related(store, "apps", "ReplicaSet")
    if rs_res is not None and rs_collected:
        uid = meta.get("uid")
        owned = [b for b in store.bodies(rs_res, store.select(rs_res, meta.get("namespace")))
                 if any(_d(r).get("uid") == uid and _d(r).get("controller") for r in _l(_d(b.get("metadata")).get("ownerReferences")))]
        revision = _d(meta.get("annotations")).get("deployment.kubernetes.io/revision")
        new = [b for b in owned if _d(_d(b.get("metadata")).get("annotations")).get("deployment.kubernetes.io/revision") == revision]
        old = [b for b in owned if b not in new and as_int(_d(b.get("spec")).get("replicas")) > 0]
        if owned:
            w.write(0, f"OldReplicaSets:\t{_rs_list(old)}\n")
            w.write(0, f"NewReplicaSet:\t{_rs_list(new)}\n")
    describe_events(w, search_events(store, body), store.clock)
    return w.text()


def _rs_list(items: list[Body]) -> str:
    text = ", ".join(f"{_d(b.get('metadata')).get('name', '')} ({as_int(_d(b.get('status')).get('replicas'))}/"
                     f"{as_int(_d(b.get('spec')).get('replicas'))} replicas created)" for b in items)
    return text or "<none>"


def describe_service(store: DumpStore, body: Body) -> str:
    meta, spec = _d(body.get("metadata")), _d(body.get("spec"))
    status = _d(body.get("status"))
    w = _head(meta)
    w.write(0, f"Selector:\t{format_labels(spec.get('selector'))}\n")
    w.write(0, f"Type:\t{_s(spec.get('type'))}\n")
    if spec.get("ipFamilyPolicy"):
        w.write(0, f"IP Family Policy:\t{spec['ipFamilyPolicy']}\n")
    families = _l(spec.get("ipFamilies"))
    w.write(0, f"IP Families:\t{','.join(map(str, families)) or '<none>'}\n")
    w.write(0, f"IP:\t{_s(spec.get('clusterIP'))}\n")
    w.write(0, f"IPs:\t{','.join(map(str, _l(spec.get('clusterIPs')))) or '<none>'}\n")
    if _l(spec.get("externalIPs")):
        w.write(0, f"External IPs:\t{','.join(map(str, spec['externalIPs']))}\n")
    if spec.get("loadBalancerIP"):
        w.write(0, f"Desired LoadBalancer IP:\t{spec['loadBalancerIP']}\n")
    if spec.get("externalName"):
        w.write(0, f"External Name:\t{spec['externalName']}\n")
    ingress = [_d(i) for i in _l(_d(status.get("loadBalancer")).get("ingress"))]
    if ingress:
        w.write(0, f"LoadBalancer Ingress:\t{', '.join(str(i.get('ip') or i.get('hostname') or '') for i in ingress)}\n")
    slices_res, slices_collected = _related(store, "discovery.k8s.io", "EndpointSlice")
    slices = []
    if slices_res is not None and slices_collected:
        slices = store.bodies(slices_res, store.select(
            slices_res, meta.get("namespace"), f"kubernetes.io/service-name={meta.get('name', '')}"))
    ep_res, ep_collected = _related(store, "", "Endpoints")
    ep_obj = store.find(ep_res, meta.get("namespace") or "", meta.get("name", "")) if ep_collected and ep_res else None

    def endpoints_text(port_name: str) -> str:
        if slices_collected:
            return _slice_endpoints(slices, port_name)
        if ep_obj is not None:  # a dump without EndpointSlices: the Endpoints object, as older kubectl read it
            from analyzer.printing.columns import format_endpoints

            return format_endpoints(store.body(ep_res, ep_obj))
        return "<the dump did not collect EndpointSlices>" if not ep_collected else "<none>"

    for p in _l(spec.get("ports")):
        p = _d(p)
        name = p.get("name") or "<unset>"
        proto = p.get("protocol") or "TCP"
        w.write(0, f"Port:\t{name}\t{p.get('port')}/{proto}\n")
        w.write(0, f"TargetPort:\t{p.get('targetPort', p.get('port'))}/{proto}\n")
        if p.get("appProtocol"):
            w.write(0, f"AppProtocol:\t{p['appProtocol']}\n")
        if p.get("nodePort"):
            w.write(0, f"NodePort:\t{name}\t{p['nodePort']}/{proto}\n")
        w.write(0, f"Endpoints:\t{endpoints_text(p.get('name') or '')}\n")
    w.write(0, f"Session Affinity:\t{_s(spec.get('sessionAffinity'))}\n")
    if spec.get("externalTrafficPolicy"):
        w.write(0, f"External Traffic Policy:\t{spec['externalTrafficPolicy']}\n")
    if spec.get("internalTrafficPolicy"):
        w.write(0, f"Internal Traffic Policy:\t{spec['internalTrafficPolicy']}\n")
    if spec.get("healthCheckNodePort"):
        w.write(0, f"HealthCheck NodePort:\t{spec['healthCheckNodePort']}\n")
    if _l(spec.get("loadBalancerSourceRanges")):
        w.write(0, f"LoadBalancer Source Ranges:\t{','.join(map(str, spec['loadBalancerSourceRanges']))}\n")
    describe_events(w, search_events(store, body), store.clock)
    return w.text()


def _slice_endpoints(slices: list[Body], port_name: str) -> str:
    shown: list[str] = []
    count = 0
    for s in slices:
        ports = [_d(p) for p in _l(s.get("ports")) if (_d(p).get("name") or "") == port_name]
        for port in ports:
            for e in _l(s.get("endpoints")):
                e = _d(e)
                if _d(e.get("conditions")).get("ready") is False:
                    continue
                for addr in _l(e.get("addresses")):
                    count += 1
                    if len(shown) < 3:
                        host = f"[{addr}]" if ":" in str(addr) else str(addr)
                        shown.append(f"{host}:{port.get('port')}")
    if not shown:
        return "<none>"
    text = ",".join(shown)
    return f"{text} + {count - 3} more..." if count > 3 else text


# -- any other kind ---------------------------------------------------------------------------

def _smart_label(field: str) -> str:
    """`apiVersion` -> `API Version`, `nodeName` -> `Node Name` (kubectl's smartLabelFor)."""
    if any(not (ch.isalpha() or ch == "-") for ch in field):
        return field
    parts = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[^A-Za-z]+", field) or [field]
    merged: list[str] = []
    for part in parts:
        merged.append(part[:1].upper() + part[1:])
    text = " ".join(merged)
    for acronym in ("Api", "Url", "Uid", "Guid"):
        text = re.sub(rf"\b{acronym}\b", acronym.upper(), text)
    return text


def _unstructured(w: Writer, level: int, content: dict[str, Any], prefix: str, skip: set[str]) -> None:
    for field in sorted(content):
        value = content[field]
        path = f"{prefix}.{field}"
        if path in skip:
            continue
        if isinstance(value, dict):
            w.write(level, f"{_smart_label(field)}:\n")
            _unstructured(w, level + 1, value, path, skip)
        elif isinstance(value, list):
            w.write(level, f"{_smart_label(field)}:\n")
            for child in value:
                if isinstance(child, dict):
                    _unstructured(w, level + 1, child, path, skip)
                else:
                    w.write(level + 1, f"{_go_value(child)}\n")
        else:
            w.write(level, f"{_smart_label(field)}:\t{_go_value(value)}\n")


def _go_value(value: Any) -> str:
    """A JSON value as Go's %v prints it from an unstructured object (null is `<nil>`)."""
    if value is None:
        return "nil"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return _s(value)


def describe_generic(store: DumpStore, body: Body) -> str:
    meta = _d(body.get("metadata"))
    w = _head(meta)
    # (what a paste showed beyond the object's fields is this tool's record, not the object's)
    _unstructured(w, 0, body, "", {".metadata.managedFields", ".metadata.name", ".metadata.namespace",
                                   ".metadata.labels", ".metadata.annotations", f".{PASTED}"})
    describe_events(w, search_events(store, body), store.clock)
    return w.text()


def _pods_status(store: DumpStore, body: Body) -> str:
    """`N Running / N Waiting / N Succeeded / N Failed` of the pods this controller owns."""
    pods_res, collected = _related(store, "", "Pod")
    if pods_res is None or not collected:
        return "the dump did not collect Pods"
    meta = _d(body.get("metadata"))
    selector = _d(_d(body.get("spec")).get("selector"))
    counts = {"Running": 0, "Pending": 0, "Succeeded": 0, "Failed": 0}
    from analyzer.printing.selectors import label_selector

    wanted = label_selector(format_selector(selector).replace("<none>", "")) if selector else (lambda labels: False)
    for obj in pods_res.objects:
        if obj.namespace != meta.get("namespace"):
            continue
        pod = store.row_body(pods_res, obj)
        pm = _d(pod.get("metadata"))
        if not wanted(_d(pm.get("labels"))):
            continue
        owner = next((_d(r) for r in _l(pm.get("ownerReferences")) if _d(r).get("controller")), None)
        if owner is None or owner.get("uid") != meta.get("uid"):
            continue
        phase = _d(pod.get("status")).get("phase")
        if phase in counts:
            counts[phase] += 1
    return (f"{counts['Running']} Running / {counts['Pending']} Waiting / {counts['Succeeded']} Succeeded / "
            f"{counts['Failed']} Failed")


def _conditions_reason(w: Writer, status: dict[str, Any]) -> None:
    conditions = [_d(c) for c in _l(status.get("conditions"))]
    if conditions:
        w.write(0, "Conditions:\n  Type\tStatus\tReason\n")
        w.write(1, "----\t------\t------\n")
        for c in conditions:
            w.write(1, f"{_s(c.get('type'))} \t{_s(c.get('status'))}\t{_s(c.get('reason'))}\n")


def describe_replicaset(store: DumpStore, body: Body) -> str:
    meta, spec, status = _d(body.get("metadata")), _d(body.get("spec")), _d(body.get("status"))
    w = Writer()
    w.write(0, f"Name:\t{meta.get('name', '')}\n")
    w.write(0, f"Namespace:\t{meta.get('namespace', '')}\n")
    w.write(0, f"Selector:\t{format_selector(spec.get('selector'))}\n")
    labels_multiline(w, "Labels", meta.get("labels"))
    annotations_multiline(w, "Annotations", meta.get("annotations"))
    if _controller(meta):
        w.write(0, f"Controlled By:\t{_controller(meta)}\n")
    w.write(0, f"Replicas:\t{as_int(status.get('replicas'))} current / {as_int(spec.get('replicas', 1))} desired\n")
    w.write(0, f"Pods Status:\t{_pods_status(store, body)}\n")
    _pod_template(w, _d(spec.get("template")))
    _conditions_reason(w, status)
    describe_events(w, search_events(store, body), store.clock)
    return w.text()


def describe_daemonset(store: DumpStore, body: Body) -> str:
    meta, spec, status = _d(body.get("metadata")), _d(body.get("spec")), _d(body.get("status"))
    template_spec = _d(_d(spec.get("template")).get("spec"))
    w = Writer()
    w.write(0, f"Name:\t{meta.get('name', '')}\n")
    w.write(0, f"Namespace:\t{meta.get('namespace', '')}\n")
    w.write(0, f"Selector:\t{format_selector(spec.get('selector')).replace('<none>', '')}\n")
    w.write(0, f"Node-Selector:\t{format_labels(template_spec.get('nodeSelector'))}\n")
    labels_multiline(w, "Labels", meta.get("labels"))
    annotations_multiline(w, "Annotations", meta.get("annotations"))
    for label, key in (("Desired Number of Nodes Scheduled", "desiredNumberScheduled"),
                       ("Current Number of Nodes Scheduled", "currentNumberScheduled"),
                       ("Number of Nodes Scheduled with Up-to-date Pods", "updatedNumberScheduled"),
                       ("Number of Nodes Scheduled with Available Pods", "numberAvailable"),
                       ("Number of Nodes Misscheduled", "numberMisscheduled")):
        w.write(0, f"{label}: {as_int(status.get(key))}\n")
    w.write(0, f"Pods Status:\t{_pods_status(store, body)}\n")
    _pod_template(w, _d(spec.get("template")))
    describe_events(w, search_events(store, body), store.clock)
    return w.text()


def describe_statefulset(store: DumpStore, body: Body) -> str:
    meta, spec, status = _d(body.get("metadata")), _d(body.get("spec")), _d(body.get("status"))
    w = Writer()
    w.write(0, f"Name:\t{meta.get('name', '')}\n")
    w.write(0, f"Namespace:\t{meta.get('namespace', '')}\n")
    w.write(0, f"CreationTimestamp:\t{describe_time(meta.get('creationTimestamp'))}\n")
    w.write(0, f"Selector:\t{format_selector(spec.get('selector')).replace('<none>', '')}\n")
    labels_multiline(w, "Labels", meta.get("labels"))
    annotations_multiline(w, "Annotations", meta.get("annotations"))
    if spec.get("serviceName"):
        w.write(0, f"Service Name:\t{spec['serviceName']}\n")
    if spec.get("podManagementPolicy"):
        w.write(0, f"Pod Management Policy:\t{spec['podManagementPolicy']}\n")
    w.write(0, f"Replicas:\t{as_int(spec.get('replicas', 1))} desired | {as_int(status.get('replicas'))} total\n")
    strategy = _d(spec.get("updateStrategy"))
    w.write(0, f"Update Strategy:\t{_s(strategy.get('type'))}\n")
    rolling = _d(strategy.get("rollingUpdate"))
    if rolling.get("partition") is not None:
        w.write(1, f"Partition:\t{rolling['partition']}\n")
        if rolling.get("maxUnavailable") is not None:
            w.write(1, f"MaxUnavailable:\t{rolling['maxUnavailable']}\n")
    retention = _d(spec.get("persistentVolumeClaimRetentionPolicy"))
    if retention:
        w.write(0, "Persistent Volume Claim Retention Policy:\n")
        w.write(1, f"WhenDeleted:\t{_s(retention.get('whenDeleted'))}\n")
        w.write(1, f"WhenScaled:\t{_s(retention.get('whenScaled'))}\n")
    w.write(0, f"Pods Status:\t{_pods_status(store, body)}\n")
    _pod_template(w, _d(spec.get("template")))
    templates = [_d(t) for t in _l(spec.get("volumeClaimTemplates"))]
    if not templates:
        w.write(0, "Volume Claims:\t<none>\n")
    else:
        w.write(0, "Volume Claims:\n")
        for t in templates:
            tm, ts = _d(t.get("metadata")), _d(t.get("spec"))
            w.write(1, f"Name:\t{tm.get('name', '')}\n")
            w.write(1, f"StorageClass:\t{_s(ts.get('storageClassName'))}\n")
            labels_multiline(w, "Labels", tm.get("labels"), indent="  ")
            labels_multiline(w, "Annotations", tm.get("annotations"), indent="  ")
            storage = _d(_d(ts.get("resources")).get("requests")).get("storage")
            w.write(1, f"Capacity:\t{Quantity.parse(storage) if storage is not None else '<default>'}\n")
            w.write(1, f"Access Modes:\t{_go_list(ts.get('accessModes'))}\n")
    describe_events(w, search_events(store, body), store.clock)
    return w.text()


def _head(meta: dict[str, Any]) -> Writer:
    """Name, Namespace, Labels, Annotations: how kubectl starts most describes (a ReplicaSet's, a
    Service's, a ConfigMap's, an HPA's)."""
    w = Writer()
    w.write(0, f"Name:\t{meta.get('name', '')}\n")
    w.write(0, f"Namespace:\t{meta.get('namespace', '')}\n")
    labels_multiline(w, "Labels", meta.get("labels"))
    annotations_multiline(w, "Annotations", meta.get("annotations"))
    return w


def _head_without_namespace(meta: dict[str, Any]) -> Writer:
    """Name, Labels, Annotations: how kubectl starts a Namespace's describe and its bindings' (no Namespace line)."""
    w = Writer()
    w.write(0, f"Name:\t{meta.get('name', '')}\n")
    labels_multiline(w, "Labels", meta.get("labels"))
    annotations_multiline(w, "Annotations", meta.get("annotations"))
    return w


def describe_namespace(store: DumpStore, body: Body) -> str:
    meta, status = _d(body.get("metadata")), _d(body.get("status"))
    w = _head_without_namespace(meta)
    w.write(0, f"Status:\t{_s(status.get('phase'))}\n")
    conditions = [_d(c) for c in _l(status.get("conditions"))]
    if conditions:
        w.write(0, "Conditions:\n")
        w.write(1, "Type\tStatus\tLastTransitionTime\tReason\tMessage\n")
        w.write(1, "----\t------\t------------------\t------\t-------\n")
        for c in conditions:
            w.write(1, f"{_s(c.get('type'))}\t{_s(c.get('status'))}\t{describe_time(c.get('lastTransitionTime'))}\t"
                       f"{_s(c.get('reason'))}\t{_s(c.get('message'))}\n")
    for kind, none, title in (("ResourceQuota", "No resource quota.", "Resource Quotas"),
                              ("LimitRange", "No LimitRange resource.", "Resource Limits")):
        res, collected = _related(store, "", kind)
        w.write(0, "\n")
        if res is None or not collected:
            w.write(0, f"{title}: the dump did not collect {res.title if res else kind}\n")
            continue
        items = store.bodies(res, store.select(res, meta.get("name", "")))
        if not items:
            w.write(0, f"{none}\n")
            continue
        w.write(0, f"{title}\n")
        if kind == "ResourceQuota":
            items = sorted(items, key=lambda q: str(_d(q.get("metadata")).get("name", "")))
        for item in items:
            im = _d(item.get("metadata"))
            w.write(1, f"Name:\t{im.get('name', '')}\n")
            if kind == "ResourceQuota":
                for line in _quota_scopes(item):
                    w.write(1, line.replace("\t* ", "* "))
                hard, used = _d(_d(item.get("status")).get("hard")), _d(_d(item.get("status")).get("used"))
                w.write(1, "Resource\tUsed\tHard\n")
                w.write(1, "--------\t---\t---\n")
                for name in sorted(hard):
                    w.write(1, f"{name}\t{Quantity.parse(used.get(name, '0'))}\t{Quantity.parse(hard[name])}\n")
    return w.text()


# kubectl's words for a quota's scopes (helpTextForResourceQuotaScope)
_QUOTA_SCOPE_HELP = {
    "Terminating": "Matches all pods that have an active deadline. These pods have a limited lifespan on a node "
                   "before being actively terminated by the system.",
    "NotTerminating": "Matches all pods that do not have an active deadline. These pods usually include long running "
                      "pods whose container command is not expected to terminate.",
    "BestEffort": "Matches all pods that do not have resource requirements set. These pods have a best effort "
                  "quality of service.",
    "NotBestEffort": "Matches all pods that have at least one resource requirement set. These pods have a burstable "
                     "or guaranteed quality of service.",
}


def _quota_scopes(quota: Body) -> list[str]:
    """A quota's `Scopes:` line and a `\t* ` line of kubectl's help per scope it has words for."""
    scopes = sorted(str(x) for x in _l(_d(quota.get("spec")).get("scopes")))
    if not scopes:
        return []
    return [f"Scopes:\t{', '.join(scopes)}\n"] + [f"\t* {_QUOTA_SCOPE_HELP[x]}\n" for x in scopes if x in _QUOTA_SCOPE_HELP]


def describe_resource_quota(store: DumpStore, body: Body) -> str:
    meta, status = _d(body.get("metadata")), _d(body.get("status"))
    w = Writer()
    w.write(0, f"Name:\t{meta.get('name', '')}\n")
    w.write(0, f"Namespace:\t{meta.get('namespace', '')}\n")
    for line in _quota_scopes(body):
        w.write(0, line.replace("\t* ", " * "))
    w.write(0, "Resource\tUsed\tHard\n")
    w.write(0, "--------\t----\t----\n")
    hard, used = _d(status.get("hard")), _d(status.get("used"))
    for name in sorted(hard):
        h, u = Quantity.parse(hard[name]), Quantity.parse(used.get(name, "0"))
        if u.format != h.format:
            # kubectl prints the used amount in the hard limit's format, as a whole number
            u = Quantity(Fraction(u.whole()), h.format)
        w.write(0, f"{name}\t{u}\t{h}\n")
    return w.text()


def describe_role_binding(store: DumpStore, body: Body) -> str:
    """A RoleBinding or ClusterRoleBinding, as kubectl's two identical describers print it."""
    ref = _d(body.get("roleRef"))
    w = _head_without_namespace(_d(body.get("metadata")))
    w.write(0, "Role:\n")
    w.write(1, f"Kind:\t{_s(ref.get('kind'))}\n")
    w.write(1, f"Name:\t{_s(ref.get('name'))}\n")
    w.write(0, "Subjects:\n")
    w.write(1, "Kind\tName\tNamespace\n")
    w.write(1, "----\t----\t---------\n")
    for subject in _l(body.get("subjects")):
        subject = _d(subject)
        w.write(1, f"{_s(subject.get('kind'))}\t{_s(subject.get('name'))}\t{_s(subject.get('namespace'))}\n")
    return w.text()


def describe_configmap(store: DumpStore, body: Body) -> str:
    meta = _d(body.get("metadata"))
    w = _head(meta)
    w.write(0, "\nData\n====\n")
    data = _d(body.get("data"))
    for key in sorted(data):
        w.write(0, f"{key}:\n----\n")
        w.write(0, f"{_s(data[key])}\n")
        w.write(0, "\n")
    w.write(0, "\nBinaryData\n====\n")
    binary = _d(body.get("binaryData"))
    for key in sorted(binary):
        import base64

        try:
            size = len(base64.b64decode(str(binary[key])))
        except ValueError:
            size = len(str(binary[key]))
        w.write(0, f"{key}: {size} bytes\n")
    w.write(0, "\n")
    describe_events(w, search_events(store, body), store.clock)
    return w.text()


def describe_hpa(store: DumpStore, body: Body) -> str:
    """kubectl's HorizontalPodAutoscaler describe (describeHorizontalPodAutoscalerV2: kubectl reads
    HPAs at autoscaling/v2, so an autoscaling/v1 one is shown as the API server converts it, its
    CPU target and annotated metrics Resource metrics, its conditions from its annotation)."""
    meta, spec, status = _d(body.get("metadata")), _d(body.get("spec")), _d(body.get("status"))
    metrics, current = hpa_metrics(body)
    ref = _d(spec.get("scaleTargetRef"))
    w = _head(meta)
    w.write(0, f"CreationTimestamp:\t{describe_time(meta.get('creationTimestamp'))}\n")
    w.write(0, f"Reference:\t{_s(ref.get('kind'))}/{_s(ref.get('name'))}\n")
    w.write(0, "Metrics:\t( current / target )\n")
    for i, metric in enumerate(metrics):
        now = current[i] if i < len(current) else {}
        w.write(1, _hpa_metric_line(metric, now))
    w.write(0, f"Min replicas:\t{_s(spec['minReplicas']) if spec.get('minReplicas') is not None else '<unset>'}\n")
    w.write(0, f"Max replicas:\t{as_int(spec.get('maxReplicas'))}\n")
    w.write(0, f"{_s(ref.get('kind'))} pods:\t{as_int(status.get('currentReplicas'))} current / "
               f"{as_int(status.get('desiredReplicas'))} desired\n")
    conditions, _ = hpa_conditions(body)
    if conditions:
        w.write(0, "Conditions:\n")
        w.write(1, "Type\tStatus\tReason\tMessage\n")
        w.write(1, "----\t------\t------\t-------\n")
        for c in (_d(c) for c in conditions):
            w.write(1, f"{_s(c.get('type'))}\t{_s(c.get('status'))}\t{_s(c.get('reason'))}\t{_s(c.get('message'))}\n")
    describe_events(w, search_events(store, body), store.clock)
    return w.text()


def _hpa_metric_line(metric: dict[str, Any], now: dict[str, Any]) -> str:
    """One metric's `current / target` line, as kubectl's HPA describe prints it."""
    kind = metric.get("type")
    key = METRIC_SOURCE_KEYS.get(str(kind))
    if key is None:
        return f"<unknown metric type {kind!r}>\n".replace("'", '"')
    source, target = _d(metric.get(key)), _d(_d(metric.get(key)).get("target"))
    value = _d(_d(now.get(key)).get("current"))
    average = target.get("averageValue")
    if key in ("resource", "containerResource"):
        head = f"resource {_s(source.get('name'))} " + (
            f'of container "{_s(source.get("container"))}" on pods' if key == "containerResource" else "on pods")
        if average is not None:
            return f"{head}:\t{_s(value.get('averageValue', '<unknown>'))} / {_s(average)}\n"
        util = value.get("averageUtilization")
        shown = f"{util}% ({_s(value.get('averageValue', '<nil>'))})" if util is not None else "<unknown>"
        goal = f"{target['averageUtilization']}%" if target.get("averageUtilization") is not None else "<auto>"
        return f"{head}  (as a percentage of request):\t{shown} / {goal}\n"
    name = _s(_d(source.get("metric")).get("name"))
    if key == "pods":
        return f'"{name}" on pods:\t{_s(value.get("averageValue", "<unknown>"))} / {_s(average)}\n'
    if key == "object":
        described = _d(source.get("describedObject"))
        head = f'"{name}" on {_s(described.get("kind"))}/{_s(described.get("name"))} '
    else:
        head = f'"{name}" '
    if average is not None:
        return f"{head}(target average value):\t{_s(value.get('averageValue', '<unknown>'))} / {_s(average)}\n"
    return f"{head}(target value):\t{_s(value.get('value', '<unknown>'))} / {_s(target.get('value'))}\n"


def _write_source(w: Writer, lines: list[str]) -> None:
    """A volume source's lines: the first at level 2, those after it indented by their own four
    spaces alone (kubectl's writer prefixes the level once per write, not per line)."""
    first, *rest = lines
    w.write(2, first + "\n")
    for line in rest:
        w.write(0, line + "\n")


def _go_list(values: Any) -> str:
    """A []string as Go's %v prints it: `[a b]`."""
    return f"[{' '.join(_s(v) for v in _l(values))}]"


def _storage(amounts: Any) -> str:
    """A ResourceList's storage as kubectl prints it (`0` when it has none)."""
    storage = _d(amounts).get("storage")
    return str(Quantity.parse(storage)) if storage is not None else "0"


def _deleting_or_phase(meta: dict[str, Any], status: dict[str, Any], clock: Clock) -> str:
    """A volume's or claim's Status: `Terminating (lasts X)` once deleted, else its phase."""
    if meta.get("deletionTimestamp"):
        return f"Terminating (lasts {clock.since(meta['deletionTimestamp'])})"
    return _s(status.get("phase"))


def _csi_attributes(w: Writer, attributes: Any) -> None:
    """kubectl's VolumeAttributes: sorted `key=value`, cut at 140 characters; the lines after the
    first prefixed as its writer prefixes them (the level twice and a tab)."""
    w.write(2, "VolumeAttributes:\t")
    attributes = _d(attributes)
    if not attributes:
        w.line("<none>")
        return
    for i, key in enumerate(sorted(attributes)):
        if i:
            w.write(2, "")
            w.write(2, "\t")
        line = f"{key}={_s(attributes[key])}"
        w.write(2, (line[:MAX_ANNOTATION] + "...\n") if len(line) > MAX_ANNOTATION else line + "\n")


# A PersistentVolume's source as kubectl's describe prints it: its Type line, then its fields,
# each `    Name:\tvalue` after the level of the Type line (kubectl writes them in one Write).
_PV_SOURCES: dict[str, Callable[[dict[str, Any]], list[str]]] = {
    "hostPath": _VOLUME_TYPES["hostPath"],
    "nfs": _VOLUME_TYPES["nfs"],
    "gcePersistentDisk": lambda v: [
        "Type:\tGCEPersistentDisk (a Persistent Disk resource in Google Compute Engine)", f"    PDName:\t{_s(v.get('pdName'))}",
        f"    FSType:\t{_s(v.get('fsType'))}", f"    Partition:\t{_s(v.get('partition', 0))}",
        f"    ReadOnly:\t{_s(bool(v.get('readOnly')))}"],
    "awsElasticBlockStore": lambda v: [
        "Type:\tAWSElasticBlockStore (a Persistent Disk resource in AWS)", f"    VolumeID:\t{_s(v.get('volumeID'))}",
        f"    FSType:\t{_s(v.get('fsType'))}", f"    Partition:\t{_s(v.get('partition', 0))}",
        f"    ReadOnly:\t{_s(bool(v.get('readOnly')))}"],
    "azureDisk": lambda v: [
        "Type:\tAzureDisk (an Azure Data Disk mount on the host and bind mount to the pod)",
        f"    DiskName:\t{_s(v.get('diskName'))}", f"    DiskURI:\t{_s(v.get('diskURI'))}",
        f"    Kind: \t{_s(v.get('kind'))}", f"    FSType:\t{_s(v.get('fsType'))}",
        f"    CachingMode:\t{_s(v.get('cachingMode'))}", f"    ReadOnly:\t{_s(bool(v.get('readOnly')))}"],
    "azureFile": lambda v: [
        "Type:\tAzureFile (an Azure File Service mount on the host and bind mount to the pod)",
        f"    SecretName:\t{_s(v.get('secretName'))}", f"    SecretNamespace:\t{_s(v.get('secretNamespace'))}",
        f"    ShareName:\t{_s(v.get('shareName'))}", f"    ReadOnly:\t{_s(bool(v.get('readOnly')))}"],
    "local": lambda v: ["Type:\tLocalVolume (a persistent volume backed by local storage on a node)",
                        f"    Path:\t{_s(v.get('path'))}"],
    "flexVolume": lambda v: [
        "Type:\tFlexVolume (a generic volume resource that is provisioned/attached using an exec based plugin)",
        f"    Driver:\t{_s(v.get('driver'))}", f"    FSType:\t{_s(v.get('fsType'))}",
        f"    SecretRef:\t{_go_ref(v.get('secretRef'))}", f"    ReadOnly:\t{_s(bool(v.get('readOnly')))}",
        f"    Options:\t{_go_map(v.get('options'))}"],
    "csi": lambda v: [
        "Type:\tCSI (a Container Storage Interface (CSI) volume source)", f"    Driver:\t{_s(v.get('driver'))}",
        f"    FSType:\t{_s(v.get('fsType'))}", f"    VolumeHandle:\t{_s(v.get('volumeHandle'))}",
        f"    ReadOnly:\t{_s(bool(v.get('readOnly')))}"],
}


def _go_ref(ref: Any) -> str:
    """A *SecretReference as kubectl prints it: `nil`, or `&SecretReference{Name:x,Namespace:y,}`."""
    if not isinstance(ref, dict):
        return "nil"
    return f"&SecretReference{{Name:{_s(ref.get('name'))},Namespace:{_s(ref.get('namespace'))},}}"


def _go_map(values: Any) -> str:
    """A map[string]string as Go's %v prints it: `map[a:b c:d]`, keys sorted."""
    values = _d(values)
    return "map[" + " ".join(f"{k}:{_s(values[k])}" for k in sorted(values)) + "]"


def _volume_node_affinity(w: Writer, affinity: Any) -> None:
    """kubectl's Node Affinity of a volume: its required terms, one expression a line."""
    w.write(0, "Node Affinity:\t")
    required = _d(affinity).get("required")
    if not isinstance(required, dict):
        w.line("<none>")
        return
    w.line("")
    w.write(1, "Required Terms:\t")
    terms = _l(required.get("nodeSelectorTerms"))
    if not terms:
        w.line("<none>")
        return
    w.line("")
    for i, term in enumerate(terms):
        w.write(2, f"Term {i}:\t")
        expressions = _l(_d(term).get("matchExpressions"))
        if not expressions:
            w.line("<none>")
            continue
        for j, req in enumerate(_d(e) for e in expressions):
            if j:
                w.write(2, "\t")
            text = f"{_s(req.get('key'))} {_s(req.get('operator')).lower()}"
            if values := _l(req.get("values")):
                text += f" [{', '.join(_s(v) for v in values)}]"
            w.write(0, text + "\n")


def describe_persistent_volume(store: DumpStore, body: Body) -> str:
    """kubectl's PersistentVolume layout: claim, policy, capacity, node affinity, its source."""
    meta, spec, status = _d(body.get("metadata")), _d(body.get("spec")), _d(body.get("status"))
    w = _head_without_namespace(meta)
    w.write(0, f"Finalizers:\t{_go_list(meta.get('finalizers'))}\n")
    w.write(0, f"StorageClass:\t{_s(spec.get('storageClassName'))}\n")
    w.write(0, f"Status:\t{_deleting_or_phase(meta, status, store.clock)}\n")
    claim = _d(spec.get("claimRef"))
    w.write(0, f"Claim:\t{_s(claim.get('namespace'))}/{_s(claim.get('name'))}\n" if spec.get("claimRef") else "Claim:\t\n")
    w.write(0, f"Reclaim Policy:\t{_s(spec.get('persistentVolumeReclaimPolicy'))}\n")
    w.write(0, f"Access Modes:\t{access_modes(spec.get('accessModes'))}\n")
    if spec.get("volumeMode"):
        w.write(0, f"VolumeMode:\t{spec['volumeMode']}\n")
    w.write(0, f"Capacity:\t{_storage(spec.get('capacity'))}\n")
    _volume_node_affinity(w, spec.get("nodeAffinity"))
    w.write(0, f"Message:\t{_s(status.get('message'))}\n")
    w.write(0, "Source:\n")
    kind = next((k for k in _PV_SOURCES if isinstance(spec.get(k), dict)), None)
    if kind is None:
        w.write(1, "<unknown>\n")
    else:
        _write_source(w, _PV_SOURCES[kind](_d(spec[kind])))
        if kind == "csi":
            _csi_attributes(w, _d(spec["csi"]).get("volumeAttributes"))
    describe_events(w, search_events(store, body), store.clock)
    return w.text()


def describe_persistent_volume_claim(store: DumpStore, body: Body) -> str:
    """kubectl's PersistentVolumeClaim layout: class, phase, volume, what is bound, the pods
    that use it, its conditions."""
    meta, spec, status = _d(body.get("metadata")), _d(body.get("spec")), _d(body.get("status"))
    w = Writer()
    w.write(0, f"Name:\t{meta.get('name', '')}\n")
    w.write(0, f"Namespace:\t{meta.get('namespace', '')}\n")
    w.write(0, f"StorageClass:\t{_s(spec.get('storageClassName'))}\n")
    w.write(0, f"Status:\t{_deleting_or_phase(meta, status, store.clock)}\n")
    w.write(0, f"Volume:\t{_s(spec.get('volumeName'))}\n")
    labels_multiline(w, "Labels", meta.get("labels"))
    annotations_multiline(w, "Annotations", meta.get("annotations"))
    w.write(0, f"Finalizers:\t{_go_list(meta.get('finalizers'))}\n")
    bound = bool(spec.get("volumeName"))
    w.write(0, f"Capacity:\t{_storage(status.get('capacity')) if bound else ''}\n")
    w.write(0, f"Access Modes:\t{access_modes(status.get('accessModes')) if bound else ''}\n")
    if spec.get("volumeMode"):
        w.write(0, f"VolumeMode:\t{spec['volumeMode']}\n")
    if isinstance(spec.get("dataSource"), dict):
        source = spec["dataSource"]
        w.write(0, "DataSource:\n")
        if source.get("apiGroup") is not None:
            w.write(1, f"APIGroup:\t{_s(source['apiGroup'])}\n")
        w.write(1, f"Kind:\t{_s(source.get('kind'))}\n")
        w.write(1, f"Name:\t{_s(source.get('name'))}\n")
    # (a pasted describe's `Used By` where the dump holds no pods to find them in)
    _used_by(w, _claim_users(store, meta) or [_s(p) for p in _l(_d(body.get(PASTED)).get("used_by"))])
    if conditions := _l(status.get("conditions")):
        w.write(0, "Conditions:\n")
        w.write(1, "Type\tStatus\tLastProbeTime\tLastTransitionTime\tReason\tMessage\n")
        w.write(1, "----\t------\t-----------------\t------------------\t------\t-------\n")
        for c in (_d(c) for c in conditions):
            w.write(1, f"{_s(c.get('type'))} \t{_s(c.get('status'))} \t{_rfc1123z(c.get('lastProbeTime'))} \t"
                       f"{_rfc1123z(c.get('lastTransitionTime'))} \t{_s(c.get('reason'))} \t{_s(c.get('message'))}\n")
    describe_events(w, search_events(store, body), store.clock)
    return w.text()


def _claim_users(store: DumpStore, meta: dict[str, Any]) -> list[str]:
    """The pods of the claim's namespace whose volumes name it, as kubectl's describe finds them
    (then those owning it, an ephemeral volume's pod); none where the dump holds no pods."""
    pods_res, collected = _related(store, "", "Pod")
    if pods_res is None or not collected:
        return []
    pods = store.bodies(pods_res, store.select(pods_res, meta.get("namespace") or ""))
    name = meta.get("name")
    users = [_d(p.get("metadata")).get("name", "") for p in pods
             for v in _l(_d(p.get("spec")).get("volumes")) if _d(_d(v).get("persistentVolumeClaim")).get("claimName") == name]
    for owner in _l(meta.get("ownerReferences")):
        owner = _d(owner)
        if owner.get("kind") == "Pod" and (uid := owner.get("uid")):
            users += [_d(p.get("metadata")).get("name", "") for p in pods
                      if _d(p.get("metadata")).get("uid") == uid and _d(p.get("metadata")).get("name") not in users]
    return users


def _rfc1123z(value: Any) -> str:
    """A condition's time as Go's RFC1123Z prints it (the zero time where it is unset)."""
    return describe_time(value) if value else "Mon, 01 Jan 0001 00:00:00 +0000"


def _used_by(w: Writer, pods: list[str]) -> None:
    """kubectl's `Used By:` of a claim: its pods' names, one a line, or <none>."""
    w.write(0, "Used By:\t")
    if not pods:
        w.line("<none>")
        return
    for i, name in enumerate(pods):
        if i:
            w.write(0, "\t")
        w.write(0, f"{name}\n")


DESCRIBERS: dict[tuple[str, str], Callable[[DumpStore, Body], str]] = {
    ("", "Node"): describe_node,
    ("", "Pod"): describe_pod,
    ("apps", "Deployment"): describe_deployment,
    ("", "Service"): describe_service,
    ("", "ConfigMap"): describe_configmap,
    ("", "Namespace"): describe_namespace,
    ("", "ResourceQuota"): describe_resource_quota,
    ("rbac.authorization.k8s.io", "RoleBinding"): describe_role_binding,
    ("rbac.authorization.k8s.io", "ClusterRoleBinding"): describe_role_binding,
    ("apps", "ReplicaSet"): describe_replicaset,
    ("apps", "DaemonSet"): describe_daemonset,
    ("apps", "StatefulSet"): describe_statefulset,
    ("autoscaling", "HorizontalPodAutoscaler"): describe_hpa,
    ("", "PersistentVolume"): describe_persistent_volume,
    ("", "PersistentVolumeClaim"): describe_persistent_volume_claim,
}


def describe(store: DumpStore, res: Resource, body: Body) -> str:
    """The describe text of one object (its kind's layout, else the generic one)."""
    fn = DESCRIBERS.get((res.group, res.kind), describe_generic)
    try:
        return fn(store, body)
    except NotCollected:
        return describe_generic(store, body)
