"""A control plane on a Kubernetes minor version past its upstream end of support."""

from __future__ import annotations

from collections.abc import Iterator

from analyzer.cluster import Cluster
from analyzer.findings.types import Evidence, Finding, RuleMeta
from analyzer.findings.versions import cluster_version, end_of_life_dates, minor_text, parse_version

RULE = RuleMeta(
    id="cluster-version-eol", title="Kubernetes version past end of support", severity="warning",
    category="cluster",
    message="The cluster runs Kubernetes {version} ({field}); upstream support for {minor} ended {eol}, {days} days before the capture",
    remediation="Plan an upgrade to a supported minor version (one minor at a time); managed services may extend support, check the provider's calendar.",
)


def check(cluster: Cluster) -> Iterator[Finding]:
    version = cluster_version(cluster)
    capture = cluster.capture_time
    if version is None or capture is None:
        yield RULE.not_applicable("the cluster's version or the capture time is not in the dump")
        return
    minor = minor_text(version.version)
    dates = end_of_life_dates()
    eol, when = dates.get(minor), ""
    if eol is None:
        oldest = min(dates, key=lambda m: dates[m])
        if version.version[:2] >= parse_version(oldest)[:2]:
            return  # newer than the table knows: not known to be out of support
        eol, when = dates[oldest], "before "
    if capture.date() > eol:
        days = (capture.date() - eol).days
        yield RULE.fail(None, Evidence(version.field, version.text,
                                       f"a minor version supported on {capture.date()}", version.source),
                        kind="Cluster", namespace="", name=cluster.name, version=version.text,
                        field=version.field, minor=minor, eol=when + eol.isoformat(),
                        days=f"more than {days}" if when else days)
