"""The API server's serving certificate kubectl would not trust, as a paste quotes it
(`Unable to connect to the server: x509: certificate has expired or is not yet valid: current
time T is after E`): no kubectl command reaches the cluster while it lasts.

Go's x509 check says against which clock it failed: `is after` the certificate's NotAfter (it
expired: kubeadm's and k3s's certificates last a year, and every client of the API server, the
kubelets and controllers too, refuses it) or `is before` its NotBefore (the client's clock is
behind: a laptop, VM or WSL resumed from sleep; the cluster may be fine). A CA the kubeconfig
does not hold, or a name the certificate was not issued for, is the kubeconfig's matter.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import age_text, holds_a_paste
from analyzer.findings.types import Evidence, Finding, RuleMeta
from analyzer.ingest.refusals import ServerCertificateRefused
from analyzer.kube.time import parse_strict_time

RULE = RuleMeta(
    id="api-server-certificate-refused", title="API server certificate refused by kubectl", severity="critical",
    category="cluster",
    message="kubectl could not connect to the API server ({times} quoted, first at {where}): {detail}",
    remediation="An expired certificate: on kubeadm `kubeadm certs check-expiration`, then `kubeadm certs renew all` "
    "on each control-plane node, restart the kube-apiserver, kube-controller-manager, kube-scheduler and etcd static "
    "pods and copy the renewed /etc/kubernetes/admin.conf to ~/.kube/config; on k3s and RKE2 restart the server "
    "(it renews certificates within 90 days of expiry) or run `k3s certificate rotate`; on AKS `az aks rotate-certs`. "
    "Not yet valid: set the client's clock right (`hwclock -s`, NTP). Unknown authority or other names: fetch the "
    "cluster's kubeconfig again (`az aks get-credentials`, `aws eks update-kubeconfig`, admin.conf).",
)
# Problems of the client (its clock, its kubeconfig), not of the cluster: said as warnings.
_CLIENT_SIDE = frozenset({"not yet valid", "unknown authority", "other names"})


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    refusals: list[ServerCertificateRefused] = list(getattr(cluster.ingest, "server_certificate_refusals", None) or ())
    if not refusals:
        if not holds_a_paste(cluster):
            yield RULE.not_applicable("the dump holds no pasted session to quote kubectl's refusals")
        return
    by_problem: dict[tuple[str, str], list[ServerCertificateRefused]] = {}
    for refusal in refusals:
        by_problem.setdefault((refusal.problem, refusal.bound), []).append(refusal)
    for (problem, bound), quoted in by_problem.items():
        first, last = quoted[0], quoted[-1]
        evidence = Evidence("Unable to connect to the server (kubectl)", first.reason,
                            "a certificate valid now, signed by the kubeconfig's CA", source=first.source,
                            line=first.line)
        finding = RULE.fail(None, evidence, kind="", namespace="", name="API server certificate",
                            problem=problem, detail=_detail(first), where=f"line {first.line}", times=len(quoted),
                            bound=bound, client_time=first.client_time)
        if problem in _CLIENT_SIDE:
            finding = replace(finding, severity="warning")
        later = _later_answer(cluster, last)
        yield finding.as_info(resolved=later) if later else finding


def _detail(refusal: ServerCertificateRefused) -> str:
    """What was wrong with the certificate, in words, with its dates against the client's clock."""
    now, bound = parse_strict_time(refusal.client_time), parse_strict_time(refusal.bound)
    clock = f"the client's clock read {_utc(now)}" if now else ""
    if refusal.problem == "expired" and now and bound:
        return (f"the certificate its endpoint presented expired at {_utc(bound)}, {age_text(now - bound)} before "
                f"{clock}; every client of the API server (kubelets, controllers, kubectl) refuses it until it is renewed")
    if refusal.problem == "not yet valid" and now and bound:
        return (f"the certificate its endpoint presented is valid only from {_utc(bound)}, {age_text(bound - now)} "
                f"after {clock}: the client's clock is behind (a machine resumed from sleep), or the certificate "
                f"was issued ahead of it; the cluster itself may be fine")
    if refusal.problem == "unknown authority":
        return ("the certificate its endpoint presented is signed by a CA the kubeconfig does not hold: a kubeconfig "
                "of another or a re-created cluster, or a proxy that intercepts TLS")
    if refusal.problem == "other names":
        return f"the certificate its endpoint presented was issued for other names than the address dialled ({refusal.reason})"
    return ("the certificate its endpoint presented has expired or is not yet valid (kubectl gave no times): compare "
            "its dates with the client's clock")


def _utc(when: datetime | None) -> str:
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ") if when else ""


def _later_answer(cluster: AnalyzedDump, last: ServerCertificateRefused) -> str:
    """Why the refusal is history: the same paste shows an object a later kubectl command got."""
    later = [line for obj in cluster.objects
             if obj.provenance.source == last.source and (line := obj.provenance.line) is not None and line > last.line]
    return f"a later kubectl command in the paste got an answer (line {min(later)})" if later else ""
