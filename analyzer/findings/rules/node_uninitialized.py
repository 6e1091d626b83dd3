"""Nodes a controller never finished setting up: the taint a node registers with (the cloud
controller manager's `node.cloudprovider.kubernetes.io/uninitialized`, Karpenter's, a CNI's or
CSI driver's start-up taint; data/startup_taints.yaml) is lifted within seconds to a minute or
two by the controller it waits on, so one still there minutes later names what is stuck."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from functools import cache

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import age_text, capture_is_lower_bound, ev, lasted_text, object_age
from analyzer.findings.types import Finding, RuleMeta
from analyzer.findings.versions import DATA
from analyzer.safeyaml import load_yaml

RULE = RuleMeta(
    id="node-uninitialized", title="Node still carries a start-up taint", severity="warning",
    category="nodes", requires=("Node",),
    message="Node {name} still carries {taint} {lasted} after it registered: {by} lifts it once {when}, and has not, so only pods that tolerate the taint run there",
    remediation="Check the controller that lifts the taint (its pods, credentials and logs): the cloud controller manager, Karpenter, the CNI or CSI driver the taint names.",
)
# The controllers lift their taints within seconds of registration; minutes mean one is not doing so.
STUCK = timedelta(minutes=5)


@cache
def startup_taints() -> dict[str, dict[str, str]]:
    """Taint key -> who lifts it (`by`) and what it waits for (`when`), from the data file."""
    return {str(k): {"by": str(v["by"]), "when": str(v["when"])} for k, v in load_yaml(
        (DATA / "startup_taints.yaml").read_text(encoding="utf-8")).items()}


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    known = startup_taints()
    for node in cluster.objects_of("Node"):
        taint = next((t for t in node.view.spec.taints or () if t.key in known), None)
        if taint is None:
            continue
        age = object_age(cluster, node)  # a pasted row's AGE, else from its creation
        # under a capture that is a lower bound its age is "at least": said as info, not skipped
        young = age is not None and age <= STUCK
        if young and not capture_is_lower_bound(cluster):
            continue
        shown = f"{taint.key}:{taint.effect}"
        finding = RULE.fail(node, ev(node, "spec.taints", shown, "no such taint"), taint=shown,
                            age=age_text(age) if age is not None else "an unknown time",
                            lasted=lasted_text(cluster, age) if age is not None else "an unknown time", **known[taint.key])
        yield finding.as_info() if young else finding
