"""Pods the kubelet evicted (node pressure), left behind as Failed."""

from __future__ import annotations

import re
from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import ev, text_status
from analyzer.findings.leftovers import replaced_by, stopped_when
from analyzer.findings.restarts import restarted_without_last_exit
from analyzer.findings.rules.pod_crashloop import EXIT_STATUSES
from analyzer.findings.suspects import pod_suspects
from analyzer.findings.types import Finding, RuleMeta
from analyzer.kube.names import DEPLOYMENT_POD

RULE = RuleMeta(
    id="pod-evicted", title="Pod evicted", severity="warning",
    category="workloads", requires=("Pod",),
    message="Pod {namespace}/{name} was evicted from {where} {when}: {detail}",
    remediation="Evictions follow node pressure (memory, disk, PIDs): set requests close to real usage and check the node's conditions; delete the leftover pods.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    for pod in pod_suspects(cluster).of("reason", "text"):
        status = pod.view.status
        if status.reason == "Evicted":
            finding = RULE.fail(pod, ev(pod, "status.reason", "Evicted", "not evicted"),
                                node=pod.view.spec.nodeName or "?", where=_where(pod), detail=status.message or "no message",
                                when=stopped_when(cluster, pod))
        elif status.reason is None and text_status(pod) == "Evicted":
            finding = RULE.fail(pod, ev(pod, "STATUS column", "Evicted", "Running"),
                                node=pod.view.spec.nodeName or "?", where=_where(pod), detail="from the STATUS column",
                                when=stopped_when(cluster, pod))
        elif status.reason is None and _stopped_deployment_row(pod):
            finding = RULE.fail(pod, ev(pod, "STATUS column", "Completed", "Running"),
                                node=pod.view.spec.nodeName or "?", where=_where(pod), when=stopped_when(cluster, pod),
                                detail="a Deployment's pod (by its name) that Completed without a restart, its IP "
                                       "gone: its node stopped it for good (an eviction whose containers' exit kubectl "
                                       "printed instead, kubernetes#105467, or a node shutdown)")
        elif status.reason is None and _ended_deployment_row(cluster, pod):
            shown = text_status(pod)
            finding = RULE.fail(pod, ev(pod, "STATUS column", f"{shown} after {pod.view.text.restarts} restarts", "Running"),
                                node=pod.view.spec.nodeName or "?", where=_where(pod), when=stopped_when(cluster, pod),
                                detail=f"a Deployment's pod (by its name) that exited with {shown} and is not "
                                       "restarted again: the table prints when other pods last restarted and "
                                       "nothing of it, so none of its containers waits to restart; its node "
                                       "stopped it for good (an eviction whose containers' exit kubectl printed "
                                       "instead, or a node shutdown)")
        else:
            continue
        replaced = replaced_by(cluster, pod, "evicted")
        yield finding.as_info(resolved=replaced) if replaced else finding


def _where(pod) -> str:
    node = pod.view.spec.nodeName
    return f"node {node}" if node else "its node (the dump does not name it)"


def _ended_deployment_row(cluster: AnalyzedDump, pod) -> bool:
    """A pasted row of a Deployment's pod that exited (Error, OOMKilled, ...) after restarts with
    no last exit to wait out (`restarted_without_last_exit`): a pod that restarts always is
    stopped for good only by its node."""
    text = pod.view.text
    return text is not None and text.status in EXIT_STATUSES and restarted_without_last_exit(cluster, pod) \
        and _deployment_pod(pod)


def _deployment_pod(pod) -> bool:
    """A Deployment's pod by its name: its pod-template-hash has a letter, where a CronJob's Job
    has the minute in digits."""
    named = DEPLOYMENT_POD.fullmatch(pod.name)
    return named is not None and re.search("[a-z]", named[2]) is not None


def _stopped_deployment_row(pod) -> bool:
    """A pasted `-o wide` row of a Deployment's pod that Completed with no restart and no IP
    left, on a node: a pod that restarts always does not complete, unless its node stopped it
    (cilium-cli#2594, GKE: a test pod evicted, `0/2 Completed 0 ... <none>`). A row without the
    IP column may be a container between two runs, and is not judged."""
    text = pod.view.text
    if text is None or text.status != "Completed" or (text.restarts or 0) != 0 or not pod.view.spec.nodeName:
        return False
    if (text.columns or {}).get("IP") != "<none>":
        return False
    return _deployment_pod(pod)
