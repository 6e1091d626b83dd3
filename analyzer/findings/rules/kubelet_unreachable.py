"""The API server's answer, quoted by a paste, that it could not reach a node's kubelet.

`kubectl logs`, `exec`, `attach` and `port-forward` go through the API server to the kubelet's
port 10250 (on AKS, GKE and OKE through the provider's tunnel), so they fail for the pods of that
node while it lasts: `Error from server: Get https://10.0.10.10:10250/containerLogs/...: EOF`.
No object carries it; a later log the same paste got through says it was passing.
"""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.components import distribution_name, spoken_name, tunnel_names
from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import holds_a_paste
from analyzer.findings.types import Evidence, Finding, RuleMeta
from analyzer.ingest.refusals import KubeletUnreachable, masked_address

RULE = RuleMeta(
    id="kubelet-unreachable", title="API server could not reach a kubelet", severity="warning",
    category="cluster",
    message="The API server could not reach the kubelet at {host} ({times} quoted, first at {where}): {reason}; "
            "`kubectl logs`, `exec` and `port-forward` to the pods of that node fail while it does{through}",
    remediation="Check the path from the control plane to the nodes' port 10250: on AKS the konnectivity-agent "
    "(or tunnelfront) pods in kube-system, on OKE the proxymux-client DaemonSet, on GKE the konnectivity agent; "
    "on EKS and self-managed clusters the security group or firewall between the control plane and the nodes; "
    "and on the node itself, the kubelet running with a valid serving certificate.",
)
MASKED = "<masked>"  # the key of the failures whose node's address the paste masked


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    failures = list(getattr(cluster.ingest, "kubelet_unreachable", None) or ())
    if not failures:
        if not holds_a_paste(cluster):
            yield RULE.not_applicable("the dump holds no pasted session to quote the API server's answers")
        return
    # Masked addresses (`10.xxx.xxx.xxx`, `<node name>`) cannot be told apart: one node as far
    # as the paste shows.
    by_host: dict[str, list[KubeletUnreachable]] = {}
    for failure in failures:
        by_host.setdefault(MASKED if masked_address(failure.host) else failure.host, []).append(failure)
    nodes = _nodes_by_address(cluster)
    tunnels = tunnel_names(cluster)
    through = ""
    if tunnels:
        through = (f"; on {spoken_name(distribution_name(cluster) or '')} the API server reaches the nodes through "
                   f"{' or '.join(tunnels)}")
    for host, quoted in by_host.items():
        first = quoted[0]
        evidence = Evidence("Error from server (kubectl, through the API server)", first.reason,
                            "the kubelet answering on port 10250", source=first.source, line=first.line)
        node = nodes.get(host)
        said = host or "a node"
        if host == MASKED:
            shown = ", ".join(dict.fromkeys(f.host for f in quoted))
            said = f"a node whose address the paste masked ({shown})"
        finding = RULE.fail(None, evidence, kind="Node" if node else "", namespace="",
                            name=node or (host if host and host != MASKED else "kubelet"), host=said,
                            reason=first.reason,
                            where=f"line {first.line}", times=len(quoted), through=through)
        later = _later_log(cluster, quoted[-1])
        yield finding.as_info(resolved=later) if later else finding


def _nodes_by_address(cluster: AnalyzedDump) -> dict[str, str]:
    """Node name by each of its addresses (and its own name)."""
    out: dict[str, str] = {}
    for node in cluster.objects_of("Node"):
        out[node.name] = node.name
        for address in node.view.status.addresses or ():
            if address.address:
                out.setdefault(address.address, node.name)
    return out


def _later_log(cluster: AnalyzedDump, last: KubeletUnreachable) -> str:
    """Why the failure is history: a `kubectl logs` the same paste got a log from after it."""
    later = [log.line for log in cluster.logs if log.source == last.source and log.line > last.line]
    return f"a later `kubectl logs` in the paste returned a log (line {min(later)})" if later else ""
