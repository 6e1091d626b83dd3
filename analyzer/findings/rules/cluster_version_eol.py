"""A control plane on a Kubernetes minor version past its end of support: upstream's, or the
managed service's own calendar where it has one (data/provider_support.yaml)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, timedelta

from analyzer.findings.components import distribution_name
from analyzer.findings.dump import AnalyzedDump
from analyzer.findings.types import Evidence, Finding, RuleMeta
from analyzer.findings.versions import (
    cluster_version,
    end_of_life_dates,
    minor_text,
    parse_version,
    provider_support,
)

RULE = RuleMeta(
    id="cluster-version-eol", title="Kubernetes version past end of support", severity="warning",
    category="cluster",
    message="The cluster runs Kubernetes {version} ({field}); {support}",
    remediation="Plan an upgrade to a supported minor version (one minor at a time); managed services may extend support, check the provider's calendar.",
)
# Extended support about to end is a warning again: the provider upgrades the cluster itself then.
EXTENDED_ENDING = timedelta(days=90)


def check(cluster: AnalyzedDump) -> Iterator[Finding]:
    version = cluster_version(cluster)
    capture = cluster.capture_time
    if version is None or capture is None:
        yield RULE.not_applicable("the cluster's version or the capture time is not in the dump")
        return
    minor = minor_text(version.version)
    evidence = Evidence(version.field, version.text, f"a minor version supported on {capture.date()}", version.source)
    facts = {"kind": "Cluster", "namespace": "", "name": cluster.name, "version": version.text,
             "field": version.field, "minor": minor}
    managed = provider_support().get(distribution_name(cluster) or "", {})
    calendar = managed.get("versions", {}).get(minor)
    if calendar is not None:
        yield from _managed(capture.date(), managed["provider"], minor, calendar, evidence, facts)
        return
    dates = end_of_life_dates()
    eol, when = dates.get(minor), ""
    if eol is None:
        oldest = min(dates, key=lambda m: dates[m])
        if version.version[:2] >= parse_version(oldest)[:2]:
            return  # newer than the table knows: not known to be out of support
        eol, when = dates[oldest], "before "
    if capture.date() > eol:
        days = (capture.date() - eol).days
        days_text = f"more than {days}" if when else str(days)
        yield RULE.fail(None, evidence, **facts, eol=when + eol.isoformat(), days=f"more than {days}" if when else days,
                        support=f"upstream support for {minor} ended {when}{eol.isoformat()}, {days_text} days before the capture")


def _managed(captured: date, provider: str, minor: str, calendar: dict[str, date], evidence: Evidence,
             facts: dict) -> Iterator[Finding]:
    """The managed service's verdict: supported, in (paid) extended support, or past both."""
    standard, extended = calendar["standard"], calendar.get("extended")
    if captured <= standard:
        return
    days = (captured - standard).days
    ended = f"{provider} standard support for {minor} ended {standard.isoformat()}, {days} days before the capture"
    if extended is None or captured > extended:
        yield RULE.fail(None, evidence, **facts, eol=(extended or standard).isoformat(), days=days,
                        support=ended + (f", and extended support on {extended.isoformat()}: the provider upgrades "
                                         "such clusters itself" if extended else ""))
        return
    in_extended = f"{ended}; it is in extended support (at extra cost) until {extended.isoformat()}"
    finding = RULE.fail(None, evidence, **facts, eol=standard.isoformat(), days=days, support=in_extended)
    if extended - captured > EXTENDED_ENDING:
        finding = finding.as_info(resolved=f"supported by {provider} until {extended.isoformat()} (extended support)")
    yield finding
