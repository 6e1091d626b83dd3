"""Controllers or kubelets failing to create pods (from events), with how long before the capture they last fired.
A pod sandbox the network plugin could not set up for a cause the log-signature catalog knows (its
IPAM out of pod addresses) says that cause and the node, so that the incidents join the pods it
turned down (analyzer/findings/incidents.py, _join_same_network_cause)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.events import ASSIGNED_TO, NOT_NAMED, events_by_object, findings_for_reasons
from analyzer.findings.facts import objects_named
from analyzer.findings.types import Finding, RuleMeta
from analyzer.model.logsignatures import Signature, match_log

RULE = RuleMeta(
    id="events-failed-create", title="Controllers or kubelets failing to create pods", severity="warning",
    category="events", requires=("Event",),
    message="{object}: {reason} {count} time(s), {first}last {age}: {last_message}{network}",
    remediation="Read the message: quota exceeded, an admission webhook denying, a missing ServiceAccount, or (sandbox) a broken CNI on the node.",
)
SANDBOX = "FailedCreatePodSandBox"
REASONS = frozenset({"FailedCreate", SANDBOX})


def network_cause(message: str) -> Signature | None:
    """The network plugin's cause a sandbox error names, by the log-signature catalog (a
    signature of role cni), or None.

    >>> network_cause('plugin type="aws-cni" name="aws-cni" failed (add): add cmd: '
    ...               'failed to assign an IP address to container').id
    'cni-ip-allocation-failed'
    >>> network_cause('failed to find plugin "loopback" in path [/opt/cni/bin]') is None
    True
    """
    return next((m.signature for m in match_log(message) if "cni" in m.signature.components), None)


def _sandbox_node(cluster: AnalyzedDump, finding: Finding) -> str:
    """The node whose kubelet could not set up the pod's sandbox: the events' reporting host,
    else the pod's node, else where its Scheduled event placed it ('' when none says)."""
    facts = events_by_object(cluster).get((finding.kind, finding.namespace, finding.name), ())
    host = next((f.event.view.source.host for f in reversed(facts)
                 if f.reason == SANDBOX and f.event.view.source and f.event.view.source.host), None)
    if host:
        return host
    pod = objects_named(cluster, "Pod").get((finding.namespace, finding.name))
    if pod is not None and pod.view.spec is not None and pod.view.spec.nodeName:
        return pod.view.spec.nodeName
    placed = [m[3] for f in facts if f.reason == "Scheduled" and (m := ASSIGNED_TO.match(f.message))]
    return placed[-1] if placed else ""


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    for finding in findings_for_reasons(cluster, RULE, REASONS):
        sandbox = finding.facts.get("reason") == SANDBOX
        message = str(finding.facts.get("last_message", ""))
        cause = network_cause(message) if sandbox else None
        if cause is None:
            finding = replace(finding, facts={**finding.facts, "network": ""})
        else:
            node = _sandbox_node(cluster, finding)
            where = f" on node {node}" if node else ""
            meaning = cause.meaning_of(message)  # the plugin's words say whose addresses ran out
            finding = replace(finding, facts={**finding.facts, "network_cause": cause.id, "network_meaning": meaning,
                                              "node": node, "network": f" ({meaning}{where})"})
        # the kubelet records FailedCreatePodSandBox on the pod: a describe's Events pasted alone
        # (Azure/AKS#122) are a pod's, not "the whole dump"'s
        yield replace(finding, kind="Pod", name=NOT_NAMED) if sandbox and not finding.kind else finding
