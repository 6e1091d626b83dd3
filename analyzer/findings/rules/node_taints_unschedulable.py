"""Pending pods that no node's taints allow: every node carries a taint the pod does not tolerate."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import ev, knows_labels, knows_taints
from analyzer.findings.placement import BLOCKING, tolerates
from analyzer.findings.suspects import pod_suspects
from analyzer.findings.types import Finding, RuleMeta

if TYPE_CHECKING:
    from analyzer.ingest.records import KubeObject

RULE = RuleMeta(
    id="node-taints-unschedulable", title="Taints leave a pod nowhere to run", severity="critical",
    category="nodes", requires=("Node", "Pod"),
    message="Pod {namespace}/{name} is unscheduled and every eligible node has a taint it does not tolerate ({taints})",
    remediation="Add the matching toleration to the workload, remove the taint from some nodes, or add a node pool without it.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    nodes = [n for n in cluster.objects_of("Node") if not n.view.spec.unschedulable]
    if not nodes:
        return
    allowed: dict[tuple[tuple[Any, str], ...], list[KubeObject]] = {}
    for pod in pod_suspects(cluster).of("pending"):
        spec = pod.view.spec
        if pod.view.status.phase != "Pending" or spec.nodeName:
            continue
        selector = spec.nodeSelector or {}
        # Pending pods of one workload share a selector: the nodes it allows are found once
        # per selector (on a 5,000-node cluster each pass is long).
        wanted = tuple((k, str(v)) for k, v in selector.items())
        eligible = allowed.get(wanted)
        if eligible is None:
            # a node pasted without its labels may be one the selector allows
            eligible = allowed[wanted] = [n for n in nodes if not knows_labels(n) or all(
                str((n.view.metadata.labels or {}).get(k)) == v for k, v in wanted)]
        if not eligible:
            continue
        blocking = {}
        for node in eligible:
            if not knows_taints(node):
                break  # a node pasted as a table row may have no taint at all: nothing to say
            untolerated = [t for t in node.view.spec.taints or ()
                           if t.effect in BLOCKING and not tolerates(spec.tolerations or [], t)]
            if not untolerated:
                break
            blocking[node.name] = untolerated
        else:
            taints = sorted({f"{t.key}{'=' + t.value if t.value else ''}:{t.effect}"
                             for ts in blocking.values() for t in ts})
            evidence = [ev(node, "spec.taints", ", ".join(f"{t.key}:{t.effect}" for t in blocking[node.name]),
                           "a taint the pod tolerates") for node in eligible]
            yield RULE.fail(pod, ev(pod, "spec.tolerations", spec.tolerations or [], "tolerations for " + ", ".join(taints)),
                            *evidence, taints=", ".join(taints))
