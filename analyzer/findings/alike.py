"""One hygiene finding per pod template, not per replica: the pods of one controller carry the
spec its template gave them, so "container web has no memory limit" is one fact about
ReplicaSet web-7d9c, said once for its 30 pods, not 30 times (a DaemonSet on 5,000 nodes gave
5,000 identical rows). The first pod by name stands for the others, which it names."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from analyzer.findings.facts import objects_named
from analyzer.findings.managed import HYGIENE_CATEGORIES
from analyzer.findings.types import Finding
from analyzer.memo import once_per

if TYPE_CHECKING:
    from analyzer.findings.dump import AnalyzedDump
    from analyzer.ingest.records import KubeObject


def fold_replicas(findings: Sequence[Finding], cluster: AnalyzedDump) -> list[Finding]:
    """One rule's findings with those on pods of one controller that say the same (same
    severity, facts and evidence but for where each pod's evidence is) folded into the first
    pod's, which lists the others in `alike`. Problems (a crash, a pull error) stay one per
    pod: each pod's state is its own."""
    groups: dict[tuple, list[int]] = {}
    pods = objects_named(cluster, "Pod")
    controllers = _controllers(cluster)
    for i, f in enumerate(findings):
        if f.status != "fail" or f.kind != "Pod" or f.category not in HYGIENE_CATEGORIES:
            continue
        pod = pods.get((f.namespace, f.name))
        if pod is None:
            continue
        controller = controllers.get(id(pod), "")
        if controller == "":
            controller = controllers[id(pod)] = _controller(pod)
        if controller is None:
            continue
        groups.setdefault((f.rule, f.severity, f.namespace, controller, _said(f)), []).append(i)
    kept: dict[int, Finding] = {}
    folded: set[int] = set()
    for (_rule, _severity, _namespace, controller, _), members in groups.items():
        if len(members) < 2:
            continue
        members.sort(key=lambda i: findings[i].name)
        first = findings[members[0]]
        kept[members[0]] = replace(first, alike=tuple(findings[i].name for i in members[1:]),
                                   facts={**first.facts, "controller": controller})
        folded.update(members[1:])
    if not kept:
        return list(findings)
    return [kept.get(i, f) for i, f in enumerate(findings) if i not in folded]


@once_per
def _controllers(cluster: AnalyzedDump) -> dict[int, str | None]:
    """id(pod) -> its controller, found once per pod (a pod fails several rules)."""
    return {}


def _controller(pod: KubeObject) -> str | None:
    """The pod's controller ("ReplicaSet web-7d9c"), from its ownerReferences; None for a pod
    with none (a bare or static pod is its own template)."""
    refs = pod.view.metadata.ownerReferences or ()
    ref = next((r for r in refs if r.controller), None) or (refs[0] if len(refs) == 1 else None)
    if ref is None or not ref.kind or not ref.name or ref.kind == "Node":
        return None  # (a static pod's owner is its Node: each node's copy is its own manifest)
    return f"{ref.kind} {ref.name}"


def _said(f: Finding) -> tuple:
    """What a finding says, without which pod and where: equal for replicas of one template."""
    said = (tuple(sorted(f.facts.items())), f.remediation, f.managed, f.resolved,
            tuple((e.field, e.seen, e.expected) for e in f.evidence))
    try:
        hash(said)
    except TypeError:  # a list or map among the facts or what the evidence saw: compared as text
        return (repr(said),)
    return said
