"""Nodes the cloud controller manager never initialized: the kubelet, started with an external
cloud provider, taints its node `node.cloudprovider.kubernetes.io/uninitialized` until the cloud
controller manager sets its provider ID, addresses and zone and lifts the taint (seconds)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import age_at_capture, age_text, ev
from analyzer.findings.types import Finding, RuleMeta
from analyzer.kube.time import parse_time

RULE = RuleMeta(
    id="node-uninitialized", title="Node not initialized by the cloud controller manager", severity="warning",
    category="nodes", requires=("Node",),
    message="Node {name} still carries {taint} {age} after it registered: the cloud controller manager has not initialized it, so only pods that tolerate the taint run there",
    remediation="Check the cloud controller manager (its pods, credentials and logs): it sets the node's provider ID, addresses and zone, then removes the taint.",
)
TAINT = "node.cloudprovider.kubernetes.io/uninitialized"
# The cloud controller manager lifts the taint within seconds of registration; minutes mean it is not doing so.
STUCK = timedelta(minutes=5)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    for node in cluster.objects_of("Node"):
        taint = next((t for t in node.view.spec.taints or () if t.key == TAINT), None)
        if taint is None:
            continue
        age = age_at_capture(cluster, parse_time(node.view.metadata.creationTimestamp), node)
        if age is not None and age <= STUCK:
            continue
        yield RULE.fail(node, ev(node, "spec.taints", f"{TAINT}:{taint.effect}", "no such taint"),
                        taint=f"{TAINT}:{taint.effect}",
                        age=age_text(age) if age is not None else "an unknown time")
