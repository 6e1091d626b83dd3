"""Pods whose eviction a PodDisruptionBudget refused, as a pasted `kubectl drain` quotes it
(`Cannot evict pod as it would violate the pod's disruption budget.`): the drain of their node
cannot finish while the budget allows no disruption, whatever the dump holds of the budget."""

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
    by_pod: dict[tuple[str, str], list] = {}
    for refusal in refusals:
        by_pod.setdefault((refusal.namespace, refusal.pod), []).append(refusal)
    for (namespace, pod), quoted in by_pod.items():
        first = quoted[0]
        evidence = Evidence("error when evicting pod", f"{pod}: {first.reason}", "the eviction allowed",
                            source=first.source, line=first.line)
        yield RULE.fail(None, evidence, kind="Pod", namespace=namespace, name=pod, times=len(quoted),
                        pod=quoted_pod(namespace, pod),
                        where=f"line {first.line}", budget=_budget(cluster, namespace, first.budget),
                        node=_node(quoted))


def _node(quoted: list) -> str:
    """The node as the message names it: the one node the quoted drains say they work on
    (`kubectl drain NODE`, `node/NODE cordoned`), else "its node"."""
    nodes = {getattr(refusal, "node", "") for refusal in quoted}
    return f"node {nodes.pop()}" if len(nodes) == 1 and "" not in nodes else "its node"


def _budget(cluster: AnalyzedDump, namespace: str, named: str) -> str:
    """The budget as the message names it: kubectl's own word for it, else the one budget of the
    pod's namespace the dump shows allowing no disruption, else nothing."""
    if named:
        return f" {namespace}/{named}" if namespace else f" {named}"
    blocking = [pdb.name for pdb in cluster.objects_of("PodDisruptionBudget")
                if namespace and pdb.namespace == namespace and (pdb.view.status or {}).get("disruptionsAllowed") == 0]
    return f" {namespace}/{blocking[0]} (the dump shows it allowing 0 disruptions)" if len(blocking) == 1 else ""
