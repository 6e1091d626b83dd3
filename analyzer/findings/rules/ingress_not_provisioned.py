"""Ingresses with no address whose controller's last word on them is a failure (an AWS Load
Balancer Controller's FailedDeployModel, a cloud controller's sync error)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.events import clipped, event_ago, events_by_object
from analyzer.findings.facts import ev
from analyzer.findings.types import Finding, RuleMeta

if TYPE_CHECKING:
    from analyzer.ingest.records import KubeObject

RULE = RuleMeta(
    id="ingress-not-provisioned", title="Ingress without an address, its controller failing", severity="warning",
    category="networking", requires=("Ingress", "Event"),
    message="Ingress {namespace}/{name} has no address and its controller's last event on it is a failure: "
            "{reason} {ago}: {last_message}",
    remediation="Read the event and the ingress controller's logs: the load balancer it makes for the Ingress "
    "(an ALB, an Application Gateway, a cloud HTTP load balancer) failed: its permissions, subnets, "
    "annotations or listeners.",
)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    events = events_by_object(cluster)
    for ing in cluster.objects_of("Ingress"):
        said = events.get(("Ingress", ing.namespace, ing.name))
        # an Ingress with no address is no failure alone: many controllers write none (NGINX
        # Inc.'s by default); its controller's last event being a failure is
        if not said or said[-1].type != "Warning" or not _no_address_shown(ing):
            continue
        last = said[-1]
        yield RULE.fail(ing, ev(ing, _address_field(ing), None, "an address"),
                        ev(last.event, f"Event.message ({last.reason})", last.message),
                        reason=last.reason, ago=event_ago(cluster, last), last_message=clipped(last.message))


def _no_address_shown(ing: KubeObject) -> bool:
    """Whether the dump shows the Ingress without an address: its object's status, a row's empty
    ADDRESS, or a describe's blank `Address:` line (kubectl prints it before the rules)."""
    if ((ing.view.status or {}).get("loadBalancer") or {}).get("ingress"):
        return False
    text = ing.view.text
    if text is None:
        return True
    if "ADDRESS" in (text.columns or {}):
        return not text.columns["ADDRESS"]
    spec = ing.view.spec or {}
    return bool(text.described and (spec.get("rules") or spec.get("defaultBackend") or spec.get("backend")))


def _address_field(ing: KubeObject) -> str:
    text = ing.view.text
    if text is None:
        return "status.loadBalancer.ingress"
    return "ADDRESS column" if "ADDRESS" in (text.columns or {}) else "Address line"
