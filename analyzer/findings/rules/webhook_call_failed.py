"""Admission webhooks the API server could not call, as the paste quotes its refusal
(`Internal error occurred: failed calling webhook "X": ...`): the requests the webhook
intercepts fail while it does, whatever the dump holds of it; or as the API server's log says it
failed open (failurePolicy Ignore): those requests are admitted without it, each after its
timeout."""

from __future__ import annotations

import re
from collections.abc import Iterator

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import holds_a_paste
from analyzer.findings.types import Evidence, Finding, RuleMeta

RULE = RuleMeta(
    id="webhook-call-failed", title="Admission webhook the API server could not call", severity="warning",
    category="workloads",
    message='The API server could not call admission webhook "{webhook}" ({times} quoted, first at {where}): '
            "{reason}; {consequence}{blocks}{now}",
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
    # a refusal the events of one object tell (a controller's FailedCreate: "Error creating: ...
    # failed calling webhook ..."), with its count and times, is the event rules' finding; one the
    # events of several tell is the webhook's, the cause of theirs (incidents join them)
    blocked = _blocked_by(cluster)
    by_hook: dict[tuple[str, str, str, str, bool], list] = {}
    for failure in failures:
        if len(blocked.get(failure.webhook, ())) == 1:
            continue
        by_hook.setdefault((failure.webhook, failure.namespace, failure.service, failure.reason,
                            failure.failing == "open"), []).append(failure)
    for (webhook, namespace, service, reason, fails_open), quoted in by_hook.items():
        first = quoted[0]
        where = f"line {first.line}"
        evidence = Evidence("failed calling webhook", f'"{webhook}": {reason}', "the webhook answering",
                            source=first.source, line=first.line)
        now = _endpoints_now(cluster, namespace, service, reason)
        refused = blocked.get(webhook, [])
        blocks = (f"; the events of {len(refused)} objects quote it ({', '.join(_spoken(r) for r in refused)})"
                  if refused else "")
        finding = RULE.fail(None, evidence, kind="Service" if service else "", namespace=namespace,
                            name=service or webhook, webhook=webhook, reason=reason, where=where,
                            times=len(quoted), now=now[0], failing="open" if fails_open else "closed",
                            consequence=OPEN if fails_open else CLOSED, blocks=blocks, blocked=refused)
        yield finding.as_info(resolved=now[1]) if now[1] else finding


# The webhook an event's message quotes the API server failing to call (before 1.16: "failed
# calling admission webhook").
_QUOTED_HOOK = re.compile(r'failed calling (?:admission )?webhook \\?"(?P<hook>[^"\\]+)')


def _blocked_by(cluster: AnalyzedDump) -> dict[str, list[str]]:
    """The objects (`Kind/namespace/name`, in dump order) whose events quote each webhook's failure."""
    out: dict[str, list[str]] = {}
    for event in cluster.objects_of("Event"):
        message = str(event.view.message or "")
        if "webhook" not in message or (quoted := _QUOTED_HOOK.search(message)) is None:
            continue
        involved = event.view.involvedObject
        if involved is None or not involved.name:
            continue
        ref = f"{involved.kind}/{involved.namespace or event.namespace or ''}/{involved.name}"
        refs = out.setdefault(quoted.group("hook"), [])
        if ref not in refs:
            refs.append(ref)
    return out


def _spoken(ref: str) -> str:
    """`ReplicaSet/ns/web-7c9` as a message says it: `ReplicaSet ns/web-7c9` (`ReplicaSet web-7c9`
    when the paste did not say its namespace)."""
    kind, namespace, name = ref.split("/", 2)
    return f"{kind} {namespace}/{name}" if namespace else f"{kind} {name}"


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
