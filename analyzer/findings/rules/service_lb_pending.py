"""LoadBalancer Services the cloud has not given an address (EXTERNAL-IP <pending>)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta
from typing import TYPE_CHECKING

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.events import clipped, event_ago, events_by_object
from analyzer.findings.facts import age_text, ev, known_age, lasted_text, object_age
from analyzer.findings.types import Evidence, Finding, RuleMeta

if TYPE_CHECKING:
    from analyzer.ingest.records import KubeObject, LogRecord

RULE = RuleMeta(
    id="service-lb-pending", title="LoadBalancer without an ingress address", severity="warning",
    category="networking", requires=("Service",),
    message="Service {namespace}/{name} is type LoadBalancer{created} but has no load balancer address{why}",
    remediation="Read the Service's events (SyncLoadBalancerFailed): cloud quota, subnet/annotation errors, or no cloud controller (bare metal needs MetalLB or similar).",
)


# kube-controller-manager's words, logged once as it starts without a cloud provider (kubeadm,
# minikube, docker-desktop; with --cloud-provider=external too, where a cloud controller manager
# makes load balancers in its stead): realdata minikube/multi-k8s-cluster-info-dump, v1.13.3
_NO_CLOUD = "no cloud provider provided, services of type LoadBalancer will fail"

# How long a cloud controller takes to make a load balancer and write its address (AWS, Azure,
# OCI: about a minute; GCP's can take a few): younger than this, `<pending>` is no failure yet.
_PROVISIONING = timedelta(minutes=3)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    events = events_by_object(cluster) if cluster.covers("Event") else {}
    no_cloud: list[tuple[LogRecord, int, str] | None] = []  # [what it found], once looked for
    for svc in cluster.objects_of("Service"):
        if svc.view.spec.type != "LoadBalancer" or (finding := _pending(svc)) is None:
            continue
        # how long it has been there: minutes are a load balancer being made, hours one that will not
        # be (hetzner-cloud-controller-manager#325's row: <pending>, 8m36s)
        age = object_age(cluster, svc)
        created = f", created {lasted_text(cluster, age)} before capture," if age and age > timedelta(0) else ""
        finding = replace(finding, facts={**finding.facts, "created": created})
        # its last Warning event (SyncLoadBalancerFailed) says why the cloud gave no address
        said = events.get(("Service", svc.namespace, svc.name), ())
        warnings = [e for e in said if e.type == "Warning"]
        if not warnings:
            finding = replace(finding, facts={**finding.facts, "why": ""})
            if not said:
                # no controller wrote on it: is there one to make load balancers at all?
                if not no_cloud:
                    no_cloud.append(_no_cloud_provider(cluster))
                if no_cloud[0] is not None:
                    finding = _unserved(cluster, finding, *no_cloud[0])
                elif svc.view.text is not None and svc.view.text.events_none:
                    # a controller that fails retries and says so within minutes, one that succeeds
                    # writes the address (kubernetes/ingress-nginx#3608: an NLB annotation on kubeadm)
                    finding = replace(finding, facts={**finding.facts, "why": (
                        ": its describe shows no event, so no load balancer controller (a cloud controller "
                        "manager, MetalLB, kube-vip) has written on it in the hour events are kept")})
            young = known_age(cluster, svc)
            if young is not None and timedelta(0) <= young < _PROVISIONING:
                # seconds old, nothing saying the cloud failed: its load balancer is being made
                # (oracle/weblogic-kubernetes-operator#1268: an OKE Service 9s old, `<pending>`)
                silence = "no failure event" if cluster.covers("Event") else "no event in the dump"
                finding = replace(finding, facts={**finding.facts, "created": ""}).as_info(
                    resolved=f"created {age_text(young)} before capture: a cloud load balancer takes a minute "
                             f"or two to be made, and {silence} says it failed")
            yield finding
            continue
        last = warnings[-1]
        why = f": {last.reason} {event_ago(cluster, last)}: {clipped(last.message)}"
        yield replace(finding, facts={**finding.facts, "why": why}, evidence=(
            *finding.evidence, ev(last.event, f"Event.message ({last.reason})", last.message)))


def _no_cloud_provider(cluster: AnalyzedDump) -> tuple[LogRecord, int, str] | None:
    """The kube-controller-manager log, line number and line saying it runs without a cloud
    provider, so its service controller makes no load balancer; None when no log says so."""
    for log in sorted(cluster.logs, key=lambda log: log.previous):
        if log.namespace != "kube-system" or not log.pod.startswith("kube-controller-manager"):
            continue
        if (at := log.text.find(_NO_CLOUD)) >= 0:
            start, end = log.text.rfind("\n", 0, at) + 1, log.text.find("\n", at)
            return log, log.text.count("\n", 0, at) + 1, log.text[start:end if end >= 0 else None].strip()
    return None


def _unserved(cluster: AnalyzedDump, finding: Finding, log: LogRecord, line: int, text: str) -> Finding:
    """The finding, saying why no address came: the controller manager makes no load balancer, and
    (where the dump holds the events) no other controller wrote on the Service."""
    source, file_line = log.place(line)
    none = ", and no event on it says another did" if cluster.covers("Event") else ""
    why = (f": {log.pod} runs without a cloud provider (its log: '{_NO_CLOUD}'), so it makes no load "
           f"balancer; one comes only from another controller (a cloud controller manager, MetalLB, kube-vip, "
           f"k3s's ServiceLB){none}")
    return replace(finding, facts={**finding.facts, "why": why}, evidence=(
        *finding.evidence, Evidence(field=f"log[{log.container}] of {log.pod}", seen=text, expected=None,
                                    source=source, line=file_line)))


def _pending(svc: KubeObject) -> Finding | None:
    """The finding on a LoadBalancer Service the dump shows without an address, else None."""
    text = svc.view.text
    if text is not None and "EXTERNAL-IP" in (text.columns or {}):  # a pasted table's row
        external = str(text.columns["EXTERNAL-IP"])
        return RULE.fail(svc, ev(svc, "EXTERNAL-IP column", external, "an address")) \
            if external == "<pending>" else None
    if text is not None and not (text.described and svc.view.spec.ports):
        return None  # a row without the column, or a describe cut before its ports: not said
    lb = svc.view.status.loadBalancer
    if lb and lb.ingress:
        return None
    if text is None:
        return RULE.fail(svc, ev(svc, "status.loadBalancer.ingress", None, "an IP or hostname"))
    # kubectl's describe prints `LoadBalancer Ingress:` before the ports only when there is one: a
    # describe that went on to its ports without it says there was none (kube-vip/kube-vip#221)
    return RULE.fail(svc, ev(svc, "LoadBalancer Ingress line", "not printed", "an IP or hostname"))
