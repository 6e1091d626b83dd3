"""Archive layouts as data: where a support bundle, must-gather or cluster-info tree keeps what.

A file's path tells which resource and namespace it holds; items that do not say their own
kind (raw API lists, insights archives, old kubectl) take it from here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from analyzer.safeyaml import load_yaml


@dataclass(frozen=True, slots=True)
class PathHint:
    """What a file's path says about its content."""

    format: str
    kind: str | None = None
    namespace: str | None = None
    name: str | None = None
    # the path keeps cluster-scoped objects apart (must-gather's cluster-scoped-resources/):
    # an object there whose kind kda does not know the scope of states no namespace, rightly
    cluster_scoped: bool = False
    # the apiVersion of objects the layout keeps without one (an insights archive's
    # config/infrastructure.json is config.openshift.io/v1)
    api_version: str | None = None


@dataclass(frozen=True, slots=True)
class LogHint:
    format: str
    namespace: str | None
    pod: str
    container: str | None
    previous: bool
    timestamps: bool = False  # saved as `kubectl logs --timestamps` prints it (each line after its time)


@cache
def _layouts() -> dict:
    text = resources.files("analyzer.ingest").joinpath("layouts.yaml").read_text("utf-8")
    data = load_yaml(text)
    data["objects"] = [(r, re.compile(r["pattern"])) for r in data["objects"]]
    data["logs"] = [(r, re.compile(r["pattern"])) for r in data["logs"]]
    data["capture_date_files"] = [re.compile(p) for p in data.get("capture_date_files", ())]
    data["capture_stamped_names"] = [re.compile(p) for p in data.get("capture_stamped_names", ())]
    data["command_outputs"] = [(r, re.compile(r["pattern"])) for r in data.get("command_outputs", ())]
    data["joined_logs"] = [(r, re.compile(r["pattern"])) for r in data.get("joined_logs", ())]
    data["node_logs"] = [(r, re.compile(r["pattern"])) for r in data.get("node_logs", ())]
    data["node_journals"] = [re.compile(p) for p in data.get("node_journals", ())]
    data["component_logs"] = [(r, re.compile(r["pattern"])) for r in data.get("component_logs", ())]
    data["not_objects"] = [
        (re.compile(p["pattern"]), p["reason"], bool(p.get("certain"))) if isinstance(p, dict)
        else (re.compile(p), BUNDLE_METADATA, False)
        for p in data["not_objects"]
    ]
    return data


BUNDLE_METADATA = "bundle metadata, not Kubernetes objects"


def kind_for_resource(resource: str) -> str | None:
    """Kind named by a resource path segment: "replication-controllers" -> "ReplicationController".

    >>> kind_for_resource("pods"), kind_for_resource("storage-classes"), kind_for_resource("x")
    ('Pod', 'StorageClass', None)
    """
    return _layouts()["resources"].get(resource.lower())


# An API path: /api/v1[/namespaces/NS]/RESOURCE[/NAME] or /apis/GROUP/VERSION[/namespaces/NS]/...
_SELF_LINK = re.compile(
    r"^/(?:api/(?P<core>v[0-9a-z]+)|apis/(?P<group>[^/]+)/(?P<version>[^/]+))"
    r"(?:/namespaces/(?P<ns>[^/]+))?/(?P<res>[^/]+)(?:/(?P<name>[^/]+))?/?$"
)


@dataclass(frozen=True, slots=True)
class SelfLink:
    """What an API path (`metadata.selfLink` of old dumps) says about an object or a list."""

    kind: str
    api_version: str
    namespace: str | None
    name: str | None


def parse_self_link(link: str | None) -> SelfLink | None:
    """Kind, apiVersion, namespace and name an API path names; None if it is not one we know.

    kubectl 1.9 dumps carry no kind at all, only these paths.

    >>> parse_self_link("/api/v1/namespaces/kube-system/pods/coredns-1")
    SelfLink(kind='Pod', api_version='v1', namespace='kube-system', name='coredns-1')
    >>> parse_self_link("/apis/extensions/v1beta1/namespaces/default/deployments").kind
    'Deployment'
    >>> parse_self_link("/api/v1/namespaces/kube-system").kind, parse_self_link("/x") is None
    ('Namespace', True)
    """
    if not link:
        return None
    m = _SELF_LINK.match(link)
    if not m:
        return None
    kind = kind_for_resource(m["res"])
    if kind is None:
        return None
    api_version = m["core"] or f"{m['group']}/{m['version']}"
    return SelfLink(kind, api_version, m["ns"], m["name"])


def object_hint(path: str) -> PathHint | None:
    """The layout a file's path belongs to, with kind/namespace/name when the path says them.

    >>> object_hint("bundle/cluster-resources/pods/kube-system.json")
    PathHint(format='support-bundle', kind='Pod', namespace='kube-system', name=None, cluster_scoped=False, api_version=None)
    >>> object_hint("dump/kube-system/daemonsets.json").kind
    'DaemonSet'
    """
    for row, rx in _layouts()["objects"]:
        m = rx.search(path)
        if not m:
            continue
        g = m.groupdict()
        kind = row.get("kind") or (kind_for_resource(g["res"]) if g.get("res") else None)
        return PathHint(row["format"], kind, g.get("ns"), g.get("name"), row.get("scope") == "cluster",
                        row.get("api_version"))
    return None


def log_hint(path: str) -> LogHint | None:
    """Pod and container a log file's path names, or None if the path is not a known log.

    >>> log_hint("cluster-resources/pods/logs/velero/velero-6996/velero-previous.log")
    LogHint(format='support-bundle', namespace='velero', pod='velero-6996', container='velero', previous=True, timestamps=False)
    """
    for row, rx in _layouts()["logs"]:
        m = rx.search(path)
        if m:
            g = m.groupdict()
            previous = bool(g.get("previous")) or g.get("which") == "previous"
            return LogHint(row["format"], g.get("ns"), g["pod"], g.get("container"), previous,
                           bool(row.get("timestamps")))
    return None


@dataclass(frozen=True, slots=True)
class JoinedLogHint:
    """A log file named `<namespace>-<pod>`: which dash splits the two is for the dump's pods."""

    format: str
    joined: str
    previous: bool


def joined_log_hint(path: str) -> JoinedLogHint | None:
    """The `<namespace>-<pod>` name of a log file of such a layout, or None.

    >>> joined_log_hint("host-2025-12-04_09_15_57/rke2/podlogs/kube-system-etcd-cp-1-previous")
    JoinedLogHint(format='rancher-logs-collector', joined='kube-system-etcd-cp-1', previous=True)
    >>> joined_log_hint("rke2/kubectl/pods") is None
    True
    """
    for row, rx in _layouts()["joined_logs"]:
        m = rx.search(path)
        if m:
            return JoinedLogHint(row["format"], m["joined"], bool(m["previous"]))
    return None


def split_joined(joined: str, previous: bool, pods: set[tuple[str, str]]) -> tuple[str, str, bool] | None:
    """(namespace, pod, previous) of a `<namespace>-<pod>[-previous]` name among the dump's pods;
    a pod whose own name ends in -previous is tried whole too. None when no pod, or several, fit.

    >>> pods = {("cattle-monitoring-system", "grafana-5f7f"), ("kube-system", "etcd-cp-1")}
    >>> split_joined("cattle-monitoring-system-grafana-5f7f", False, pods)
    ('cattle-monitoring-system', 'grafana-5f7f', False)
    >>> split_joined("kube-system-etcd-cp-1", True, pods), split_joined("default-x", False, pods)
    (('kube-system', 'etcd-cp-1', True), None)
    """
    tries = [(joined, previous)] + ([(f"{joined}-previous", False)] if previous else [])
    found = {(ns, name, prev) for whole, prev in tries for ns, name in pods if whole == f"{ns}-{name}"}
    return next(iter(found)) if len(found) == 1 else None


@dataclass(frozen=True, slots=True)
class NodeLogHint:
    """A log file of a node's kubelet folders: one run of a container, named by its pod's uid
    and the run's restart number (pods/) or by the run's container id (containers/); its pod's
    namespace and name are "" where the folder names the uid alone (before Kubernetes 1.14)."""

    format: str
    namespace: str
    pod: str
    container: str
    uid: str | None
    restart: int | None
    container_id: str | None
    # a rotated file of the run: when the kubelet rotated it (YYYYMMDD-hhmmss), gzipped or not,
    # or one it was still writing (.tmp)
    rotated: str | None = None
    compressed: bool = False
    unfinished: bool = False


def node_log_hint(path: str) -> NodeLogHint | None:
    """The pod, container and run a kubelet log file's path names, or None.

    >>> node_log_hint("logs/kind-worker/pods/default_db-0_9ec46322-8efb/postgresql/1.log")
    NodeLogHint(format='kubelet-logs', namespace='default', pod='db-0', container='postgresql', uid='9ec46322-8efb', restart=1, container_id=None, rotated=None, compressed=False, unfinished=False)
    >>> node_log_hint("n/pods/default_db-0_9ec46322-8efb/postgresql/1.log.20240101-120000.gz").rotated
    '20240101-120000'
    >>> node_log_hint("kind-worker/containers/db-0_default_postgresql-" + "ab" * 32 + ".log").container_id[:4]
    'abab'
    >>> old = node_log_hint("var/log/pods/19001bc8-234a-11e8-89bc-fa163e44a675/driver_0.log")
    >>> old.namespace, old.pod, old.container, old.uid, old.restart
    ('', '', 'driver', '19001bc8-234a-11e8-89bc-fa163e44a675', 0)
    >>> node_log_hint("logs/kube-system/coredns-1/coredns.log") is None
    True
    """
    for row, rx in _layouts()["node_logs"]:
        m = rx.search(path)
        if m:
            g = m.groupdict()
            restart = int(g["restart"]) if g.get("restart") else None
            return NodeLogHint(row["format"], g.get("ns") or "", g.get("pod") or "", g["container"], g.get("uid"),
                               restart, g.get("cid"),
                               g.get("rotated"), bool(g.get("gz")), bool(g.get("tmp")))
    return None


def command_output_kind(path: str) -> str | None:
    """The kind a file of one kubectl command's output is named after, or None.

    >>> command_output_kind("host-2025-12-04_09_15_57/rke2/kubectl/pvc"), command_output_kind("x/pvc")
    ('PersistentVolumeClaim', None)
    """
    for _row, rx in _layouts()["command_outputs"]:
        m = rx.search(path)
        if m:
            return kind_for_resource(m["res"])
    return None


def is_capture_date_file(path: str) -> bool:
    """Whether a collector's file holds `date` as it ran (the capture time).

    >>> is_capture_date_file("host-2025-12-04_09_15_57/systeminfo/date"), is_capture_date_file("x/date.yaml")
    (True, False)
    """
    return any(rx.search(path) for rx in _layouts()["capture_date_files"])


def stamped_capture_time(path: str) -> tuple[str, str] | None:
    """The UTC time a collector named its archive or folder by, as "YYYY-MM-DDThh:mm:00Z", and
    that name; None where the path holds none.

    >>> stamped_capture_time("/tmp/eks_i-0a1b2c3d4e5f60718_2022-11-09_0852-UTC_0.7.3.tar.gz!/var_log/messages")
    ('2022-11-09T08:52:00Z', 'eks_i-0a1b2c3d4e5f60718_2022-11-09_0852-UTC_0.7.3.tar.gz')
    >>> stamped_capture_time("logs/kind-worker/kubelet.log") is None
    True
    """
    for rx in _layouts()["capture_stamped_names"]:
        m = rx.search(path)
        if m:
            return f"{m['year']}-{m['month']}-{m['day']}T{m['hour']}:{m['minute']}:00Z", m["stamp"]
    return None


@dataclass(frozen=True, slots=True)
class ComponentLogHint:
    """A component's own log file on a node: the node's host name, the unit it stands for, and
    the year and month the collector ran (klog's lines print neither year nor zone)."""

    host: str  # "" where the path does not say it: the collector's own files beside it do
    unit: str
    year: int  # 0 where the path does not say it
    month: int
    root: str = ""  # the collector's folder, where its systeminfo/ is (when the path names no host)


def component_log_hint(path: str) -> ComponentLogHint | None:
    """The node and unit of a component's log file a collector copied, or None.

    >>> component_log_hint("n1-2025-12-04_09_15_57/rke2/agent-logs/kubelet.log")
    ComponentLogHint(host='n1', unit='kubelet', year=2025, month=12, root='')
    >>> component_log_hint("n1-2025-12-04_09_15_57/rke2/agent-logs/kubelet-2025-12-02T13-58-40.483.log.gz").unit
    'kubelet'
    >>> component_log_hint("n1-2025-12-04_09_15_57.tar.gz!/./rke2/agent-logs/kubelet.log").host
    'n1'
    >>> component_log_hint("n1-2025-12-04_09_15_57/rke2/agent-logs/containerd.log") is None
    True

    A renamed collector folder names no host: its systeminfo/hostname does (see `collector_root`).

    >>> component_log_hint("node3-bundle/rke2/agent-logs/kubelet.log")
    ComponentLogHint(host='', unit='kubelet', year=0, month=0, root='node3-bundle/')
    """
    for row, rx in _layouts()["component_logs"]:
        m = rx.search(path)
        if m:
            groups = m.groupdict()
            if groups.get("host"):
                return ComponentLogHint(m["host"], row["unit"], int(m["year"]), int(m["month"]))
            return ComponentLogHint("", row["unit"], 0, 0, collector_root(m["root"]))
    return None


_SYSTEMINFO_FILE = re.compile(r"^(?P<root>(?:.*/)?)systeminfo/(?P<name>hostname|date)$")


def collector_root(prefix: str) -> str:
    """A collector's folder as its files' paths show it, the same for all of them (an archive's
    members are shown `./rke2/...`: the `./` is no part of the folder).

    >>> collector_root("logs.tgz!/./"), collector_root("")
    ('logs.tgz!/', '')
    """
    return prefix[:-2] if prefix.endswith("./") and (len(prefix) == 2 or prefix[-3] in "/!") else prefix


def systeminfo_file(path: str) -> tuple[str, str] | None:
    """(the collector's folder, `hostname` or `date`) of rancher2_logs_collector's systeminfo
    file naming the node or the time it ran, or None.

    >>> systeminfo_file("node3-bundle/systeminfo/hostname"), systeminfo_file("a/date")
    (('node3-bundle/', 'hostname'), None)
    """
    m = _SYSTEMINFO_FILE.match(path)
    return (collector_root(m["root"]), m["name"]) if m else None


def holds_node_journal(path: str) -> bool:
    """Whether a collector's file at this path is a node's journal as journalctl prints it.

    >>> holds_node_journal("logs/kind-worker/kubelet.log"), holds_node_journal("n1/journald/rke2-agent")
    (True, True)
    >>> holds_node_journal("eks_i-0abc/kubelet/kubelet.log"), holds_node_journal("b/pods/x/y.log")
    (True, False)
    """
    return any(rx.search(path) for rx in _layouts()["node_journals"])


def is_not_objects(path: str) -> bool:
    """Whether a bundle file is known to hold something other than Kubernetes objects."""
    return not_objects_reason(path) is not None


def not_objects_reason(path: str) -> str | None:
    """What a bundle file known not to hold objects holds instead, or None.

    >>> not_objects_reason("b/secrets-errors/default/x.json")
    "a collector's errors (what the bundle could not collect), not objects"
    >>> not_objects_reason("b/version.yaml"), not_objects_reason("b/cluster-resources/pods/a.json")
    ('bundle metadata, not Kubernetes objects', None)
    """
    return next((reason for rx, reason, _certain in _layouts()["not_objects"] if rx.search(path)), None)


def path_decides_not_objects(path: str) -> bool:
    """Whether a file's place alone says it holds no objects of the cluster, whatever its text
    looks like (a sonobuoy e2e log quoting JSON).

    >>> path_decides_not_objects("r/plugins/e2e/results/global/e2e.log"), path_decides_not_objects("b/version.yaml")
    (True, False)
    """
    return next((certain for rx, _reason, certain in _layouts()["not_objects"] if rx.search(path)), False)
