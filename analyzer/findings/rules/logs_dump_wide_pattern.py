"""One known line in most of the dump's logs: a fact about the capture or the whole cluster
(kubectl cluster-info dump's `Request log error` everywhere: the API server reached no kubelet)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.logs import dump_wide_patterns, log_evidence
from analyzer.findings.types import Finding, RuleMeta
from analyzer.model.logsignatures import load_signatures

RULE = RuleMeta(
    id="logs-dump-wide-pattern", title="One error line in most of the dump's logs", severity="warning",
    category="cluster",
    message="{logs} of {total_logs} container logs are {signature}: {meaning}",
    remediation="Treat it as one cluster-wide problem, not one per pod: for `Request log error`, check that the API server reaches the kubelets (port 10250, node firewall, konnectivity/tunnel), then collect the logs again.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    if not cluster.logs:
        yield RULE.not_applicable("the dump holds no container logs")
        return
    signatures = {s.id: s for s in load_signatures()}
    for pattern in dump_wide_patterns(cluster):
        sig = signatures[pattern.signature_id]
        finding = RULE.fail(None, *(log_evidence(m) for m in pattern.examples), kind="", namespace="", name="",
                            signature=sig.id, meaning=sig.meaning, logs=pattern.logs, total_logs=pattern.total_logs)
        severity = sig.dump_wide_severity or sig.severity
        yield replace(finding, severity=severity) if severity != finding.severity else finding
