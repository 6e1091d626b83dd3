"""The API server's refusals a paste quotes: an admission webhook it could not call.

`kubectl apply` (helm, terraform) prints the API server's own words when a webhook it must call
fails: `Internal error occurred: failed calling webhook "vingress.elbv2.k8s.aws": Post
"https://aws-load-balancer-webhook-service.kube-system.svc:443/...": no endpoints available for
service "aws-load-balancer-webhook-service"`. No object carries that (the request was refused),
yet it is the cluster's state as the paste saw it: every request the webhook intercepts fails.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_FAILED_CALL = re.compile(
    r'failed calling webhook \\?"(?P<hook>[^"\\]+)\\?":\s*(?:failed to call webhook:\s*)?'
    r'(?:(?:Post|Get|Patch)\s+\\?"(?:\[)?(?P<url>https?://[^"\\\s\]]+)[^"]*\\?"(?:\)\\?")?:\s*)?(?P<why>[^\n]*)')
# The webhook's Service as its URL names it: https://NAME.NAMESPACE.svc[:port]/path
_SERVICE_HOST = re.compile(r"^https?://(?P<name>[a-z0-9]([a-z0-9-]*[a-z0-9])?)\.(?P<namespace>[a-z0-9]([a-z0-9-]*[a-z0-9])?)\.svc\b")
_MAX_WHY = 300


@dataclass(frozen=True, slots=True)
class WebhookFailure:
    """One quoted failure to call an admission webhook: where it was read, the webhook, its
    Service (when the URL names one) and the API server's reason."""

    source: str
    line: int
    webhook: str
    namespace: str
    service: str
    reason: str


def webhook_failures(text: str, source: str) -> list[WebhookFailure]:
    """Every quoted failure to call an admission webhook in a text, in file order.

    >>> (f,) = webhook_failures('Error from server (InternalError): error when creating "ingress.yml": '
    ...     'Internal error occurred: failed calling webhook "vingress.elbv2.k8s.aws": Post '
    ...     '"https://aws-load-balancer-webhook-service.kube-system.svc:443/validate?timeout=10s": '
    ...     'no endpoints available for service "aws-load-balancer-webhook-service"', "issue.md")
    >>> f.webhook, f.namespace, f.service, f.reason
    ('vingress.elbv2.k8s.aws', 'kube-system', 'aws-load-balancer-webhook-service', 'no endpoints available for service "aws-load-balancer-webhook-service"')
    """
    if "failed calling webhook" not in text:
        return []
    found = []
    for match in _FAILED_CALL.finditer(text):
        url = match.group("url") or ""
        service = _SERVICE_HOST.match(url)
        reason = match.group("why").strip().replace('\\"', '"')[:_MAX_WHY]
        found.append(WebhookFailure(source, text.count("\n", 0, match.start()) + 1, match.group("hook"),
                                    service.group("namespace") if service else "",
                                    service.group("name") if service else "", reason))
    return found
