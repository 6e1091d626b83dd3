"""One hygiene finding per pod template, not per replica: the pods of one controller carry the
spec its template gave them, so "container web has no memory limit" is one fact about
ReplicaSet web-7d9c, said once for its 30 pods, not 30 times (a DaemonSet on 5,000 nodes gave
5,000 identical rows). The first pod by name stands for the others, which it names."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
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
    pod: each pod's state is its own. A finding a rule already said once for several pods
    (`replica_groups`) counts as all of them."""
    groups: dict[tuple, list[int]] = {}
    pods = objects_named(cluster, "Pod")
    controllers = _controllers(cluster)
    for i, f in enumerate(findings):
        if f.status != "fail" or f.kind != "Pod" or f.category not in HYGIENE_CATEGORIES:
            continue
        controller = _controller_named(pods, controllers, f.namespace, f.name)
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
        others = sorted(name for i in members for name in (findings[i].name, *findings[i].alike))[1:]
        kept[members[0]] = said_for_replicas(first, tuple(others), controller)
        folded.update(members[1:])
    if not kept:
        return list(findings)
    return [kept.get(i, f) for i, f in enumerate(findings) if i not in folded]


def replica_groups(cluster: AnalyzedDump, judged: Iterable[tuple[KubeObject, Hashable]]
                   ) -> list[tuple[KubeObject, Hashable, tuple[str, ...], str | None]]:
    """What a hygiene rule found on each pod, once per pod template: `judged` gives each
    failing pod with what the rule would say of it but where (its payload: the fields and
    values its finding quotes). The pods of one controller with equal payloads are one group,
    (first pod by name, payload, the others' names, controller), as `fold_replicas` would fold
    their findings: a DaemonSet on 5,000 nodes is judged 5,000 times but said once."""
    pods = objects_named(cluster, "Pod")
    controllers = _controllers(cluster)
    groups: dict[tuple, list[KubeObject]] = {}
    alone: list[tuple[KubeObject, Hashable, tuple[str, ...], str | None]] = []
    for pod, payload in judged:
        controller = _controller_named(pods, controllers, pod.namespace, pod.name)
        if controller is None:
            alone.append((pod, payload, (), None))
        else:
            groups.setdefault((pod.namespace, controller, payload), []).append(pod)
    for (_namespace, controller, payload), members in groups.items():
        members.sort(key=lambda pod: pod.name)
        alone.append((members[0], payload, tuple(p.name for p in members[1:]),
                      controller if len(members) > 1 else None))
    return alone


def said_for_replicas(finding: Finding, others: tuple[str, ...], controller: str | None) -> Finding:
    """A finding on the first pod of a group said for the `others` of its `controller` too."""
    if not others or controller is None:
        return finding
    facts = {k: v for k, v in finding.facts.items() if k != "controller"}
    return replace(finding, alike=others, facts={**facts, "controller": controller})


def _controller_named(pods: dict[tuple[str, str], KubeObject],
                      controllers: dict[int, str | None], namespace: str, name: str) -> str | None:
    """The controller of the pod a finding names (None: no such pod, or it has none)."""
    pod = pods.get((namespace, name))
    if pod is None:
        return None
    controller = controllers.get(id(pod), "")
    if controller == "":
        controller = controllers[id(pod)] = _controller(pod)
    return controller


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
    said = (tuple(sorted((k, v) for k, v in f.facts.items() if k != "controller")), f.remediation,
            f.managed, f.resolved,
            tuple((e.field, e.seen, e.expected) for e in f.evidence))
    try:
        hash(said)
    except TypeError:  # a list or map among the facts or what the evidence saw: compared as text
        return (repr(said),)
    return said
