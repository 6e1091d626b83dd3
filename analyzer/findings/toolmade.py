"""Findings about what the tool that made the dump made as it ran: the namespaces the Kubernetes
e2e framework makes for its tests (sonobuoy's e2e plugin), whose pods, services and teardown
are the tests' fixtures, not the cluster's (a pod meant never to be scheduled, a namespace
being deleted). Said as info, with why."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from analyzer.findings.types import Finding
from analyzer.memo import once_per
from analyzer.model.namespaces import is_dump_tool_made_namespace

if TYPE_CHECKING:
    from analyzer.findings.dump import AnalyzedDump


def mark_tool_made(cluster: AnalyzedDump, findings: Iterable[Finding]) -> list[Finding]:
    """Each finding on an object of a namespace a dump tool's tests made, as info saying so."""
    made = tool_made_namespaces(cluster)
    if not made:
        return list(findings)
    out: list[Finding] = []
    for f in findings:
        namespace = f.name if f.kind == "Namespace" else f.namespace
        why = made.get(namespace) if f.status == "fail" and f.severity != "info" else None
        out.append(f.as_info(resolved=why) if why else f)
    return out


@once_per
def tool_made_namespaces(cluster: AnalyzedDump) -> dict[str, str]:
    """Namespace -> why it is a dump tool's test namespace, from its labels."""
    found: dict[str, str] = {}
    for ns in cluster.objects_of("Namespace"):
        labels = ns.view.metadata.labels
        if key := is_dump_tool_made_namespace(labels):
            found[ns.name] = (f"namespace {ns.name} is a test's, made by the e2e run that made the dump "
                              f"(labelled {key}={labels[key]}): not the cluster's")
    return found
