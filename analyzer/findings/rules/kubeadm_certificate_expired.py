"""Certificates a pasted `kubeadm certs check-expiration` shows expired (`<invalid>`) or about
to expire: kubeadm's certificates last a year and are renewed only by a control-plane upgrade or
`kubeadm certs renew`; once the API server's (or a kubeconfig's) lapses, its clients are refused.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta

from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.facts import holds_a_paste
from analyzer.findings.types import Evidence, Finding, RuleMeta
from analyzer.ingest.kubeadm_certs import CertificateExpiry

RULE = RuleMeta(
    id="kubeadm-certificate-expired", title="kubeadm certificate expired or expiring", severity="critical",
    category="cluster",
    message="`kubeadm certs check-expiration` (line {line}) shows {count} certificate(s) {state}: {names}{ca}",
    remediation="On each control-plane node: `kubeadm certs renew all`, then restart the kube-apiserver, "
    "kube-controller-manager, kube-scheduler and etcd static pods (move their manifests out of "
    "/etc/kubernetes/manifests and back) and copy the renewed /etc/kubernetes/admin.conf to ~/.kube/config. "
    "A certificate authority (ca, etcd-ca, front-proxy-ca) is not renewed so: every certificate it signed must be "
    "re-issued.",
)
# kubeadm renews certificates at upgrades; one with less left than this lapses before most
# clusters' next upgrade.
SOON = timedelta(days=30)
_RESIDUAL = re.compile(r"^(?:(?P<y>\d+)y)?(?:(?P<d>\d+)d)?(?:(?P<h>\d+)h)?")


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    listed: list[CertificateExpiry] = list(getattr(cluster.ingest, "certificate_expiries", None) or ())
    if not listed:
        if not holds_a_paste(cluster):
            yield RULE.not_applicable("the dump holds no pasted `kubeadm certs check-expiration`")
        return
    outputs: dict[tuple[str, int], list[CertificateExpiry]] = {}
    for cert in listed:
        # (the two tables of one output sit a few lines apart)
        key = next((k for k in outputs if k[0] == cert.source and 0 < cert.line - outputs[k][-1].line <= 3), None)
        outputs.setdefault(key or (cert.source, cert.line), []).append(cert)
    for (source, line), certs in outputs.items():
        expired = [c for c in certs if c.expired]
        soon = [c for c in certs if not c.expired and (left := _left(c.residual)) is not None and left < SOON]
        if not expired and not soon:
            continue
        shown = expired or soon
        state = ("expired" if expired else f"expiring within {SOON.days} days") + \
            (f" on {_when(shown)}" if len({c.expires for c in shown}) == 1 else "")
        authorities = [c.name for c in shown if c.authority]
        ca = f"; certificate authorities among them: {', '.join(authorities)}" if authorities else ""
        first = shown[0]
        evidence = Evidence("RESIDUAL TIME (kubeadm certs check-expiration)", first.residual,
                            "time left", source=source, line=first.line)
        # the API server's own serving certificate is what kubectl refuses (api-server-certificate-
        # refused): named alike, the two are one incident
        name = "API server certificate" if any(c.name == "apiserver" for c in shown) else "kubeadm certificates"
        finding = RULE.fail(None, evidence, kind="", namespace="", name=name, line=line,
                            count=len(shown), state=state, names=", ".join(c.name for c in shown), ca=ca,
                            expired=len(expired))
        if not expired:
            finding = replace(finding, severity="warning")
        later = [c for (src, at), out in outputs.items() if src == source and at > line for c in out]
        renewed = _renewed_later(later, shown)
        yield finding.as_info(resolved=renewed) if renewed else finding


def _left(residual: str) -> timedelta | None:
    """The time kubeadm printed as left (`347d`, `8y`, `364d, 23h59m27s`), None when unread."""
    match = _RESIDUAL.match(residual)
    if match is None or not match.group(0):
        return None
    years, days, hours = (int(match.group(k) or 0) for k in ("y", "d", "h"))
    return timedelta(days=365 * years + days, hours=hours)


def _when(certs: list[CertificateExpiry]) -> str:
    return certs[0].expires.replace("T", " ").removesuffix(":00Z") + " UTC"


def _renewed_later(later: list[CertificateExpiry], shown: list[CertificateExpiry]) -> str:
    """Why it is history: a later check-expiration of the same paste shows every one of those
    certificates with time left and a later expiry (renewed since)."""
    expiry = {c.name: c.expires for c in shown}
    renewed = [c for c in later if c.name in expiry and not c.expired and c.expires > expiry[c.name]]
    if {c.name for c in renewed} != set(expiry):
        return ""
    return f"renewed: a later check-expiration (line {min(c.line for c in renewed)}) shows them valid until {_when(renewed)}"
