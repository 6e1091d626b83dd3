"""Pods a node's kubelet refused at admission (NodeAffinity, OutOfcpu, ...) or stopped as the node
shut down, left behind as Failed (the reasons: data/kubelet_refusals.yaml). After a node restart a
Deployment's pod refused with NodeAffinity is replaced: history, info; one nobody replaced is a
warning."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import ev, text_status
from analyzer.findings.leftovers import replaced_by, stopped_when
from analyzer.findings.suspects import pod_suspects
from analyzer.findings.types import Finding, RuleMeta
from analyzer.findings.versions import DATA
from analyzer.safeyaml import load_yaml

RULE = RuleMeta(
    id="pod-refused-by-node", title="Pod refused or stopped by its node", severity="warning",
    category="workloads", requires=("Pod",),
    message="Pod {namespace}/{name} was {what} {node} {when}: {reason}, {meaning}",
    remediation="A replaced pod is a leftover: delete it. Otherwise act on the reason: the node's labels "
                "(NodeAffinity), its free resources (OutOf...), its device plugins, or why it shut down.",
)


@cache
def _reasons() -> dict[str, tuple[str, str]]:
    """Reason (a prefix where it ends in `*`) -> (what the kubelet did, what the reason means)."""
    raw = load_yaml((DATA / "kubelet_refusals.yaml").read_text(encoding="utf-8"))
    return {str(reason): ("refused by" if group == "refused" else "stopped by", str(meaning))
            for group in ("refused", "stopped") for reason, meaning in (raw.get(group) or {}).items()}


def kubelet_reason(reason: str | None) -> tuple[str, str] | None:
    """("refused by" or "stopped by", what it means) of a reason the kubelet gives a pod it
    refused or stopped for good; None for any other.

    >>> kubelet_reason("OutOfcpu")[0], kubelet_reason("NodeShutdown")[0], kubelet_reason("Evicted")
    ('refused by', 'stopped by', None)
    """
    if not reason:
        return None
    for known, said in _reasons().items():
        if reason == known or (known.endswith("*") and reason.startswith(known[:-1]) and reason != known[:-1]):
            return said
    return None


# The reason the kubelet gives a container it could not locate as it stopped the pod.
LOST_CONTAINER = "ContainerStatusUnknown"


def _unlocated_container(pod) -> str | None:
    """The name of a container of a Failed pod that ended ContainerStatusUnknown, if any."""
    status = pod.view.status
    for cs in (*(status.initContainerStatuses or ()), *(status.containerStatuses or ())):
        terminated = cs.state.terminated if cs.state is not None else None
        if terminated is not None and terminated.reason == LOST_CONTAINER:
            return str(cs.name)
    return None


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    for pod in pod_suspects(cluster).of("reason", "text", "exited"):
        status = pod.view.status
        if status.reason is not None:
            if status.phase not in (None, "Failed"):
                continue  # (a reason on a pod that runs is not one of these)
            reason, evidence = status.reason, ev(pod, "status.reason", status.reason, "admitted and running")
        elif status.phase == "Failed" and (lost := _unlocated_container(pod)) is not None:
            reason, evidence = LOST_CONTAINER, ev(pod, f"status.containerStatuses[name={lost}].state.terminated.reason",
                                                  LOST_CONTAINER, "Completed or an exit of its own")
        elif (shown := text_status(pod)) is not None:
            reason, evidence = shown.removeprefix("Init:"), ev(pod, "STATUS column", shown, "Running")
        else:
            continue
        said = kubelet_reason(reason)
        if said is None:
            continue
        what, meaning = said
        node = pod.view.spec.nodeName
        finding = RULE.fail(pod, evidence, what=what, node=f"node {node}'s kubelet" if node else "its node's kubelet",
                            when=stopped_when(cluster, pod), reason=reason,
                            meaning=f"{meaning}: {status.message}" if status.message else meaning)
        replaced = replaced_by(cluster, pod, "refused" if what == "refused by" else "stopped")
        yield finding.as_info(resolved=replaced) if replaced else finding
