"""Live pods holding one pod IP: two IPAMs handing out one range (a second CNI installed over the
provider's, calico over OKE's flannel), or an IPAM whose state was lost, give an address twice;
traffic for one pod reaches the other, and a pod that cannot reach what it needs crash-loops.
Pods on the host's network share its address by design: a pod whose spec says hostNetwork, whose
IP is its host's (status.hostIP, a Node's name or address), or, where the dump does not say
(a pasted table), beside a DaemonSet's or static pod at that IP (kube-proxy, the CNI's agent
run on the host's network) is left out, as are pods that ended or are being deleted, and copies
of one pod (one uid) and pods the dump does not show alive at once (the newer made after the
older was last seen alive)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from datetime import datetime
from itertools import combinations

import pandas as pd

from analyzer.distributions.workloads import guess_from_pod_name
from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import ev
from analyzer.findings.types import Finding, RuleMeta
from analyzer.ingest.records import KubeObject
from analyzer.kube.time import parse_time
from analyzer.model.normalize import as_dict, as_list

RULE = RuleMeta(
    id="pod-ip-shared", title="Live pods holding one pod IP", severity="warning",
    category="networking", requires=("Pod",), tables=("pods",), needs_host=True,
    message="Pod {namespace}/{name} holds pod IP {ip} on node {node}, as does {others}: "
            "the pod network gave one address twice",
    remediation="Find which pod network handed the address out twice: a second CNI installed over the "
                "cluster's (its DaemonSet, /etc/cni/net.d on the nodes) or an IPAM that lost its state; "
                "remove the extra one, then delete the pods so they get addresses again.",
)
# What a table's STATUS says of a pod that ended or is going away (its IP may be reused).
_ENDED = frozenset({"Completed", "Succeeded", "Failed", "Evicted", "Terminating", "ContainerStatusUnknown",
                    "Shutdown", "NodeShutdown", "Terminated", "NodeAffinity", "OutOfcpu", "OutOfmemory"})
# A container's last end shown as the pod's STATUS: ended, unless it restarts (a crash loop).
_LAST_END = frozenset({"Error", "OOMKilled"})
_ON_HOST = frozenset({"DaemonSet", "StaticPod"})


def _live(row) -> bool:
    status = "" if pd.isna(row.status) else str(row.status)
    if str(row.phase) in ("Succeeded", "Failed") or status in _ENDED or row.deleting is True:
        return False
    return not (status in _LAST_END and not (pd.notna(row.restarts) and int(row.restarts) > 0))


def _host_addresses(cluster: AnalyzedDump) -> set[str]:
    """Node names and addresses: an IP-named node (OKE, EKS's) is its pods' host IP."""
    out: set[str] = set()
    for node in cluster.objects_of("Node"):
        out.add(node.name)
        out.update(a.address for a in node.view.status.addresses or () if a.address)
    return out


def _on_host_kind(row) -> bool:
    kind = None if pd.isna(row.workload_kind) else str(row.workload_kind)
    if kind is None:
        kind = guess_from_pod_name(str(row.name), None if pd.isna(row.node) else str(row.node))[0]
    return kind in _ON_HOST or row.static is True


def _times(pod: KubeObject | None) -> tuple[datetime | None, datetime | None]:
    """(created, last seen alive): its creation and the latest time its status records (a
    condition's change, a container's start or end); None where the dump does not say."""
    if pod is None:
        return None, None
    body = pod.body()
    status = as_dict(body.get("status"))
    stamps = [as_dict(c).get("lastTransitionTime") for c in as_list(status.get("conditions"))]
    for key in ("containerStatuses", "initContainerStatuses"):
        for cs in as_list(status.get(key)):
            for state in (as_dict(as_dict(cs).get("state")), as_dict(as_dict(cs).get("lastState"))):
                for detail in state.values():
                    stamps += [as_dict(detail).get("startedAt"), as_dict(detail).get("finishedAt")]
    seen = [t for s in stamps if s and (t := parse_time(str(s))) is not None]
    return parse_time(str(as_dict(body.get("metadata")).get("creationTimestamp") or "")), max(seen, default=None)


def _together(a: KubeObject | None, b: KubeObject | None) -> bool:
    """Whether the dump shows two pods alive at once: the newer created before the older was
    last seen alive, or (a pasted table) no times to tell otherwise. Pods of fixtures taken at
    different moments (troubleshoot's: each one's namespace made, the address reused after the
    last was deleted) were not."""
    (made_a, seen_a), (made_b, seen_b) = _times(a), _times(b)
    if made_a is None or made_b is None:
        return True
    older_seen, newer_made = (seen_a, made_b) if made_a <= made_b else (seen_b, made_a)
    return older_seen is None or newer_made <= older_seen


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    pods = cluster.tables["pods"]
    if not len(pods):
        return
    # (only the rows of an address two rows off the host's network show: on most dumps none,
    # and a large dump's 20,000 rows and 5,000 nodes need not be walked one by one)
    ips = pods["pod_ip"].astype("string").str.strip()
    off_host = (ips.notna() & pods["host_network"].ne(True).fillna(True)
                & ips.ne(pods["host_ip"].astype("string")).fillna(True)).astype(bool)
    pods = pods[off_host & ips.where(off_host).duplicated(keep=False)]
    if not len(pods):
        return
    hosts = _host_addresses(cluster)
    by_ip: dict[str, list] = defaultdict(list)
    for row in pods.itertuples(index=False):
        ip = None if pd.isna(row.pod_ip) else str(row.pod_ip).strip()
        if not ip or ip in ("<none>", "<pending>") or row.host_network is True or not _live(row):
            continue
        node = None if pd.isna(row.node) else str(row.node)
        if ip in hosts or ip == node or (pd.notna(row.host_ip) and ip == str(row.host_ip)):
            continue
        by_ip[ip].append(row)
    objects = {(o.namespace, o.name): o for o in cluster.objects_of("Pod")}
    for ip, rows in sorted(by_ip.items()):
        # (one pod's copies, its uid under other names, as a tool's test data makes them, are
        # one pod: troubleshoot's analyzer files)
        if len({str(r.uid) if pd.notna(r.uid) and r.uid else (r.namespace, r.name) for r in rows}) < 2:
            continue
        pods = [objects.get((str(r.namespace), str(r.name))) for r in rows]
        if not any(_together(a, b) for a, b in combinations(pods, 2)):
            continue
        # where the dump does not say which pods run on the host's network: a host's own
        # DaemonSet or static pod at this IP says the IP is the host's
        if any(pd.isna(r.host_network) for r in rows) and any(_on_host_kind(r) for r in rows):
            continue
        names = sorted(f"{r.namespace}/{r.name}" if r.namespace else str(r.name) for r in rows)
        for row in rows:
            pod = objects.get((str(row.namespace), str(row.name)))
            if pod is None:
                continue
            me = f"{row.namespace}/{row.name}" if row.namespace else str(row.name)
            others = [n for n in names if n != me]
            node = "?" if pd.isna(row.node) else str(row.node)
            yield RULE.fail(pod, ev(pod, "status.podIP", ip, "an address no other live pod holds"),
                            ip=ip, node=node, others=", ".join(f"Pod {n}" for n in others),
                            sharing=names)
