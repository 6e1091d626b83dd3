"""Pods whose eviction a PodDisruptionBudget refused, as a pasted `kubectl drain` quotes it
(`Cannot evict pod as it would violate the pod's disruption budget.`), or AKS's failed upgrade
(`Drain node NODE failed when evicting pod POD ...`) or eksctl's drain of a nodegroup (`pod eviction
error (...) on node NODE`, the pod unnamed: said of the node): the drain of their node cannot finish while
the budget allows no disruption, whatever the dump holds of the budget."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import holds_a_paste, quoted_pod
from analyzer.findings.types import Evidence, Finding, RuleMeta

RULE = RuleMeta(
    id="eviction-refused", title="Eviction refused by a PodDisruptionBudget", severity="warning",
    category="workloads",
    message="Eviction of Pod {pod} refused by its disruption budget{budget} ({times} refusal(s) "
            "quoted, first at {where}): a drain of {node} cannot finish while the budget allows no disruption",
    remediation="Scale the pod's workload above its PodDisruptionBudget (or relax minAvailable/maxUnavailable) so "
    "one pod may go, then drain again; `kubectl drain --disable-eviction` deletes pods regardless of their budget.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    refusals = list(getattr(cluster.ingest, "eviction_refusals", None) or ())
    if not refusals:
        if not holds_a_paste(cluster):
            yield RULE.not_applicable("the dump holds no pasted session to quote a drain's refusals")
        return
    by_pod: dict[tuple[str, str, str], list] = {}
    for refusal in refusals:
        # a drain that names only the node (eksctl's) is said of that node
        key = (refusal.namespace, refusal.pod, "" if refusal.pod else refusal.node)
        by_pod.setdefault(key, []).append(refusal)
    for (namespace, pod, node), quoted in by_pod.items():
        first = quoted[0]
        said = _QUOTED_BY.get(getattr(first, "drainer", ""), "error when evicting pod")
        evidence = Evidence(said, f"{pod or 'a pod of node ' + node}: {first.reason}", "the eviction allowed",
                            source=first.source, line=first.line)
        subject = dict(kind="Pod", namespace=namespace, name=pod) if pod else dict(kind="Node", namespace="", name=node)
        yield RULE.fail(None, evidence, **subject, times=len(quoted),
                        pod=quoted_pod(namespace, pod) if pod else f"(a pod {first.drainer} does not name)",
                        where=f"line {first.line}", budget=_budget(cluster, namespace, first.budget),
                        node=_node(quoted))


# where a provider's drain quotes the refusal: its failed operation's words
_QUOTED_BY = {"AKS": "AKS: drain node failed when evicting pod", "eksctl": "eksctl: pod eviction error on node"}
# what a provider's drain is part of
_DRAIN_OF = {"AKS": "AKS's upgrade or maintenance drain", "eksctl": "eksctl's drain of its nodegroup"}


def _node(quoted: list) -> str:
    """The node as the message names it: the one node the quoted drains say they work on
    (`kubectl drain NODE`, `node/NODE cordoned`, AKS's `Drain node NODE failed`), with the
    provider whose drain it was, else "its node"."""
    nodes = {getattr(refusal, "node", "") for refusal in quoted}
    if len(nodes) != 1 or "" in nodes:
        return "its node"
    drainers = {getattr(refusal, "drainer", "") for refusal in quoted} - {"kubectl drain", ""}
    by = f" ({_DRAIN_OF[drainers.pop()]})" if len(drainers) == 1 else ""
    return f"node {nodes.pop()}{by}"


def _budget(cluster: AnalyzedDump, namespace: str, named: str) -> str:
    """The budget as the message names it: kubectl's own word for it, else the one budget of the
    pod's namespace the dump shows allowing no disruption, else nothing."""
    if named:
        return f" {namespace}/{named}" if namespace else f" {named}"
    blocking = [pdb.name for pdb in cluster.objects_of("PodDisruptionBudget")
                if namespace and pdb.namespace == namespace and (pdb.view.status or {}).get("disruptionsAllowed") == 0]
    return f" {namespace}/{blocking[0]} (the dump shows it allowing 0 disruptions)" if len(blocking) == 1 else ""
