"""Admission webhooks the API server could not call, as the paste quotes its refusal
(`Internal error occurred: failed calling webhook "X": ...`): the requests the webhook
intercepts fail while it does, whatever the dump holds of it; or as the API server's log says it
failed open (failurePolicy Ignore): those requests are admitted without it, each after its
timeout."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import holds_a_paste
from analyzer.findings.types import Evidence, Finding, RuleMeta

RULE = RuleMeta(
    id="webhook-call-failed", title="Admission webhook the API server could not call", severity="warning",
    category="workloads",
    message='The API server could not call admission webhook "{webhook}" ({times} quoted, first at {where}): '
            "{reason}; {consequence}{now}",
    remediation="Bring the webhook's backend up (its Deployment's pods Ready, its Service's selector matching "
    "them, the API server able to reach their port: on EKS the cluster security group to the nodes), or, "
    "if it is gone for good, delete its ValidatingWebhookConfiguration/MutatingWebhookConfiguration. An x509 "
    "error: the configuration's caBundle must be the CA that signed the certificate the backend serves (set by "
    "cert-manager's cainjector or the chart's own job), and that certificate valid now.",
)




# What the API server does with the requests a failing webhook intercepts: its failurePolicy
# Fail refuses them (kubectl quotes the refusal), Ignore admits them unchecked, and its log says
# "failing open"; each still waits for the webhook's timeout.
CLOSED = "the requests it intercepts are refused while it fails"
OPEN = ("the API server fails open (failurePolicy Ignore): the requests it intercepts are admitted without it, "
        "each after waiting for its timeout")


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    failures = list(getattr(cluster.ingest, "webhook_failures", None) or ())
    if not failures:
        if not holds_a_paste(cluster):
            yield RULE.not_applicable("the dump holds no pasted session to quote the API server's refusals")
        return
    # a refusal an event already tells (a controller's FailedCreate: "Error creating: ... failed
    # calling webhook ..."), with its count and times, is the event rules' finding
    told = " ".join(str(e.view.message or "") for e in cluster.objects_of("Event") if "webhook" in str(e.view.message or ""))
    by_hook: dict[tuple[str, str, str, str, bool], list] = {}
    for failure in failures:
        if f'failed calling webhook "{failure.webhook}"' in told:
            continue
        by_hook.setdefault((failure.webhook, failure.namespace, failure.service, failure.reason,
                            failure.failing == "open"), []).append(failure)
    for (webhook, namespace, service, reason, fails_open), quoted in by_hook.items():
        first = quoted[0]
        where = f"line {first.line}"
        evidence = Evidence("failed calling webhook", f'"{webhook}": {reason}', "the webhook answering",
                            source=first.source, line=first.line)
        now = _endpoints_now(cluster, namespace, service, reason)
        finding = RULE.fail(None, evidence, kind="Service" if service else "", namespace=namespace,
                            name=service or webhook, webhook=webhook, reason=reason, where=where,
                            times=len(quoted), now=now[0], failing="open" if fails_open else "closed",
                            consequence=OPEN if fails_open else CLOSED)
        yield finding.as_info(resolved=now[1]) if now[1] else finding


def _endpoints_now(cluster: AnalyzedDump, namespace: str, service: str, reason: str) -> tuple[str, str]:
    """What the dump shows of the webhook's Service's endpoints: (a note for the message, why
    the failure is history ('' when it is not)). Ready addresses end only a failure for want of
    them: a webhook that timed out, refused the connection or failed its TLS check had them
    (the API server cannot reach their port, or the backend does not answer it)."""
    if not service:
        return "", ""
    for endpoints in cluster.objects_of("Endpoints"):
        if endpoints.namespace == namespace and endpoints.name == service:
            ready = sum(len(s.addresses or ()) for s in endpoints.view.subsets or ())
            if ready and NO_ENDPOINTS in reason:
                return "", f"its Service {namespace}/{service} has {ready} ready address(es) in the dump"
            if ready and "x509" in reason:
                return (f"; the dump shows its Service {namespace}/{service} with {ready} ready address(es): the API "
                        "server reaches them and refuses the certificate they serve"), ""
            if ready:
                return (f"; the dump shows its Service {namespace}/{service} with {ready} ready address(es), so the "
                        "API server gets no answer from them (a firewall or security group between the control "
                        "plane and the nodes' webhook port, as on GKE private clusters and EKS, or a backend that "
                        "hangs)"), ""
            return f"; the dump shows its Service {namespace}/{service} with no ready address", ""
    return "", ""


NO_ENDPOINTS = "no endpoints available for service"
