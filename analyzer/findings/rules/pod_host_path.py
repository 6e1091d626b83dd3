"""Application pods mounting paths of the node's filesystem (hostPath)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from analyzer.findings.alike import replica_groups, said_for_replicas
from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import ev, is_system_namespace
from analyzer.findings.suspects import pod_suspects
from analyzer.findings.types import Finding, RuleMeta

RULE = RuleMeta(
    id="pod-host-path", title="hostPath volume outside system namespaces", severity="warning",
    category="configuration", requires=("Pod",),
    message="Pod {namespace}/{name} mounts host path(s) {paths}",
    remediation="Use a PersistentVolumeClaim, emptyDir or ConfigMap instead; hostPath ties the pod to a node and exposes its files.",
)


def _path_text(path: Any) -> str:
    """A hostPath's path as text: a hand-edited one may be anything, shown as it is."""
    return path if isinstance(path, str) else ("no path" if path is None else str(path))


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    judged = []
    for pod in pod_suspects(cluster).of("host"):
        found = tuple((i, _path_text(v["hostPath"].get("path"))) for i, v in enumerate(pod.view.spec.volumes or ())
                      if isinstance(v, dict) and isinstance(v.get("hostPath"), dict))
        if found and not is_system_namespace(pod.namespace):
            judged.append((pod, found))
    for pod, found, others, controller in replica_groups(cluster, judged):
        yield said_for_replicas(
            RULE.fail(pod, *(ev(pod, f"spec.volumes[{i}].hostPath.path", p, "no hostPath") for i, p in found),
                      paths=", ".join(p for _i, p in found)), others, controller)
